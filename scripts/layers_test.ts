import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LAYERS, withLayersTable } from './layers.ts';

test("the README's layer table is written from the import check's layers (npm run docs:layers)", () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.equal(readme, withLayersTable(readme));
});

test('every production source is in a layer, and every layer holds a file', () => {
  const files = [
    'mod.ts',
    ...['src', 'contract-tests'].flatMap((dir) =>
      (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !/(_test|\.spec)\.ts$/.test(f)).map((f) =>
        join(dir, f)
      )
    ),
  ];
  for (const file of files) assert.ok(LAYERS.some((layer) => layer.files.test(file)), `${file} is in no layer`);
  for (const layer of LAYERS) assert.ok(files.some((file) => layer.files.test(file)), `layer ${layer.name} holds no file`);
});
