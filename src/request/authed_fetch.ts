/**
 * `authedFetch`: ky with the request engine as its `fetch`. A callable with
 * ky's method shortcuts, `extend`, `create` and `stop`, whose options take a
 * `scope`. Here a call's URL is resolved (a relative path under the scope's
 * base URL and a relative `prefixUrl`; an absolute `prefixUrl` is ky's) and
 * its ky options are made; the engine's lane does the rest: the token, origin
 * binding, the 401, redirects (`request_engine.ts`).
 */
import ky, { type Input, type KyInstance, type Options, type ResponsePromise, type RetryOptions } from 'ky';
import { isAuthError } from '../errors.ts';
import type { Lane, RequestEngine } from './request_engine.ts';
import { isRelative, stripSlashes } from './request_url.ts';
import type { ScopeInput } from '../settings/services.ts';

/** Options of one authenticated request: ky's options plus the scope. */
export interface AuthedFetchOptions extends Options {
  /**
   * Which service, and so which token and base URL.
   * @default the service an absolute URL goes to (its base URL, else its origin); "slicer" for a relative path
   */
  scope?: ScopeInput | undefined;
}

/** Sends one authenticated request. */
export type AuthedCall = (input: Input, options?: AuthedFetchOptions) => ResponsePromise;

/**
 * An authenticated ky-like instance: `authedFetch(path, options)` plus
 * `.get/.post/.put/.patch/.delete/.head`. Relative paths resolve against the
 * scope's base URL (under a relative `prefixUrl` if one is set; an absolute
 * `prefixUrl` is used as ky uses it); absolute URLs are used as they are.
 * A token goes only to the scope's origin or an allowed one.
 */
export type AuthedFetch = AuthedCall & {
  readonly get: AuthedCall;
  readonly post: AuthedCall;
  readonly put: AuthedCall;
  readonly patch: AuthedCall;
  readonly delete: AuthedCall;
  readonly head: AuthedCall;
  /**
   * A new instance with these defaults merged over this one's (ky's rules: headers merged, hooks appended),
   * keeping the token, the refresh and the origin binding. A function gets this instance's defaults.
   */
  readonly extend: (defaults: AuthedFetchOptions | ((parent: AuthedFetchOptions) => AuthedFetchOptions)) => AuthedFetch;
  /** A new instance with only these defaults (and the client's), keeping the token, the refresh and the origin binding. */
  readonly create: (defaults: AuthedFetchOptions) => AuthedFetch;
  /** ky's `stop`: return it from a `beforeRetry` hook to stop retrying. */
  readonly stop: typeof ky.stop;
};

/** An instance's defaults: a ky instance holding the ky options, and the ones resolved here. */
export interface Defaults {
  /** Every default ky merges itself (headers, hooks, timeout, …). */
  readonly ky: KyInstance;
  /** Every default, as given (scope, prefixUrl and retry are applied by the client). */
  readonly options: AuthedFetchOptions;
}

/** Sends one request with an instance's defaults. */
export type Sender = (input: Input, options: AuthedFetchOptions | undefined, defaults: Defaults | undefined) => ResponsePromise;

/**
 * Defaults merged over others.
 *
 * @param parent the defaults extended (undefined: none)
 * @param more the new defaults
 * @returns the merged defaults
 */
function extendDefaults(parent: Defaults | undefined, more: AuthedFetchOptions): Defaults {
  // The scope, the prefix and the retry rule are the client's to apply; ky merges the rest.
  const { scope: _scope, prefixUrl: _prefixUrl, retry: _retry, ...rest } = more;
  return { ky: (parent?.ky ?? ky).extend(rest), options: { ...parent?.options, ...more } };
}

/**
 * The authedFetch of a sender and its defaults (a client's, or none).
 *
 * @param send sends one request
 * @param defaults the client's defaults, where `create` starts from too
 * @returns the callable with `.get`, `.post`, …, `.extend`, `.create` and `.stop`
 */
export function authedFetchOf(send: Sender, defaults?: Defaults): AuthedFetch {
  return instance(send, defaults, defaults);
}

/** An instance with its own defaults, and the client's for `create`. */
function instance(send: Sender, defaults: Defaults | undefined, base: Defaults | undefined): AuthedFetch {
  const call: AuthedCall = (input, options) => send(input, options, defaults);
  const shortcut = (method: string): AuthedCall => (input, options) => send(input, { ...options, method }, defaults);
  const members: Omit<AuthedFetch, keyof AuthedCall> = {
    get: shortcut('get'),
    post: shortcut('post'),
    put: shortcut('put'),
    patch: shortcut('patch'),
    delete: shortcut('delete'),
    head: shortcut('head'),
    extend: (more: AuthedFetchOptions | ((parent: AuthedFetchOptions) => AuthedFetchOptions)) =>
      instance(send, extendDefaults(defaults, typeof more === 'function' ? more({ ...defaults?.options }) : more), base),
    create: (fresh: AuthedFetchOptions) => instance(send, extendDefaults(base, fresh), base),
    stop: ky.stop,
  };
  return Object.assign(call, members);
}

