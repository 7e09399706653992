/**
 * `slicer-auth contract --merge` (`npm run contract:merge`): the blob reports of every shard
 * (`npm run contract -- --shard=i/n`, collected in `<reports>/blob`) merged
 * into one HTML report, one JUnit file and one compliance summary, every
 * file of them readable by its owner only, as a run's own reports are.
 */
import { join, resolve } from 'node:path';
import process from 'node:process';
import { defineConfig } from '@playwright/test';
import { REPORTS } from './paths.ts';

process.umask(0o077);

export default defineConfig({
  testDir: '.',
  reporter: [
    ['list'],
    ['html', { outputFolder: join(resolve(REPORTS), 'html'), open: 'never' }],
    ['junit', { outputFile: join(resolve(REPORTS), 'junit.xml') }],
    [`./compliance_reporter.${import.meta.url.endsWith('.js') ? 'js' : 'ts'}`, { merged: true }],
  ],
});
