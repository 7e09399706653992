import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { HTTPError } from 'ky';
import { ErrorCode, isAuthError, type TokenEndpointRedirectError, type TokenResponseError } from './errors.ts';
import { redact } from './redact.ts';
import { createMemoryStore } from './stores/memory.ts';
import type { TokenStore } from './stores/store.ts';
import { harnessForFile } from './testing/sandbox_harness.ts';
import { scratchDir } from './testing/scratch.ts';

const h = harnessForFile();

/** A loopback server run by the test; records what it was sent. */
async function server(handle: (request: IncomingMessage, response: ServerResponse, body: string) => void) {
  const seen: { method: string; url: string; body: string; authorization: string | undefined }[] = [];
  const srv = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', body, authorization: request.headers.authorization });
      handle(request, response, body);
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  return {
    seen,
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => (srv.closeAllConnections(), srv.close(() => resolve()))),
  };
}

describe('the password never follows a redirect', () => {
  test('a token endpoint answering 307 to another host gives TOKEN_ENDPOINT_REDIRECT and sends nothing there', async () => {
    const other = await server((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    h.sandbox.store.addFault({ status: 307, body: '', headers: { location: `${other.origin}/steal?x=1` }, times: 1 });
    try {
      const error = await h.client({ tokenRetries: 0 }).getToken().catch((e: unknown) => e);
      assert.ok(isAuthError(error));
      assert.equal(error.code, ErrorCode.TOKEN_ENDPOINT_REDIRECT);
      assert.equal((error as TokenEndpointRedirectError).location, `${other.origin}/steal`, 'where it pointed, without query');
      assert.deepEqual(other.seen, [], 'nothing reached the other host');
    } finally {
      await other.close();
    }
  });
});

describe('the token response body is read under the timeout', () => {
  test('a body that stalls after 200 headers is TOKEN_ENDPOINT_UNAVAILABLE within the timeout, retried', async () => {
    const stall = await server((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      r.write('{"token_type":');
    });
    try {
      const started = performance.now();
      const error = await h.client({ authUrl: stall.origin, tokenTimeoutMs: 300, tokenRetries: 1 }).getToken().catch((e: unknown) => e);
      assert.ok(isAuthError(error), String(error));
      assert.equal(error.code, ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE);
      assert.match(error.message, /timeout/);
      assert.equal(stall.seen.length, 2, 'retried once');
      assert.ok(performance.now() - started < 3000);
    } finally {
      await stall.close();
    }
  });

  test('a connection dropped mid-body is TOKEN_ENDPOINT_UNAVAILABLE, retried, then succeeds', async () => {
    let calls = 0;
    const good = JSON.stringify({
      token_type: 'Bearer',
      scope: `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`,
      access_token: 'abc',
      expires_in: '3600',
    });
    const drop = await server((_q, r) => {
      if (++calls === 1) {
        r.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        r.write('{"token_type":');
        setTimeout(() => r.socket?.destroy(), 20);
        return;
      }
      r.writeHead(200, { 'content-type': 'application/json' }).end(good);
    });
    try {
      assert.equal(await h.client({ authUrl: drop.origin, tokenRetries: 1 }).getToken(), 'abc');
      const failing = await h.client({ authUrl: drop.origin, tokenRetries: 0 });
      calls = 0;
      const error = await failing.getToken().catch((e: unknown) => e);
      assert.ok(isAuthError(error), String(error));
      assert.equal(error.code, ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE);
    } finally {
      await drop.close();
    }
  });
});

describe('network errors say what happened', () => {
  test('a refused connection names ECONNREFUSED, the host and what to check', async () => {
    const closed = await server(() => {});
    await closed.close(); // a port that was free a moment ago: nothing listens there now
    const error = await h.client({ authUrl: closed.origin, tokenRetries: 0 }).getToken().catch((e: unknown) => e);
    assert.ok(isAuthError(error));
    assert.equal(error.code, ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE);
    assert.match(
      error.message,
      new RegExp(
        `cannot reach 127\\.0\\.0\\.1:${closed.port} \\(ECONNREFUSED\\): fetch failed; check SLICER_AUTH_URL and that the authorization service is up ` +
          `\\(if it is the sandbox's address, start the sandbox: "npx slicer-auth sandbox --port ${closed.port}" in another terminal\\)$`,
      ),
    );
  });
});

describe('redaction', () => {
  test('raw, URL-encoded and base64 forms of a secret are removed', () => {
    const secret = 'p+ss/w&rd é=';
    const text = [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ v: secret }).toString().slice(2),
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('base64url'),
    ].join(' | ');
    assert.equal(redact(text, [secret]), '[redacted] | [redacted] | [redacted] | [redacted] | [redacted]');
  });

  test('the OAuth error field of a refusal is redacted too', async () => {
    const password = 'echo-me-S3cret';
    h.sandbox.store.addUser('echo', password);
    h.sandbox.store.addFault({ status: 400, body: JSON.stringify({ error: `bad ${password}`, error_description: password }), times: 1 });
    const error = await h.client({ username: 'echo', password, tokenRetries: 0 }).getToken().catch((e: unknown) => e);
    assert.equal((error as { code?: string }).code, ErrorCode.TOKEN_REQUEST_REJECTED);
    assert.ok(!JSON.stringify(error).includes(password) && !String((error as Error).stack).includes(password));
  });

  test('a locked account (429 with invalid_grant after retries) is TOKEN_REQUEST_REJECTED keeping the OAuth error', async () => {
    // One fault per attempt: the first try and its one retry.
    h.sandbox.store.addFault({ status: 429, body: JSON.stringify({ error: 'invalid_grant', error_description: 'locked' }), times: 2 });
    const error = await h.client({ tokenRetries: 1 }).getToken().catch((e: unknown) => e);
    assert.equal((error as { code?: string }).code, ErrorCode.TOKEN_REQUEST_REJECTED);
    assert.equal((error as { error?: string }).error, 'invalid_grant');
    assert.equal(h.sandbox.store.takeFault(), undefined, 'both faults were used: the 429 was retried once');
  });
});

