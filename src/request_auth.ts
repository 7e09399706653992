/**
 * Request auth: the one place that decides whether a request may carry a
 * scope's token, attaches it and handles the 401 (contract 5.1). Every
 * sender goes through it: authedFetch (as ky options built once per client
 * and scope), the CLI's `call` and the doctor.
 *
 * - Origin binding: the token goes only to the origin of the scope's service
 *   (its base URL) or an origin listed in `allowedOrigins`; any other request
 *   goes out untouched, without it, and redirects are followed with the
 *   token only within the same origin.
 * - The token is fetched in `beforeRequest`, outside ky's timeout, and kept
 *   for that request in a WeakMap: no per-request closure.
 * - It is attached in the `fetch` wrapper at the last moment, through the
 *   `init` given to fetch (or a rewritten form body with the `post`
 *   transport): ky's `HTTPError` keeps a clone made before, and its
 *   `TimeoutError` the request itself, so neither ever holds the token.
 * - A 401 is handled in the wrapper too: the token is dropped everywhere it
 *   is cached and the request sent once more with a fresh one; a second 401
 *   is an {@link UnauthorizedError}. No `afterResponse` hook, so ky never has
 *   to clone a response to run one.
 */
import type { BeforeRequestHook, Options } from 'ky';
import type { TokenTransport } from './config.ts';
import type { ScopeTarget } from './scope_target.ts';
import { assertSafeUrl, mayReceiveToken } from './url_policy.ts';
import { PermanentTokenRejectedError, UnauthorizedError } from './errors.ts';
import type { AuthEvent } from './events.ts';
import { type FetchLike, globalFetch } from './fetch.ts';

/** What the options of one scope need from their client. */
export interface RequestAuth {
  /** The resolved scope. */
  readonly target: ScopeTarget;
  /** How the token travels. */
  readonly transport: TokenTransport;
  /** Gets the token to send (from the cache, or the permanent token). */
  readonly token: () => Promise<string>;
  /** The token when it is ready now without waiting (permanent, or cached with no refresh due). */
  readonly ready: () => string | undefined;
  /** Drops a token the service refused, everywhere it is cached (shared store included), if it is still the cached one. */
  readonly invalidate: (token: string) => Promise<void>;
  /** The fetch that finally sends. */
  readonly fetch: FetchLike;
  /** Whether tokens may go over plain http to a non-loopback host (`SLICER_ALLOW_INSECURE_HTTP`). */
  readonly allowInsecureHttp: boolean;
  /** Removes the client's known secrets from a message. */
  readonly redact: (text: string) => string;
  /** Where a warning goes (a request sent without the token, once per origin). */
  readonly warn: (message: string) => void;
  /** Receives `token.unauthorized` events; undefined when nobody listens. */
  readonly emit?: ((event: AuthEvent) => void) | undefined;
}

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const MANUAL: RequestInit = Object.freeze({ redirect: 'manual' });

/**
 * Fetch options that hand redirects back (to be followed within the same
 * origin only), made without a copy in the usual case: ky passes no options.
 */
function manualRedirects(init: RequestInit | undefined): RequestInit {
  for (const _ in init) return { ...init, redirect: 'manual' };
  return MANUAL;
}

/**
 * The request and fetch options that carry the token: a `token` field in a
 * form-encoded or multipart body with the `post` transport, otherwise an
 * `Authorization: Bearer` header, given through `init`.
 *
 * @param request ky's request (never modified; its body may be read)
 * @param init ky's fetch options
 * @param token the access token
 * @param transport `header` or `post`
 * @returns what to pass to fetch
 */
