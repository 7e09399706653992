/**
 * The wire of the request engine: one request whose body can be sent again,
 * its token attached at the last moment (an `Authorization: Bearer` header,
 * or a `token` field of a form-encoded or multipart body: contract 5.1), sent
 * with redirects handed back, and a redirect within the same origin followed
 * from its answer — never by sending the original again (RFC 9110 §15.4).
 * A redirect to another origin is handed back as it is: the token never
 * follows it. Plain http to a non-loopback host is refused at every hop.
 */
import type { FetchLike } from '../fetch.ts';
import type { TokenTransport } from '../settings/config.ts';
import { assertSafeUrl } from '../settings/url_policy.ts';

/** A body that can be sent any number of times (a stream cannot). */
export type ReplayableBody = string | URLSearchParams | FormData | Blob | ArrayBuffer | ArrayBufferView;

/** A request the engine can send more than once: its URL and fetch options, the body replayable. */
export interface Outgoing {
  readonly url: string;
  readonly init: RequestInit & { readonly body?: ReplayableBody | null | undefined };
}

/** How one scope's requests go on the wire. */
export interface Wire {
  /** How the token travels. */
  readonly transport: TokenTransport;
  /** The fetch that finally sends. */
  readonly fetch: FetchLike;
  /** Whether tokens may go over plain http to a non-loopback host (`SLICER_ALLOW_INSECURE_HTTP`). */
  readonly allowInsecureHttp: boolean;
  /** A URL prefix already known safe (the scope's base URL, checked once), so that only other URLs are parsed. */
  readonly trusted: string | undefined;
  /** The variable naming a URL, for the plain-http refusal: the base URL's on its origin, else the list of other origins. */
  readonly urlKey: (url: string) => string;
}

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/**
 * A request whose body can be sent again: a `Request`'s method, headers, body, signal and every other fetch option of
 * its own (with the caller's extra fetch options), or a URL with its options. A body is sent as given when it is none,
 * a text (a form's parsed here) or a form, and with the header transport any but a stream; a stream, and with the
 * `post` transport a Blob or bytes (whose type may be a form's), are read once, as a Request. With the `post`
 * transport a form-encoded or multipart body is parsed, so that the wire can add the `token` field.
 */
