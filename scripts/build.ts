/**
 * `npm run build` (run by `npm pack`): `dist/` for npm consumers — one ESM
 * bundle per entry point of the module, the sandbox and the CLI, and the
 * contract suite built to JavaScript (`dist/contract-tests/`, so that
 * `slicer-auth contract` runs it from an installed package). Dependencies
 * stay external, so `instanceof HTTPError` holds with the user's ky and the
 * specs share the user's @playwright/test. `tsc` writes the declarations.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { build } from 'esbuild';

rmSync('dist', { recursive: true, force: true });
const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

const common = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  outbase: '.',
  logLevel: 'warning',
} as const;

await build({ ...common, entryPoints: ['mod.ts', 'src/sandbox/mod.ts', 'src/cli.ts'], outdir: 'dist', chunkNames: 'chunks/[name]-[hash]' });

/** The suite's files Playwright loads: configs, global setup, reporter, specs and setup files. */
const suite = (readdirSync('contract-tests', { recursive: true }) as string[])
  .filter((file) =>
    /\.(spec|setup)\.ts$/.test(file) || /^(playwright|merge)\.config\.ts$|^global_setup\.ts$|^compliance_reporter\.ts$/.test(file)
  )
  .map((file) => join('contract-tests', file));
await build({ ...common, entryPoints: suite, outdir: 'dist', chunkNames: 'contract-tests/chunks/[name]-[hash]' });
