/**
 * The sandbox as one Hono app: token endpoint, UI, the two resource services
 * and, in test mode only, the test controls. No sockets here: unit tests call
 * `app.request()`; `serve.ts` binds it to a port.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import type { SandboxClock } from './clock.ts';
import { resourceRoutes } from './routes_resource.ts';
import { testRoutes } from './routes_controls.ts';
import { tokenRoutes } from './routes_token.ts';
import { uiRoutes } from './routes_ui.ts';
import type { Store } from './store.ts';

/** Paths of the resource services under the sandbox's origin. */
export const SERVICE_PATHS = { slicer: '/slicer', predict: '/predict' } as const;

/** What {@link createSandboxApp} needs. */
export interface SandboxAppOptions {
  store: Store;
  clock: SandboxClock;
  /** Mount the test controls at `/__test`. Never on by default. */
  testMode: boolean;
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
  app.route('/', uiRoutes(store));
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
