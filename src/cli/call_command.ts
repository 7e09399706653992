/**
 * `slicer-auth call <METHOD> <path> [--json <body>] [--form k=v ...] [--scope S]`.
 */
import { parseArgs } from 'node:util';
import { createAuthClient } from '../client.ts';
import { parseScope } from '../scope.ts';
import type { AuthedFetchOptions } from '../authed_fetch.ts';
import { EXIT, type Io, UsageError } from './usage.ts';

/** Help text of the command. */
export const CALL_HELP = `Usage: slicer-auth call <METHOD> <path> [--json <body>] [--form k=v ...] [--scope slicer|predict]

Makes an authenticated request and prints the status and the answer.
<path> is relative to SLICER_BASE_URL (SLICER_PREDICT_BASE_URL with --scope predict), or absolute.

  --json BODY     send BODY (JSON text) as application/json
  --form k=v      add a form field (repeatable); sent as application/x-www-form-urlencoded
  --scope S       which service (default slicer)

Exit code 1 when the service answers with an error status.`;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/**
 * Makes the request.
 *
 * @param args the arguments after `call`
 * @param io output streams
 * @returns the exit code
 */
export async function callCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'string' }, form: { type: 'string', multiple: true }, scope: { type: 'string', default: 'slicer' } },
    strict: true,
  });
  const [method, path, ...extra] = positionals;
  if (!method || !path || extra.length > 0) throw new UsageError('Give exactly a METHOD and a path');
  if (!METHODS.includes(method.toUpperCase())) throw new UsageError(`Unknown method "${method}": use one of ${METHODS.join(', ')}`);
  if (values.json !== undefined && values.form !== undefined) throw new UsageError('Use --json or --form, not both');
  const options: AuthedFetchOptions = {
    method: method.toUpperCase(),
    scope: parseScope(values.scope),
    throwHttpErrors: false,
    retry: 0,
  };
  if (values.json !== undefined) {
    try {
      options.json = JSON.parse(values.json);
    } catch {
      throw new UsageError('--json must be valid JSON text');
    }
  }
  if (values.form) {
    const form = new URLSearchParams();
    for (const pair of values.form) {
      const at = pair.indexOf('=');
      if (at <= 0) throw new UsageError(`--form takes key=value, got "${pair}"`);
      form.append(pair.slice(0, at), pair.slice(at + 1));
    }
    options.body = form;
  }
  // throwHttpErrors is off: an error status is printed, not thrown.
  const response = await createAuthClient().authedFetch(path, options);
  io.err(`${response.status} ${response.statusText}`);
  const text = await response.text();
  if (text) io.out(text);
  return response.ok ? EXIT.OK : EXIT.FAILED;
}
