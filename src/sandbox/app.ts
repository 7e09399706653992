/**
 * The sandbox as one Hono app: token endpoint, UI, the two resource services
 * and, in test mode only, the test controls. No sockets here: unit tests call
 * `app.request()`; `serve.ts` binds it to a port.
 */
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import type { SandboxClock } from './clock.ts';
import { resourceRoutes } from './routes_resource.ts';
import { testRoutes } from './routes_controls.ts';
import { tokenRoutes } from './routes_token.ts';
import { uiRoutes } from './routes_ui.ts';
import { UI_VARIANTS, type UiVariant } from './ui_variants.ts';
import type { Store } from './store.ts';

/** Paths of the resource services under the sandbox's origin. */
export const SERVICE_PATHS = { slicer: '/slicer', predict: '/predict' } as const;

/** What {@link createSandboxApp} needs. */
export interface SandboxAppOptions {
  store: Store;
  clock: SandboxClock;
  /** Mount the test controls at `/__test`. Never on by default. */
  testMode: boolean;
  /**
   * The `host:port` values the app answers (its own loopback names); others get 421,
   * which defeats DNS rebinding. Read on each request: the port is known once listening.
   */
  hosts: () => readonly string[];
  /** Which UI to serve (test mode): 0 is the sandbox's own; 1–4 are the variants of `ui_variants.ts`. @default 0 */
  uiVariant?: UiVariant | undefined;
}

/** Body limits: forms are small; service payloads may be files. */
const SMALL_BODY = 8 * 1024;
const SERVICE_BODY = 4 * 1024 * 1024;

/**
 * The loopback names of a served origin.
 *
 * @param origin e.g. `http://127.0.0.1:8787`
 * @returns `127.0.0.1:8787`, `localhost:8787`, `[::1]:8787`
 */
export function loopbackHosts(origin: string): string[] {
  const { port } = new URL(origin);
  return ['127.0.0.1', 'localhost', '[::1]'].map((host) => `${host}:${port}`);
}

/**
 * Builds the sandbox app.
 *
 * @param options state, clock and mode
 * @returns the Hono app
 * @example
 * ```ts
 * const app = createSandboxApp({ store, clock, testMode: true });
 * const res = await app.request('/oauth2/token/', { method: 'POST' });
 * ```
 */
export function createSandboxApp(options: SandboxAppOptions): Hono {
  const { store, clock } = options;
  const app = new Hono();
  app.use(async (c, next) => {
    // A Request built in-process (app.request) has no Host header: its URL's host stands for it.
    const host = (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase();
    if (!options.hosts().includes(host)) {
      return c.json({ status: 'bad_request', reason: 'Misdirected request: this sandbox answers only its own loopback address' }, 421);
    }
    await next();
  });
  const tooLarge = (c: Context) => c.json({ status: 'bad_request', reason: 'Request body too large' }, 413);
  for (const path of Object.values(SERVICE_PATHS)) app.use(`${path}/*`, bodyLimit({ maxSize: SERVICE_BODY, onError: tooLarge }));
  app.use('*', async (c, next) => {
    if (Object.values(SERVICE_PATHS).some((path) => c.req.path.startsWith(`${path}/`))) return await next();
    return await bodyLimit({ maxSize: SMALL_BODY, onError: tooLarge })(c, next);
  });
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        frameAncestors: ["'none'"],
      },
    }),
  );
  app.route('/', tokenRoutes(store));
  app.route(SERVICE_PATHS.slicer, resourceRoutes(store, 'slicer'));
  app.route(SERVICE_PATHS.predict, resourceRoutes(store, 'predict'));
  if (options.testMode) app.route('/__test', testRoutes(store, clock));
  app.route('/', uiRoutes(store, UI_VARIANTS[options.uiVariant ?? 0]));
  app.notFound((c) => c.json({ status: 'bad_request', reason: `No route for ${c.req.method} ${c.req.path}` }, 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      const reason = error.message || (error.status === 403 ? 'Cross-site request refused (CSRF protection)' : 'Refused');
      return c.json({ status: error.status === 401 ? 'access_error' : 'bad_request', reason }, error.status);
    }
    console.error('[sandbox] internal error:', error);
    return c.json({ status: 'internal_error', reason: 'Internal error' }, 500);
  });
  return app;
}
