/**
 * `createAuthClient`: one user at one authorization service, with its own
 * token cache. Wiring only: data flows env → config → token source → stores
 * → token cache → request engine (tokenFetch) → ky on top (authedFetch).
 */
import * as v from 'valibot';
import { type Clock, systemClock } from './clock.ts';
import { closest } from './closest.ts';
import { DEFAULTS } from './defaults.ts';
import { ClientClosedError, ConfigError } from './errors.ts';
import { type FetchLike, globalFetch, type Logger } from './fetch.ts';
import type { TokenInfo } from './grant.ts';
import { printedWithoutToken, redactor } from './redact.ts';
import { type AuthedFetchOptions, createAuthedFetch } from './request/authed_fetch.ts';
import { createRequestEngine } from './request/request_engine.ts';
import { type Credentials, type Needs, parseConfig, secretsOf } from './settings/config.ts';
import { readEnv } from './settings/env.ts';
import { type ScopeTarget, scopeTargets } from './settings/scope_target.ts';
import { FORMER_OPTIONS, SETTINGS } from './settings/settings.ts';
import { selectStore } from './stores/select.ts';
import type { TokenStore } from './stores/store.ts';
import { createEmitter, shows } from './telemetry/telemetry.ts';
import { pauseAfterFailure } from './token_cache/grant_pause.ts';
import { type ProcessShare, processShare } from './token_cache/process_share.ts';
import { createSharedGrants } from './token_cache/shared_grants.ts';
import { createTokenCache, type GetTokenOptions, type TokenCache } from './token_cache/token_cache.ts';
import { createTokenSource } from './token_source/token_source.ts';

export type { FetchLike, Logger };
import { type AuthClient, type AuthClientOptions, checkGetOptions, CODE_OPTIONS } from './client_types.ts';
export type { AuthClient, AuthClientOptions, TokenFetch, TokenFetchInit } from './client_types.ts';

/**
 * The console, each line prefixed with the module's name and written to standard error: `console.info` and
 * `console.debug` would write to standard output, into what a script prints (`node job.ts > result.json`).
 */
function prefixed(target: Console): Logger {
  return {
    error: (message) => target.error(`[slicer-auth] ${message}`),
    warn: (message) => target.warn(`[slicer-auth] ${message}`),
    info: (message) => target.error(`[slicer-auth] ${message}`),
    debug: (message) => target.error(`[slicer-auth] ${message}`),
  };
}

/**
 * Creates a client from the environment, `.env` and options.
 *
 * @param options settings (override variables), transport and clock
 * @returns the client
 * @throws {ConfigError} `CONFIG_INVALID` listing every missing or malformed setting
 * @throws {InsecureUrlError} `INSECURE_AUTH_URL` for a password over plain http to a non-loopback host
 * @example
 * ```ts
 * const client = createAuthClient({ username: 'ci-bot', password: process.env.BOT_PASSWORD });
 * const jobs = await client.authedFetch('jobs').json();
 * ```
 */
export function createAuthClient(options: AuthClientOptions = {}): AuthClient {
  return buildClient(options);
}

/** ky's options a caller may give createAuthClient itself, meaning them for every call: they belong under `ky`. */
const KY_OPTIONS = [
  'prefixUrl',
  'timeout',
  'retry',
  'hooks',
  'headers',
  'throwHttpErrors',
  'searchParams',
  'parseJson',
  'stringifyJson',
] as const satisfies readonly (keyof AuthedFetchOptions)[];

/**
 * Refuses options the client does not take, and code options that do not hold what they must: a mistyped option
 * (`authURL`) would be ignored, and the client would run on the environment's value instead; a `tokenRetries` of
 * `Infinity` would retry forever. Settings are checked with the environment, by `parseConfig`.
 *
 * @param options the options given
 * @throws {ConfigError} `CONFIG_INVALID` naming each unknown option, with the closest known one, and each bad value
 */
function assertOptions(options: AuthClientOptions): void {
  const known = [...Object.keys(SETTINGS), ...Object.keys(CODE_OPTIONS)];
  const unknown = Object.keys(options).filter((key) => !known.includes(key) && !(key in FORMER_OPTIONS));
  const malformed = Object.entries(CODE_OPTIONS).flatMap(([key, schema]) => {
    const value = options[key as keyof typeof CODE_OPTIONS];
    const checked = value === undefined ? undefined : v.safeParse(schema, value);
    return checked && !checked.success ? [{ key, message: checked.issues[0].message }] : [];
  });
  if (unknown.length + malformed.length === 0) return;
  // A variable's name, or its camelCase (`tokenTransport`), names the setting's option (`transport`).
  const bare = (name: string) => name.toLowerCase().replace('slicer_', '').replace(/_/g, '');
  throw new ConfigError([
    ...unknown.map((key) => {
      const variable = Object.entries(SETTINGS).find(([, setting]) => bare(setting.env) === bare(key));
      const near = closest(key, known);
      const hint = (KY_OPTIONS as readonly string[]).includes(key)
        ? ` (a ky option: give it as ky: { ${key} })`
        : variable
        ? ` (did you mean ${variable[0]}? the option for ${variable[1].env})`
        : near
        ? ` (did you mean ${near}?)`
        : '';
      return { key, message: `not an option of createAuthClient${hint}` };
    }),
    ...malformed,
  ]);
}

/**
 * {@link createAuthClient}, told what its first call will need, so that a
 * configuration error lists that too (the lazy default client uses it).
 *
 * @param options as for createAuthClient
 * @param needs the scope and URL kind of the first call (none given: the default scope's)
 * @returns the client
 */
