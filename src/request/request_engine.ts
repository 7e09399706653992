/**
 * The request engine: the one place that sends a request with a scope's token (contract 5.1). `tokenFetch` is the
 * engine with the platform's fetch signature; `authedFetch` is ky with a lane's `fetch` as its fetch. Every request
 * goes the same way:
 *
 * 1. the scope: `init.scope`, else the service whose base URL the URL is under (a relative path goes under the
 *    scope's base URL);
 * 2. origin binding: a URL outside the scope's origin and the allowed ones is sent as it is, without the token (one
 *    warning per origin);
 * 3. the token: at once when it is ready, else awaited (single flight);
 * 4. the body made replayable by the wire (a stream is read once), so that a 401 retry and a 307/308 hop can send it
 *    again;
 * 5. the wire (`request_wire.ts`): the token attached by header or `token` argument, same-origin redirects followed
 *    from each answer;
 * 6. a 401: a permanent token is refused at once; a temporary one is dropped everywhere it is cached and the request
 *    sent once more with a fresh one; a second 401 ends it. `tokenFetch` returns that answer, ky's fetch throws it as
 *    an {@link AuthError}. After a fresh token was refused too, a 401 ends a request at once for a pause (1 s, doubled
 *    for each such refusal in a row, at most 30 s; an answer that is no 401 ends it): a service that refuses every
 *    token does not cost a token request per call.
 *
 * The token is never set on a caller's `Request` (ky keeps its own in `HTTPError` and `TimeoutError`): it goes only
 * into the options given to fetch.
 */
import { PermanentTokenRejectedError, UnauthorizedError } from '../errors.ts';
import type { AuthEvent } from '../events.ts';
import type { FetchLike } from '../fetch.ts';
import type { Redactor } from '../redact.ts';
import { isRelative, stripSlashes } from './request_url.ts';
import { type Outgoing, outgoing, sendFollowing, type Wire } from './request_wire.ts';
import type { TokenTransport } from '../settings/config.ts';
import type { ScopeTarget, ScopeTargets } from '../settings/scope_target.ts';
import { DEFAULT_SERVICE, type ScopeInput, SERVICES } from '../settings/services.ts';
import { SETTINGS } from '../settings/settings.ts';
import { isSafeUrl, mayReceiveToken } from '../settings/url_policy.ts';
import { Pause } from '../token_cache/grant_pause.ts';

/** `fetch`'s options, plus the scope (by default, the service whose base URL the URL is under). */
export type TokenFetchInit = RequestInit & { scope?: ScopeInput | undefined };

/** The platform's fetch signature, with the token attached; as fetch, it never throws: every failure rejects. */
export type TokenFetch = (input: string | URL | Request, init?: TokenFetchInit) => Promise<Response>;

/** Where the engine gets tokens: the client's token cache and permanent tokens. */
export interface TokenSupply {
  /** A token that can be sent at once, without waiting (permanent, or cached and current); else undefined. */
  ready(target: ScopeTarget): string | undefined;
  /** Whether the token can be sent without a token request (confirming a shared store's aside): no hit reported. */
  has(target: ScopeTarget): boolean;
  /** The scope's token, waiting for a token request when needed; the signal ends this caller's wait. */
  get(target: ScopeTarget, signal?: AbortSignal): Promise<string>;
  /** Forgets a token a service refused, everywhere it is cached, if it is still the cached one. */
  drop(target: ScopeTarget, token: string): Promise<void>;
}

/** What {@link createRequestEngine} needs. */
export interface EngineOptions {
  /** The client's scopes: each one's base URL, token source and allowed origins. */
  readonly targets: ScopeTargets;
  /** How the token travels (contract 5.1). */
  readonly transport: TokenTransport;
  /** Whether tokens may go over plain http to a host that is not loopback. */
  readonly allowInsecureHttp: boolean;
  /** The fetch that finally sends. */
  readonly fetch: FetchLike;
  readonly tokens: TokenSupply;
  /** Removes the client's known secrets from a message. */
  readonly redact: Redactor;
  /** Where a warning goes (a request sent without the token, once per origin). */
  readonly warn: (message: string) => void;
  /** Receives `token.unauthorized` events; undefined when nobody listens. */
  readonly emit?: ((event: AuthEvent) => void) | undefined;
  /** Refuses a call once the client is closed. */
  readonly open: (call: string) => void;
  /** Monotonic clock, ms: when a pause after a fresh token's 401 ends. */
  readonly now: () => number;
}

