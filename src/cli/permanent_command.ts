/**
 * `slicer-auth permanent create|list|revoke`: there is no API for permanent
 * tokens (contract 5.3), so these drive the authorization service's web UI in
 * a headless browser, through the page objects the contract suite uses.
 * Playwright is loaded only when this command runs.
 */
import { parseArgs } from 'node:util';
import { checkRunId, cleanupRevokes, DEFAULT_MAX_AGE_MS, RUN_TOKEN_NAME } from '../auth_ui/run_tokens.ts';
import { systemClock } from '../clock.ts';
import { parseConfig, requireSettings } from '../settings/config.ts';
import { readEnv } from '../settings/env.ts';
import { serviceIdOf } from '../settings/services.ts';
import { readToolSettings } from '../settings/tool_settings.ts';
import { EXIT, type Io, UsageError } from './usage.ts';

/** Help text of the command. */
export const PERMANENT_HELP = `Usage:
  slicer-auth permanent create --name NAME --scope SCOPE [--scope SCOPE ...] [--allow-duplicate]
  slicer-auth permanent list [--json]
  slicer-auth permanent revoke (--name NAME | --prefix PREFIX | --run ID [--max-age DURATION])

Creates, lists or revokes permanent tokens by driving the authorization service's
web UI (SLICER_AUTH_URL) in a headless Chromium, step by step as contract 5.3
describes. Progress goes to standard error; "create" prints the new token's value
once on standard output: store it, it is not shown again.

  --scope S     slicer, predict, or a service identifier (repeatable)
  --name N      the token's name (revoke: every active token with exactly this name);
                create refuses a name an active token already has, unless --allow-duplicate
  --prefix P    revoke every active token whose name starts with P
  --run ID      revoke the tokens of contract run ID (their names carry it), and those
                of other runs older than --max-age; never a concurrent run's or a
                token no run made
  --max-age D   how old another run's tokens must be to be swept: 24h (default), 90m, 2d
  --json        list as JSON: [{ "name": …, "revoked": true|false }]

Logs in with SLICER_USERNAME / SLICER_PASSWORD when asked, or uses the Playwright
storage state in SLICER_UI_STORAGE_STATE (single sign-on).`;

/** The command's actions and options (for parseArgs and shell completion). */
export const PERMANENT_ACTIONS = ['create', 'list', 'revoke'] as const;
export const PERMANENT_OPTIONS = {
  name: { type: 'string' },
  scope: { type: 'string', multiple: true },
  prefix: { type: 'string' },
  run: { type: 'string' },
  'max-age': { type: 'string' },
  json: { type: 'boolean' },
  'allow-duplicate': { type: 'boolean' },
} as const;

/**
 * Runs `permanent <action>`.
 *
 * @param args the arguments after `permanent`
 * @param io output streams
 * @returns the exit code
 */
