/**
 * `slicer-auth call <METHOD> <path> [--json <body>] [--form k=v ...] [--scope S] [--timeout S]`.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { type AuthClient, createAuthClient, type TokenFetchInit } from '../client.ts';
import { systemClock, timeLimit } from '../clock.ts';
import { isAuthError, PermanentTokenRejectedError } from '../errors.ts';
import { isRelative } from '../request/request_url.ts';
import { parseConfig } from '../settings/config.ts';
import { readEnv } from '../settings/env.ts';
import { DEFAULT_SERVICE, scopeKind, serviceNamed } from '../settings/services.ts';
import { cannotReach, networkCause, networkFix } from '../token_source/network_cause.ts';
import { clientContext, EXIT, type Io, numberFlag, scopeFlag, UsageError } from './usage.ts';

/** Help text of the command. */
export const CALL_HELP = `Usage: slicer-auth call <METHOD> <path> [--json <body>] [--form k=v ...] [--scope slicer|predict] [--timeout S]

Makes an authenticated request and prints the status (on standard error) and the answer, as tokenFetch sends
it. An answer that is no UTF-8 text (an archive, an image) is written byte for byte: redirect it to a file.
<path> is relative to SLICER_BASE_URL (SLICER_PREDICT_BASE_URL with --scope predict), or absolute: then the
scope is the service whose base URL it is under, unless --scope says otherwise.

  --json BODY     send BODY (JSON text) as application/json
  --json @path    send a file's JSON text (curl's convention)
  --form k=v      add a form field (repeatable); sent as application/x-www-form-urlencoded
  --form k=@path  upload a file (curl's convention); with any file the form is sent
                  as multipart/form-data
  --scope S       which service (default: by the URL, else slicer)
  --timeout S     give up when the whole answer has not come within S seconds (default 300, the
                  same on every runtime; Node's fetch itself waits at most 300 s for an answer to start)

Exit code 1 when the service answers with an error status or cannot be reached; a permanent
token the service refuses (401) is named, with the fix.`;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** The command's options (for parseArgs and shell completion). */
export const CALL_OPTIONS = {
  json: { type: 'string' },
  form: { type: 'string', multiple: true },
  scope: { type: 'string' },
  timeout: { type: 'string' },
} as const;

/** How long `call` waits for a whole answer, token included, unless `--timeout` says otherwise, in seconds. */
const CALL_TIMEOUT_S = 300;

/**
 * A file an argument names (`@path`, curl's convention).
 *
 * @param argument the argument, as the error names it
 * @param path the file
 * @returns its bytes
 * @throws {UsageError} naming the argument and the reason when the file cannot be read
 */
function readNamedFile(argument: string, path: string) {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`${argument}: cannot read "${path}" (${(error as { code?: string }).code ?? 'error'})`);
  }
}

/**
 * The body of `--form` fields: form-encoded text, or multipart as soon as a
 * field uploads a file (`key=@path`).
 *
 * @param pairs the `--form` arguments
 * @returns the body
 * @throws {UsageError} naming the argument for a field without `=` or a file that cannot be read
 */
