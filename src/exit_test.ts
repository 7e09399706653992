import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runTs } from './testing/processes.ts';
import { harnessForFile } from './testing/sandbox_harness.ts';

const h = harnessForFile();

const modUrl = new URL('../mod.ts', import.meta.url).href;

test('a script that used the module exits by itself, promptly', async () => {
  const script = `import { getToken, authedFetch } from ${JSON.stringify(modUrl)};
const token = await getToken();
const echo = await authedFetch('exit-check').json();
console.log(token.length > 0, echo.status);`;
  const run = await runTs(['--input-type=module', '-e', script], { ...process.env, ...h.sandbox.env }, 15_000);
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /true success/);
  assert.ok(run.seconds < 10, `took ${run.seconds} s to exit`);
});
