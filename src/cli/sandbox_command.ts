/**
 * `slicer-auth sandbox [--port N] [--test-mode]`: runs the sandbox until
 * Ctrl-C / SIGTERM and prints the `.env` lines that point at it.
 */
import process from 'node:process';
import { parseArgs } from 'node:util';
import { SANDBOX_PORT } from '../defaults.ts';
import { type Sandbox, SANDBOX_DEFAULTS, type SandboxOptions, startSandbox, UI_VARIANTS, type UiVariant } from '../sandbox/mod.ts';
import { SETTINGS } from '../settings/settings.ts';
import { EXIT, type Io, numberFlag, UsageError } from './usage.ts';

/** Help text of the command. */
export const SANDBOX_HELP = `Usage: slicer-auth sandbox [--port N] [--test-mode [--ui-variant N]]

Starts the local sandbox (authorization service, permanent-token UI, slicing and
prediction services) on 127.0.0.1 and prints the .env lines that point at it.
Stops on Ctrl-C or SIGTERM.

  --port N       port to listen on (default ${SANDBOX_PORT}; 0 picks a free one)
  --test-mode    also mount the test controls at /__test (clock, faults, reset)
  --ui-variant N with --test-mode: serve alternative UI 1 to 6 (same documented
                 labels, different markup), to check the contract suite against it

SLICER_USERNAME, SLICER_PASSWORD, SLICER_SERVICE_ID and SLICER_PREDICT_SERVICE_ID
in the environment override the seeded user and service ids.`;

/** The command's options (for parseArgs and shell completion). */
export const SANDBOX_OPTIONS = { port: { type: 'string' }, 'test-mode': { type: 'boolean' }, 'ui-variant': { type: 'string' } } as const;

/**
 * Sandbox options from the environment: only the real environment, never
 * `.env`, which may hold a live account's password.
 *
 * @param env the process environment
 * @returns options overriding the seeded user and service ids
 */
function sandboxOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): SandboxOptions {
  const read = (name: 'username' | 'password' | 'serviceId' | 'predictServiceId') => env[SETTINGS[name].env] || undefined;
  return {
    username: read('username'),
    password: read('password'),
    serviceId: read('serviceId'),
    predictServiceId: read('predictServiceId'),
  };
}

/**
 * The `.env` lines of a running sandbox. A password that is not the sandbox
 * default is not echoed.
 *
 * @param sandbox the running sandbox
 * @returns one `KEY=value` line per variable
 */
export function envLines(sandbox: Pick<Sandbox, 'env'>): string[] {
  const secrets = new Set<string>(Object.values(SETTINGS).filter((s) => 'secret' in s).map((s) => s.env));
  return Object.entries(sandbox.env).map(([key, value]) =>
    secrets.has(key) && value !== SANDBOX_DEFAULTS.password ? `${key}=<the value you set>` : `${key}=${value}`
  );
}

/**
 * Runs the command until a stop signal.
 *
 * @param args the arguments after `sandbox`
 * @param io output streams
 * @returns the exit code, once stopped
 */
export async function sandboxCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: SANDBOX_OPTIONS,
    strict: true,
  });
  const port = values.port === undefined ? SANDBOX_PORT : numberFlag(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number, got "${values.port}"`);
  const uiVariant = values['ui-variant'] === undefined ? 0 : numberFlag(values['ui-variant']);
  if (!Number.isInteger(uiVariant) || !UI_VARIANTS[uiVariant]) {
    throw new UsageError(`--ui-variant takes 0 to ${UI_VARIANTS.length - 1}, got "${values['ui-variant']}"`);
  }
  if (uiVariant && !values['test-mode']) throw new UsageError('--ui-variant needs --test-mode');
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      ...sandboxOptionsFromEnv(io.env ?? process.env),
      port,
      testMode: values['test-mode'] ?? false,
      uiVariant: uiVariant as UiVariant,
    });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
    io.err(
      `Port ${port} of 127.0.0.1 is in use: stop what listens there, or choose another with --port <n> (--port 0 picks a ` +
        'free one) and point .env at it: "npx slicer-auth init --sandbox --force --port <n>", or paste the lines it prints',
    );
    return EXIT.FAILED;
  }
  io.out(`Sandbox listening on ${sandbox.env.SLICER_AUTH_URL}${sandbox.testMode ? ' (test mode: /__test controls on)' : ''}`);
  io.out(`UI: ${sandbox.env.SLICER_AUTH_URL}/  — log in as ${sandbox.env.SLICER_USERNAME}`);
  io.out('\nPaste into .env to point the module and the contract suite at it:\n');
  for (const line of envLines(sandbox)) io.out(line);
  io.out('\nPress Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sandbox.close();
  io.out('Sandbox stopped.');
  return 0;
}
