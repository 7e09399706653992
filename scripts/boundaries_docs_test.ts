import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { BOUNDARIES } from '../contract-tests/boundaries.ts';
import { generatedNames } from '../contract-tests/boundaries_ui.ts';
import { withBoundaries } from './boundaries_docs.ts';

test("docs/contract.md lists the suite's boundary rows as contract-tests/boundaries.ts has them (npm run docs:boundaries)", () => {
  const doc = readFileSync('docs/contract.md', 'utf8');
  assert.equal(doc, withBoundaries(doc));
});

test('every boundary row checks a clause that is a heading of docs/contract.md', () => {
  const headings = new Set([...readFileSync('docs/contract.md', 'utf8').matchAll(/^### (.+)$/gm)].map((m) => m[1]));
  for (const row of BOUNDARIES) assert.ok(headings.has(row.clause), `"${row.clause}" is not a heading`);
});

test('generated names are the same for the same seed, and of every kind the rows promise', () => {
  assert.deepEqual(generatedNames(42, 5), generatedNames(42, 5), 'a seed replays its names');
  assert.notDeepEqual(generatedNames(42, 5), generatedNames(43, 5));
  const many = generatedNames(7, 200).join(' ');
  for (const kind of [/[^ -~]/, /\p{Extended_Pictographic}/u, /[<>&"']/, / /]) assert.match(many, kind);
  for (const name of generatedNames(9, 50)) assert.match(name, /^\S+( \S+){1,3}$/, 'two to four words, single spaces, no edge space');
});

test('every generated name holds a non-ASCII word and one with HTML-special characters or quotes, whatever the seed', () => {
  const names = Array.from({ length: 500 }, (_, seed) => generatedNames(seed, 2)).flat();
  for (const name of names) {
    assert.match(name, /[^ -~]/, `"${name}" holds non-ASCII text`);
    assert.match(name, /[<>&"']/, `"${name}" holds an HTML-special character or a quote`);
  }
  const firsts = new Set(names.map((name) => /^[ -~]/.test(name)));
  assert.deepEqual(firsts, new Set([true, false]), 'either kind may come first');
});