export function buildClient(options: AuthClientOptions, needs: Needs = {}): AuthClient {
  assertOptions(options);
  const env = readEnv(options);
  const config = parseConfig(env, options, needs);
  const secrets = secretsOf(config);
  const targets = scopeTargets(config);
  /** Every message and event text of this client goes through this: the client's secrets removed. */
  const clean = redactor(secrets);
  const send = options.fetch ?? globalFetch;
  const clock: Clock = options.now ? { ...(options.clock ?? systemClock), now: options.now } : options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const logger = options.logger ?? prefixed(console);
  const level = config.logLevel;
  const warn = shows(level, 'warn')
    ? (message: string) => {
      try {
        logger.warn(clean(message));
      } catch {
        // A logger's failure never fails a request, as a listener's does not.
      }
    }
    : () => undefined;
  const emit = createEmitter({
    onEvent: options.onEvent,
    logger,
    level,
    openTelemetry: options.openTelemetry ?? DEFAULTS.openTelemetry,
    wallNow: () => clock.wallNow(),
    redact: clean,
  });
  let cache: TokenCache | undefined;
  let store: TokenStore | undefined;
  let closed = false;
  /** Refuses any call once the client is closed. */
  const open = (call: string) => {
    if (closed) throw new ClientClosedError(call);
  };

  const marginMs = config.refreshMarginSeconds === undefined ? undefined : config.refreshMarginSeconds * 1000;

  /** The layers under the cache, made on first use, in the order data flows up: token source, store, token cache. */
  function tokens(credentials: Credentials): TokenCache {
    if (cache) return cache;
    const source = createTokenSource({
      ...credentials,
      fetch: send,
      clock,
      random,
      timeoutMs: options.tokenTimeoutMs,
      retries: options.tokenRetries,
      redact: clean,
      emit,
    });
    const configured = selectStore({
      store: options.store,
      storeUrl: config.storeUrl,
      storeKey: config.storeKey,
      cacheFile: config.cacheFile,
      wallNow: () => clock.wallNow(),
    });
    // With no store configured, the clients of this process with these credentials and clock share their tokens and
    // pauses. A token one of them holds in memory is theirs alike: it needs no confirming.
    let share: ProcessShare | undefined;
    const held = configured ?? (share = processShare(credentials, clock)).store;
    store = held;
    const paused = pauseAfterFailure(source, { now: () => clock.now(), wallNow: () => clock.wallNow(), warn, failures: share?.failures });
    const shared = createSharedGrants(paused, {
      store: held,
      authUrl: credentials.authUrl,
      username: credentials.username,
      clock,
      marginMs,
      warn,
      emit,
    });
    cache = createTokenCache({
      fetchGrant: shared.fetchGrant,
      confirm: share ? undefined : shared.confirm,
      forget: shared.forget,
      now: () => clock.now(),
      random,
      marginMs,
      warn,
      emit,
    });
    return cache;
  }

  /** The token of a scope with what is known of it. */
  async function infoFor(target: ScopeTarget, getOptions?: GetTokenOptions): Promise<TokenInfo> {
    open('getTokenInfo');
    if (target.permanentToken) {
      return printedWithoutToken<TokenInfo>({
        token: target.permanentToken.reveal(),
        scope: target.scope,
        expiresAt: undefined,
        obtainedAt: undefined,
        source: 'permanent',
      });
    }
    // A resolved scope has credentials when no permanent token covers it.
    const held = await tokens(target.credentials as Credentials).get(target.scope, getOptions);
    const wall = (monotonic: number) => new Date(clock.wallNow() + (monotonic - clock.now()));
    return printedWithoutToken<TokenInfo>({
      token: held.grant.token,
      scope: target.scope,
      expiresAt: wall(held.grant.expiresAt),
      obtainedAt: wall(held.obtainedAt),
      source: held.origin,
    });
  }

  function tokenFor(target: ScopeTarget, getOptions?: GetTokenOptions): Promise<string> {
    open('getToken');
    if (target.permanentToken) return Promise.resolve(target.permanentToken.reveal());
    return tokens(target.credentials as Credentials).get(target.scope, getOptions).then((held) => held.grant.token);
  }

  const engine = createRequestEngine({
    targets,
    transport: config.transport,
    allowInsecureHttp: config.allowInsecureHttp,
    fetch: send,
    tokens: {
      // Stryker disable next-line ArrowFunction: a shortcut; without a ready token the engine asks get for the same one
      ready: (target) => (target.permanentToken ? target.permanentToken.reveal() : cache?.peek(target.scope)),
      // Stryker disable next-line ConditionalExpression,LogicalOperator,ArrowFunction: a shortcut; a token taken as not held is awaited in ky's hook, and get hands a held one (or a permanent one) out at once
      has: (target) => target.permanentToken !== undefined || cache?.holds(target.scope) === true,
      get: (target, signal) => tokenFor(target, { signal }),
      // Stryker disable next-line OptionalChaining: the engine drops only a token the cache gave, so there is a cache
      drop: async (target, token) => cache?.invalidate(target.scope, token),
    },
    redact: clean,
    warn,
    emit,
    open,
    now: () => clock.now(),
  });

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    await cache?.settled();
    await store?.close?.();
  }

  return {
    baseUrl: (scope) => targets.baseUrl(scope),
    getToken: async (scope, getOptions) => tokenFor(targets.resolve(scope), checkGetOptions(getOptions)),
    getTokenInfo: async (scope, getOptions) => infoFor(targets.resolve(scope), checkGetOptions(getOptions)),
    authedFetch: createAuthedFetch(engine, open, options.ky),
    tokenFetch: engine.tokenFetch,
    async invalidate(scope) {
      open('invalidate');
      if (scope === undefined) return cache?.invalidate();
      const target = targets.resolve(scope);
      // A scope's token is forgotten in the shared store even when this process never held it.
      if (!target.permanentToken) await tokens(target.credentials as Credentials).invalidate(target.scope);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
