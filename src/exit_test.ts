import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Harness, startHarness } from './testing/sandbox_harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const modUrl = new URL('../mod.ts', import.meta.url).href;
const root = fileURLToPath(new URL('..', import.meta.url));

test('a script that used the module exits by itself, promptly', async () => {
  const script = `import { getToken, authedFetch } from ${JSON.stringify(modUrl)};
const token = await getToken();
const echo = await authedFetch('exit-check').json();
console.log(token.length > 0, echo.status);`;
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, ...h.sandbox.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', (exitCode) => {
      clearTimeout(kill);
      resolve(exitCode);
    });
  });
  const seconds = (performance.now() - started) / 1000;
  assert.equal(code, 0, out);
  assert.match(out, /true success/);
  assert.ok(seconds < 10, `took ${seconds} s to exit`);
});
