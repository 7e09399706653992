import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACK, MORE, NEXT } from './list_pages.ts';

// The labels of pagers in common use, each read as one kind only; "»" alone (often "Last") and page numbers as none.
const LABELS: [string, 'next' | 'back' | 'more' | undefined][] = [
  ['Next', 'next'],
  ['Next ›', 'next'],
  ['next »', 'next'],
  ['Next page', 'next'],
  ['Go to next page', 'next'],
  ['Older tokens', 'next'],
  ['›', 'next'],
  ['→', 'next'],
  ['‹ Previous', 'back'],
  ['« Previous', 'back'],
  ['Prev', 'back'],
  ['Go to previous page', 'back'],
  ['Newer', 'back'],
  ['« First', 'back'],
  ['First page', 'back'],
  ['«', 'back'],
  ['‹', 'back'],
  ['Load more', 'more'],
  ['Show all tokens', 'more'],
  ['Show more', 'more'],
  ['»', undefined],
  ['Last', undefined],
  ['2', undefined],
  ['Revoke', undefined],
  ['Next steps for your token', undefined],
  ['First token', undefined],
  ['Load', undefined],
];

for (const [label, kind] of LABELS) {
  test(`"${label}" is ${kind ?? 'no pager control'}`, () => {
    const kinds = ([['next', NEXT], ['back', BACK], ['more', MORE]] as const).filter(([, pattern]) => pattern.test(label));
    assert.deepEqual(kinds.map(([name]) => name), kind ? [kind] : []);
  });
}
