/**
 * `.env.example`, written from the settings table: `npm run env-example`
 * rewrites the file; `src/settings_test.ts` checks that it is current.
 */
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { SETTINGS } from '../src/settings.ts';

/** @returns the text of `.env.example` */
export function renderEnvExample(): string {
  const head = [
    '# Copy to .env and fill in. Variables already set in the environment win over .env.',
    '# With SLICER_AUTH_URL unset, `npm start` and the contract suite use the embedded sandbox.',
    '# Generated from src/settings.ts by `npm run env-example`.',
  ];
  const body = Object.values(SETTINGS).flatMap((s) => ['', `# ${s.doc}`, `${s.env}=${'example' in s ? s.example : ''}`]);
  return [...head, ...body, ''].join('\n');
}

if (process.argv[1]?.endsWith('env_example.ts')) writeFileSync('.env.example', renderEnvExample());
