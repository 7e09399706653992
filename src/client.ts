/**
 * `createAuthClient`: one user at one authorization service, with its own
 * token cache. Data flows env → config → token source → stores → token cache
 * → request auth → ky (authedFetch) or the platform's fetch (tokenFetch).
 */
import ky, { type Input, type Options, type ResponsePromise, type RetryOptions } from 'ky';
import { authedFetchOf, type AuthedFetchOptions, type Defaults, extendDefaults } from './authed_fetch.ts';
import { type Clock, systemClock } from './clock.ts';
import { type Credentials, type Needs, parseConfig, secretsOf } from './config.ts';
import { readEnv } from './env.ts';
import { ClientClosedError, isAuthError } from './errors.ts';
import { type FetchLike, globalFetch, type Logger } from './fetch.ts';
import type { TokenInfo } from './grant.ts';
import { redact } from './redact.ts';
import { type AuthOptions, authOptions } from './request_auth.ts';
import type { ScopeInput } from './scope.ts';
import { isRelative, stripSlashes } from './request_url.ts';
import { resolveScope, type ScopeTarget } from './scope_target.ts';
import { createSharedGrants } from './shared_grants.ts';
import { selectStore } from './stores/select.ts';
import type { TokenStore } from './stores/store.ts';
import { createTokenCache, type GetTokenOptions, type TokenCache } from './token_cache.ts';
import { createEmitter, shows } from './telemetry.ts';
import { createTokenSource } from './token_source.ts';

export type { FetchLike, Logger };
import type { AuthClient, AuthClientOptions, TokenFetch } from './client_types.ts';
export type { AuthClient, AuthClientOptions, TokenFetch, TokenFetchInit } from './client_types.ts';

/** The console, each line prefixed with the module's name. */
function prefixed(target: Console): Logger {
  return {
    error: (message) => target.error(`[slicer-auth] ${message}`),
    warn: (message) => target.warn(`[slicer-auth] ${message}`),
    info: (message) => target.info(`[slicer-auth] ${message}`),
    debug: (message) => target.debug(`[slicer-auth] ${message}`),
  };
}

/** What a client makes once per scope and URL kind (relative or absolute). */
interface Prepared {
  /** The resolved scope. */
  readonly target: ScopeTarget;
  /** Its base URL with a final slash, for relative paths (else empty). */
  readonly base: string;
  /** The ky options that authenticate it. */
  readonly auth: AuthOptions;
  /** The whole ky options of a call that sets none, when the token is ready. */
  readonly ready: Options;
  /** The same with the token-fetching hook, when it is not. */
  readonly waiting: Options;
}

/**
 * The caller's retry options, with one rule added: our own errors
 * (configuration, token endpoint, 401) are never retried by ky. The 401
 * refresh is not a ky retry (see `request_auth.ts`), so `retry: 0` means no retry.
 */
function guardedRetry(retry: Options['retry']): RetryOptions {
  const asked: RetryOptions = typeof retry === 'number' ? { limit: retry } : (retry ?? {});
  return { ...asked, shouldRetry: (state) => (isAuthError(state.error) ? false : asked.shouldRetry?.(state)) };
}

/** The retry options of a call that sets none: made once. */
const DEFAULT_RETRY = guardedRetry(undefined);

/**
 * Creates a client from the environment, `.env` and options.
 *
 * @param options settings (override variables), transport and clock
 * @returns the client
 * @throws {ConfigError} `CONFIG_INVALID` listing every missing or malformed setting
 * @throws {InsecureAuthUrlError} `INSECURE_AUTH_URL` for a password over plain http to a non-loopback host
 * @example
 * ```ts
 * const client = createAuthClient({ username: 'ci-bot', password: process.env.BOT_PASSWORD });
 * const jobs = await client.authedFetch('jobs').json();
 * ```
 */
export function createAuthClient(options: AuthClientOptions = {}): AuthClient {
  return buildClient(options);
}

/**
 * {@link createAuthClient}, told what its first call will need, so that a
 * configuration error lists that too (the lazy default client uses it).
 *
 * @param options as for createAuthClient
 * @param needs the scope and URL kind of the first call
 * @returns the client
 */