/** One scope's way through the engine, for one kind of URL (relative or absolute): made once, shared by requests. */
export interface Lane {
  readonly target: ScopeTarget;
  /** ky's `fetch`: the engine, a final 401 thrown as `UNAUTHORIZED` or `PERMANENT_TOKEN_REJECTED`; `init` adds fetch options. */
  readonly fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  /** `tokenFetch`'s way: the engine, a final 401 returned as the platform's fetch returns any status. */
  readonly standard: (input: Request | string, init?: RequestInit) => Promise<Response>;
  /** ky's `beforeRequest` hook: waits for a token that is not ready, before ky's timeout starts. */
  readonly warm: (request: Request) => Promise<void>;
  /** Whether the token can be sent without a token request: then ky needs no hook that waits for one. */
  readonly ready: () => boolean;
}

/** The engine of one client. */
export interface RequestEngine {
  /** The platform's fetch with the token. */
  readonly tokenFetch: TokenFetch;
  /**
   * The lane of a scope and URL kind; without a scope, the scope of the absolute `url` ({@link ScopeTargets.scopeOf}), else the
   * default service's.
   * @throws {ConfigError} `CONFIG_INVALID` when the scope lacks a setting it needs
   */
  lane(scope: ScopeInput | undefined, relative: boolean, url?: string): Lane;
}

/**
 * Creates the engine of a client.
 *
 * @param options scopes, transport, fetch, token supply and the client's sinks
 * @returns `tokenFetch` and the lanes ky sends through
 */
