/**
 * Leaf: the default of every code option of a client (what `createAuthClient`
 * takes besides `fetch`, `clock`, `logger` and the like) and of the refresh
 * margin, declared once. Each option's `@default` names its entry here.
 * Also the sandbox's port, which the CLI and the fix of a refused connection name.
 */
export const DEFAULTS = {
  /** Refresh this many seconds before expiry, capped at half the token's lifetime (`refreshMarginSeconds`). */
  refreshMarginSeconds: 300,
  /** Timeout of one token-endpoint attempt, ms (`tokenTimeoutMs`). */
  tokenTimeoutMs: 10_000,
  /** Retries of the token endpoint after a network error, a timeout, 408, 429 or 5xx (`tokenRetries`). */
  tokenRetries: 2,
  /** Report to OpenTelemetry when the application registered an SDK (`openTelemetry`). */
  openTelemetry: true,
  /** Time limit of one command to a Redis store, ms. */
  storeCommandTimeoutMs: 500,
} as const;

/** The port `slicer-auth sandbox` listens on, and `init --sandbox` points `.env` at, unless `--port` says otherwise. */
export const SANDBOX_PORT = 8787;
