/**
 * Two house rules over the production sources (tests and `src/testing/` left
 * out): time is read only through the clock module (`src/clock.ts`), so that
 * every wait and stamp can run on an injected clock; and no file is over 300
 * lines, each holding one concept.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './testing/processes.ts';

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

test('every test file that shares one sandbox across its tests resets it before each test', () => {
  const tests = ['src', 'scripts', 'contract-tests'].flatMap((dir) =>
    (readdirSync(join(ROOT, dir), { recursive: true }) as string[]).filter((f) => f.endsWith('_test.ts')).map((f) => join(dir, f))
  );
  const shared = tests.filter((file) =>
    /\bbefore\(async \(\) => \{[^}]*start(Harness|Sandbox)\(/.test(readFileSync(join(ROOT, file), 'utf8'))
  );
  assert.ok(shared.length >= 10, `${shared.length} files share a sandbox`);
  const unreset = shared.filter((file) => !/beforeEach\([\s\S]{0,200}store\.reset\(\)/.test(readFileSync(join(ROOT, file), 'utf8')));
  assert.deepEqual(unreset, []);
});