/**
 * The caller's retry options, with one rule added: the engine's own errors
 * (configuration, token endpoint, 401) are never retried by ky. The 401
 * refresh is the engine's, not a ky retry, so `retry: 0` means no retry.
 */
function guardedRetry(retry: Options['retry']): RetryOptions {
  const asked: RetryOptions = typeof retry === 'number' ? { limit: retry } : (retry ?? {});
  return { ...asked, shouldRetry: (state) => (isAuthError(state.error) ? false : asked.shouldRetry?.(state)) };
}

/**
 * The URL of a call that is not resolved here, as ky makes it: under an absolute `prefixUrl` for a string, else the
 * input's own.
 *
 * @param input the call's input
 * @param prefix its absolute `prefixUrl`, if any
 * @returns the URL
 */
function absoluteUrl(input: Input, prefix: Options['prefixUrl']): string {
  if (input instanceof Request) return input.url;
  return prefix && typeof input === 'string' ? `${String(prefix).replace(/\/*$/, '/')}${input}` : String(input);
}

/** The retry options of a call that sets none: made once. */
const DEFAULT_RETRY = guardedRetry(undefined);

/** The ky options of a lane for a call that sets none: with the token ready, and with the hook that waits for it. */
interface LaneOptions {
  readonly ready: Options;
  readonly waiting: Options;
}

/**
 * A client's authedFetch over its request engine.
 *
 * @param engine the client's engine
 * @param open refuses a call once the client is closed
 * @param clientDefaults ky options every call of the client starts from (`createAuthClient({ ky })`)
 * @returns the callable with `.get`, `.post`, …, `.extend`, `.create` and `.stop`
 */
export function createAuthedFetch(engine: RequestEngine, open: (call: string) => void, clientDefaults?: AuthedFetchOptions): AuthedFetch {
  const made = new WeakMap<Lane, LaneOptions>();
  /** A lane's options for calls without options, made once: ky gets `fetch` and `retry`, and the hook only while it waits. */
  function laneOptions(lane: Lane): LaneOptions {
    let options = made.get(lane);
    // Stryker disable next-line ConditionalExpression: made again on every call, a lane's options are the same ones
    if (!options) {
      const ready: Options = { fetch: lane.fetch, retry: DEFAULT_RETRY };
      made.set(lane, options = { ready, waiting: { ...ready, hooks: { beforeRequest: [lane.warm] } } });
    }
    return options;
  }

  const call: Sender = (input, callOptions, defaults) => {
    open('authedFetch');
    const kyOf = defaults?.ky ?? ky;
    const prefix = callOptions?.prefixUrl ?? defaults?.options.prefixUrl;
    // An absolute prefixUrl is ky's to apply (the token then goes by origin); a relative one goes under the base URL.
    const absolutePrefix = prefix !== undefined && !isRelative(prefix);
    const relative = isRelative(input) && !absolutePrefix;
    // Without a scope, an absolute URL's is that of the service it goes to, as for tokenFetch.
    const lane = engine.lane(
      callOptions?.scope ?? defaults?.options.scope,
      relative,
      relative ? undefined : absoluteUrl(input, absolutePrefix ? prefix : undefined),
    );
    // A relative path is resolved here, not with ky's prefixUrl: two options fewer to merge on every call. (The lane's
    // scope has a base URL: resolving it for a relative path checked that.)
    const url = relative
      ? `${lane.target.baseUrl as string}/${prefix ? stripSlashes(String(prefix)).replace(/\/*$/, '/') : ''}${
        stripSlashes(input as string)
      }`
      : input;
    const retry = callOptions?.retry ?? defaults?.options.retry;
    const { ready, waiting } = laneOptions(lane);
    // The common case: options made once.
    // Stryker disable next-line ConditionalExpression: a shortcut; the general path below makes the same options
    if (callOptions === undefined && retry === undefined && !absolutePrefix) return kyOf(url, lane.ready() ? ready : waiting);
    const { scope: _scope, hooks, retry: _retry, prefixUrl: _prefixUrl, ...kyOptions } = callOptions ?? {};
    return kyOf(url, {
      ...kyOptions,
      prefixUrl: absolutePrefix ? prefix : '', // a relative prefix and the scope's base URL are already in front
      ...ready,
      retry: guardedRetry(retry),
      ...(hooks
        ? { hooks: { ...hooks, beforeRequest: [lane.warm, ...(hooks.beforeRequest ?? [])] } }
        : lane.ready()
        ? {}
        : { hooks: waiting.hooks }),
    });
  };
  return authedFetchOf(call, clientDefaults === undefined ? undefined : extendDefaults(undefined, clientDefaults));
}
