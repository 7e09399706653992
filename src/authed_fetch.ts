/**
 * The `authedFetch` shape: a callable with ky's method shortcuts, `extend`,
 * `create` and `stop`, whose options take a `scope`. The client and the lazy
 * default both make theirs here; the sending itself is the client's.
 */
import ky, { type Input, type KyInstance, type Options, type ResponsePromise } from 'ky';
import type { ScopeInput } from './scope.ts';

/** Options of one authenticated request: ky's options plus the scope. */
export interface AuthedFetchOptions extends Options {
  /**
   * Which service, and so which token and base URL.
   * @default "slicer"
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
export function extendDefaults(parent: Defaults | undefined, more: AuthedFetchOptions): Defaults {
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
