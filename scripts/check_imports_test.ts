import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../src/testing/scratch.ts';

const SCRIPT = resolve('scripts/check_imports.ts');
/** tsx as this repository resolves it: the temporary folder has no node_modules. */
const TSX = import.meta.resolve('tsx');

/** Runs the check on a tree of the given files, in a temporary folder. */
function check(files: Record<string, string>) {
  const root = scratchDir('imports-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const run = spawnSync(process.execPath, ['--import', TSX, SCRIPT, 'src'], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

test('the import check passes a tree that imports downward only', () => {
  const { status, output } = check({
    'src/fetch.ts': 'export type FetchLike = () => void;\n',
    'src/client.ts': "import type { FetchLike } from './fetch.ts';\nexport const f: FetchLike | undefined = undefined;\n",
  });
  assert.equal(status, 0, output);
  assert.match(output, /imports: 2 files, 1 arrows, 0 problems/);
});

test('the import check fails on a circle made of a type import and on the upward arrow in it', () => {
  const { status, output } = check({
    'src/grant.ts': "import type { C } from './client.ts';\nexport type G = C;\n",
    'src/client.ts': "import type { G } from './grant.ts';\nexport type C = G | 1;\n",
  });
  assert.equal(status, 1);
  assert.match(output, /import circle: src\/(grant|client)\.ts ↔ src\/(client|grant)\.ts/);
  assert.match(output, /upward arrow: src\/grant\.ts \(leaves\) imports src\/client\.ts \(client\)/);
});

test('the import check fails when the sandbox reaches into the client, even downward', () => {
  const { status, output } = check({
    'src/sandbox/app.ts': "export { createAuthClient } from '../client.ts';\n",
    'src/client.ts': 'export const createAuthClient = 1;\n',
  });
  assert.equal(status, 1);
  assert.match(output, /the sandbox never uses the client: src\/sandbox\/app\.ts imports src\/client\.ts/);
});

test('the import check counts dynamic imports and names a file outside every layer', () => {
  const { status, output } = check({
    'src/errors.ts': "export const load = () => import('./token_cache/token_cache.ts');\n",
    'src/token_cache/token_cache.ts': 'export {};\n',
    'src/stray/thing.ts': 'export {};\n',
  });
  assert.equal(status, 1);
  assert.match(output, /upward arrow: src\/errors\.ts \(leaves\) imports src\/token_cache\/token_cache\.ts \(token cache\)/);
  assert.match(output, /src\/stray\/thing\.ts is in no layer/);
});
