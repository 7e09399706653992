/**
 * `slicer-auth contract`: runs the packaged contract suite (API and browser
 * parts, compliance report) with Playwright, from a clone or from an
 * installed package. The target is explicit (`--target`, else
 * `SLICER_CONTRACT_TARGET`, else the sandbox) and a live target is checked
 * before Playwright starts. Every option it does not know goes to Playwright
 * as it is (`--shard`, `--grep`, `--reporter`, `--workers`, `--project`, …).
 * `--merge` merges the blob reports of a sharded run's shards instead.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { liveConfig } from '../../contract-tests/target.ts';
import { packageRoot } from '../package_info.ts';
import type { ReadEnvOptions } from '../settings/env.ts';
import { readToolSettings } from '../settings/tool_settings.ts';
import { EXIT, type Io, UsageError } from './usage.ts';

/** Help text of the command. */
export const CONTRACT_HELP = `Usage: slicer-auth contract [--target sandbox|live] [--slow] [--strict] [--run-id ID] [Playwright options]
       slicer-auth contract --merge [FOLDER]

Checks an authorization service against the documented contract: the token
endpoint, both ways of presenting a token, scopes, validity, and permanent
tokens created and revoked in a real browser. Writes Playwright's HTML report
and the compliance report (JSON, Markdown, HTML) under reports/contract/.

  --target T    sandbox (the embedded one; live URLs in .env are ignored) or
                live (the service in SLICER_AUTH_URL, SLICER_BASE_URL,
                SLICER_PREDICT_BASE_URL; every one, both service ids and the
                credentials must be set). Default: SLICER_CONTRACT_TARGET, else sandbox.
                A live run never falls back to the sandbox.
  --slow        also check the 3600 s clauses in real time on a live target (over an hour)
  --strict      fail on strictness probes too (SLICER_CONTRACT_STRICT=1)
  --run-id ID   the run id its permanent tokens carry (default: start time + random)
  --merge [F]   run nothing: merge the blob reports of the shards of a run (--shard=i/n;
                each leaves one in reports/contract/blob/), collected in folder F
                (default reports/contract/blob), into one HTML report, one JUnit file
                and one compliance report under reports/contract/

Any other option goes to "playwright test": --shard=1/2, --grep, --reporter,
--workers, --project, … Needs @playwright/test and a Chromium:
  npm install -D @playwright/test && npx playwright install chromium
(or Debian's chromium, found on PATH or through SLICER_CHROMIUM_PATH).

Exit code: Playwright's (0 when every contract rule passed), 3 for a configuration error.`;

/** The command's own options, and the Playwright ones it is most often given (for shell completion). */
export const CONTRACT_OPTIONS = ['target', 'slow', 'strict', 'run-id', 'merge', 'shard', 'grep', 'reporter', 'workers', 'project'] as const;
const OWN = new Set(['--target', '--slow', '--strict', '--run-id', '--merge']);