export async function outgoing(input: string | Request, init: RequestInit | undefined, transport: TokenTransport): Promise<Outgoing> {
  const givenBody = init?.body;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: a body not sent as given is read as a Request, which sends the same
  const asGiven = givenBody === undefined || givenBody === null || typeof givenBody === 'string' ||
    givenBody instanceof URLSearchParams || givenBody instanceof FormData ||
    // Stryker disable next-line ConditionalExpression,StringLiteral: the same
    (transport === 'header' && !(givenBody instanceof ReadableStream));
  // Stryker disable next-line ConditionalExpression,StringLiteral,BooleanLiteral,OptionalChaining,BlockStatement: a shortcut; as a Request it sends the same
  if (typeof input === 'string' && asGiven) {
    const given = (init ?? {}) as Outgoing['init'];
    // Stryker disable next-line StringLiteral: any content type but a form's leaves the body as it is
    const type = transport === 'post' && typeof given.body === 'string' ? new Headers(given.headers).get('content-type') ?? '' : '';
    return {
      url: input,
      init: type.toLowerCase().startsWith(FORM) ? { ...given, body: new URLSearchParams(given.body as string) } : given,
    };
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: a Request made again from a Request is the same request
  const request = typeof input === 'string' ? new Request(input, { ...init, duplex: 'half' } as RequestInit) : input;
  // Stryker disable next-line all: ky's extra fetch options (a dispatcher, say) are for its fetch; the tests' ky passes none
  const extras = typeof input === 'string' ? {} : init;
  const base = {
    ...extras,
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    redirect: request.redirect,
    // The rest of what fetch reads from a Request: Node checks the answer against `integrity` and sends the referrer.
    cache: request.cache,
    credentials: request.credentials,
    integrity: request.integrity,
    keepalive: request.keepalive,
    mode: request.mode,
    referrer: request.referrer,
    referrerPolicy: request.referrerPolicy,
    body: null,
  };
  if (!request.body) return { url: request.url, init: base };
  // Stryker disable next-line StringLiteral: any content type but a form's leaves the body as it is
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  let body: ReplayableBody;
  if (transport === 'post' && type.startsWith(FORM)) body = new URLSearchParams(await request.text());
  else if (transport === 'post' && type.startsWith(MULTIPART)) body = await request.formData();
  else body = await request.arrayBuffer();
  return { url: request.url, init: { ...base, body } };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Hops followed before a redirect is handed back: a redirect loop ends. */
export const MAX_REDIRECTS = 5;

/**
 * The fetch options that carry the token: a `token` field in a form-encoded
 * or multipart body with the `post` transport, otherwise the header. The
 * given options are not changed; redirects are handed back (`manual`), or
 * fail the request where the caller asked fetch to (`error`).
 *
 * @param init the request's options (its body replayable)
 * @param token the access token
 * @param transport `header` or `post`
 * @returns the options to send with
 */
export function withToken(init: Outgoing['init'], token: string, transport: TokenTransport): RequestInit {
  const body = init.body;
  const redirect = init.redirect === 'error' ? 'error' : 'manual';
  if (transport === 'post' && body instanceof URLSearchParams) {
    const form = new URLSearchParams(body);
    form.set('token', token);
    return { ...init, body: form, redirect };
  }
  if (transport === 'post' && body instanceof FormData) {
    const form = new FormData();
    for (const [name, value] of body) form.append(name, value);
    form.set('token', token);
    const headers = new Headers(init.headers);
    headers.delete('content-type'); // a new boundary comes with the new body
    return { ...init, headers, body: form, redirect };
  }
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return { ...init, headers, redirect };
}

/**
 * Where a redirect answer leads, when the token may follow it there: a 3xx
 * with a `Location` on the same origin (scheme, host and port).
 *
 * @param from the URL that answered
 * @param response its answer
 * @returns the next URL, or undefined to hand the answer back
 */
export function sameOriginRedirect(from: string, response: Response): string | undefined {
  if (!REDIRECTS.has(response.status)) return undefined;
  const location = response.headers.get('location');
  if (location === null || !URL.canParse(location, from)) return undefined;
  const next = new URL(location, from);
  return next.origin === new URL(from).origin ? next.href : undefined;
}

/**
 * The options of the request a redirect asks for: 307 and 308 repeat the
 * method and body; the others turn it into a bodiless GET (a HEAD stays a
 * HEAD), as browsers do.
 *
 * @param init the options of the request that was redirected
 * @param status the redirect's status
 * @returns the options of the next hop
 */
export function redirected(init: Outgoing['init'], status: number): Outgoing['init'] {
  if (status === 307 || status === 308) return init;
  const headers = new Headers(init.headers);
  headers.delete('content-type');
  return { ...init, method: init.method?.toUpperCase() === 'HEAD' ? 'HEAD' : 'GET', headers, body: null };
}

/**
 * Sends a request with its token, following redirects within its origin (at
 * most {@link MAX_REDIRECTS} hops), each hop sent once, from the answer before;
 * with the caller's `redirect: 'manual'`, none is followed.
 *
 * @param request the request (its body replayable)
 * @param token the access token
 * @param wire the scope's transport, fetch and plain-http policy
 * @returns the final answer
 * @throws {InsecureUrlError} `INSECURE_AUTH_URL` for a plain-http, non-loopback URL without the opt-in
 */
export async function sendFollowing(request: Outgoing, token: string, wire: Wire): Promise<Response> {
  let { url, init } = request;
  for (let hop = 0;; hop++) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,MethodExpression: the trusted prefix is a shortcut past a check it passed
    if (!wire.allowInsecureHttp && !(wire.trusted !== undefined && url.startsWith(wire.trusted))) assertSafeUrl(url, wire.urlKey(url));
    const response = await wire.fetch(url, withToken(init, token, wire.transport));
    const next = hop < MAX_REDIRECTS && init.redirect !== 'manual' ? sameOriginRedirect(url, response) : undefined;
    if (next === undefined) return response;
    await response.body?.cancel().catch(() => undefined);
    init = redirected(init, response.status);
    url = next;
  }
}
