/**
 * `slicer-auth doctor [--json] [--scope slicer|predict] [--write-check]`: what is wrong with a
 * set-up, end to end, and how to fix it. See `doctor.ts`.
 */
import { parseArgs } from 'node:util';
import { type CheckResult, runDoctor, type Status } from './doctor.ts';
import { serviceNamed, SERVICES } from '../../settings/services.ts';
import { EXIT, type Io, UsageError } from '../usage.ts';

/** Help text of the command. */
export const DOCTOR_HELP = `Usage: slicer-auth doctor [--json] [--scope slicer|predict ...] [--write-check]

Checks the set-up in order and prints one line per check: ✔ passed, ✖ failed,
! warning, – skipped (an earlier check failed). Every ✖ and ! says how to fix it.

Checks: runtime; configuration (where each setting came from; secrets only by
length); the authorization service (DNS, TCP, TLS, token endpoint); one token
request per scope (never retried, so an account is not locked); each service
with that token; permanent tokens; the shared token store.

Read only: tokens go only where the client itself would send them, no
permanent token is created or revoked, nothing is written to a shared store.

  --json         one JSON object per check: id, name, status, reason, fix, durationMs
  --scope S      check only this scope (repeatable; default every configured one)
  --write-check  also check that the shared store takes a write (a lock on a
                 doctor key, released at once)

Exit code 0 when nothing failed (warnings allowed), 1 otherwise.`;

/** The command's options (for parseArgs and shell completion). */
export const DOCTOR_OPTIONS = {
  json: { type: 'boolean' },
  scope: { type: 'string', multiple: true },
  'write-check': { type: 'boolean' },
} as const;

const MARK: Record<Status, string> = { ok: '✔', fail: '✖', warn: '!', skip: '–' };

/**
 * Formats results for a terminal.
 *
 * @param results the checks
 * @returns one line per check, with an indented fix where there is one
 */
function formatResults(results: readonly CheckResult[]): string[] {
  return results.flatMap((r) => [
    `${MARK[r.status]} ${r.name}: ${r.reason.replaceAll('\n', '\n    ')}`,
    ...(r.fix ? [`    fix: ${r.fix}`] : []),
  ]);
}

/**
 * Runs the checks and prints them.
 *
 * @param args the arguments after `doctor`
 * @param io output streams
 * @returns 0 when no check failed, else 1
 */
export async function doctorCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: DOCTOR_OPTIONS, strict: true });
  const scopes = values.scope?.map((scope) => {
    const service = serviceNamed(scope);
    if (!service) throw new UsageError(`--scope takes ${SERVICES.map((s) => s.name).join(' or ')}, got "${scope}"`);
    return service.name;
  });
  const results = await runDoctor({ env: io.env, scopes, writeCheck: values['write-check'], clock: io.clock });
  if (values.json) io.out(JSON.stringify(results, null, 2));
  else for (const line of formatResults(results)) io.out(line);
  return results.some((r) => r.status === 'fail') ? EXIT.FAILED : EXIT.OK;
}
