/**
 * The embedded sandbox: a local authorization service (token endpoint and
 * permanent-token UI) with slicing and prediction services, on 127.0.0.1.
 *
 * @example
 * ```ts
 * import { startSandbox } from './src/sandbox/mod.ts';
 * const sandbox = await startSandbox({ testMode: true });
 * console.log(sandbox.env.SLICER_AUTH_URL);
 * await sandbox.close();
 * ```
 *
 * @module
 */
import type { Hono } from 'hono';
import { createSandboxApp, loopbackHosts, SERVICE_PATHS } from './app.ts';
import { createClock, type SandboxClock } from './clock.ts';
import { listen } from './serve.ts';
import { createStore, type Store } from './store.ts';
import type { UiVariant } from './ui_variants.ts';

/** The defaults a fresh sandbox is seeded with. */
export const SANDBOX_DEFAULTS = {
  username: 'sandbox-user',
  password: 'sandbox-password',
  serviceId: 'sandbox-slicer',
  predictServiceId: 'sandbox-predict',
} as const;

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 picks a free one. @default 0 */
  port?: number | undefined;
  /** Mount the test controls (`/__test`). @default false */
  testMode?: boolean | undefined;
  /**
   * Serve an alternative UI (test mode only): 1–4 follow contract 5.3's labels but differ in
   * everything else (see `ui_variants.ts`). @default 0, the sandbox's own UI
   */
  uiVariant?: UiVariant | undefined;
  /** Seeded user name. @default "sandbox-user" */
  username?: string | undefined;
  /** Seeded password. @default "sandbox-password" */
  password?: string | undefined;
  /** Slicing service id. @default "sandbox-slicer" */
  serviceId?: string | undefined;
  /** Prediction service id. @default "sandbox-predict" */
  predictServiceId?: string | undefined;
  /**
   * Told every token value the sandbox issues, temporary and permanent (test mode only), so that a test can
   * search what it wrote for any of them.
   */
  onIssue?: ((value: string) => void) | undefined;
}

/** The `.env` values that point the module and the contract suite at a sandbox. */
export type SandboxEnv = {
  SLICER_AUTH_URL: string;
  SLICER_BASE_URL: string;
  SLICER_PREDICT_BASE_URL: string;
  SLICER_USERNAME: string;
  SLICER_PASSWORD: string;
  SLICER_SERVICE_ID: string;
  SLICER_PREDICT_SERVICE_ID: string;
};

/** A sandbox without a socket: its app answers `app.request()`. */
export interface SandboxParts {
  /** The Hono app. */
  readonly app: Hono;
  /** Its state. */
  readonly store: Store;
  /** Its clock. */
  readonly clock: SandboxClock;
  /** Whether the test controls are mounted. */
  readonly testMode: boolean;
  /** Declares the origin the app is served at (it answers only that host) and returns its `.env` values. */
  serveAt(origin: string): SandboxEnv;
}

/** A running sandbox. */
export interface Sandbox {
  /** The `.env` lines' values that point the module and the contract suite at it. */
  readonly env: SandboxEnv;
  /** Its state, for in-process tests. */
  readonly store: Store;
  /** Its clock. */
  readonly clock: SandboxClock;
  /** Whether the test controls are mounted. */
  readonly testMode: boolean;
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * Builds the sandbox's app, store and clock, without listening: for tests
 * that need no socket (`parts.app.request(...)`).
 *
 * @param options mode, seeded user and service ids (the port is ignored)
 * @returns the parts
 */
export function createSandbox(options: SandboxOptions = {}): SandboxParts {
  const settings = {
    username: options.username ?? SANDBOX_DEFAULTS.username,
    password: options.password ?? SANDBOX_DEFAULTS.password,
    serviceId: options.serviceId ?? SANDBOX_DEFAULTS.serviceId,
    predictServiceId: options.predictServiceId ?? SANDBOX_DEFAULTS.predictServiceId,
  };
  const clock = createClock();
  const store = createStore({
    clock,
    users: { [settings.username]: settings.password },
    serviceId: settings.serviceId,
    predictServiceId: settings.predictServiceId,
    onIssue: options.onIssue,
  });
  const testMode = options.testMode ?? false;
  if (options.uiVariant && !testMode) throw new RangeError('UI variants are a test-mode feature: pass testMode: true');
  if (options.onIssue && !testMode) throw new RangeError('onIssue is a test-mode feature: pass testMode: true');
  let hosts: readonly string[] = [];
  return {
    app: createSandboxApp({ store, clock, testMode, hosts: () => hosts, uiVariant: options.uiVariant }),
    store,
    clock,
    testMode,
    serveAt(origin) {
      hosts = loopbackHosts(origin);
      return {
        SLICER_AUTH_URL: origin,
        SLICER_BASE_URL: `${origin}${SERVICE_PATHS.slicer}`,
        SLICER_PREDICT_BASE_URL: `${origin}${SERVICE_PATHS.predict}`,
        SLICER_USERNAME: settings.username,
        SLICER_PASSWORD: settings.password,
        SLICER_SERVICE_ID: settings.serviceId,
        SLICER_PREDICT_SERVICE_ID: settings.predictServiceId,
      };
    },
  };
}

/**
 * Starts the sandbox on 127.0.0.1.
 *
 * @param options port, mode, seeded user and service ids
 * @returns the running sandbox
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const parts = createSandbox(options);
  const server = await listen(parts.app.fetch, options.port ?? 0);
  return {
    env: parts.serveAt(server.origin),
    store: parts.store,
    clock: parts.clock,
    testMode: parts.testMode,
    close: () => server.close(),
  };
}

export { createSandboxApp } from './app.ts';
export { createClock } from './clock.ts';
export { createStore, VIOLATIONS } from './store.ts';
export type { Violation } from './store.ts';
export { UI_VARIANTS } from './ui_variants.ts';
export type { UiVariant } from './ui_variants.ts';
