/**
 * Per-request ky options that authenticate one request (contract 5.1).
 *
 * The token is fetched in `beforeRequest` (outside ky's timeout) and attached
 * in a `fetch` wrapper, on a copy of ky's request, at the last moment: ky's
 * `HTTPError` and `TimeoutError` keep the request they saw, so a token set on
 * that request would show up in every logged error.
 *
 * On a 401, `afterResponse` drops that token (if still cached) and retries the
 * request once with a fresh one; a second 401 is an {@link UnauthorizedError}.
 */
import ky, { type AfterResponseHook, type BeforeRequestHook, type Options } from 'ky';
import { assertSafeUrl, type ScopeTarget, type TokenTransport } from './config.ts';
import type { FetchLike } from './client.ts';
import { PermanentTokenRejectedError, UnauthorizedError } from './errors.ts';

/** What the hooks of one request need from their client. */
export interface RequestAuth {
  /** The resolved scope. */
  readonly target: ScopeTarget;
  /** How the token travels. */
  readonly transport: TokenTransport;
  /** Gets the token to send (from the cache, or the permanent token). */
  readonly token: () => Promise<string>;
  /** Drops a token the service refused, everywhere it is cached, if it is still the cached one. */
  readonly invalidate: (token: string) => void;
  /** The fetch that finally sends. */
  readonly fetch: FetchLike;
  /** Whether tokens may go over plain http to a non-loopback host (`SLICER_ALLOW_INSECURE_HTTP`). */
  readonly allowInsecureHttp: boolean;
  /** Removes the client's known secrets from a message. */
  readonly redact: (text: string) => string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * Sends a request with its token, following redirects only within the same
 * origin (so never https → http): the token is attached anew at each hop, and
 * a redirect to another origin is handed back to the caller as it is, never
 * re-sent with the token (in a header or a `token` body field).
 *
 * @param request ky's request (left untouched)
 * @param init ky's extra fetch options
 * @param token the access token
 * @param auth transport, fetch and the plain-http opt-in
 * @returns the final answer
 * @throws {InsecureAuthUrlError} `INSECURE_AUTH_URL` for a plain-http, non-loopback URL without the opt-in
 */
export async function sendWithToken(request: Request, init: RequestInit | undefined, token: string, auth: RequestAuth): Promise<Response> {
  let current = request;
  for (let hop = 0;; hop++) {
    if (!auth.allowInsecureHttp) assertSafeUrl(current.url, auth.target.baseUrlKey);
    // Only a body that a 307/308 must re-send is copied; GETs and most calls have none.
    const replay = current.body ? current.clone() : undefined;
    const response = await auth.fetch(await attachToken(current, token, auth.transport), { ...init, redirect: 'manual' });
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || !location || hop >= MAX_REDIRECTS) return response;
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

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/**
 * Copies a request with the token attached: as a `token` field in a
 * form-encoded or multipart body with the `post` transport, otherwise as an
 * `Authorization: Bearer` header.
 *
 * @param request ky's request (left untouched)
 * @param token the access token
 * @param transport `header` or `post`
 * @returns a new request carrying the token
 */
export async function attachToken(request: Request, token: string, transport: TokenTransport): Promise<Request> {
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  if (transport === 'post' && request.body && type.startsWith(FORM)) {
    const form = new URLSearchParams(await request.text());
    form.set('token', token);
    return new Request(request, { body: form });
  }
  if (transport === 'post' && request.body && type.startsWith(MULTIPART)) {
    const form = await request.formData();
    form.set('token', token);
    const headers = new Headers(request.headers);
    headers.delete('content-type'); // a new boundary comes with the new body
    return new Request(request, { body: form, headers });
  }
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${token}`);
  return new Request(request, { headers });
}

/** The ky options {@link authRequestOptions} gives. */
export interface AuthRequestOptions {
  /** Attaches the token to a copy of the request and sends it. */
  readonly fetch: NonNullable<Options['fetch']>;
  /** Gets the token before each attempt; retries once on 401. */
  readonly hooks: { readonly beforeRequest: BeforeRequestHook[]; readonly afterResponse: AfterResponseHook[] };
}

/**
 * ky options that authenticate one request; create them anew for each request.
 *
 * @param auth the scope, transport, token source and fetch of the client
 * @returns `hooks` and `fetch` options to merge into the request's options
 */
export function authRequestOptions(auth: RequestAuth): AuthRequestOptions {
  let token = '';
  let retried = false;
  return {
    fetch: (input, init) => sendWithToken(input as Request, init, token, auth),
    hooks: {
      beforeRequest: [
        async () => {
          token = await auth.token();
        },
      ],
      afterResponse: [
        (request, _options, response) => {
          if (response.status !== 401) return;
          if (auth.target.permanentToken) throw new PermanentTokenRejectedError(auth.target.permanentTokenKey, response);
          if (!retried) {
            retried = true;
            auth.invalidate(token);
            return ky.retry({ delay: 0, code: 'TOKEN_REJECTED' });
          }
          throw new UnauthorizedError(
            auth.redact(
              `${request.method} ${new URL(request.url).pathname} was refused (401) with a freshly fetched token for scope ` +
                `"${auth.target.scope}": check that SLICER_SERVICE_ID / SLICER_PREDICT_SERVICE_ID name this service`,
            ),
            response,
          );
        },
      ],
    },
  };
}