/** Our options, and the rest for Playwright. */
function split(
  args: readonly string[],
): { target?: string; slow: boolean; strict: boolean; runId?: string; merge?: string | true; rest: string[] } {
  const parsed: ReturnType<typeof split> = { slow: false, strict: false, rest: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    if (!OWN.has(flag as string)) {
      parsed.rest.push(arg);
      continue;
    }
    if (flag === '--slow') parsed.slow = true;
    else if (flag === '--strict') parsed.strict = true;
    else if (flag === '--merge') {
      // The folder is optional: the next argument is it unless it is an option.
      const next = args[i + 1];
      if (inline !== undefined) parsed.merge = inline;
      else if (next === undefined || next.startsWith('-')) parsed.merge = true;
      else parsed.merge = args[++i] as string;
    } else {
      const value = inline ?? args[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      if (flag === '--target') parsed.target = value;
      else parsed.runId = value;
    }
  }
  return parsed;
}

/**
 * Where one of the suite's Playwright configs is: the TypeScript sources in a
 * clone (never a stale build beside them), the built JavaScript in an
 * installed package (which ships no sources).
 *
 * @param name `playwright` (the run) or `merge` (the merge of shards)
 * @returns the config's path
 */
function suiteConfig(name: 'playwright' | 'merge'): string {
  const sources = join(packageRoot(), 'contract-tests', `${name}.config.ts`);
  return existsSync(sources) ? sources : join(packageRoot(), 'dist', 'contract-tests', `${name}.config.js`);
}

/**
 * The folder of blob reports to merge, checked before Playwright starts: it must hold at least one.
 *
 * @param merge `--merge`'s folder, or true for the default one
 * @param sources the run's variables and env file (`SLICER_CONTRACT_REPORTS` moves the default)
 * @returns the folder
 * @throws {UsageError} when it holds no blob report
 */
function blobFolder(merge: string | true, sources: ReadEnvOptions): string {
  const folder = merge === true ? join(readToolSettings(sources).contractReports, 'blob') : merge;
  let blobs: string[] = [];
  try {
    blobs = readdirSync(folder).filter((file) => file.endsWith('.zip'));
  } catch {
    // a folder that is missing or unreadable holds no blob either
  }
  if (blobs.length === 0) {
    throw new UsageError(
      `--merge: "${folder}" holds no blob report (a .zip): collect the files of every shard's reports/contract/blob/ in one folder and name it`,
    );
  }
  return folder;
}

/** Playwright's CLI as the suite will import it (from the package's own location), or undefined. */
function playwrightCli(): string | undefined {
  try {
    return join(dirname(createRequire(join(packageRoot(), 'package.json')).resolve('@playwright/test/package.json')), 'cli.js');
  } catch {
    return undefined;
  }
}

/**
 * Runs the suite.
 *
 * @param args the arguments after `contract`
 * @param io output streams
 * @returns Playwright's exit code
 * @throws {ConfigError} `CONFIG_INVALID` for a live target with missing settings
 */
export async function contractCommand(args: string[], io: Io): Promise<number> {
  const options = split(args);
  if (options.merge !== undefined && (options.target || options.slow || options.strict || options.runId || options.rest.length > 0)) {
    throw new UsageError('--merge runs nothing, so it takes no other option: merge the shards after they have run');
  }
  if (options.target !== undefined && options.target !== 'sandbox' && options.target !== 'live') {
    throw new UsageError(`--target takes sandbox or live, got "${options.target}"`);
  }
  const env: Record<string, string | undefined> = {
    ...(io.env ?? process.env),
    ...(options.target ? { SLICER_CONTRACT_TARGET: options.target } : {}),
    ...(options.slow ? { SLICER_CONTRACT_SLOW: '1' } : {}),
    ...(options.strict ? { SLICER_CONTRACT_STRICT: '1' } : {}),
    ...(options.runId ? { SLICER_CONTRACT_RUN_ID: options.runId } : {}),
  };
  const sources = { env, envFile: env.SLICER_ENV_FILE?.trim() || undefined };
  const blobs = options.merge === undefined ? undefined : blobFolder(options.merge, sources);
  if (blobs === undefined) {
    // Checked here, with the run's own variables, so a bad run id or a live target's missing settings stop it before Playwright.
    env.SLICER_CONTRACT_TARGET = readToolSettings(sources).contractTarget; // the suite runs the target named here, .env's included
    if (env.SLICER_CONTRACT_TARGET === 'live') liveConfig(sources);
  }
  const cli = playwrightCli();
  if (!cli) {
    io.err(
      'The contract suite runs on Playwright, which is not installed here: run "npm install -D @playwright/test", ' +
        'then "npx playwright install chromium" (or install Debian\'s chromium)',
    );
    return EXIT.FAILED;
  }
  let command: string[];
  if (blobs === undefined) {
    const { chromiumPath } = await import('../auth_ui/browser.ts');
    chromiumPath(env); // throws, naming what to install, when no Chromium is found
    command = ['test', '-c', suiteConfig('playwright'), ...options.rest];
  } else command = ['merge-reports', '-c', suiteConfig('merge'), blobs];
  const child = spawn(process.execPath, [cli, ...command], { env, stdio: 'inherit' });
  const stop = () => child.kill('SIGINT');
  process.once('SIGINT', stop);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  process.off('SIGINT', stop);
  return code ?? EXIT.FAILED;
}
