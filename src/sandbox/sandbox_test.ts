import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { createSandbox } from './mod.ts';

// No socket: the routes answer app.request(); the transport is tested end to end elsewhere.
const parts = createSandbox({ testMode: true });
const sb = { ...parts, env: parts.serveAt('http://127.0.0.1:8787') };
const fetch = (input: string, init?: RequestInit) => Promise.resolve(parts.app.request(input, init));
beforeEach(() => {
  sb.store.reset();
  sb.clock.reset();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function grant(fields: Record<string, string | undefined>, headers: Record<string, string> = FORM) {
  const body = new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
  return fetch(`${sb.env.SLICER_AUTH_URL}/oauth2/token/`, { method: 'POST', headers, body: body.toString() });
}
const good = () => ({
  grant_type: 'password',
  username: sb.env.SLICER_USERNAME,
  password: sb.env.SLICER_PASSWORD,
  scope: `service_id=${sb.env.SLICER_SERVICE_ID}`,
});
async function token(scope = sb.env.SLICER_SERVICE_ID): Promise<string> {
  const response = await grant({ ...good(), scope: `service_id=${scope}` });
  return ((await response.json()) as { access_token: string }).access_token;
}

describe('token endpoint (contract 4.1)', () => {
  test('a valid form-encoded grant answers the documented fields', async () => {
    const response = await grant(good());
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.scope, `service_id=${sb.env.SLICER_SERVICE_ID}`);
    assert.equal(body.expires_in, '3600');
    assert.ok(typeof body.access_token === 'string' && Buffer.from(body.access_token, 'base64url').length >= 32, '256 random bits');
    assert.notEqual(await token(), body.access_token, 'a new token each call');
  });

  test('RFC 6749 errors for bad requests', async () => {
    const cases: [Record<string, string | undefined>, number, string][] = [
      [{ ...good(), password: 'wrong' }, 400, 'invalid_grant'],
      [{ ...good(), username: 'nobody' }, 400, 'invalid_grant'],
      [{ ...good(), grant_type: 'client_credentials' }, 400, 'unsupported_grant_type'],
      [{ ...good(), scope: 'service_id=unknown' }, 400, 'invalid_scope'],
      [{ ...good(), scope: 'slicer' }, 400, 'invalid_scope'],
      ...(['grant_type', 'username', 'password', 'scope'] as const).map(
        (field): [Record<string, string | undefined>, number, string] => [{ ...good(), [field]: undefined }, 400, 'invalid_request'],
      ),
    ];
    for (const [fields, status, error] of cases) {
      const response = await grant(fields);
      assert.equal(response.status, status, JSON.stringify(fields));
      assert.equal(((await response.json()) as { error: string }).error, error, JSON.stringify(fields));
    }
    assert.equal(sb.store.stats().tokensStored, 0);
  });

  test('a JSON or other body is refused with a clear JSON error', async () => {
    for (const type of ['application/json', 'text/plain', 'multipart/form-data; boundary=x']) {
      const response = await fetch(`${sb.env.SLICER_AUTH_URL}/oauth2/token/`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: JSON.stringify(good()),
      });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_request');
      assert.match(body.error_description, /application\/x-www-form-urlencoded/);
    }
    const get = await fetch(`${sb.env.SLICER_AUTH_URL}/oauth2/token/`);
    assert.equal(get.status, 405);
  });

  test('repeated failed logins are limited', async () => {
    for (let i = 0; i < 5; i++) await (await grant({ ...good(), password: 'wrong' })).body?.cancel();
    const locked = await grant(good());
    assert.equal(locked.status, 400, 'RFC 6749 §5.2: a locked account is a refused grant');
    assert.equal(((await locked.json()) as { error: string }).error, 'invalid_grant');
    sb.clock.advance(5 * 60_000);
    assert.equal((await grant(good())).status, 200);
  });
});

describe('resource services (contract 5.1, 5.2)', () => {
  const call = (service: 'slicer' | 'predict', init: RequestInit = {}) =>
    fetch(`${sb.env.SLICER_AUTH_URL}/${service}/jobs`, init).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, string>,
    }));

  test('accepts the header and the post argument, form and multipart', async () => {
    const t = await token();
    const header = await call('slicer', { headers: { authorization: `Bearer ${t}` } });
    assert.deepEqual([header.status, header.body.status, header.body.token_via, header.body.service], [200, 'success', 'header', 'slicer']);
    const form = await call('slicer', { method: 'POST', body: new URLSearchParams({ token: t, a: '1' }) });
    assert.equal(form.body.token_via, 'post');
    const multipart = new FormData();
    multipart.set('token', t);
    assert.equal((await call('slicer', { method: 'POST', body: multipart })).body.token_via, 'post');
  });

  test('refuses missing, malformed, unknown, expired and revoked tokens with access_error', async () => {
    const t = await token();
    const refusals = [
      await call('slicer'),
      await call('slicer', { headers: { authorization: 'Basic abc' } }),
      await call('slicer', { headers: { authorization: 'Bearer not-a-token' } }),
      await call('slicer', { method: 'POST', body: JSON.stringify({ token: t }), headers: { 'content-type': 'application/json' } }),
    ];
    sb.clock.advance(3600_000);
    refusals.push(await call('slicer', { headers: { authorization: `Bearer ${t}` } }));
    for (const r of refusals) {
      assert.equal(r.status, 401);
      assert.equal(r.body.status, 'access_error');
      assert.ok(r.body.reason);
    }
    assert.match(refusals.at(-1)?.body.reason ?? '', /expired/);
  });

  test('a token works only for its own service; cookies are ignored', async () => {
    const t = await token();
    assert.equal((await call('predict', { headers: { authorization: `Bearer ${t}` } })).status, 401);
    assert.equal(
      (await call('predict', { headers: { authorization: `Bearer ${await token(sb.env.SLICER_PREDICT_SERVICE_ID)}` } })).status,
      200,
    );
    assert.equal((await call('slicer', { headers: { cookie: `token=${t}; sandbox_session=${t}` } })).status, 401);
  });

  test('3599 s after issue a token works; at 3600 s it does not', async () => {
    const t = await token();
    sb.clock.advance(3599_000);
    assert.equal((await call('slicer', { headers: { authorization: `Bearer ${t}` } })).status, 200);
    sb.clock.advance(1_000);
    assert.equal((await call('slicer', { headers: { authorization: `Bearer ${t}` } })).status, 401);
  });
});

