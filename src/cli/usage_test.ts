/**
 * The CLI's readers of flag values, value by value: what each accepts and what
 * it refuses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { numberFlag } from './usage.ts';

test('numberFlag: decimal digits, with a fraction only where allowed; anything else is NaN', () => {
  const rows: [string, boolean, number][] = [
    ['8787', false, 8787],
    ['0', false, 0],
    ['007', false, 7],
    ['12', true, 12],
    ['1.5', true, 1.5],
    ['10.25', true, 10.25],
    ['1.5', false, Number.NaN],
    ['1.', true, Number.NaN],
    ['.5', true, Number.NaN],
    ['1.x', true, Number.NaN],
    ['', false, Number.NaN],
    ['', true, Number.NaN],
    [' 8787', false, Number.NaN],
    ['8787 ', false, Number.NaN],
    ['-1', true, Number.NaN],
    ['+1', false, Number.NaN],
    ['0x50', false, Number.NaN],
    ['8e3', true, Number.NaN],
    ['Infinity', true, Number.NaN],
  ];
  for (const [value, fraction, expected] of rows) {
    assert.equal(numberFlag(value, fraction), expected, `${JSON.stringify(value)}, fraction ${fraction}`);
  }
  assert.equal(numberFlag('1.5'), Number.NaN, 'no fraction unless asked');
});