describe('a token no HTTP header can carry', () => {
  test('is refused where it is issued, naming access_token: never sent, never quoted (fetch would quote it in its error)', async () => {
    const service = await server((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    try {
      const scope = `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`;
      for (const token of ['Q7tok\r\nX-Injected: Q7secret', 'Q7tok\u0000Q7secret', 'Q7tok-\u6f22-Q7secret']) {
        for (const transport of ['header', 'post'] as const) {
          const body = JSON.stringify({ token_type: 'Bearer', scope, access_token: token, expires_in: '3600' });
          h.sandbox.store.addFault({ status: 200, body, times: 1 });
          const client = h.client({ baseUrl: service.origin, transport, tokenRetries: 0 });
          const error = await client.tokenFetch('jobs', { method: 'POST', body: new URLSearchParams({ a: '1' }) }).catch((e: unknown) => e);
          await client.close();
          assert.ok(isAuthError(error), String(error));
          assert.equal(error.code, ErrorCode.TOKEN_RESPONSE_INVALID);
          assert.deepEqual((error as TokenResponseError).paths, ['access_token']);
          assert.ok(!`${error.message} ${error.stack} ${JSON.stringify(error)}`.includes('Q7secret'), JSON.stringify(token));
        }
      }
      assert.deepEqual(service.seen, [], 'nothing was sent to the service');
    } finally {
      await service.close();
    }
  });

  test("in a user's own store is read as none, with one warning naming the field: never sent, never quoted", async () => {
    const service = await server((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    try {
      const planted = { token: 'Q7tok\r\nX-Injected: Q7secret', expiresAt: Date.now() + 3_600_000, lifetime: 3_600_000 };
      const store: TokenStore = { ...createMemoryStore(), description: 'my store', get: async () => planted };
      const client = h.client({ baseUrl: service.origin, store });
      const answer = await client.tokenFetch('jobs');
      await client.close();
      assert.equal(answer.status, 200);
      assert.equal(h.issued(), 1, 'a token was requested instead');
      assert.equal(service.seen.length, 1);
      assert.match(service.seen[0]?.authorization ?? '', /^Bearer [\w-]{43}$/, 'sent with the issued token');
      const scope = `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`;
      assert.deepEqual(h.warnings, [
        `The shared token store my store holds an entry for scope "${scope}" that is no usable token (token must be a token an HTTP header can carry); ignoring it`,
      ]);
    } finally {
      await service.close();
    }
  });
});

/**
 * A service whose `/same` redirects within its origin (to `/landing`) and
 * whose `/away` redirects to another server, which must never be reached.
 */
async function redirecting(status: number) {
  const other = await server((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"stolen":true}'));
  const service = await server((q, r) => {
    if (q.url === '/same') return r.writeHead(status, { location: '/landing' }).end();
    if (q.url === '/away') return r.writeHead(status, { location: `${other.origin}/steal` }).end();
    r.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
  });
  return { other, service };
}

describe('a service redirect never carries the token to another origin', () => {
  for (const transport of ['header', 'post'] as const) {
    test(`${transport} transport: same-origin redirects are followed with the token; cross-origin ones are handed back`, async () => {
      const { other, service } = await redirecting(307);
      try {
        const client = h.client({ baseUrl: service.origin, transport });
        const body = () => new URLSearchParams({ model: 'a.stl' });
        assert.deepEqual(await client.authedFetch.post('same', { body: body() }).json(), { status: 'success' });
        const landing = service.seen.find((s) => s.url === '/landing');
        assert.ok(landing, 'followed within the origin');
        assert.ok(transport === 'header' ? landing.authorization?.startsWith('Bearer ') : /token=/.test(landing.body), 'token re-attached');
        assert.match(landing.body, /model=a\.stl/, '307 re-sends the body');
        const away = await client.authedFetch.post('away', { body: body(), throwHttpErrors: false });
        assert.equal(away.status, 307, 'the cross-origin redirect is handed back');
        assert.deepEqual(other.seen, [], 'nothing was sent to the other origin');
      } finally {
        await Promise.all([other.close(), service.close()]);
      }
    });
  }
});

describe('a GET redirect never carries the token to another origin', () => {
  test('same-origin GET redirects are followed with the token; cross-origin ones are handed back, a caller-made request too', async () => {
    const { other, service } = await redirecting(302);
    try {
      const client = h.client({ baseUrl: service.origin });
      await client.getToken(); // the token is ready: the shortest path
      assert.deepEqual(await client.authedFetch('same').json(), { status: 'success' });
      assert.ok(service.seen.find((s) => s.url === '/landing')?.authorization?.startsWith('Bearer '), 'followed with the token');
      await assert.rejects(client.authedFetch('away'), (error: unknown) => error instanceof HTTPError && error.response.status === 302);
      // A caller's hook may replace ky's request with one that follows redirects by itself.
      const remade = client.authedFetch('away', {
        hooks: { beforeRequest: [(request) => new Request(request.url, { headers: request.headers })] },
        throwHttpErrors: false,
      });
      assert.equal((await remade).status, 302);
      assert.deepEqual(other.seen, [], 'nothing was sent to the other origin');
    } finally {
      await Promise.all([other.close(), service.close()]);
    }
  });
});

describe('plain http', () => {
  test('a token is not sent to a non-loopback http service URL without the opt-in', async () => {
    const client = h.client({ baseUrl: 'http://slicer.example.invalid/api' });
    const error = await client.authedFetch('jobs').catch((e: unknown) => e);
    assert.equal((error as { code?: string }).code, ErrorCode.INSECURE_AUTH_URL);
    assert.match((error as Error).message, /access token over plain http to "slicer\.example\.invalid".*SLICER_BASE_URL/);
  });

  test('nor to a plain-http origin listed in SLICER_ALLOWED_ORIGINS, and the refusal names that setting, not the https base URL', async () => {
    const client = h.client({ allowedOrigins: ['http://gateway.example.invalid'] });
    for (
      const send of [
        () => client.tokenFetch('http://gateway.example.invalid/jobs'),
        () => client.authedFetch('http://gateway.example.invalid/jobs'),
      ]
    ) {
      const error = await send().catch((e: unknown) => e);
      assert.equal((error as { code?: string }).code, ErrorCode.INSECURE_AUTH_URL);
      assert.equal(
        (error as Error).message,
        'Refusing to send an access token over plain http to "gateway.example.invalid": list the origin with https in ' +
          'SLICER_ALLOWED_ORIGINS, or set SLICER_ALLOW_INSECURE_HTTP=1 (option allowInsecureHttp) if you accept the risk',
      );
    }
  });
});

describe('tokens at rest in the cache file', () => {
  test('with SLICER_STORE_KEY the file holds no token, and clients with the key share it; one without is warned', async () => {
    const file = join(scratchDir('slicer-sealed-'), 'tokens.json');
    const token = await h.client({ cacheFile: file, storeKey: 'correct horse battery staple' }).getToken();
    assert.ok(!readFileSync(file, 'utf8').includes(token), 'sealed');
    assert.equal(await h.client({ cacheFile: file, storeKey: 'correct horse battery staple' }).getToken(), token);
    assert.equal(h.issued(), 1, 'read from the file');
    assert.notEqual(await h.client({ cacheFile: file }).getToken(), token);
    assert.deepEqual(h.warnings, [`The shared token store file ${file} holds an entry sealed with a key: set SLICER_STORE_KEY to use it`]);
  });
});

describe('a refused token is forgotten everywhere', () => {
  test('a token revoked on the server but still in the shared file cache costs exactly one new token request', async () => {
    const file = join(scratchDir('slicer-revoked-'), 'tokens.json');
    h.sandbox.store.reset();
    await h.client({ cacheFile: file }).getToken(); // an earlier run filled the file
    const stored = h.sandbox.store.list(h.sandbox.env.SLICER_USERNAME, 'temporary')[0];
    assert.ok(stored);
    h.sandbox.store.revoke(h.sandbox.env.SLICER_USERNAME, stored.id);
    const before = h.issued();
    const next = h.client({ cacheFile: file }); // a new run reads the revoked token from the file
    assert.equal((await next.authedFetch('jobs').json<{ status: string }>()).status, 'success');
    assert.equal(h.issued() - before, 1, 'one new token request');
    assert.equal((await h.client({ cacheFile: file }).authedFetch('jobs').json<{ status: string }>()).status, 'success');
    assert.equal(h.issued() - before, 1, 'the next run reads the new token from the file');
  });
});
