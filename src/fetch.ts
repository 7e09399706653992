/**
 * Leaf: the transport and logging types every layer shares. Imports nothing
 * of ours, so any module may import it without forming a circle.
 */

/**
 * The fetch the client sends with: a minimal signature of our own, because
 * runtimes disagree about `typeof fetch`'s extra members (Bun's `preconnect`).
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The runtime's fetch, looked up at each call (a test or polyfill may replace it); the client's default. */
export const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/**
 * Where the client's log lines go; `console` fits. Only `warn` is required:
 * the other levels are used when present and enabled (`logLevel`).
 */
export interface Logger {
  /** Something failed and was given up on (a token refused twice). */
  error?(message: string): void;
  /** Something deserves attention (a store failing, a refresh failing, a token withheld). */
  warn(message: string): void;
  /** What the client did: token requests, refreshes. */
  info?(message: string): void;
  /** Details: cache hits, lock waits. */
  debug?(message: string): void;
}
