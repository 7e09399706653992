/** `closest`: the "did you mean" of commands, CLI options and client options, at its edges. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closest } from './closest.ts';

const NAMES = ['token', 'call', 'sandbox', 'doctor'];

test('a name within two edits, the nearest first; none further away', () => {
  assert.equal(closest('tokne', NAMES), 'token', 'two letters swapped: two edits');
  assert.equal(closest('sandboxes', NAMES), 'sandbox', 'two letters more');
  assert.equal(closest('tokenxyz', NAMES), undefined, 'three letters more, the last of them counted too');
  assert.equal(closest('tokn', ['taken', 'token']), 'token', 'one edit before two, whatever the order given');
  assert.equal(closest('xyz', NAMES), undefined);
});

test('a beginning of two letters or more names the name it begins; a single letter does not', () => {
  assert.equal(closest('do', NAMES), 'doctor', 'four letters short, but its beginning');
  assert.equal(closest('s', NAMES), undefined, 'one letter begins a name, but says too little');
});
