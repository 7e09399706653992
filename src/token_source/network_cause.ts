/**
 * Leaf: how a network failure is named and what fixes it, for every path that
 * reaches a server (the token source, the CLI's `call`, the doctor): the
 * low-level reason from the error's cause chain, as Node, Bun and Deno tell
 * it, and the fix for the reasons that have their own (an untrusted CA, an
 * https URL whose server speaks no TLS, a port that answers in no HTTP, a
 * loopback port where nothing listens: most often the sandbox, not started).
 */
import { SANDBOX_PORT } from '../defaults.ts';
import { isLoopbackHost } from '../settings/url_policy.ts';

/**
 * How a network failure is named: the host, and the low-level reason when one is known.
 *
 * @param url the address that could not be reached
 * @param cause its reason, as {@link networkCause} finds it (redacted where it may hold a secret)
 * @returns `cannot reach <host> (<cause>)`
 */
export function cannotReach(url: string, cause: string | undefined): string {
  return `cannot reach ${new URL(url).host}${cause ? ` (${cause})` : ''}`;
}

/** The fix for a certificate whose issuer the runtime does not trust: a staging service behind an organisation's CA. */
const TRUST_THE_CA = "the certificate's issuer is not trusted here: if your organisation's own CA issues it, trust that CA " +
  '(NODE_EXTRA_CA_CERTS=<ca.pem> for Node and Bun, DENO_CERT=<ca.pem> for Deno)';

/** Node's and Bun's codes of an unknown or self-signed issuer, and Deno's `UnknownIssuer`, each whole. */
const UNTRUSTED_ISSUER =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT)$|UnknownIssuer$/;

/** The fix for an https URL whose server speaks no TLS: most often one that serves plain http, as the sandbox does. */
const NO_TLS = 'the TLS handshake failed: if the server at that address serves plain http (as the sandbox does), ' +
  'its URL starts with http://';

/** The fix for an answer that is no valid HTTP: most often another program's port (SSH, a database). */
const NOT_HTTP = "the answer at that address is not valid HTTP: check the URL's port (another program may listen there)";

/**
 * Reasons with a fix of their own, each matched whole: Node's and Bun's codes and Deno's words of an untrusted issuer;
 * of a TLS handshake answered in something else (Node's `ERR_SSL_WRONG_VERSION_NUMBER`, Bun's `EPROTO`, Deno's
 * "received corrupt message"); of an answer that is no HTTP (Node's `HPE_*`, Bun's `Malformed_HTTP_Response`, Deno's
 * "invalid HTTP … parsed").
 */
const OWN_FIXES: readonly (readonly [RegExp, string])[] = [
  [UNTRUSTED_ISSUER, TRUST_THE_CA],
  [/^(ERR_SSL_WRONG_VERSION_NUMBER|EPROTO|received corrupt message)$/, NO_TLS],
  [/^(HPE_[A-Z_]+|Malformed_HTTP_Response|invalid http [\w-]+ parsed)$/, NOT_HTTP],
];

/** Node's and Bun's code of a connection refused (nothing listens at that port), and Deno's words, each whole. */
const REFUSED = /^(ECONNREFUSED|connection refused)$/;

/**
 * The command that starts the sandbox on a port, as the CLI's messages write it.
 *
 * @param port the sandbox's port
 * @returns `npx slicer-auth sandbox`, with `--port N` when it is not {@link SANDBOX_PORT}
 */
export function sandboxCommand(port: number): string {
  return `npx slicer-auth sandbox${port === SANDBOX_PORT ? '' : ` --port ${port}`}`;
}

/**
 * The fix to name for a network failure: the reason's own (trusting the CA, http://, checking the port), else the
 * caller's; for a connection refused at a plain-http loopback address (`init --sandbox` writes one), the caller's
 * and how to start the sandbox there.
 *
 * @param cause the reason, as {@link networkCause} finds it
 * @param otherwise the fix for any other reason
 * @param url the address that could not be reached
 * @returns the fix
 */
export function networkFix(cause: string | undefined, otherwise: string, url?: string): string {
  // Stryker disable next-line StringLiteral: no reason is tested as ""; any other text holding no code tests the same
  const own = OWN_FIXES.find(([reason]) => reason.test(cause ?? ''))?.[1];
  if (own) return own;
  const at = url === undefined ? undefined : new URL(url);
  // Stryker disable next-line StringLiteral: as above
  if (at?.protocol !== 'http:' || !REFUSED.test(cause ?? '') || !isLoopbackHost(at.hostname)) return otherwise;
  return `${otherwise} (if it is the sandbox's address, start the sandbox: "${sandboxCommand(Number(at.port || 80))}" in another terminal)`;
}

/**
 * The low-level reason of a network failure, e.g. `ECONNREFUSED`, `ENOTFOUND`,
 * `CERT_HAS_EXPIRED`, from the error's cause chain (Node's `code`, Deno's and
 * Bun's names and messages).
 *
 * @param error what fetch threw
 * @returns the reason (a code, or the deepest cause's message: redact it before showing), or undefined when none is known
 */
export function networkCause(error: unknown): string | undefined {
  let innermost: string | undefined;
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    const peer = /invalid peer certificate: \w+/.exec(e.message)?.[0]; // Deno's, with its reason as written (UnknownIssuer)
    if (peer) return peer;
    const os =
      /(connection refused|dns error|failed to lookup|certificate|timed out|connection reset|requests to port \d+ are blocked|received corrupt message|invalid http [\w-]+ parsed)/i
        .exec(e.message)?.[1];
    if (os) return os.toLowerCase();
    if (depth > 0 && e.message) innermost = e.message.slice(0, 120);
  }
  // No known code: the deepest cause's own words (undici's "bad port", say), not the bare "fetch failed".
  return innermost;
}

/** OpenSSL's error string (`…:error:0A00010B:SSL routines:<function>:<reason>:<file>:<line>:`), as Node and Bun give it. */
const OPENSSL_ERROR = /error:[0-9A-Fa-f]+:SSL routines:[^:]*:([^:\n]+)/;

/**
 * An error's own words on one line: OpenSSL's error string as its reason alone ("wrong version number"), any other
 * message up to its first line break.
 *
 * @param error what was thrown
 * @returns the words
 */
export function shortMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = OPENSSL_ERROR.exec(message)?.[1];
  return reason ? reason.toLowerCase().replaceAll('_', ' ') : message.replace(/\n[^]*/, '');
}
