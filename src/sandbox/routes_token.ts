/**
 * `POST /oauth2/token/`, contract 4.1: form-encoded password grant, JSON answer
 * with `expires_in` as a string. Errors use RFC 6749 §5.2 codes.
 */
import { systemClock } from '../clock.ts';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Store } from './store.ts';

const FORM = 'application/x-www-form-urlencoded';
/** RFC 6749 §5.1: token answers must not be cached. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function oauthError(status: ContentfulStatusCode, error: string, description: string) {
  return { status, body: { error, error_description: description } };
}

/**
 * Routes of the token endpoint.
 *
 * @param store the sandbox state
 * @returns a Hono app to mount at `/`
 */
export function tokenRoutes(store: Store): Hono {
  const app = new Hono();

  app.post('/oauth2/token/', async (c) => {
    const fault = store.takeFault();
    if (fault?.delayMs) await systemClock.sleep(fault.delayMs); // a real delay: the client's timeout is what is tested
    if (fault?.status !== undefined || fault?.body !== undefined) {
      return c.body(fault.body ?? '', (fault.status ?? 200) as ContentfulStatusCode, {
        'content-type': fault.contentType ?? 'application/json',
        ...NO_STORE,
        ...fault.headers,
      });
    }
    const answer = await grant(store, c.req.raw);
    if (store.violates('answer-typed-text')) {
      return c.body(JSON.stringify(answer.body), answer.status, { 'content-type': 'text/plain; charset=UTF-8', ...NO_STORE });
    }
    return c.json(answer.body, answer.status, NO_STORE);
  });

  app.all(
    '/oauth2/token/',
    (c) => c.json({ error: 'invalid_request', error_description: 'Use POST with a form-encoded body' }, 405, { allow: 'POST' }),
  );
  return app;
}

/** The form's fields; `'duplicate'` when a parameter is repeated (RFC 6749 §3.1: parameters must not be). */
async function readFields(request: Request, store: Store): Promise<Record<string, string> | 'duplicate' | undefined> {
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  // Exactly the form media type; parameters such as charset are allowed.
  if (type.split(';')[0]?.trim() === FORM && !(store.violates('form-charset-refused') && type.includes(';'))) {
    const body = await request.text();
    // Percent-encoded letters and digits, which no encoder needs: the 'form-percent-undecoded' violation fails them.
    if (store.violates('form-percent-undecoded') && /%(3\d|[46][1-9a-f]|[57][0-9a])/i.test(body)) return {};
    const params = [...new URLSearchParams(body)];
    if (store.violates('form-order-sensitive') && params[0]?.[0] !== 'grant_type') return {};
    const fields = Object.fromEntries(params);
    return Object.keys(fields).length === params.length ? fields : 'duplicate';
  }
  if (store.violates('json-accepted') && type.startsWith('application/json')) {
    const json: unknown = await request.json().catch(() => undefined);
    return typeof json === 'object' && json !== null ? (json as Record<string, string>) : {};
  }
  return undefined;
}

async function grant(store: Store, request: Request) {
  const fields = await readFields(request, store);
  if (fields === 'duplicate') return oauthError(400, 'invalid_request', 'A parameter is repeated');
  if (!fields) {
    return oauthError(
      400,
      'invalid_request',
      `The body must be ${FORM} (contract 4.1), not "${request.headers.get('content-type') ?? 'none'}"`,
    );
  }
  if (store.violates('default-scope') && !fields.scope) fields.scope = `service_id=${store.serviceIds.slicer}`;
  const required = store.violates('empty-password-accepted')
    ? ['grant_type', 'username', 'scope']
    : ['grant_type', 'username', 'password', 'scope'];
  for (const name of required) {
    if (typeof fields[name] !== 'string' || fields[name] === '') {
      return oauthError(400, 'invalid_request', `The field "${name}" is required`);
    }
  }
  const { grant_type, username = '', password = '', scope = '' } = fields;
  if (grant_type !== 'password') {
    return oauthError(400, 'unsupported_grant_type', 'Only grant_type "password" is supported');
  }
  const serviceId = /^service_id=(.+)$/.exec(scope)?.[1];
  const known = [store.serviceIds.slicer, store.serviceIds.predict];
  if (!serviceId || !known.includes(serviceId)) {
    return oauthError(400, 'invalid_scope', 'The scope must be "service_id=<id>" naming the slicing or the prediction service');
  }
  let login = store.login(username, password);
  if (login === 'invalid' && store.violates('empty-password-accepted') && password === '') login = 'ok';
  if (login === 'invalid' && store.violates('password-extension-accepted') && password.length > 1) {
    login = store.login(username, password.slice(0, -1));
  }
  // RFC 6749 §5.2: a refused grant is 400 invalid_grant, locked or not.
  if (login === 'locked') return oauthError(400, 'invalid_grant', 'Too many failed attempts for this user; try again later');
  if (login === 'invalid' && !store.violates('token-for-wrong-password')) {
    return oauthError(400, 'invalid_grant', 'Invalid username or password');
  }

  const { value, lifetimeSeconds } = store.issueTemporary(username, serviceId);
  const otherId = serviceId === store.serviceIds.slicer ? store.serviceIds.predict : store.serviceIds.slicer;
  return {
    status: 200 as const,
    body: {
      token_type: store.violates('wrong-token-type') ? 'MAC' : 'Bearer',
      scope: store.violates('wrong-scope-echo') ? `service_id=${otherId}` : scope,
      access_token: value,
      expires_in: store.violates('numeric-expires-in') ? lifetimeSeconds : String(lifetimeSeconds),
    },
  };
}