describe('test controls', () => {
  test('exist only in test mode', async () => {
    const plain = createSandbox();
    plain.serveAt('http://127.0.0.1:8787');
    {
      for (const path of ['/__test/stats', '/__test/reset', '/__test/clock']) {
        const response = await plain.app.request(`http://127.0.0.1:8787${path}`, {
          method: path === '/__test/stats' ? 'GET' : 'POST',
          headers: { 'content-type': 'application/json' },
          body: path === '/__test/stats' ? null : '{"advanceSeconds": 9999}',
        });
        assert.equal(response.status, 404, path);
      }
      assert.equal(plain.clock.offset(), 0);
    }
  });

  test('advance the clock, count tokens, inject faults, reset', async () => {
    const control = (path: string, body?: unknown) =>
      fetch(`${sb.env.SLICER_AUTH_URL}/__test/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    await token();
    assert.deepEqual((await control('stats')).issued, { [sb.env.SLICER_SERVICE_ID]: 1 });
    assert.equal((await control('clock', { advanceSeconds: 10 })).offsetSeconds, 10);
    // A fault for the UI's Revoke, queued first, is not the token endpoint's: it waits for the Revoke.
    await control('faults', { at: 'revoke', status: 500 });
    await control('faults', { status: 503, body: '{}', headers: { 'retry-after': '2' } });
    const faulty = await grant(good());
    assert.deepEqual([faulty.status, faulty.headers.get('retry-after')], [503, '2']);
    assert.equal((await grant(good())).status, 200);
    assert.equal(sb.store.takeFault('revoke')?.status, 500);
    assert.equal(sb.store.takeFault('revoke'), undefined);
    const bad = await fetch(`${sb.env.SLICER_AUTH_URL}/__test/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"status": "x"}',
    });
    assert.equal(bad.status, 400);
    await control('reset', {});
    assert.deepEqual((await control('stats')).issued, {});
    assert.equal(sb.clock.offset(), 0);
  });
});

describe('hardening (always on)', () => {
  test("only the sandbox's own loopback Host is answered (DNS rebinding)", async () => {
    for (const host of ['evil.example:8787', '127.0.0.1:9999', 'localhost']) {
      const response = await parts.app.request('http://127.0.0.1:8787/oauth2/token/', { method: 'POST', headers: { host } });
      assert.equal(response.status, 421, host);
    }
    const own = await parts.app.request('http://127.0.0.1:8787/', { headers: { host: 'localhost:8787' } });
    assert.equal(own.status, 200);
  });

  test('bodies are limited: forms a few KiB, services a few MiB (413)', async () => {
    const big = await grant({ ...good(), padding: 'x'.repeat(64 * 1024) });
    assert.equal(big.status, 413);
    const service = await fetch(`${sb.env.SLICER_BASE_URL}/upload`, { method: 'POST', body: 'x'.repeat(5 * 1024 * 1024) });
    assert.equal(service.status, 413);
    const fine = await fetch(`${sb.env.SLICER_BASE_URL}/upload`, { method: 'POST', body: 'x'.repeat(1024 * 1024) });
    assert.equal(fine.status, 401, 'a 1 MiB body reaches the service (which wants a token)');
  });

  test('a content type other than exactly the form type, and repeated parameters, are invalid_request', async () => {
    const typed = await grant(good(), { 'content-type': 'application/x-www-form-urlencodedXYZ' });
    assert.equal(typed.status, 400);
    assert.equal(((await typed.json()) as { error: string }).error, 'invalid_request');
    assert.equal((await grant(good(), { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' })).status, 200);
    const body = `grant_type=refresh_token&${new URLSearchParams(good())}`;
    const duplicate = await fetch(`${sb.env.SLICER_AUTH_URL}/oauth2/token/`, { method: 'POST', headers: FORM, body });
    assert.equal(duplicate.status, 400);
    assert.equal(((await duplicate.json()) as { error: string }).error, 'invalid_request');
  });

  test('token answers carry Cache-Control: no-store and Pragma: no-cache, errors too', async () => {
    for (const response of [await grant(good()), await grant({ ...good(), grant_type: 'x' })]) {
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('pragma'), 'no-cache');
    }
  });

  test('test controls take JSON only, refuse a cross-site Origin, and reset restores every default', async () => {
    const users = `${sb.env.SLICER_AUTH_URL}/__test/users`;
    const body = JSON.stringify({ username: sb.env.SLICER_USERNAME, password: 'changed' });
    const plain = await fetch(users, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    assert.equal(plain.status, 415);
    const crossSite = await fetch(users, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body,
    });
    assert.equal(crossSite.status, 403);
    assert.equal((await grant(good())).status, 200, 'the password is unchanged');
    const sameOrigin = await fetch(users, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: sb.env.SLICER_AUTH_URL },
      body,
    });
    assert.equal(sameOrigin.status, 201);
    assert.equal((await grant(good())).status, 400, 'changed');
    await fetch(`${sb.env.SLICER_AUTH_URL}/__test/reset`, { method: 'POST' });
    assert.equal((await grant(good())).status, 200, 'reset restored the seeded password');
  });
});