export async function withToken(
  request: Request,
  init: RequestInit | undefined,
  token: string,
  transport: TokenTransport,
): Promise<[Request, RequestInit]> {
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  if (transport === 'post' && request.body && type.startsWith(FORM)) {
    const form = new URLSearchParams(await request.text());
    form.set('token', token);
    return [new Request(request, { body: form }), { ...init }];
  }
  if (transport === 'post' && request.body && type.startsWith(MULTIPART)) {
    const form = await request.formData();
    form.set('token', token);
    const headers = new Headers(request.headers);
    headers.delete('content-type'); // a new boundary comes with the new body
    return [new Request(request, { body: form, headers }), { ...init }];
  }
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${token}`);
  return [request, { ...init, headers }];
}

/**
 * Sends with the runtime's own fetch and the header transport, without
 * copying the headers: the header is set on ky's request for the synchronous
 * part of the `fetch()` call — where the runtime copies the request — and
 * removed right after, before anything else can see the request (ky's
 * `TimeoutError` keeps it). Only for the runtime's fetch: a custom fetch may
 * read the headers later.
 *
 * @param request ky's request, without a body transformation
 * @param init ky's fetch options (`redirect: 'manual'` is added)
 * @param token the access token
 * @returns the answer
 */
function sendWithHeaderInPlace(request: Request, init: RequestInit | undefined, token: string): Promise<Response> {
  request.headers.set('authorization', `Bearer ${token}`);
  try {
    return globalThis.fetch(request, manualRedirects(init));
  } finally {
    request.headers.delete('authorization');
  }
}

/**
 * Sends a request with its token, following redirects only within the same
 * origin (so never https → http): the token is attached anew at each hop, and
 * a redirect to another origin is handed back to the caller as it is, never
 * re-sent with the token (in a header or a `token` body field).
 *
 * @param request the request to send (its body is consumed)
 * @param init ky's extra fetch options
 * @param token the access token
 * @param auth transport, fetch and the plain-http opt-in
 * @param trusted a URL prefix already known safe for tokens (the base URL), so that only other URLs are parsed
 * @returns the final answer
 * @throws {InsecureAuthUrlError} `INSECURE_AUTH_URL` for a plain-http, non-loopback URL without the opt-in
 */
export async function sendWithToken(
  request: Request,
  init: RequestInit | undefined,
  token: string,
  auth: RequestAuth,
  trusted?: string,
): Promise<Response> {
  let current = request;
  for (let hop = 0;; hop++) {
    // Only a URL outside the (already checked) base URL is parsed here.
    if (!auth.allowInsecureHttp && !(trusted && current.url.startsWith(trusted))) assertSafeUrl(current.url, auth.target.baseUrlKey);
    // Only a body that a 307/308 must re-send is copied; GETs and most calls have none.
    const replay = current.body ? current.clone() : undefined;
    let response: Response;
    if (auth.fetch === globalFetch && auth.transport === 'header') {
      response = await sendWithHeaderInPlace(current, init, token);
    } else {
      const [sent, options] = await withToken(current, init, token, auth.transport);
      options.redirect = 'manual';
      response = await auth.fetch(sent, options);
    }
    if (!REDIRECTS.has(response.status)) return response;
    const location = response.headers.get('location');
    if (!location || hop >= MAX_REDIRECTS) return response;
    const target = new URL(location, current.url);
    if (target.origin !== new URL(current.url).origin) return response;
    await response.body?.cancel().catch(() => undefined);
    const keepBody = response.status === 307 || response.status === 308;
    const headers = new Headers(current.headers);
    if (!keepBody) headers.delete('content-type');
    current = new Request(target, {
      method: keepBody ? current.method : current.method === 'HEAD' ? 'HEAD' : 'GET',
      headers,
      body: keepBody ? replay?.body ?? null : null,
      signal: current.signal,
      // @ts-expect-error: `duplex` is required by Node for a stream body, unknown to the DOM lib.
      duplex: 'half',
    });
  }
}

/** The base URL as a prefix of URLs that may carry a token without another check, when it is itself safe. */
function trustedPrefix(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  try {
    assertSafeUrl(baseUrl, '');
    return `${baseUrl}/`;
  } catch {
    return undefined;
  }
}

/** What {@link authOptions} gives: ky options, and the standard-fetch sender. */
export interface AuthOptions {
  /** Attaches the token and sends; refreshes once on a 401; a second 401 throws (ky's `fetch` option). */
  readonly fetch: NonNullable<Options['fetch']>;
  /** Gets the token before each attempt, outside ky's timeout. */
  readonly hooks: { readonly beforeRequest: BeforeRequestHook[] };
  /**
   * The platform's fetch with the token (`tokenFetch`): the same decisions, and
   * a second 401 is returned as a Response, as fetch returns any status.
   */
  readonly standard: (input: string | Request, init?: RequestInit) => Promise<Response>;
}

/** What a final 401 does: ky's path throws it, the standard-fetch path returns it. */
type Refusal = 'throw' | 'return';

/**
 * The ky options that authenticate requests to one scope, and its
 * standard-fetch sender; build them once per client and scope and share them
 * between requests.
 *
 * @param auth the scope, transport, token source and fetch of the client
 * @returns `hooks` and `fetch` options to merge into each request's options, and `standard`
 */
export function authOptions(auth: RequestAuth): AuthOptions {
  const tokens = new WeakMap<Request, string>();
  const trusted = trustedPrefix(auth.target.baseUrl);
  const inPlace = auth.fetch === globalFetch && auth.transport === 'header';
  /** Origin binding: under the base URL (the common case, one prefix test), or an origin that may receive the token. */
  const mayCarry = (url: string) => (trusted !== undefined && url.startsWith(trusted)) || mayReceiveToken(url, auth.target.origins);
  const warnedOrigins = new Set<string>();

  /** A request to an origin that may not receive the token goes out as it is, without it; said once per origin. */
  function untouched(method: string, url: string, send: () => Promise<Response>): Promise<Response> {
    const origin = URL.canParse(url) ? new URL(url).origin : url;
    if (!warnedOrigins.has(origin)) {
      warnedOrigins.add(origin);
      auth.warn(auth.redact(
        `Sent ${method} ${origin} without the token of scope "${auth.target.scope}": a token goes only to the origin of ` +
          `${auth.target.baseUrlKey}; list the origin in SLICER_ALLOWED_ORIGINS (option allowedOrigins) if it must receive it`,
      ));
    }
    return send();
  }

  /** The general path: any method and body, redirects, and the one refresh after a 401. */
  async function send(
    request: Request,
    init: RequestInit | undefined,
    token: string,
    refusal: Refusal,
    first?: Response,
  ): Promise<Response> {
    // A second send needs the body again: copied only when there is one (and a refresh is possible).
    const spare = request.body && !auth.target.permanentToken ? request.clone() : undefined;
    const response = first ?? (await sendWithToken(request, init, token, auth, trusted));
    if (response.status !== 401) return response;
    if (auth.target.permanentToken) {
      auth.emit?.({ type: 'token.unauthorized', scope: auth.target.scope, retried: false });
      if (refusal === 'return') return response;
      throw new PermanentTokenRejectedError(auth.target.permanentTokenKey, response);
    }
    await response.body?.cancel().catch(() => undefined);
    auth.emit?.({ type: 'token.unauthorized', scope: auth.target.scope, retried: true });
    await auth.invalidate(token);
    const again = await sendWithToken(spare ?? request, init, await auth.token(), auth, trusted);
    if (again.status !== 401) return again;
    auth.emit?.({ type: 'token.unauthorized', scope: auth.target.scope, retried: false });
    if (refusal === 'return') return again;
    throw new UnauthorizedError(
      auth.redact(
        `${request.method} ${new URL(request.url).pathname} was refused (401) with a freshly fetched token for scope ` +
          `"${auth.target.scope}": check that SLICER_SERVICE_ID / SLICER_PREDICT_SERVICE_ID name this service`,
      ),
      again,
    );
  }

  /** After a hot-path answer: a redirect goes again through the general path (a bodiless GET may be), a 401 refreshes. */
  function settle(response: Response, request: () => Request, init: RequestInit | undefined, token: string, refusal: Refusal) {
    if (REDIRECTS.has(response.status)) {
      void response.body?.cancel().catch(() => undefined);
      return send(request(), init, token, refusal);
    }
    return response.status === 401 ? send(request(), init, token, refusal, response) : response;
  }

  return {
    hooks: {
      // Only given to ky when the token is not ready (see client.ts): then it is fetched here, outside ky's timeout.
      beforeRequest: [async (request) => void (mayCarry(request.url) && tokens.set(request, await auth.token()))],
    },
    fetch: (input, init) => {
      const request = input as Request;
      if (!mayCarry(request.url)) return untouched(request.method, request.url, () => auth.fetch(request, init));
      const token = tokens.get(request) ?? auth.ready();
      if (token === undefined) return auth.token().then((fresh) => send(request, init, fresh, 'throw'));
      // The hot path: a GET or HEAD without body to the checked base URL, with the runtime's fetch.
      if (
        inPlace && !request.body && trusted && request.url.startsWith(trusted) && (request.method === 'GET' || request.method === 'HEAD')
      ) {
        return sendWithHeaderInPlace(request, init, token).then((response) => settle(response, () => request, init, token, 'throw'));
      }
      return send(request, init, token, 'throw');
    },
    standard(input, init) {
      if (typeof input !== 'string') {
        const given = init ? new Request(input, init) : input;
        if (!mayCarry(given.url)) return untouched(given.method, given.url, () => auth.fetch(given));
        const ready = auth.ready();
        return ready !== undefined
          ? send(given, undefined, ready, 'return')
          : auth.token().then((fresh) => send(given, undefined, fresh, 'return'));
      }
      const url = input;
      const method = init?.method?.toUpperCase() ?? 'GET';
      if (!mayCarry(url)) return untouched(method, url, () => auth.fetch(url, init));
      const token = auth.ready();
      // The hot path: a bodiless GET or HEAD to the checked base URL with a ready token: the runtime's fetch, one header more.
      if (token !== undefined && inPlace && !init?.body && trusted && url.startsWith(trusted) && (method === 'GET' || method === 'HEAD')) {
        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${token}`);
        return globalThis.fetch(url, { ...init, headers, redirect: 'manual' }).then((response) =>
          settle(response, () => new Request(url, init), undefined, token, 'return')
        );
      }
      const request = new Request(url, init);
      if (token !== undefined) return send(request, undefined, token, 'return');
      return auth.token().then((fresh) => send(request, undefined, fresh, 'return'));
    },
  };
}
