/**
 * The slicing and prediction services (contract 5.1, 5.2): each request is
 * authenticated on its own, by `Authorization: Bearer` or a `token` post
 * argument; cookies are ignored; a token works only for its scope's service.
 */
import { Hono } from 'hono';
import type { Store } from './store.ts';

/** Where the token of a request came from. */
type Via = 'header' | 'post';

async function presentedToken(request: Request, store: Store): Promise<{ token: string; via: Via } | undefined> {
  const header = request.headers.get('authorization');
  if (header !== null) {
    const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
    return match?.[1] ? { token: match[1], via: 'header' } : { token: '', via: 'header' };
  }
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  if (
    store.violates('post-token-ignored') ||
    !(type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data'))
  ) {
    return undefined;
  }
  const form = await request.formData().catch(() => undefined);
  const token = form?.get('token');
  if (store.violates('post-token-alone-only') && form && [...form.keys()].length > 1) return undefined;
  return typeof token === 'string' ? { token, via: 'post' } : undefined;
}

/**
 * Routes of one resource service.
 *
 * @param store the sandbox state
 * @param service `slicer` or `predict`
 * @returns a Hono app to mount at `/<service>`
 */
export function resourceRoutes(store: Store, service: 'slicer' | 'predict'): Hono {
  const app = new Hono();
  app.all('*', async (c) => {
    const refuse = (reason: string) =>
      c.json({ status: 'access_error', reason }, 401, { 'www-authenticate': `Bearer realm="${service}", error="invalid_token"` });
    const presented = await presentedToken(c.req.raw, store);
    if (!presented) return refuse('No access token: send "Authorization: Bearer <token>" or a "token" post argument');
    if (!presented.token) return refuse('Malformed Authorization header: expected "Bearer <token>"');
    if (store.violates('long-token-500') && presented.token.length > 1000) return c.json({ status: 'internal_error' }, 500);
    const record = store.check(presented.token);
    if (record === 'unknown') return refuse('Unknown access token');
    if (record === 'expired') return refuse('The access token has expired');
    if (record === 'revoked') return refuse('The access token has been revoked');
    const serviceId = store.serviceIds[service];
    if (!record.serviceIds.includes(serviceId) && !store.violates('scope-ignored')) {
      return refuse(`The access token is not valid for this service (scope service_id=${serviceId})`);
    }
    return c.json({
      status: 'success',
      method: c.req.method,
      path: c.req.path,
      service,
      token_via: presented.via,
      token_kind: record.kind,
    });
  });
  return app;
}
