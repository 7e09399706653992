/**
 * Origin binding (SECURITY.md): a token goes only to the origin of the
 * service its scope belongs to, or to an origin the caller listed; every
 * other request goes out untouched. A property test over adversarial URLs
 * (through an injected transport, since those hosts do not exist here) and
 * an end-to-end check against real loopback servers.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import fc from 'fast-check';
import { Hono } from 'hono';
import { type AuthClientOptions, createAuthClient } from './client.ts';
import { listen, type Listening } from './sandbox/serve.ts';
import { type Harness, startHarness } from './testing/sandbox_harness.ts';

const AUTH = 'https://auth.example';
const SERVICES = { slicer: 'https://slicer.example/api', predict: 'https://predict.example:8443/v1' } as const;
const LISTED = 'https://storage.example';
const PASSWORD = 'Pa55-origin-binding-7c1e';

/** What one request carried. */
interface Sent {
  readonly url: string;
  readonly authorization: string | null;
  readonly body: string;
}

/** A client over a recording transport: the token endpoint answers a fresh grant per scope, every other request is recorded. */
function recordingClient(options: AuthClientOptions) {
  const sent: Sent[] = [];
  const warnings: string[] = [];
  let issued = 0;
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.url === `${AUTH}/oauth2/token/`) {
      const scope = new URLSearchParams(await request.text()).get('scope');
      const body = { token_type: 'Bearer', scope, access_token: `TOKEN-${++issued}-${scope}`, expires_in: '3600' };
      return Response.json(body);
    }
    sent.push({ url: request.url, authorization: request.headers.get('authorization'), body: request.body ? await request.text() : '' });
    return Response.json({ ok: true });
  };
  const client = createAuthClient({
    env: {},
    envFile: false,
    authUrl: AUTH,
    baseUrl: SERVICES.slicer,
    predictBaseUrl: SERVICES.predict,
    username: 'u',
    password: PASSWORD,
    serviceId: 's',
    predictServiceId: 'p',
    fetch,
    logger: { warn: (message) => warnings.push(message) },
    ...options,
  });
  return { client, sent, warnings };
}

/** Whether a request carried a token (or the password) in any form: header, body field, or URL. */
const carriesToken = (sent: Sent) => /TOKEN-|Pa55-origin/.test(`${sent.authorization} ${sent.body} ${decodeURIComponent(sent.url)}`);

const host = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
const path = fc.stringMatching(/^([a-z0-9._-][a-z0-9/._-]{0,19})?$/);
/** URLs that are not the origin of either service nor the listed one, built the ways attackers build them. */
const foreign = fc.oneof(
  fc.tuple(host, fc.constantFrom('com', 'net', 'example')).map(([name, tld]) => `https://${name}.${tld}/`),
  host.map((name) => `https://slicer.example@${name}.evil/`), // user-info: the host is after the @
  fc.constantFrom('https://slicer.example:443@evil.example/', 'https://predict.example:8443@evil.example/x'),
  fc.integer({ min: 1, max: 65535 }).filter((port) => port !== 443).map((port) => `https://slicer.example:${port}/api/`),
  fc.integer({ min: 1, max: 65535 }).filter((port) => port !== 8443).map((port) => `https://predict.example:${port}/v1/`),
  fc.constantFrom('http://slicer.example/api/', 'http://predict.example:8443/v1/', 'http://storage.example/'), // other scheme
  fc.constantFrom(
    'https://slіcer.example/api/', // Cyrillic і
    'https://slicer.exаmple/api/', // Cyrillic а
    'https://xn--slcer-3ve.example/api/',
    'https://slicer.example.evil.com/api/',
    'https://evilslicer.example/api/',
    'https://slicer.example./api/', // trailing dot: another origin as the URL standard writes it
    'https://storage.example.evil/',
  ),
  fc.constantFrom(
    'https://93.184.216.34/api/',
    'https://[2001:db8::1]/',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://[::ffff:7f00:1]/',
  ),
).filter((url) => !['https://slicer.example', 'https://predict.example:8443', LISTED].includes(new URL(url).origin));

