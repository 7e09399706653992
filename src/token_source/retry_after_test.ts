/** Reading `Retry-After`: seconds or an HTTP date, against an injected wall clock. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryAfterMs } from './retry_after.ts';

/** Tue, 14 Nov 2023 22:13:20 GMT. */
const NOW = 1_700_000_000_000;

test('the wait a Retry-After value asks for, in ms', () => {
  const rows: [string | null | undefined, number | undefined][] = [
    ['120', 120_000],
    [' 7 ', 7_000],
    ['0', 0],
    ['0.2', 200],
    ['Tue, 14 Nov 2023 22:13:50 GMT', 30_000],
    ['Tue, 14 Nov 2023 22:13:00 GMT', 0],
    ['-5', undefined],
    ['soon', undefined],
    ['Infinity', undefined],
    ['', undefined],
    ['  ', undefined],
    [null, undefined],
    [undefined, undefined],
  ];
  for (const [value, expected] of rows) assert.equal(retryAfterMs(value, NOW), expected, `Retry-After ${JSON.stringify(value)}`);
});