function formBody(pairs: readonly string[]): URLSearchParams | FormData {
  const fields = pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--form takes key=value or key=@path, got "${pair}"`);
    const [key, value] = [pair.slice(0, at), pair.slice(at + 1)];
    if (!value.startsWith('@')) return { key, value };
    const path = value.slice(1);
    return { key, file: new File([readNamedFile(`--form ${pair}`, path)], basename(path)) };
  });
  if (!fields.some((field) => 'file' in field)) return new URLSearchParams(fields.map((f) => [f.key, (f as { value: string }).value]));
  const form = new FormData();
  for (const field of fields) 'file' in field ? form.append(field.key, field.file) : form.append(field.key, field.value);
  return form;
}

/**
 * The body of `--json`: the JSON text given, or a file's with `@path` (curl's convention; no JSON text starts with `@`).
 *
 * @param value the `--json` argument
 * @returns the JSON text
 * @throws {UsageError} naming the argument for a file that cannot be read, or text that is not JSON
 */
function jsonBody(value: string): string {
  const path = value.startsWith('@') ? value.slice(1) : undefined;
  const text = path === undefined ? value : readNamedFile(`--json ${value}`, path).toString('utf8');
  try {
    JSON.parse(text);
  } catch {
    throw new UsageError(path === undefined ? '--json must be valid JSON text' : `--json ${value}: the file is not valid JSON text`);
  }
  return text;
}

/**
 * Makes the request.
 *
 * @param args the arguments after `call`
 * @param io output streams
 * @returns the exit code
 */
export async function callCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: CALL_OPTIONS, strict: true });
  const [method, path, ...extra] = positionals;
  if (!method || !path || extra.length > 0) {
    // One word that is no method: the path, without its method.
    const pathAlone = method !== undefined && path === undefined && !METHODS.includes(method.toUpperCase());
    throw new UsageError(
      pathAlone
        ? `Give a METHOD before the path, such as: slicer-auth call GET ${method}`
        : 'Give exactly a METHOD and a path, such as: slicer-auth call GET /jobs',
    );
  }
  if (!METHODS.includes(method.toUpperCase())) throw new UsageError(`Unknown method "${method}": use one of ${METHODS.join(', ')}`);
  if (values.json !== undefined && values.form !== undefined) throw new UsageError('Use --json or --form, not both');
  const seconds = values.timeout === undefined ? CALL_TIMEOUT_S : numberFlag(values.timeout, true);
  if (!(seconds > 0)) throw new UsageError(`--timeout takes a number of seconds above 0, such as 30; got "${values.timeout}"`);
  const init: TokenFetchInit = { method: method.toUpperCase(), ...(values.scope === undefined ? {} : { scope: scopeFlag(values.scope) }) };
  if (values.json !== undefined) Object.assign(init, { body: jsonBody(values.json), headers: { 'content-type': 'application/json' } });
  if (values.form) init.body = formBody(values.form);
  // tokenFetch's answer for any status: an error status is printed, not thrown.
  let refused: string | undefined; // the scope whose token the service refused for good
  const client = createAuthClient({
    ...clientContext(io),
    onEvent: (event) => {
      if (event.type === 'token.unauthorized' && !event.retried) refused = event.scope;
    },
  });
  // One time limit for the token, the request and the whole answer; cancelled when they are done, so no timer stays.
  const limit = timeLimit(io.clock ?? systemClock, seconds * 1000);
  const failed = (error: unknown): never => {
    const late = limit.signal.aborted;
    if (isAuthError(error) && !late) throw error;
    throw unreachable(error, path, init.scope, client.baseUrl(init.scope), late ? seconds : undefined);
  };
  try {
    const response = await client.tokenFetch(path, { ...init, signal: limit.signal }).catch(failed);
    io.err(`${response.status} ${response.statusText}`);
    const permanent = refused && (await refusedPermanent(client, refused, io));
    if (permanent) io.err(new PermanentTokenRejectedError(permanent).message);
    const body = new Uint8Array(await response.arrayBuffer().catch(failed));
    const text = utf8(body);
    if (text === undefined) io.raw(body); // redirected to a file, it is the file the service sent
    else if (text) io.out(text);
    return response.ok ? EXIT.OK : EXIT.FAILED;
  } finally {
    limit.cancel();
  }
}

/**
 * An answer's bytes as text, when they are UTF-8.
 *
 * @param bytes the body
 * @returns the text, or undefined for bytes that are no UTF-8 (then they are written as they came)
 */
function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // no UTF-8
  }
  return undefined;
}

/**
 * The variable of a permanent token a service refused: tokenFetch answers the 401 as it came, and says nothing of it.
 *
 * @param client the client that sent it
 * @param scope the scope of the refused token
 * @param io the command's environment
 * @returns the variable (`SLICER_STATIC_TOKEN`), or undefined when the token was a temporary one
 */
async function refusedPermanent(client: AuthClient, scope: string, io: Io): Promise<string | undefined> {
  if ((await client.getTokenInfo(scope as TokenFetchInit['scope'])).source !== 'permanent') return undefined;
  const service = scopeKind(parseConfig(readEnv({ env: io.env })), scope);
  return typeof service === 'object' ? service.staticToken.env : undefined;
}

/**
 * A request that failed on the network, or got no whole answer in time, said with the host, the low-level reason
 * (`ECONNREFUSED`, `ENOTFOUND`, a certificate's) and the setting to check, where fetch says only "fetch failed". The
 * host alone: a URL's path and query are the user's, and may hold what should not be printed.
 *
 * @param error what tokenFetch threw
 * @param path the path or URL given
 * @param scope the `--scope` given, if any
 * @param base the base URL a relative path resolved against
 * @param seconds the time limit, when it passed
 * @returns the error to report; the one thrown when its URL cannot be read (it already names the problem)
 */
function unreachable(error: unknown, path: string, scope: string | undefined, base: string | undefined, seconds?: number): unknown {
  const url = isRelative(path) ? base : path;
  if (url === undefined || !URL.canParse(url)) return error;
  const cause = networkCause(error);
  const check = isRelative(path) ? (serviceNamed(scope ?? DEFAULT_SERVICE.name)?.baseUrl.env ?? `the base URL of ${scope}`) : 'the URL';
  const message = seconds === undefined
    ? `${cannotReach(url, cause)}: ${networkFix(cause, `check ${check} and that the service is up`, url)}`
    : `no whole answer from ${new URL(url).host} within ${seconds} s: check ${check} and that the service is up, ` +
      'or give a longer --timeout';
  return new Error(message, { cause: error });
}