export function createRequestEngine(options: EngineOptions): RequestEngine {
  const { targets, tokens, emit } = options;
  /** Lanes by scope, for absolute URLs and for relative paths (which need the scope's base URL). */
  const lanes = { absolute: new Map<string, Lane>(), relative: new Map<string, Lane>() };
  /** By scope: the pause after fresh tokens refused (401), in which a 401 ends a request at once. */
  const refusals = new Map<string, Pause>();
  function lane(scope: ScopeInput | undefined, relative: boolean, url?: string): Lane {
    const kind = relative ? lanes.relative : lanes.absolute;
    const key = scope ?? (url === undefined ? DEFAULT_SERVICE.name : targets.scopeOf(url));
    let found = kind.get(key);
    if (!found) kind.set(key, found = makeLane(targets.resolve(key, relative)));
    return found;
  }

  function makeLane(target: ScopeTarget): Lane {
    const trusted = trustedPrefix(target.baseUrl);
    const home = target.baseUrl && new URL(target.baseUrl).origin;
    const wire: Wire = {
      transport: options.transport,
      fetch: options.fetch,
      allowInsecureHttp: options.allowInsecureHttp,
      trusted,
      urlKey: (url) => (new URL(url).origin === home ? target.baseUrlKey : SETTINGS.allowedOrigins.env),
    };
    /** Origin binding: under the base URL (one prefix test, no URL parsed), or an origin that may receive the token. */
    // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression: a shortcut; mayReceiveToken decides the same
    const mayCarry = (url: string) => (trusted !== undefined && url.startsWith(trusted)) || mayReceiveToken(url, target.origins);
    const warned = new Set<string>();
    /** The token ky's hook waited for, by the Request ky then hands its fetch: sent without a second look (or hit). */
    const awaited = new WeakMap<Request, string>();
    const refusedFresh = refusals.get(target.scope) ?? new Pause(options.now);
    refusals.set(target.scope, refusedFresh);

    /** A request to an origin that may not receive the token goes out as it is, without it; said once per origin. */
    function untouched(input: string | Request, init: RequestInit | undefined): Promise<Response> {
      // Stryker disable next-line OptionalChaining: a string comes with its options object (tokenFetch passes the rest of its own)
      const request = typeof input === 'string' ? { url: input, method: init?.method?.toUpperCase() ?? 'GET' } : input;
      const origin = URL.canParse(request.url) ? new URL(request.url).origin : undefined; // else fetch fails on it, unsent
      if (origin !== undefined && !warned.has(origin)) {
        warned.add(origin);
        options.warn(options.redact(
          `Sent ${request.method} ${origin} without the token of scope "${target.scope}": a token goes only to the origin of ` +
            `${target.baseUrlKey}; list the origin in ${SETTINGS.allowedOrigins.env} (option allowedOrigins) if it must receive it`,
        ));
      }
      return options.fetch(input, init);
    }

    /**
     * Sends with the token; `answer401` says what a final 401 is: an answer (tokenFetch), or an error (ky's fetch).
     * The caller's signal ends its wait for a token too.
     */
    async function send(input: string | Request, init: RequestInit | undefined, answer401: boolean): Promise<Response> {
      // Stryker disable next-line OptionalChaining: as in untouched
      const signal = typeof input === 'string' ? init?.signal : input.signal;
      if (!mayCarry(typeof input === 'string' ? input : input.url)) return untouched(input, init);
      // Stryker disable next-line ConditionalExpression,StringLiteral: a WeakMap holds no string key; the test is for the types
      const token = (typeof input === 'string' ? undefined : awaited.get(input)) ?? tokens.ready(target) ??
        (await tokens.get(target, signal ?? undefined));
      const request = await outgoing(input, init, options.transport);
      const response = await sendFollowing(request, token, wire);
      if (response.status === 401) return refused(request, token, response, answer401, signal ?? undefined);
      refusedFresh.succeeded();
      return response;
    }

    /** After a 401: a permanent token is refused; a temporary one is dropped and the request sent once more. */
    async function refused(request: Outgoing, token: string, response: Response, answer401: boolean, signal?: AbortSignal) {
      if (target.permanentToken) {
        emit?.({ type: 'token.unauthorized', scope: target.scope, retried: false });
        if (answer401) return response;
        throw new PermanentTokenRejectedError(target.permanentTokenKey, response);
      }
      const held = refusedFresh.holds((seconds) =>
        options.warn(
          `A freshly fetched token for scope "${target.scope}" was refused (401) too; ` +
            `for ${seconds} s a 401 ends a request, without another token request`,
        )
      );
      if (held) return final(request, response, answer401);
      await response.body?.cancel().catch(() => undefined);
      emit?.({ type: 'token.unauthorized', scope: target.scope, retried: true });
      await tokens.drop(target, token);
      const again = await sendFollowing(request, await tokens.get(target, signal), wire);
      if (again.status !== 401) {
        refusedFresh.succeeded();
        return again;
      }
      refusedFresh.failed();
      return final(request, again, answer401);
    }

    /** A 401 that ends a request: `tokenFetch` returns it, ky's fetch throws it. */
    function final(request: Outgoing, response: Response, answer401: boolean): Response {
      emit?.({ type: 'token.unauthorized', scope: target.scope, retried: false });
      if (answer401) return response;
      // Stryker disable next-line OptionalChaining,StringLiteral: only ky's fetch throws here, with a Request, whose method outgoing copies
      const method = request.init.method?.toUpperCase() ?? 'GET';
      throw new UnauthorizedError(
        options.redact(
          `${method} ${new URL(request.url).pathname} was refused (401) with a freshly ` +
            `fetched token for scope "${target.scope}": check that ${SERVICES.map((s) => s.id.env).join(' / ')} name this service`,
        ),
        response,
      );
    }

    return {
      target,
      fetch: (input, init) => send(input instanceof URL ? input.href : input, init, false),
      standard: (input, init) => send(input, init, true),
      warm: async (request) => {
        // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: a ready token needs no wait; waiting anyway gives it too
        if (mayCarry(request.url) && !tokens.has(target)) awaited.set(request, await tokens.get(target, request.signal));
      },
      // Stryker disable next-line all: chooses ky options without the waiting hook when it has nothing to wait for; the hook would find the token ready
      ready: () => tokens.has(target),
    };
  }

  const tokenFetch: TokenFetch = async (input, init) => {
    options.open('tokenFetch');
    const { scope, ...rest } = init ?? {};
    if (isRelative(input)) {
      const relative = lane(scope, true); // resolving a relative lane's scope checked that it has a base URL
      return relative.standard(`${relative.target.baseUrl as string}/${stripSlashes(input)}`, rest);
    }
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const absolute = lane(scope, false, url);
    // A Request with options is the Request those options make, as fetch reads it.
    if (input instanceof Request) return absolute.standard(init ? new Request(input, rest) : input);
    return absolute.standard(url, rest);
  };

  return { tokenFetch, lane };
}

/** The base URL as a prefix of URLs that may carry a token without another check, when it is itself safe. */
// Stryker disable next-line ArrowFunction,ConditionalExpression: a shortcut past URL parsing; without it every URL is checked as the base URL was
const trustedPrefix = (baseUrl: string | undefined) => (baseUrl && isSafeUrl(new URL(baseUrl)) ? `${baseUrl}/` : undefined);
