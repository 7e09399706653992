/**
 * SECURITY.md promises only what tests check: every row of its table names a
 * test (`file › name`) that exists in that file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './testing/processes.ts';

test('every promise in SECURITY.md names a test that exists', () => {
  const doc = readFileSync(join(ROOT, 'SECURITY.md'), 'utf8');
  const rows = doc.split('\n').filter((line) => /^\| .* \| `(src|contract-tests)\//.test(line));
  assert.ok(rows.length >= 20, `the table has ${rows.length} rows`);
  for (const row of rows) {
    const [, file, name] = /\| `((?:src|contract-tests)\/[\w/.-]+_test\.ts) › (.+)` \|$/.exec(row) ?? [];
    assert.ok(file && name, `a row without "file › test name": ${row}`);
    const source = readFileSync(join(ROOT, file), 'utf8');
    const quoted = [`'${name}'`, `"${name}"`, `\`${name}\``];
    assert.ok(quoted.some((q) => source.includes(q)), `${file} has no test named: ${name}`);
  }
});
