/**
 * House rules. Over the production sources (tests and `src/testing/` left
 * out): time is read only through the clock module (`src/clock.ts`), so that
 * every wait and stamp can run on an injected clock; and no file is over 300
 * lines, each holding one concept. Over the tests: a sandbox shared by a
 * file's tests is reset before each, and temporary folders come only from
 * `scratchDir`, which removes them when the test process exits.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, runTs } from './testing/processes.ts';

const production = (dir: string) =>
  (readdirSync(join(ROOT, dir), { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('_test.ts') && !file.startsWith('testing/'))
    .map((file) => join(dir, file));

/** A read of the clock or a timer, outside comments. */
const CLOCK = /\b(Date\.now\(|new Date\(\)|performance\.now\(|setTimeout\(|setInterval\()/;

test('no wall clock, monotonic clock or timer outside src/clock.ts', () => {
  const found: string[] = [];
  for (const file of production('src').filter((f) => f !== join('src', 'clock.ts'))) {
    readFileSync(join(ROOT, file), 'utf8').split('\n').forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      if (!/^\s*\*/.test(line) && CLOCK.test(code)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});

test('no production file over 300 lines', () => {
  const long = [...production('src'), ...production('contract-tests'), 'mod.ts']
    .map((file) => [file, readFileSync(join(ROOT, file), 'utf8').split('\n').length] as const)
    .filter(([, lines]) => lines > 301); // 300 lines and the final newline
  assert.deepEqual(long, []);
});

const tests = ['src', 'scripts', 'contract-tests'].flatMap((dir) =>
  (readdirSync(join(ROOT, dir), { recursive: true }) as string[]).filter((f) => f.endsWith('_test.ts')).map((f) => join(dir, f))
);

test('every test file that shares one sandbox across its tests resets it before each test', () => {
  // Started in a `before` hook, or at the top of the file.
  const shared = tests.filter((file) =>
    /\bbefore\(async \(\) => \{[^}]*start(Harness|Sandbox)\(|^const [^\n]*= await start(Harness|Sandbox)\(/m.test(
      readFileSync(join(ROOT, file), 'utf8'),
    )
  );
  assert.ok(shared.length >= 10, `${shared.length} files share a sandbox`);
  const unreset = shared.filter((file) => !/beforeEach\([\s\S]{0,200}store\.reset\(\)/.test(readFileSync(join(ROOT, file), 'utf8')));
  assert.deepEqual(unreset, []);
});

test('tests make temporary folders only with scratchDir, which removes them, files inside, when the process exits', async () => {
  const direct = tests.filter((file) => /\bmkdtemp(Sync)?\(/.test(readFileSync(join(ROOT, file), 'utf8')));
  assert.deepEqual(direct, []);
  const script = "import { writeFileSync } from 'node:fs';" +
    "import { scratchDir } from './src/testing/scratch.ts';" +
    "const dirs = [scratchDir('scratch-a-'), scratchDir('scratch-b-')];" +
    "for (const dir of dirs) writeFileSync(dir + '/.env', 'SLICER_PASSWORD=x');" +
    'console.log(JSON.stringify(dirs));';
  const run = await runTs(['--input-type=module', '--eval', script], { PATH: process.env.PATH });
  assert.equal(run.code, 0, run.err);
  const dirs = JSON.parse(run.out) as string[];
  assert.equal(dirs.length, 2);
  assert.deepEqual(dirs.filter((dir) => existsSync(dir)), []);
});