describe('origin binding', () => {
  test('property: random foreign URLs never receive the token, for both transports and both scopes', async () => {
    await fc.assert(
      fc.asyncProperty(
        foreign,
        path,
        fc.constantFrom('header', 'post'),
        fc.constantFrom('slicer', 'predict'),
        async (base, tail, transport, scope) => {
          const { client, sent, warnings } = recordingClient({ transport, allowedOrigins: [LISTED] });
          const url = new URL(tail, base).href;
          const form = new FormData();
          form.set('model', new Blob(['solid a']), 'a.stl');
          const calls = [
            () => client.authedFetch.post(url, { scope, body: new URLSearchParams({ model: 'a.stl' }) }),
            () => client.authedFetch.post(url, { scope, body: form }),
            () => client.authedFetch.get(url, { scope }),
          ];
          // A URL with user-info cannot even become a Request (fetch standard): ky throws before anything is sent.
          const refused = (await Promise.all(
            calls.map((call) =>
              Promise.resolve().then(call).then(() => 0, (error: TypeError) => (assert.match(error.message, /credentials/), 1))
            ),
          ))
            .reduce((a: number, b) => a + b, 0);
          assert.equal(sent.length + refused, 3);
          for (const request of sent) assert.ok(!carriesToken(request), `${request.url} received a token: ${JSON.stringify(request)}`);
          if (sent.length > 0) {
            assert.equal(warnings.length, 1, 'one warning per origin');
            assert.match(warnings[0] ?? '', /without the token .* list the origin in SLICER_ALLOWED_ORIGINS/);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  test('property: the scope’s own origin and a listed origin receive it, by header or post argument', async () => {
    const own = fc.constantFrom(...Object.entries(SERVICES)).chain(([scope, base]) =>
      fc.tuple(fc.constant(scope as 'slicer' | 'predict'), fc.constantFrom(`${base}/`, `${new URL(base).origin}/other/`, `${LISTED}/`))
    );
    await fc.assert(
      fc.asyncProperty(own, path, fc.constantFrom('header', 'post'), async ([scope, base], tail, transport) => {
        const { client, sent } = recordingClient({ transport, allowedOrigins: `${LISTED}, https://other.example` });
        await client.authedFetch.post(new URL(tail, base).href, { scope, body: new URLSearchParams({ model: 'a.stl' }) });
        const [request] = sent;
        assert.ok(request);
        const token = await client.getToken(scope);
        if (transport === 'post') assert.equal(new URLSearchParams(request.body).get('token'), token);
        else assert.equal(request.authorization, `Bearer ${token}`);
      }),
      { numRuns: 60 },
    );
  });

  test("a scope's token never goes to the other scope's service; the password goes to no service at all", async () => {
    const { client, sent } = recordingClient({});
    await client.authedFetch.get(`${SERVICES.predict}/jobs`, { scope: 'slicer' });
    await client.authedFetch.get(`${SERVICES.slicer}/jobs`, { scope: 'predict' });
    assert.deepEqual(sent.map(carriesToken), [false, false]);
    await client.authedFetch.post(`${SERVICES.slicer}/jobs`, { body: new URLSearchParams({ a: '1' }) });
    assert.ok(!JSON.stringify(sent).includes(PASSWORD), 'the password went only to the token endpoint');
  });

  test('SLICER_ALLOWED_ORIGINS: origins only, normalised; a path or a non-URL is a configuration error naming it', () => {
    assert.throws(
      () => recordingClient({ allowedOrigins: 'https://storage.example/bucket' }),
      /SLICER_ALLOWED_ORIGINS: expected origins such as https:\/\/storage\.example\.com, without a path/,
    );
    assert.throws(() => recordingClient({ allowedOrigins: 'storage' }), /SLICER_ALLOWED_ORIGINS: expected origins/);
  });

  test('a listed origin is normalised: written in another case, with its default port and a final slash, it still receives the token', async () => {
    const { client, sent } = recordingClient({ allowedOrigins: 'HTTPS://Storage.Example:443/' });
    await client.tokenFetch(`${LISTED}/bucket/part.stl`, { scope: 'slicer' });
    await client.tokenFetch('https://storage.example:444/bucket/part.stl', { scope: 'slicer' });
    assert.deepEqual(sent.map((r) => [r.url, r.authorization?.startsWith('Bearer ') ?? false]), [
      [`${LISTED}/bucket/part.stl`, true],
      ['https://storage.example:444/bucket/part.stl', false],
    ]);
  });
});

describe('origin binding against real loopback servers', () => {
  let h: Harness;
  let other: Listening;
  const seen: { authorization: string | null; body: string }[] = [];
  before(async () => {
    h = await startHarness();
    const app = new Hono();
    app.all('*', async (c) => {
      seen.push({ authorization: c.req.header('authorization') ?? null, body: await c.req.text() });
      return c.json({ ok: true });
    });
    other = await listen(app.fetch);
  });
  beforeEach(() => h.sandbox.store.reset()); // every test starts from a fresh sandbox
  after(async () => {
    await other.close();
    await h.close();
  });

  test('another port, or the same server under another host name, gets no token; a listed origin does', async () => {
    const port = other.port;
    seen.length = 0;
    h.warnings.length = 0;
    const client = h.client({ transport: 'post' });
    await client.authedFetch.post(`http://127.0.0.1:${port}/upload`, { body: new URLSearchParams({ a: '1' }) });
    await client.authedFetch.get(`http://localhost:${port}/upload`);
    assert.deepEqual(seen, [{ authorization: null, body: 'a=1' }, { authorization: null, body: '' }]);
    assert.equal(h.warnings.filter((w) => /without the token/.test(w)).length, 2, 'one warning for each origin');
    const listed = h.client({ allowedOrigins: `http://127.0.0.1:${port}` });
    await listed.authedFetch.get(`http://127.0.0.1:${port}/upload`);
    await listed.authedFetch.get(`http://localhost:${port}/upload`);
    assert.equal(seen[2]?.authorization, `Bearer ${await listed.getToken()}`);
    assert.equal(seen[3]?.authorization, null, 'localhost is another origin than 127.0.0.1');
  });
});
