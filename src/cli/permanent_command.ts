/**
 * `slicer-auth permanent create|list|revoke`: there is no API for permanent
 * tokens (contract 5.3), so these drive the authorization service's web UI in
 * a headless browser, through the page objects the contract suite uses.
 * Playwright is loaded only when this command runs.
 */
import { parseArgs } from 'node:util';
import { readEnv, readSetting } from '../env.ts';
import { ConfigError } from '../errors.ts';
import { EXIT, type Io, UsageError } from './usage.ts';

/** Help text of the command. */
export const PERMANENT_HELP = `Usage:
  slicer-auth permanent create --name NAME --scope SCOPE [--scope SCOPE ...]
  slicer-auth permanent list
  slicer-auth permanent revoke (--name NAME | --prefix PREFIX)

Creates, lists or revokes permanent tokens by driving the authorization service's
web UI (SLICER_AUTH_URL) in a headless Chromium, step by step as contract 5.3
describes. Progress goes to standard error; "create" prints the new token's value
once on standard output: store it, it is not shown again.

  --scope S     slicer, predict, or a service identifier (repeatable)
  --name N      the token's name (revoke: every active token with exactly this name)
  --prefix P    revoke every active token whose name starts with P

Logs in with SLICER_USERNAME / SLICER_PASSWORD when asked, or uses the Playwright
storage state in SLICER_UI_STORAGE_STATE (single sign-on).`;

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
  const { values } = parseArgs({
    args: rest,
    options: { name: { type: 'string' }, scope: { type: 'string', multiple: true }, prefix: { type: 'string' } },
    strict: true,
  });
  const allowed: string[] = { create: ['name', 'scope'], list: [], revoke: ['name', 'prefix'] }[action];
  const extra = Object.keys(values).filter((key) => !allowed.includes(key));
  if (extra.length > 0) throw new UsageError(`"permanent ${action}" takes no --${extra.join(', --')}`);
  if (action === 'create' && (!values.name || !values.scope?.length)) throw new UsageError('create needs --name and at least one --scope');
  if (action === 'revoke' && Boolean(values.name) === Boolean(values.prefix)) {
    throw new UsageError('revoke needs exactly one of --name or --prefix');
  }

  const env = readEnv();
  if (!env.SLICER_AUTH_URL) {
    throw new ConfigError(
      [{ key: 'SLICER_AUTH_URL', message: 'missing: set it to the authorization service URL' }],
      `run "permanent ${action}"`,
    );
  }
  const scopes = (values.scope ?? []).map((scope) => {
    const id = scope === 'slicer' ? env.SLICER_SERVICE_ID : scope === 'predict' ? env.SLICER_PREDICT_SERVICE_ID : scope;
    if (!id) {
      throw new ConfigError([{
        key: scope === 'slicer' ? 'SLICER_SERVICE_ID' : 'SLICER_PREDICT_SERVICE_ID',
        message: `missing: needed for --scope ${scope}`,
      }]);
    }
    return id;
  });
  const storageState = readSetting('SLICER_UI_STORAGE_STATE');
  const login = env.SLICER_USERNAME && env.SLICER_PASSWORD ? { username: env.SLICER_USERNAME, password: env.SLICER_PASSWORD } : undefined;

  const [{ chromium }, { chromiumLaunchOptions }, { TokensPage }] = await Promise.all([
    import('@playwright/test'),
    import('../auth_ui/browser.ts'),
    import('../auth_ui/tokens_page.ts'),
  ]);
  const progress = (step: string) => io.err(`→ ${step}`);
  progress('Starting a headless Chromium');
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const context = await browser.newContext({
      ...(storageState ? { storageState } : {}),
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const tokens = new TokensPage(await context.newPage(), env.SLICER_AUTH_URL.replace(/\/+$/, ''), login);
    await tokens.open(progress);

    if (action === 'create') {
      const value = await tokens.create(values.name as string, scopes, progress);
      progress(`Created "${values.name}" for ${scopes.join(', ')}. Its value follows, shown this once:`);
      io.out(value);
      return EXIT.OK;
    }
    const listed = await tokens.list();
    if (action === 'list') {
      if (listed.length === 0) io.out('No permanent tokens.');
      for (const token of listed) io.out(`${token.revoked ? 'revoked' : 'active '}  ${token.name}`);
      return EXIT.OK;
    }
    const matches = listed.filter((t) => !t.revoked && (values.name ? t.name === values.name : t.name.startsWith(values.prefix as string)));
    if (matches.length === 0) {
      io.err(
        values.name
          ? `No active token is named "${values.name}".`
          : `No active token name starts with "${values.prefix}": nothing to revoke.`,
      );
      return values.name ? EXIT.FAILED : EXIT.OK;
    }
    for (const token of matches) {
      progress(`Revoking "${token.name}" (Revoke, then OK)`);
      await tokens.revoke(token.name, true);
      io.out(`revoked  ${token.name}`);
    }
    return EXIT.OK;
  } finally {
    await browser.close();
  }
}
