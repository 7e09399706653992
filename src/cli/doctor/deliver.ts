/**
 * How the doctor sends a token to a service: through a client built from the
 * same configuration, so the client's own request auth decides (origin
 * binding, the plain-http policy, redirects, the header or `token` argument).
 * The doctor never sends a token where the client would refuse to.
 */
import { type DoctorContext, fail, type Outcome, warn } from './check.ts';
import { type AuthClientOptions, createAuthClient } from '../../client.ts';
import { ErrorCode, isAuthError } from '../../errors.ts';
import { PROBE_TIMEOUT_MS, withinProbeTime } from './probes.ts';
import type { TokenTransport } from '../../settings/config.ts';
import type { Service } from '../../settings/services.ts';
import { networkCause, networkFix } from '../../token_source/network_cause.ts';

/** How a service answered. */
export interface Delivery {
  readonly status: number;
  /** 401 or 403. */
  readonly refused: boolean;
  /** Where a redirect that was handed back points: its origin and path (a query may carry anything). */
  readonly location?: string | undefined;
}

/**
 * Sends one GET with a token to a URL of a scope's service, waiting at most {@link PROBE_TIMEOUT_MS} on the clock.
 *
 * @param ctx where the configuration comes from, and the clock
 * @param service the service the URL belongs to
 * @param url the service URL
 * @param token the token to try (used as that scope's token for this one request)
 * @param transport overrides the configured transport
 * @returns the service's answer, or undefined when none came in time
 * @throws {InsecureUrlError} `INSECURE_AUTH_URL` where the client refuses plain http; network errors as fetch throws them
 */
export async function deliver(
  ctx: Pick<DoctorContext, 'options' | 'clock'>,
  service: Service,
  url: string,
  token: string,
  transport?: TokenTransport,
): Promise<Delivery | undefined> {
  const { options } = ctx;
  const settings: AuthClientOptions = { env: options.env, envFile: options.envFile, logger: { warn: () => undefined }, transport };
  const client = createAuthClient({ ...settings, [service.staticToken.option]: token });
  try {
    const response = await withinProbeTime(
      ctx.clock,
      (signal) => client.authedFetch.get(url, { scope: service.name, retry: 0, throwHttpErrors: false, timeout: false, signal }),
    );
    if (!response) return undefined;
    await response.body?.cancel();
    const location = response.headers.get('location');
    const target = location !== null && URL.canParse(location, url) ? new URL(location, url) : undefined;
    return {
      status: response.status,
      refused: response.status === 401 || response.status === 403,
      location: target ? `${target.origin}${target.pathname}` : undefined,
    };
  } catch (error) {
    // Sent as a permanent token, a 401 is this error: a refusal like any other.
    if (isAuthError(error) && error.code === ErrorCode.PERMANENT_TOKEN_REJECTED) return { status: 401, refused: true };
    throw error;
  } finally {
    await client.close();
  }
}

/**
 * What an answer that is neither a success nor a refusal (401, 403) says of the token: nothing. A rate limit or a
 * failing service answers before it looks at the token; a redirect handed back (to another origin, or one too many)
 * or a page the service does not have says nothing of it either: a service may look for the page first.
 *
 * @param answer the service's answer
 * @param url the service URL
 * @param service the service it belongs to
 * @param transport how the token was sent
 * @param ms how long the answer took
 * @returns a warning with the fix for that answer, or undefined for a success or a refusal
 */
export function saysNothing(answer: Delivery, url: string, service: Service, transport: TokenTransport, ms: number): Outcome | undefined {
  if ((answer.status >= 200 && answer.status < 300) || answer.refused) return undefined;
  const baseKey = service.baseUrl.env;
  const redirect = answer.status >= 300 && answer.status < 400;
  const where = redirect && answer.location ? `, a redirect to ${answer.location}` : '';
  return warn(
    `${url} answered ${answer.status}${where}, which says nothing of the token (${transport} transport), ${ms} ms`,
    answer.status === 429
      ? 'the service limits how often it is asked (429): wait as long as it asks, then run again'
      : answer.status >= 500
      ? 'the service failed (5xx): run again later, and tell its owners if it goes on'
      : redirect
      ? `set ${baseKey} to the address where the service answers its API (a redirect to a sign-in page is a web page)`
      : `the service answers no GET at ${baseKey} itself (${answer.status}): check it, then try a path of the service: ` +
        `npx slicer-auth call GET <path> --scope ${service.name}`,
  );
}

/**
 * What to say when a service sent no answer in time.
 *
 * @param url the service URL
 * @param baseKey the variable naming it
 * @returns the finding
 */
export function noAnswerFrom(url: string, baseKey: string): Outcome {
  return fail(
    `no answer from ${url} within ${PROBE_TIMEOUT_MS / 1000} s`,
    `check ${baseKey} and that the service is up and not stuck, then run again`,
  );
}

/**
 * What to say when a token could not be delivered: the client's refusal with
 * its fix, or the network failure.
 *
 * @param error what deliver threw
 * @param url the service URL
 * @param baseKey the variable naming it
 * @returns the finding
 */
export function undelivered(error: unknown, url: string, baseKey: string): Outcome {
  if (isAuthError(error) && error.code === ErrorCode.INSECURE_AUTH_URL) {
    return fail(
      `the client refuses to send a token over plain http to "${new URL(url).host}" (${baseKey}), so the doctor did not send it`,
      `use an https ${baseKey}, or set SLICER_ALLOW_INSECURE_HTTP=1 if you accept the risk`,
    );
  }
  const cause = networkCause(error) ?? (error as Error).message;
  return fail(`cannot reach ${url} (${cause})`, networkFix(cause, `check ${baseKey} and that the service is up`, url));
}