export async function permanentCommand(args: string[], io: Io): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'create' && action !== 'list' && action !== 'revoke') throw new UsageError('Choose create, list or revoke');
  const { values } = parseArgs({ args: rest, options: PERMANENT_OPTIONS, strict: true });
  const allowed: string[] = { create: ['name', 'scope', 'allow-duplicate'], list: ['json'], revoke: ['name', 'prefix', 'run', 'max-age'] }[
    action
  ];
  const extra = Object.keys(values).filter((key) => !allowed.includes(key));
  if (extra.length > 0) throw new UsageError(`"permanent ${action}" takes no --${extra.join(', --')}`);
  if (action === 'create' && (!values.name || !values.scope?.length)) throw new UsageError('create needs --name and at least one --scope');
  if (action === 'revoke' && [values.name, values.prefix, values.run].filter(Boolean).length !== 1) {
    throw new UsageError('revoke needs exactly one of --name, --prefix or --run');
  }
  if (values['max-age'] !== undefined && !values.run) throw new UsageError('--max-age goes with --run');
  const maxAgeMs = values['max-age'] === undefined ? DEFAULT_MAX_AGE_MS : parseDuration(values['max-age']);
  if (values.run !== undefined) {
    try {
      checkRunId(values.run);
    } catch (error) {
      throw new UsageError(`--run: ${(error as Error).message}`);
    }
  }

  const needs = { scope: null, authUrl: true } as const;
  const config = parseConfig(readEnv({ env: io.env }), {}, needs);
  requireSettings(config, needs, `run "permanent ${action}"`);
  const authUrl = config.authUrl as string; // requireSettings checked it
  const scopes = (values.scope ?? []).map((scope) => {
    const id = serviceIdOf(config, scope) ?? scope;
    if (scope === 'slicer' || scope === 'predict') requireSettings(config, { scope }, `use --scope ${scope}`);
    return id;
  });
  const storageState = readToolSettings({ env: io.env }).uiStorageState; // checked readable: no browser starts otherwise
  const login = config.username && config.password ? { username: config.username, password: config.password.reveal() } : undefined;

  const [{ chromium }, { chromiumLaunchOptions }, { TokensPage }] = await Promise.all([
    import('@playwright/test').catch(() => {
      throw new Error(
        '"permanent" drives the web UI in a browser through Playwright, which is not installed: ' +
          'run "npm install @playwright/test", then provide a Chromium ("npx playwright install chromium", ' +
          'Debian: "apt-get install -y chromium", or SLICER_CHROMIUM_PATH)',
      );
    }),
    import('../auth_ui/browser.ts'),
    import('../auth_ui/tokens_page.ts'),
  ]);
  const progress = (step: string) => io.err(`→ ${step}`);
  progress('Starting a headless Chromium');
  const browser = await chromium.launch(chromiumLaunchOptions(io.env, authUrl));
  try {
    const context = await browser.newContext({
      ...(storageState ? { storageState } : {}),
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const tokens = new TokensPage(await context.newPage(), authUrl, login);
    await tokens.open(progress);

    if (action === 'create') {
      const name = values.name as string;
      if (!values['allow-duplicate'] && (await tokens.countAll(tokens.active(name))) > 0) {
        io.err(`An active permanent token is already named "${name}": choose another --name, revoke it first, or pass --allow-duplicate.`);
        return EXIT.FAILED;
      }
      let value: string;
      try {
        value = await tokens.create(name, scopes, progress);
      } catch (error) {
        if (!tokens.createClicked) throw error;
        throw new Error(
          `${(error as Error).message}\nThe token "${name}" may have been created without its value being shown: ` +
            `revoke it with: slicer-auth permanent revoke --name "${name}"`,
        );
      }
      progress(`Created "${name}" for ${scopes.join(', ')}. Its value follows, shown this once:`);
      io.out(value);
      return EXIT.OK;
    }
    if (action === 'list') {
      const listed = await tokens.list();
      if (values.json) io.out(JSON.stringify(listed.map(({ name, revoked }) => ({ name, revoked }))));
      else if (listed.length === 0) io.out('No permanent tokens.');
      else for (const token of listed) io.out(`${token.revoked ? 'revoked' : 'active '}  ${token.name}`);
      return EXIT.OK;
    }
    if (values.run !== undefined) {
      // A run's names are read by their text, in any markup (their form is the run's); those shown revoked are passed over.
      const now = new Date(systemClock.wallNow());
      const names = (await tokens.namesLike(RUN_TOKEN_NAME)).filter((name) => cleanupRevokes(name, values.run as string, now, maxAgeMs));
      const runs = `run "${values.run}", or of a run older than ${values['max-age'] ?? '24h'}`;
      progress(`Revoking every active token of ${runs} (Revoke, then OK)`);
      const count = await tokens.revokeEvery(names, (name) => io.out(`revoked  ${name}`));
      if (count === 0) io.err(`No active token of ${runs}: nothing to revoke.`);
      return EXIT.OK;
    }
    // A name is found as shown, in any markup; a prefix needs the whole list, each name read from its column.
    const matches = values.name !== undefined
      ? Array.from({ length: await tokens.countAll(tokens.active(values.name as string)) }, () => values.name as string)
      : (await tokens.list()).filter((t) => !t.revoked && t.name.startsWith(values.prefix as string)).map((t) => t.name);
    if (matches.length === 0) {
      io.err(
        values.name !== undefined
          ? `No active token is named "${values.name}".`
          : `No active token name starts with "${values.prefix}": nothing to revoke.`,
      );
      return values.name !== undefined ? EXIT.FAILED : EXIT.OK;
    }
    progress(`Revoking ${matches.length === 1 ? `"${matches[0]}"` : `${matches.length} tokens`} (Revoke, then OK)`);
    await tokens.revokeEvery(matches, (name) => io.out(`revoked  ${name}`));
    return EXIT.OK;
  } finally {
    await browser.close();
  }
}

const UNITS: Record<string, number> = { m: 60_000, h: 3600_000, d: 86_400_000 };

/**
 * Reads a duration such as `24h`, `90m` or `2d`.
 *
 * @param text the argument
 * @returns milliseconds
 * @throws {UsageError} naming the argument and the expected form
 */
function parseDuration(text: string): number {
  const match = /^(\d+)([mhd])$/.exec(text.trim());
  if (!match) throw new UsageError(`--max-age takes a number and a unit (m, h or d), such as 24h; got "${text}"`);
  return Number(match[1]) * (UNITS[match[2] as string] as number);
}
