/**
 * Runs every `*_test.ts` under `src/`, `scripts/` and `contract-tests/` with node's test runner (through tsx),
 * listing the files explicitly: `tsx --test <dir>` finds none on Node 20 and
 * still exits 0. The contract suite's own runs (`contract-tests/suite_*_test.ts`) are
 * `npm run test:contract-self`. Fails when no test ran.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

const files = ['src', 'scripts', 'contract-tests']
  .flatMap((dir) => (readdirSync(dir, { recursive: true }) as string[]).map((file) => join(dir, file)))
  .filter((file) => file.endsWith('_test.ts') && !file.startsWith(join('contract-tests', 'suite_')))
  .sort();
if (files.length === 0) {
  console.error('No *_test.ts files found under src/, scripts/ or contract-tests/');
  process.exit(1);
}
// Two files at once at least: most tests wait on servers, Redis and the browser, and Node 20 runs one file per core
// less than the machine has (one on 2 cores). Three runs on 2 cores: 230 s each, against 360 s one at a time.
const concurrency = `--test-concurrency=${Math.max(2, availableParallelism() - 1)}`;
const run = spawnSync(process.execPath, [
  '--import',
  'tsx',
  '--test',
  '--test-reporter=spec',
  concurrency,
  ...process.argv.slice(2),
  ...files,
], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
});
process.stdout.write(run.stdout);
const passed = Number(/ℹ pass (\d+)/.exec(run.stdout)?.[1] ?? 0);
if (run.status === 0 && passed === 0) {
  console.error('The test runner ran no test');
  process.exit(1);
}
process.exit(run.status ?? 1);
