/**
 * The text of `.env.example`, written from the settings tables: every
 * setting with its doc line, placeholders left empty. `npm run docs:settings`
 * writes it to the repository; `slicer-auth init` to a user's project.
 */
import { type Setting, SETTINGS } from '../settings/settings.ts';
import { TOOL_SETTINGS } from '../settings/tool_settings.ts';

/** What the file shows of a setting. */
type Documented = Pick<Setting, 'env' | 'doc' | 'example'>;

/** @returns the text of `.env.example` */
export function renderEnvExample(): string {
  const head = [
    '# Copy to .env and fill in (`npx slicer-auth init` writes it). Variables already set in the environment win over .env.',
    '# To try everything first on the embedded sandbox: `npx slicer-auth demo`, or `npx slicer-auth sandbox` with the',
    '# lines it prints here (`npx slicer-auth init --sandbox` writes them). Quote a value that holds a "#", as in',
    '# SLICER_PASSWORD="pa#ss": unquoted, the "#" and what follows are a comment. Generated from src/settings/settings.ts.',
  ];
  const lines = (settings: readonly Documented[]) => settings.flatMap((s) => ['', `# ${s.doc}`, `${s.env}=${s.example ?? ''}`]);
  const tools = ['', '', '# The contract suite, the sandbox and the browser (not client options):', ...lines(Object.values(TOOL_SETTINGS))];
  return [...head, ...lines(Object.values(SETTINGS)), ...tools, ''].join('\n');
}
