import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { BOUNDARIES } from '../contract-tests/boundaries.ts';
import { withBoundaries } from './boundaries_docs.ts';

test("docs/contract.md lists the suite's boundary rows as contract-tests/boundaries.ts has them (npm run docs:boundaries)", () => {
  const doc = readFileSync('docs/contract.md', 'utf8');
  assert.equal(doc, withBoundaries(doc));
});

test('every boundary row checks a clause that is a heading of docs/contract.md', () => {
  const headings = new Set([...readFileSync('docs/contract.md', 'utf8').matchAll(/^### (.+)$/gm)].map((m) => m[1]));
  for (const row of BOUNDARIES) assert.ok(headings.has(row.clause), `"${row.clause}" is not a heading`);
});
