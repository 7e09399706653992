import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL, BACK, HIDE_REVOKED, MORE, NEXT, SHOW_REVOKED } from './list_pages.ts';

// The labels of pagers, of switches that show revoked tokens and of a filter's "All", in common use, each read as one kind only; "»" or ">>"
// alone (often "Last"), page numbers and a lone "Revoked" (a status) as none.
const LABELS: [string, 'next' | 'back' | 'more' | 'show' | 'hide' | 'all' | undefined][] = [
  ['Next', 'next'],
  ['Next ›', 'next'],
  ['next »', 'next'],
  ['Next page', 'next'],
  ['Go to next page', 'next'],
  ['Older tokens', 'next'],
  ['›', 'next'],
  ['→', 'next'],
  ['Next >>', 'next'],
  ['Next ❯', 'next'],
  ['Next ▸', 'next'],
  ['❯', 'next'],
  ['‹ Previous', 'back'],
  ['« Previous', 'back'],
  ['Prev', 'back'],
  ['Go to previous page', 'back'],
  ['Newer', 'back'],
  ['« First', 'back'],
  ['First page', 'back'],
  ['«', 'back'],
  ['‹', 'back'],
  ['<< Previous', 'back'],
  ['❮ Previous', 'back'],
  ['◀ Prev', 'back'],
  ['<<', 'back'],
  ['❮', 'back'],
  ['Load more', 'more'],
  ['Show all tokens', 'more'],
  ['Show more', 'more'],
  ['Load more…', 'more'],
  ['Load more...', 'more'],
  ['Show more ▾', 'more'],
  ['Load more ↓', 'more'],
  ['»', undefined],
  ['>>', undefined],
  ['Next >>>', undefined],
  ['Last', undefined],
  ['2', undefined],
  ['Revoke', undefined],
  ['Next steps for your token', undefined],
  ['First token', undefined],
  ['Load', undefined],
  ['Show revoked tokens', 'show'],
  ['Include revoked', 'show'],
  ['Display revoked tokens too', 'show'],
  ['Hide revoked tokens', 'hide'],
  ['Revoked', undefined],
  ['Showing 3 revoked tokens', undefined],
  ['Show unrevoked', undefined],
  ['All', 'all'],
  ['All tokens', 'all'],
  ['Any status', 'all'],
  ['Allowed', undefined],
];

for (const [label, kind] of LABELS) {
  test(`"${label}" is ${kind ?? 'no pager control'}`, () => {
    const patterns = [['next', NEXT], ['back', BACK], ['more', MORE], ['show', SHOW_REVOKED], ['hide', HIDE_REVOKED], [
      'all',
      ALL,
    ]] as const;
    const kinds = patterns.filter(([, pattern]) => pattern.test(label));
    assert.deepEqual(kinds.map(([name]) => name), kind ? [kind] : []);
  });
}