export function buildClient(options: AuthClientOptions, needs: Needs = { scope: 'slicer' }): AuthClient {
  const config = parseConfig(readEnv(options), options, needs);
  const send = options.fetch ?? globalFetch;
  const clock: Clock = options.now ? { ...(options.clock ?? systemClock), now: options.now } : options.clock ?? systemClock;
  const secrets = secretsOf(config);
  const logger = options.logger ?? prefixed(console);
  const level = config.logLevel;
  const warn = shows(level, 'warn') ? (message: string) => logger.warn(redact(message, secrets)) : () => undefined;
  const emit = createEmitter({
    onEvent: options.onEvent,
    logger,
    level,
    openTelemetry: options.openTelemetry ?? true,
    redact: (text) => redact(text, secrets),
  });
  let cache: TokenCache | undefined;
  let store: TokenStore | undefined;
  let closed = false;
  /** Refuses any call once the client is closed. */
  const open = (call: string) => {
    if (closed) throw new ClientClosedError(call);
  };

  const marginMs = config.refreshMarginSeconds === undefined ? undefined : config.refreshMarginSeconds * 1000;

  function tokens(credentials: Credentials): TokenCache {
    if (cache) return cache;
    const source = createTokenSource({
      ...credentials,
      fetch: send,
      clock,
      timeoutMs: options.tokenTimeoutMs,
      retries: options.tokenRetries,
      emit,
    });
    store = selectStore({ ...config, store: options.store, wallNow: () => clock.wallNow() });
    const shared = store
      ? createSharedGrants(source, { store, authUrl: credentials.authUrl, username: credentials.username, clock, marginMs, warn, emit })
      : undefined;
    cache = createTokenCache({
      fetchGrant: shared?.fetchGrant ?? source,
      confirm: shared?.confirm,
      forget: shared?.forget,
      now: () => clock.now(),
      random: options.random ?? Math.random,
      marginMs,
      warn,
      emit,
    });
    return cache;
  }

  /** A token that is ready now, without a promise: permanent, or cached with no refresh due. */
  function readyToken(target: ScopeTarget): string | undefined {
    return target.permanentToken ? target.permanentToken.reveal() : cache?.peek(target.scope);
  }

  /** The token of a scope with what is known of it. */
  async function infoFor(target: ScopeTarget, getOptions?: GetTokenOptions): Promise<TokenInfo> {
    open('getToken');
    if (target.permanentToken) {
      return {
        token: target.permanentToken.reveal(),
        scope: target.scope,
        expiresAt: undefined,
        obtainedAt: undefined,
        source: 'permanent',
      };
    }
    // resolveScope guarantees credentials when no permanent token covers the scope.
    const held = await tokens(target.credentials as Credentials).get(target.scope, getOptions);
    const wall = (monotonic: number) => new Date(clock.wallNow() + (monotonic - clock.now()));
    return {
      token: held.grant.token,
      scope: target.scope,
      expiresAt: wall(held.grant.expiresAt),
      obtainedAt: wall(held.obtainedAt),
      source: held.origin,
    };
  }

  function tokenFor(target: ScopeTarget, getOptions?: GetTokenOptions): Promise<string> {
    open('getToken');
    if (target.permanentToken) return Promise.resolve(target.permanentToken.reveal());
    return tokens(target.credentials as Credentials).get(target.scope, getOptions).then((held) => held.grant.token);
  }

  /** Per scope and URL kind, made on first use. */
  const prepared = new Map<string, Prepared>();
  function prepare(scope: ScopeInput | undefined, relative: boolean): Prepared {
    const key = relative ? scope ?? 'slicer' : `//${scope ?? 'slicer'}`;
    let entry = prepared.get(key);
    if (!entry) {
      const target = resolveScope(config, scope, relative);
      const auth = authOptions({
        target,
        transport: config.transport,
        token: () => tokenFor(target),
        ready: () => readyToken(target),
        invalidate: async (token) => cache?.invalidate(target.scope, token),
        fetch: send,
        allowInsecureHttp: config.allowInsecureHttp,
        redact: (text) => redact(text, secrets),
        warn,
        emit,
      });
      const ready: Options = { fetch: auth.fetch, retry: DEFAULT_RETRY };
      // resolveScope checked that a relative URL has a base URL.
      entry = { target, base: relative ? `${target.baseUrl as string}/` : '', auth, ready, waiting: { ...ready, hooks: auth.hooks } };
      prepared.set(key, entry);
    }
    return entry;
  }

  function call(input: Input, callOptions: AuthedFetchOptions | undefined, defaults: Defaults | undefined): ResponsePromise {
    open('authedFetch');
    const kyOf = defaults?.ky ?? ky;
    const prefix = callOptions?.prefixUrl ?? defaults?.options.prefixUrl;
    // An absolute prefixUrl is ky's to apply (the token then goes by origin); a relative one goes under the base URL.
    const absolutePrefix = prefix !== undefined && prefix !== '' && !isRelative(prefix);
    const relative = isRelative(input) && !absolutePrefix;
    const entry = prepare(callOptions?.scope ?? defaults?.options.scope, relative);
    // A relative path is resolved here, not with ky's prefixUrl: two options fewer to merge on every call.
    const url = relative
      ? entry.base + (prefix ? stripSlashes(String(prefix)).replace(/\/*$/, '/') : '') + stripSlashes(input as string)
      : input;
    const retry = callOptions?.retry ?? defaults?.options.retry;
    if (callOptions === undefined && retry === undefined && !absolutePrefix) {
      // The common case: options made once. The token-fetching hook only when the token is not ready:
      // a ready one is read in the fetch wrapper.
      return kyOf(url, readyToken(entry.target) === undefined ? entry.waiting : entry.ready);
    }
    const { scope: _scope, hooks, retry: _retry, prefixUrl: _prefixUrl, ...kyOptions } = callOptions ?? {};
    const { target, auth, ready } = entry;
    return kyOf(url, {
      ...kyOptions,
      prefixUrl: absolutePrefix ? prefix : '', // a relative prefix and the scope's base URL are already in front
      ...ready,
      ...(retry === undefined ? {} : { retry: guardedRetry(retry) }),
      ...(hooks
        ? { hooks: { ...hooks, beforeRequest: [...auth.hooks.beforeRequest, ...(hooks.beforeRequest ?? [])] } }
        : readyToken(target) === undefined
        ? { hooks: auth.hooks }
        : {}),
    });
  }

  /** The configured services, longest base URL first, each with the prefix of the URLs under it: made once. */
  const services = ([['slicer', config.baseUrl], ['predict', config.predictBaseUrl]] as const)
    .flatMap(([scope, base]) => (base ? [{ scope, base, under: `${base}/`, origin: new URL(base).origin }] : []))
    .sort((a, b) => b.base.length - a.base.length);

  /** The scope a URL belongs to: the service whose base URL it is under (the longest), else whose origin it has. */
  function scopeOf(url: string): ScopeInput {
    for (const service of services) if (url.startsWith(service.under) || url === service.base) return service.scope;
    const origin = URL.canParse(url) ? new URL(url).origin : undefined;
    return services.find((service) => service.origin === origin)?.scope ?? 'slicer';
  }

  const tokenFetch: TokenFetch = (input, init) => {
    open('tokenFetch');
    if (typeof input === 'string' && isRelative(input)) {
      const entry = prepare(init?.scope, true);
      return entry.auth.standard(entry.base + stripSlashes(input), init);
    }
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const entry = prepare(init?.scope ?? scopeOf(url), false);
    return entry.auth.standard(input instanceof URL ? url : input, init);
  };

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    await cache?.settled();
    await store?.close?.();
  }

  return {
    getToken: async (scope, getOptions) => tokenFor(resolveScope(config, scope), getOptions),
    getTokenInfo: async (scope, getOptions) => infoFor(resolveScope(config, scope), getOptions),
    authedFetch: authedFetchOf(call, options.ky === undefined ? undefined : extendDefaults(undefined, options.ky)),
    tokenFetch,
    async invalidate(scope) {
      open('invalidate');
      if (scope === undefined) return cache?.invalidate();
      const target = resolveScope(config, scope);
      // A scope's token is forgotten in the shared store even when this process never held it.
      if (!target.permanentToken) await tokens(target.credentials as Credentials).invalidate(target.scope);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
