import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSandbox } from './mod.ts';

// No socket: the routes answer app.request(); the transport is tested end to end elsewhere.
const parts = createSandbox({ testMode: true });
const sb = { ...parts, env: parts.serveAt('http://127.0.0.1:8787') };
const fetch = (input: string, init?: RequestInit) => Promise.resolve(parts.app.request(input, init));

const url = (path: string) => `${sb.env.SLICER_AUTH_URL}${path}`;

/** Logs in like the browser's form post would (same-origin Origin header). */
async function logIn(): Promise<{ cookie: string; setCookie: string }> {
  const response = await fetch(url('/login'), {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: sb.env.SLICER_AUTH_URL, 'user-agent': 'ui-test-browser' },
    body: new URLSearchParams({ username: sb.env.SLICER_USERNAME, password: sb.env.SLICER_PASSWORD, next: '/security/tokens' }),
  });
  assert.equal(response.status, 303);
  assert.equal(response.headers.get('location'), '/security/tokens');
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0] ?? '', setCookie };
}

describe('sandbox UI security', () => {
  test('the session cookie is HttpOnly and SameSite=Strict; pages need it', async () => {
    const { setCookie, cookie } = await logIn();
    assert.match(setCookie, /HttpOnly/i);
    assert.match(setCookie, /SameSite=Strict/i);
    const anonymous = await fetch(url('/security/tokens'), { redirect: 'manual' });
    assert.equal(anonymous.status, 303);
    assert.match(anonymous.headers.get('location') ?? '', /^\/\?next=/);
    const page = await fetch(url('/security/tokens'), { headers: { cookie } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  });

  test('state-changing requests from another site are refused (CSRF)', async () => {
    const { cookie } = await logIn();
    const crossLogin = await fetch(url('/login'), {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: 'https://evil.example' },
      body: new URLSearchParams({ username: sb.env.SLICER_USERNAME, password: sb.env.SLICER_PASSWORD }),
    });
    assert.equal(crossLogin.status, 403);
    const formCreate = await fetch(url('/security/tokens'), {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example' },
      body: new URLSearchParams({ name: 'x', scopes: sb.env.SLICER_SERVICE_ID }),
    });
    assert.equal(formCreate.status, 403);
    const plainCreate = await fetch(url('/security/tokens'), {
      method: 'POST',
      headers: { cookie, 'content-type': 'text/plain', 'sec-fetch-site': 'same-origin' },
      body: '{}',
    });
    assert.equal(plainCreate.status, 415, 'the script API takes JSON only, which no cross-site form can send');
    assert.equal(sb.store.list(sb.env.SLICER_USERNAME, 'permanent').length, 0);
  });

  test('the login form is limited after repeated failures', async () => {
    sb.store.addUser('limited', 'right-password');
    const attempt = (password: string) =>
      fetch(url('/login'), {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: sb.env.SLICER_AUTH_URL },
        body: new URLSearchParams({ username: 'limited', password }),
      });
    for (let i = 0; i < 5; i++) assert.equal((await attempt('wrong')).status, 401);
    const locked = await attempt('right-password');
    assert.equal(locked.status, 429);
    assert.match(await locked.text(), /Too many failed attempts/);
  });

  test('SESSIONS lists browser sessions and active temporary tokens, each revocable', async () => {
    const { cookie } = await logIn();
    const other = await logIn();
    const grant = await fetch(url('/oauth2/token/'), {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        username: sb.env.SLICER_USERNAME,
        password: sb.env.SLICER_PASSWORD,
        scope: `service_id=${sb.env.SLICER_SERVICE_ID}`,
      }),
    });
    const token = ((await grant.json()) as { access_token: string }).access_token;
    const html = await (await fetch(url('/security/sessions'), { headers: { cookie } })).text();
    assert.match(html, /ui-test-browser/);
    assert.match(html, /This browser/);
    assert.match(html, new RegExp(`service_id=${sb.env.SLICER_SERVICE_ID}`));
    assert.ok(!html.includes(token), 'token values are never shown');
    const revokeUrls = [...html.matchAll(/data-revoke="([^"]+)"/g)].map((m) => m[1] ?? '');
    const tokenRevoke = revokeUrls.find((u) => u.startsWith('/security/tokens/'));
    const json = { 'content-type': 'application/json', cookie, origin: sb.env.SLICER_AUTH_URL };
    assert.equal((await fetch(url(tokenRevoke ?? ''), { method: 'POST', headers: json, body: '{}' })).status, 200);
    const refused = await fetch(`${sb.env.SLICER_BASE_URL}/x`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(refused.status, 401, 'a revoked temporary token stops working at once');
    const otherId = sb.store.session(other.cookie.slice(other.cookie.indexOf('=') + 1))?.id;
    const sessionRevoke = `/security/sessions/${otherId}/revoke`;
    assert.ok(revokeUrls.includes(sessionRevoke), 'the other session is listed with a Revoke button');
    assert.equal((await fetch(url(sessionRevoke), { method: 'POST', headers: json, body: '{}' })).status, 200);
    assert.equal(
      (await fetch(url('/security/tokens'), { headers: { cookie: other.cookie }, redirect: 'manual' })).status,
      303,
      'an ended session is logged out',
    );
  });
});

describe('UI sessions expire on the sandbox clock', () => {
  const page = (cookie: string) => fetch(url('/security/tokens'), { headers: { cookie }, redirect: 'manual' }).then((r) => r.status);

  test('the cookie has a Max-Age; a session idle for over 30 minutes is gone', async () => {
    sb.clock.reset();
    const { cookie, setCookie } = await logIn();
    assert.match(setCookie, /Max-Age=43200/i);
    sb.clock.advance(29 * 60_000);
    assert.equal(await page(cookie), 200, 'still within the idle limit');
    sb.clock.advance(29 * 60_000);
    assert.equal(await page(cookie), 200, 'each request renews the idle limit');
    sb.clock.advance(31 * 60_000);
    assert.equal(await page(cookie), 303, 'idle too long: back to the login');
  });

  test('a busy session still ends 12 hours after login', async () => {
    sb.clock.reset();
    const { cookie } = await logIn();
    for (let hour = 0; hour < 12; hour++) {
      sb.clock.advance(20 * 60_000);
      assert.equal(await page(cookie), 200);
      sb.clock.advance(20 * 60_000);
      assert.equal(await page(cookie), 200);
      sb.clock.advance(19 * 60_000);
      assert.equal(await page(cookie), 200);
    }
    // 11 h 48 min so far, never idle for long; 13 more minutes cross the 12-hour limit.
    sb.clock.advance(13 * 60_000);
    assert.equal(await page(cookie), 303, 'over the absolute limit');
  });
});
