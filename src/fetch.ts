/**
 * Leaf: the transport and logging types every layer shares. Imports nothing
 * of ours, so any module may import it without forming a circle.
 */

/**
 * The fetch the client sends with: a minimal signature of our own, because
 * runtimes disagree about `typeof fetch`'s extra members (Bun's `preconnect`).
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * The runtime's fetch, looked up at each call (a test or polyfill may replace
 * it); the client's default. Requests sent with it have their headers read
 * synchronously when it is called (see `request_auth.ts`).
 */
export const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/** Where the client's warnings go. */
export interface Logger {
  /** Receives one warning, already free of secrets. */
  warn(message: string): void;
}
