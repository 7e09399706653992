/**
 * The `authedFetch` shape: a callable with ky's method shortcuts, whose
 * options take a `scope`. Both the client and the lazy default use it.
 */
import type { Input, Options, ResponsePromise } from 'ky';
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
 * scope's base URL; absolute URLs are used as they are.
 */
export type AuthedFetch = AuthedCall & {
  readonly get: AuthedCall;
  readonly post: AuthedCall;
  readonly put: AuthedCall;
  readonly patch: AuthedCall;
  readonly delete: AuthedCall;
  readonly head: AuthedCall;
};

/**
 * Adds ky's method shortcuts to a request function.
 *
 * @param call sends one request
 * @returns the callable with `.get`, `.post`, …
 */
export function withMethods(call: AuthedCall): AuthedFetch {
  const shortcut = (method: string): AuthedCall => (input, options) => call(input, { ...options, method });
  return Object.assign((input: Input, options?: AuthedFetchOptions) => call(input, options), {
    get: shortcut('get'),
    post: shortcut('post'),
    put: shortcut('put'),
    patch: shortcut('patch'),
    delete: shortcut('delete'),
    head: shortcut('head'),
  });
}
