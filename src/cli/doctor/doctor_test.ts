import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { beforeEach, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import * as v from 'valibot';
import { listen } from '../../sandbox/serve.ts';
import { doctorSample, withSample } from '../../../scripts/readme_samples.ts';
import { main } from '../main.ts';
import type { Io } from '../usage.ts';
import { eventually } from '../../testing/eventually.ts';
import { createFakeClock } from '../../testing/fake_clock.ts';
import { type Clock, systemClock } from '../../clock.ts';
import { type Finished, freePort, ROOT, runTs } from '../../testing/processes.ts';
import { redisRequired, startRedis } from '../../testing/redis_server.ts';
import { harnessForFile } from '../../testing/sandbox_harness.ts';
import { scratchDir } from '../../testing/scratch.ts';
import { listenTls, TEST_CA_FILE } from '../../testing/tls_server.ts';

const PASSWORD = 'Doctor-Pa55+&%= secret';
const h = harnessForFile();
let env: Record<string, string | undefined>;
beforeEach(() => {
  h.sandbox.store.addUser('doctor', PASSWORD);
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SLICER_ENV_FILE: '/dev/null',
    ...h.sandbox.env,
    SLICER_USERNAME: 'doctor',
    SLICER_PASSWORD: PASSWORD,
  };
});

/** Fails when any form of the password, or anything shaped like a token, is in a run's output. */
function assertNoSecret(run: Finished): void {
  const all = run.out + run.err;
  for (const form of [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(PASSWORD).toString('base64')]) {
    assert.ok(!all.includes(form), `a form of the password was printed: ${form}`);
  }
  assert.equal(/[A-Za-z0-9_-]{43}/.exec(all)?.[0], undefined, 'a token was printed');
}

/** Runs the doctor; every run's output is checked for secrets. */
async function doctor(overrides: Record<string, string | undefined> = {}, args: string[] = []): Promise<Finished> {
  const run = await runTs(['src/cli.ts', 'doctor', ...args], { ...env, ...overrides }, 60_000);
  assertNoSecret(run);
  return run;
}

/** The lines of a check: its first line, continuation lines and fix. */
function line(run: Finished, name: string): string {
  const lines = run.out.split('\n');
  const at = lines.findIndex((l) => l.slice(2).startsWith(`${name}:`));
  assert.ok(at >= 0, `no line for ${name} in:\n${run.out}`);
  const rest = lines.slice(at + 1);
  const end = rest.findIndex((l) => !l.startsWith('    '));
  return [lines[at], ...rest.slice(0, end === -1 ? rest.length : end)].join('\n');
}

const CheckSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^[a-z]+(-[a-z]+)*$/)),
  name: v.string(),
  status: v.picklist(['ok', 'fail', 'warn', 'skip']),
  reason: v.string(),
  fix: v.optional(v.string()),
  durationMs: v.pipe(v.number(), v.minValue(0)),
});

/** Runs the doctor in this process on a clock: its exit code and its checks by id. */
async function inProcess(clock: Clock, vars: Record<string, string | undefined>, args: string[] = []) {
  const out: string[] = [];
  const io: Io = {
    out: (line) => out.push(line),
    err: (line) => assert.fail(`nothing on standard error: ${line}`),
    raw: () => undefined,
    env: { ...env, SLICER_PREDICT_SERVICE_ID: undefined, ...vars },
    clock,
  };
  const code = await main(['doctor', '--json', ...args], io);
  const checks = v.parse(v.array(CheckSchema), JSON.parse(out.join('\n')));
  return { code, check: (id: string) => checks.find((check) => check.id === id) };
}

describe('slicer-auth doctor', () => {
  test('a healthy set-up: every check ✔, exit 0; --json validates against its schema', async () => {
    const run = await doctor();
    assert.equal(run.code, 0, run.out + run.err);
    assert.ok(!/^[✖!]/m.test(run.out), run.out);
    assert.match(line(run, 'configuration'), /SLICER_PASSWORD=set, 22 characters \(environment\)/);
    assert.match(line(run, 'token request (slicer)'), /^✔ .*Bearer token for service_id=sandbox-slicer, valid 3600 s/);
    assert.match(line(run, 'service (predict)'), /^✔ .*accepts the token/);
    const json = await doctor({}, ['--json', '--scope', 'slicer']);
    assert.equal(json.code, 0);
    const checks = v.parse(v.array(CheckSchema), JSON.parse(json.out));
    assert.ok(checks.some((c) => c.name === 'token request (slicer)' && c.status === 'ok'));
    assert.ok(!checks.some((c) => c.name.includes('predict')), '--scope limits the checks');
    assert.equal(h.issued() + h.issued(h.sandbox.env.SLICER_PREDICT_SERVICE_ID), 3, 'one token request per scope and run, never more');
  });

  const broken: [string, () => Record<string, string | undefined> | Promise<Record<string, string | undefined>>, string, RegExp, RegExp][] =
    [
      [
        'nothing configured',
        () => Object.fromEntries(Object.keys(h.sandbox.env).concat('SLICER_USERNAME', 'SLICER_PASSWORD').map((k) => [k, undefined])),
        'configuration',
        /nothing is configured/,
        /fix: set SLICER_AUTH_URL, .*\("npx slicer-auth init" writes a \.env that lists every setting, with its meaning\); to try it on the embedded sandbox first, run "npx slicer-auth demo", or "npx slicer-auth init --sandbox" and "npx slicer-auth sandbox"$/,
      ],
      [
        'a wrong password',
        () => ({ SLICER_PASSWORD: 'wrong-password' }),
        'token request (slicer)',
        // The reason without the fix the client's message ends with: the fix line says it.
        /answered 400 invalid_grant: Invalid username or password\n/,
        /fix: check SLICER_USERNAME and SLICER_PASSWORD/,
      ],
      [
        'a closed port',
        async () => ({ SLICER_AUTH_URL: `http://127.0.0.1:${await freePort()}` }),
        'authorization service: TCP',
        /ECONNREFUSED/,
        /fix: check that the authorization service runs at 127\.0\.0\.1:\d+/,
      ],
      [
        'an unknown service id',
        () => ({ SLICER_SERVICE_ID: 'no-such-service' }),
        'token request (slicer)',
        /answered 400 invalid_scope: The scope must be "service_id=<id>" naming the slicing or the prediction service\n/,
        /fix: SLICER_SERVICE_ID is not a service/,
      ],
      [
        'swapped service ids',
        () => ({ SLICER_SERVICE_ID: 'sandbox-predict', SLICER_PREDICT_SERVICE_ID: 'sandbox-slicer' }),
        'service (slicer)',
        /refuses the slicer token \(401\) but accepts the other scope's/,
        /fix: the service ids or base URLs are swapped/,
      ],
      [
        'a revoked permanent token',
        () => {
          const { value, record } = h.sandbox.store.issuePermanent('doctor', 'old', [h.sandbox.env.SLICER_SERVICE_ID]);
          h.sandbox.store.revoke('doctor', record.id);
          return { SLICER_STATIC_TOKEN: value };
        },
        'permanent tokens',
        /SLICER_STATIC_TOKEN is refused .* revoked or invalid/,
        /fix: create a new one: slicer-auth permanent create --name "<name>" --scope slicer/,
      ],
      [
        'a token endpoint answering HTML',
        () => {
          h.sandbox.store.addFault({ status: 200, body: '<!doctype html><title>Sign in</title>', contentType: 'text/html', times: 1 });
          return { SLICER_PREDICT_SERVICE_ID: undefined };
        },
        'token request (slicer)',
        /HTML page/,
        /fix: SLICER_AUTH_URL must be the authorization service's base address/,
      ],
      [
        'a token endpoint that limits requests (429 with an OAuth error and Retry-After)',
        () => {
          const headers = { 'retry-after': '3600' };
          h.sandbox.store.addFault({ status: 429, body: '{"error":"slow_down"}', headers, times: 1 });
          return { SLICER_PREDICT_SERVICE_ID: undefined };
        },
        'token request (slicer)',
        /answered 429 Too Many Requests slow_down; it asks for 3600 s before the next request \(Retry-After\), so it was not asked again\n/,
        /fix: the token endpoint limits how often it is asked \(429\): wait as long as it asks, then run again; processes that use this account can share tokens \(SLICER_CACHE_FILE or SLICER_STORE_URL\)$/,
      ],
      [
        'a token endpoint that limits requests (429 without OAuth fields)',
        () => {
          h.sandbox.store.addFault({ status: 429, body: 'busy', contentType: 'text/plain', times: 1 });
          return { SLICER_PREDICT_SERVICE_ID: undefined };
        },
        'token request (slicer)',
        /answered 429 Too Many Requests \(said: busy\)\n/,
        /fix: the token endpoint limits how often it is asked \(429\): wait as long as it asks, then run again; processes/,
      ],
      [
        'a locked account (429 invalid_grant): the credentials, not the rate',
        () => {
          h.sandbox.store.addFault({ status: 429, body: '{"error":"invalid_grant","error_description":"locked"}', times: 1 });
          return { SLICER_PREDICT_SERVICE_ID: undefined };
        },
        'token request (slicer)',
        /answered 429 Too Many Requests invalid_grant: locked\n/,
        /fix: check SLICER_USERNAME and SLICER_PASSWORD; after several failures the account may be locked/,
      ],
      [
        'a 401 in words of its own (no OAuth fields): both causes, once',
        () => {
          h.sandbox.store.addFault({ status: 401, body: '{"detail":"Invalid username/password."}', times: 1 });
          return { SLICER_PREDICT_SERVICE_ID: undefined };
        },
        'token request (slicer)',
        /answered 401 \(said: detail: Invalid username\/password\.\)\n/,
        /fix: check SLICER_USERNAME and SLICER_PASSWORD, and that SLICER_AUTH_URL is the authorization service's base address \(not a service's or a proxy's\); after several failures/,
      ],
      [
        'an auth URL with a path nothing answers at',
        () => ({ SLICER_AUTH_URL: `${h.sandbox.env.SLICER_AUTH_URL}/api`, SLICER_PREDICT_SERVICE_ID: undefined }),
        'token request (slicer)',
        /answered 404 \(said: status: bad_request; reason: No route for POST \/api\/oauth2\/token\/\); nothing takes token requests there: check SLICER_AUTH_URL/,
        /fix: correct SLICER_AUTH_URL: the authorization service's base address, to which \/oauth2\/token\/ is appended$/,
      ],
      [
        "an auth URL that is the slicing service's",
        () => ({ SLICER_AUTH_URL: h.sandbox.env.SLICER_BASE_URL, SLICER_PREDICT_SERVICE_ID: undefined }),
        'token request (slicer)',
        /answered 401 \(said: status: access_error; reason: No access token: send "Authorization: Bearer <token>" or a "token" post argument\); the answer asks for a Bearer token, as a service does: SLICER_AUTH_URL must be the authorization service's/,
        /fix: correct SLICER_AUTH_URL: the authorization service's base address, not a service's \(SLICER_BASE_URL, SLICER_PREDICT_BASE_URL or another\)$/,
      ],
      [
        'an auth URL that is the token endpoint itself',
        () => ({ SLICER_AUTH_URL: `${h.sandbox.env.SLICER_AUTH_URL}/oauth2/token/` }),
        'configuration',
        /SLICER_AUTH_URL: expected the base address of the authorization service, without \/oauth2\/token\/ \(the client appends it\)/,
        /fix: set or correct the variables listed, in the environment or \.env \(\.env\.example describes each\)$/,
      ],
      [
        'plain http to a non-loopback name',
        () => ({ SLICER_AUTH_URL: 'http://auth.example.invalid' }),
        'configuration',
        /plain http to "auth\.example\.invalid"/,
        /fix: use an https SLICER_AUTH_URL, or set SLICER_ALLOW_INSECURE_HTTP=1/,
      ],
      [
        'a cache file open to others',
        () => {
          const file = join(scratchDir('doctor-'), 'tokens.json');
          writeFileSync(file, '{}');
          chmodSync(file, 0o644);
          return { SLICER_CACHE_FILE: file };
        },
        'shared token store',
        /group or others may read or write it \(mode 644/,
        /fix: chmod 600 .*tokens\.json/,
      ],
      [
        'a cache file that is a folder',
        () => {
          const folder = join(scratchDir('doctor-'), 'cache');
          mkdirSync(folder, { mode: 0o700 });
          return { SLICER_CACHE_FILE: folder };
        },
        'shared token store',
        /\/cache: it is a folder\n/,
        /fix: set SLICER_CACHE_FILE to a file, such as \S+\/cache\/tokens\.json$/,
      ],
    ];
  for (const [what, overrides, check, reason, fix] of broken) {
    test(`${what}: ✖ ${check} with its fix, exit 1`, async () => {
      const run = await doctor(await overrides());
      assert.equal(run.code, 1, run.out + run.err);
      const shown = line(run, check);
      assert.match(shown, /^✖ /, run.out);
      assert.match(shown, reason, run.out);
      assert.match(shown, fix, run.out);
    });
  }

  test('a service whose answer says nothing of the token (429, 5xx, 404, 405, a redirect elsewhere): ! service with the fix for each; exit 0', async () => {
    let answer = () => new Response('');
    const service = await listen(() => answer());
    const said = (status: number, where = '') =>
      `^! service \\(slicer\\): ${service.origin}/slicer answered ${status}${where}, which says nothing of the token ` +
      '\\(header transport\\), \\d+ ms\n    fix: ';
    const rows: [() => Response, string][] = [
      [
        () => new Response('{"detail":"busy"}', { status: 429 }),
        `${said(429)}the service limits how often it is asked \\(429\\): wait as long as it asks, then run again$`,
      ],
      [
        () => new Response('{"detail":"busy"}', { status: 503 }),
        `${said(503)}the service failed \\(5xx\\): run again later, and tell its owners if it goes on$`,
      ],
      [
        () => new Response('<h1>Not Found</h1>', { status: 404, headers: { 'content-type': 'text/html' } }),
        `${said(404)}the service answers no GET at SLICER_BASE_URL itself \\(404\\): check it, then try a path of the service: ` +
        'npx slicer-auth call GET <path> --scope slicer$',
      ],
      [() => new Response(null, { status: 405, headers: { allow: 'POST' } }), `${said(405)}the service answers no GET .* itself \\(405\\)`],
      [
        () => new Response(null, { status: 302, headers: { location: 'https://sso.example/login?next=/slicer&ticket=t-77' } }),
        `${said(302, ', a redirect to https://sso\\.example/login')}set SLICER_BASE_URL to the address where the service ` +
        'answers its API \\(a redirect to a sign-in page is a web page\\)$',
      ],
    ];
    try {
      for (const [respond, expected] of rows) {
        answer = respond;
        const run = await doctor({ SLICER_BASE_URL: `${service.origin}/slicer`, SLICER_PREDICT_SERVICE_ID: undefined });
        assert.equal(run.code, 0, run.out);
        assert.match(line(run, 'service (slicer)'), new RegExp(expected), expected);
        assert.ok(!run.out.includes('t-77'), 'the query of a redirect is not shown');
      }
    } finally {
      await service.close();
    }
  });

  test('an authorization service whose CA this machine does not trust: each failing check says to trust that CA; then all pass', async () => {
    // The sandbox's authorization service behind https, with a certificate of the test-only CA.
    const proxy = await listenTls(async (request) => {
      const url = new URL(request.url);
      const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
      return await fetch(`${h.sandbox.env.SLICER_AUTH_URL}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body,
        redirect: 'manual',
      });
    });
    try {
      const fix = "    fix: the certificate's issuer is not trusted here: if your organisation's own CA issues it, trust that CA " +
        '(NODE_EXTRA_CA_CERTS=<ca.pem> for Node and Bun, DENO_CERT=<ca.pem> for Deno)';
      const untrusted = await doctor({ SLICER_AUTH_URL: proxy.origin });
      assert.equal(untrusted.code, 1);
      assert.match(
        line(untrusted, 'authorization service: TLS'),
        /^✖ .*the certificate is not valid \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)\n/,
      );
      for (const check of ['authorization service: TLS', 'authorization service: token endpoint', 'token request (slicer)']) {
        assert.equal(line(untrusted, check).split('\n').at(-1), fix, check);
      }
      assert.equal(untrusted.err, '', 'no warning (a server name that is an address)');
      const trusted = await doctor({ SLICER_AUTH_URL: proxy.origin, NODE_EXTRA_CA_CERTS: TEST_CA_FILE });
      assert.equal(trusted.code, 0, trusted.out);
      assert.match(line(trusted, 'authorization service: TLS'), /^✔ .*valid until 2126-/);
    } finally {
      await proxy.close();
    }
  });

  test("a proxy named in the environment that Node's fetch does not use: ! runtime, and the checks still run direct", async () => {
    const run = await doctor({ HTTPS_PROXY: 'http://127.0.0.1:9' });
    assert.equal(run.code, 0, run.out);
    assert.match(
      line(run, 'runtime'),
      /^! runtime: Node v[\d.]+; HTTPS_PROXY is set, but Node's fetch does not use it: requests go direct\n {4}fix: /,
    );
    assert.match(line(run, 'token request (slicer)'), /^✔ /);
  });

  test('a token answer the client accepts but the contract does not document: ! token request naming each deviation', async () => {
    const body = JSON.stringify({ token_type: 'Bearer', access_token: 'undocumented-form', expires_in: 3600 });
    h.sandbox.store.addFault({ status: 200, body, times: 1 });
    const run = await doctor({}, ['--scope', 'slicer']);
    assert.match(
      line(run, 'token request (slicer)'),
      /^! .*valid 3600 s.*; expires_in is a JSON number, documented as a string; scope is left out, documented as the requested scope\n\s+fix: nothing to do here: the client accepts this/,
    );
    const scope = `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`;
    h.sandbox.store.addFault({ status: 200, body: JSON.stringify({ token_type: 'Bearer', access_token: 'no-lifetime', scope }), times: 1 });
    const left = await doctor({}, ['--scope', 'slicer']);
    assert.match(
      line(left, 'token request (slicer)'),
      /^! .*valid 3600 s.*; expires_in is left out, taken as the documented 3600 s\n\s+fix: nothing to do here: the client accepts this/,
    );
    const nulls = JSON.stringify({ token_type: 'Bearer', access_token: 'null-scope', expires_in: '3600', scope: null });
    h.sandbox.store.addFault({ status: 200, body: nulls, times: 1 });
    const nulled = await doctor({}, ['--scope', 'slicer']);
    assert.match(
      line(nulled, 'token request (slicer)'),
      /^! .*valid 3600 s.*; scope is null, documented as the requested scope\n\s+fix: nothing to do here: the client accepts this/,
    );
    const bare = JSON.stringify({
      token_type: 'Bearer',
      access_token: 'bare-id',
      expires_in: '3600',
      scope: h.sandbox.env.SLICER_SERVICE_ID,
    });
    h.sandbox.store.addFault({ status: 200, body: bare, times: 1 });
    assert.match(
      line(await doctor({}, ['--scope', 'slicer']), 'token request (slicer)'),
      /^! .*valid 3600 s.*; scope is the service id alone, documented as the requested scope \(service_id=<id>\)\n\s+fix: nothing/,
    );
    const list = JSON.stringify({ token_type: 'Bearer', access_token: 'in-a-list', expires_in: '3600', scope: `openid ${scope}` });
    h.sandbox.store.addFault({ status: 200, body: list, times: 1 });
    assert.match(
      line(await doctor({}, ['--scope', 'slicer']), 'token request (slicer)'),
      /^! .*valid 3600 s.*; scope is a list, documented as the requested scope\n\s+fix: nothing/,
    );
    // In-process, where a mutation test sees it.
    const documented = { token_type: 'Bearer', expires_in: '3600', scope };
    const lower = JSON.stringify({ ...documented, token_type: 'bearer', access_token: 'lower-case' });
    h.sandbox.store.addFault({ status: 200, body: lower, contentType: 'text/plain; charset=utf-8', times: 1 });
    const check = (await inProcess(systemClock, {}, ['--scope', 'slicer'])).check('token-request-slicer');
    assert.equal(check?.status, 'warn');
    assert.match(
      check?.reason ?? '',
      /^Bearer token for service_id=\S+, valid 3600 s, \d+ ms; token_type is "bearer", documented "Bearer"; the answer's content type is "text\/plain; charset=utf-8", not JSON's$/,
    );
    assert.equal(check?.fix, 'nothing to do here: the client accepts this; tell the service owners');
    // Node's own server adds no content type to an answer that has none.
    const untyped = http.createServer((_, response) => response.end(JSON.stringify({ ...documented, access_token: 'untyped' })));
    await new Promise<void>((resolve) => untyped.listen(0, '127.0.0.1', resolve));
    try {
      const authUrl = `http://127.0.0.1:${(untyped.address() as AddressInfo).port}`;
      const told = (await inProcess(systemClock, { SLICER_AUTH_URL: authUrl }, ['--scope', 'slicer'])).check('token-request-slicer');
      assert.match(told?.reason ?? '', /, \d+ ms; the answer's content type is not given, not JSON's$/);
    } finally {
      untyped.close();
    }
  });

  test('no secret in any output, healthy or failing, text or JSON: the password is shown only by its length', async () => {
    const runs = [await doctor(), await doctor({}, ['--json']), await doctor({ SLICER_STATIC_TOKEN: 'not-a-valid-permanent-token' })];
    assert.match(line(runs[0] as Finished, 'configuration'), /SLICER_PASSWORD=set, 22 characters/);
    assert.match(line(runs[2] as Finished, 'configuration'), /SLICER_STATIC_TOKEN=set, 27 characters/);
    for (const run of runs) assert.ok(!(run.out + run.err).includes('not-a-valid-permanent-token'), 'the permanent token was printed');
  });

  test('a Redis store: ✔ reachable, ! without an encryption key, ✖ when Redis is down; --write-check takes a lock', async (t) => {
    if (!redisRequired()) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    const redis = await startRedis();
    try {
      const encrypted = await doctor({ SLICER_STORE_URL: redis.url, SLICER_STORE_KEY: 'doctor-store-key' }, ['--scope', 'slicer']);
      assert.equal(encrypted.code, 0, encrypted.out);
      assert.match(line(encrypted, 'shared token store'), /^✔ .*reachable \(read only; --write-check .*\); tokens sealed at rest/);
      const written = await doctor({ SLICER_STORE_URL: redis.url, SLICER_STORE_KEY: 'k' }, ['--scope', 'slicer', '--write-check']);
      assert.match(line(written, 'shared token store'), /^✔ .*reachable and writable; tokens sealed at rest/);
      const plain = await doctor({ SLICER_STORE_URL: redis.url }, ['--scope', 'slicer']);
      assert.equal(plain.code, 0, 'a warning does not fail');
      assert.match(line(plain, 'shared token store'), /^! .*stored in clear\n\s+fix: set SLICER_STORE_KEY/);
      await redis.stop();
      const down = await doctor({ SLICER_STORE_URL: redis.url }, ['--scope', 'slicer']);
      assert.equal(down.code, 1);
      assert.match(line(down, 'shared token store'), /^✖ .*failed[\s\S]*fix: check SLICER_STORE_URL/);
    } finally {
      await redis.stop();
    }
  });

  test('read only: a Redis store and a cache file are byte for byte unchanged, and Redis saw no write command', async (t) => {
    if (!redisRequired()) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    const redis = await startRedis();
    const inspect = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await inspect.connect();
      const file = join(scratchDir('doctor-ro-'), 'tokens.json');
      // Both stores hold a client's entries before the doctor runs.
      const filled = { ...env, SLICER_STORE_URL: redis.url };
      assert.equal((await runTs(['src/cli.ts', 'token'], filled)).code, 0);
      assert.equal((await runTs(['src/cli.ts', 'token'], { ...env, SLICER_CACHE_FILE: file })).code, 0);
      const snapshot = async () => {
        const keys = (await inspect.keys('*')).sort();
        return { keys, values: await Promise.all(keys.map((key) => inspect.getBuffer(key))) };
      };
      const before = await snapshot();
      assert.ok(before.keys.length > 0, 'Redis holds entries');
      const fileBefore = { text: readFileSync(file), mtime: statSync(file).mtimeMs };
      await inspect.config('RESETSTAT');
      assert.equal((await doctor(filled)).code, 0);
      assert.equal((await doctor({ SLICER_CACHE_FILE: file })).code, 0);
      assert.deepEqual(await snapshot(), before);
      const stats = String(await inspect.info('commandstats'));
      assert.deepEqual(stats.match(/cmdstat_(set|del|eval|evalsha|expire|pexpire|setex|psetex)\b/g), null, stats);
      assert.match(stats, /cmdstat_get:/, 'the doctor read');
      assert.deepEqual({ text: readFileSync(file), mtime: statSync(file).mtimeMs }, fileBefore);
      assert.deepEqual(readdirSync(dirname(file)), ['tokens.json'], 'no lock file left or made');
    } finally {
      inspect.disconnect();
      await redis.stop();
    }
  });

  test('a cache file: private to this user, and sealed at rest with SLICER_STORE_KEY', async () => {
    const file = join(scratchDir('doctor-file-'), 'tokens.json');
    const where = `file ${file} (private to this user)`;
    assert.equal(line(await doctor({ SLICER_CACHE_FILE: file }), 'shared token store'), `✔ shared token store: ${where}`);
    const sealed = await doctor({ SLICER_CACHE_FILE: file, SLICER_STORE_KEY: 'correct horse battery staple' });
    assert.equal(line(sealed, 'shared token store'), `✔ shared token store: ${where}; tokens sealed at rest (SLICER_STORE_KEY)`);
  });

  test('an env file that holds the password: ! when group or others may read it, with the fix; ✔ once private', async () => {
    const file = join(scratchDir('doctor-env-'), 'slicer.env');
    writeFileSync(file, `SLICER_PASSWORD=${PASSWORD}\nSLICER_STORE_KEY=correct horse battery staple\n`);
    chmodSync(file, 0o640);
    const fromFile = { SLICER_ENV_FILE: file, SLICER_PASSWORD: undefined };
    const open = await doctor(fromFile);
    assert.equal(
      line(open, 'env file'),
      `! env file: ${file} holds SLICER_PASSWORD, SLICER_STORE_KEY, and group or others may read it (mode 640)\n` +
        `    fix: chmod 600 ${file}`,
    );
    assert.equal(open.code, 0, 'a warning fails nothing');
    assert.equal(statSync(file).mode & 0o777, 0o640, 'the doctor only reads');
    chmodSync(file, 0o600);
    assert.equal(
      line(await doctor(fromFile), 'env file'),
      `✔ env file: ${file} holds SLICER_PASSWORD, SLICER_STORE_KEY; private to this user`,
    );
    writeFileSync(file, 'SLICER_PASSWORD=\n');
    chmodSync(file, 0o644);
    assert.ok(
      !(await doctor()).out.includes('env file'),
      'no line when the env file holds no secret: the password comes from the environment',
    );
  });

  test("the README's doctor sample is what the doctor prints now (npm run docs:samples)", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const sample = await doctorSample(h.sandbox.env);
    assert.match(sample, /✖ token request \(slicer\): .*invalid_grant/);
    assert.equal(readme, withSample(readme, 'doctor', sample), 'README.md is stale: run npm run docs:samples');
  });

  test('a token is never sent where the client would refuse to: plain http to a non-loopback host is a finding with its fix', async () => {
    let seen = 0;
    const trap = await listen(() => (seen++, new Response('{}')));
    try {
      // 0.0.0.0 reaches this machine, but it is not a loopback name: the client refuses plain http there.
      const run = await doctor({ SLICER_BASE_URL: `http://0.0.0.0:${trap.port}/slicer` }, ['--scope', 'slicer']);
      assert.equal(run.code, 1);
      assert.match(
        line(run, 'service (slicer)'),
        /^✖ service \(slicer\): the client refuses to send a token over plain http to "0\.0\.0\.0:\d+" \(SLICER_BASE_URL\)/,
      );
      assert.match(line(run, 'service (slicer)'), /fix: use an https SLICER_BASE_URL, or set SLICER_ALLOW_INSECURE_HTTP=1/);
      assert.equal(seen, 0, 'nothing reached the service');
    } finally {
      await trap.close();
    }
  });

  test('a token endpoint that takes the connection and never answers: ✖ after 5 s on the clock, and no password sent', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const arrived: string[] = [];
    const silent = await listen(async (request) => (arrived.push(request.method), await held, new Response('late')));
    // Something that is no HTTP server (SSH, say) behind the port: it answers, but not in HTTP.
    const notHttp = createServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.2\r\n')));
    await new Promise<void>((resolve) => notHttp.listen(0, '127.0.0.1', resolve));
    const clock = createFakeClock({ start: systemClock.wallNow() });
    try {
      let done = false;
      const run = inProcess(clock, { SLICER_AUTH_URL: silent.origin, SLICER_PASSWORD: 'p' }).finally(() => (done = true));
      await eventually(() => arrived.length === 1 && clock.pending() === 1, 'the GET at the token endpoint');
      clock.advance(4_999);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(done, false, 'still waiting just before the limit');
      clock.advance(1);
      const unanswered = await run;
      assert.deepEqual([unanswered.code, arrived, clock.pending()], [1, ['GET'], 0], 'only the GET arrived; no timer is left');
      assert.match(unanswered.check('configuration')?.reason ?? '', /^SLICER_PASSWORD=set, 1 character \(environment\)$/m);
      assert.deepEqual(unanswered.check('auth-token-endpoint'), {
        id: 'auth-token-endpoint',
        name: 'authorization service: token endpoint',
        status: 'fail',
        reason: `${silent.origin}/oauth2/token/ took the connection but sent no answer within 5 s`,
        fix: 'the authorization service at SLICER_AUTH_URL does not answer: check that it is up and not stuck (nor a proxy in ' +
          'front of it), then run again',
        durationMs: 5_000,
      });
      assert.deepEqual(unanswered.check('token-request-slicer'), {
        id: 'token-request-slicer',
        name: 'token request (slicer)',
        status: 'skip',
        reason: 'the token endpoint does not answer, so the password was not sent',
        durationMs: 0,
      });
      assert.equal(unanswered.check('service-slicer')?.reason, 'no token to try');
      // An endpoint that answers in time: every check passes on the same clock, and no timer is left.
      const healthy = await inProcess(clock, {});
      assert.equal(healthy.code, 0);
      assert.deepEqual(healthy.check('auth-token-endpoint'), {
        id: 'auth-token-endpoint',
        name: 'authorization service: token endpoint',
        status: 'ok',
        reason: `${env.SLICER_AUTH_URL}/oauth2/token/ answers (GET → 405), 0 ms`,
        durationMs: 0,
      });
      assert.match(healthy.check('configuration')?.reason ?? '', /^SLICER_PASSWORD=set, 22 characters \(environment\)$/m);
      assert.match(healthy.check('configuration')?.reason ?? '', /^SLICER_USERNAME=doctor \(environment\)$/m);
      assert.match(healthy.check('token-request-slicer')?.reason ?? '', /^Bearer token for service_id=sandbox-slicer, valid 3600 s, 0 ms$/);
      assert.equal(clock.pending(), 0, 'no timer is left');
      // An answer in no HTTP is a network failure, not a silence: the token request still runs, and says why it failed.
      const other = await inProcess(clock, { SLICER_AUTH_URL: `http://127.0.0.1:${(notHttp.address() as AddressInfo).port}` });
      assert.equal(other.code, 1);
      assert.deepEqual(other.check('auth-token-endpoint'), {
        id: 'auth-token-endpoint',
        name: 'authorization service: token endpoint',
        status: 'fail',
        reason: 'HPE_INVALID_CONSTANT: fetch failed',
        fix: "the answer at that address is not valid HTTP: check the URL's port (another program may listen there)",
        durationMs: 0,
      });
      assert.match(other.check('token-request-slicer')?.reason ?? '', /\(HPE_INVALID_CONSTANT\)/);
    } finally {
      release();
      notHttp.close();
      await silent.close();
    }
  });

  test('a service that takes the connection and never answers: ✖ service and ✖ permanent tokens, 5 s each on the clock', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = 0;
    const silent = await listen(async () => (arrived++, await held, new Response('busy', { status: 503 })));
    const clock = createFakeClock({ start: systemClock.wallNow() });
    try {
      let done = false;
      const run = inProcess(clock, { SLICER_BASE_URL: `${silent.origin}/slicer` }).finally(() => (done = true));
      await eventually(() => arrived === 1 && clock.pending() === 1, 'the GET at the service');
      clock.advance(4_999);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(done, false, 'still waiting just before the limit');
      clock.advance(1);
      const { code, check } = await run;
      assert.deepEqual([code, arrived, clock.pending()], [1, 1, 0], 'one GET, and no timer is left');
      assert.deepEqual(check('service-slicer'), {
        id: 'service-slicer',
        name: 'service (slicer)',
        status: 'fail',
        reason: `no answer from ${silent.origin}/slicer within 5 s`,
        fix: 'check SLICER_BASE_URL and that the service is up and not stuck, then run again',
        durationMs: 5_000,
      });
      // A permanent token is sent to the same service twice (service and permanent tokens): each waits its own 5 s.
      const permanent = inProcess(clock, { SLICER_BASE_URL: `${silent.origin}/slicer`, SLICER_STATIC_TOKEN: 'permanent-1' });
      for (const nth of [2, 3]) {
        await eventually(() => arrived === nth && clock.pending() === 1, `GET ${nth} at the service`);
        clock.advance(5_000);
      }
      assert.deepEqual((await permanent).check('permanent-tokens'), {
        id: 'permanent-tokens',
        name: 'permanent tokens',
        status: 'fail',
        reason: `no answer from ${silent.origin}/slicer within 5 s`,
        fix: 'check SLICER_BASE_URL and that the service is up and not stuck, then run again',
        durationMs: 5_000,
      });
      // Once it answers, in time, what it answered is judged: a 503 says nothing of either token.
      release();
      const answered = await inProcess(clock, { SLICER_BASE_URL: `${silent.origin}/slicer`, SLICER_STATIC_TOKEN: 'permanent-1' });
      assert.deepEqual([answered.check('service-slicer')?.status, answered.check('service-slicer')?.reason], [
        'warn',
        `${silent.origin}/slicer answered 503, which says nothing of the token (header transport), 0 ms`,
      ]);
      assert.deepEqual(answered.check('permanent-tokens'), {
        id: 'permanent-tokens',
        name: 'permanent tokens',
        status: 'warn',
        reason: `SLICER_STATIC_TOKEN: ${silent.origin}/slicer answered 503, which says nothing of the token (header transport), 0 ms`,
        fix: 'the service failed (5xx): run again later, and tell its owners if it goes on',
        durationMs: 0,
      });
      assert.equal(clock.pending(), 0, 'no timer is left');
    } finally {
      release();
      await silent.close();
    }
  });

  test('a service where nothing listens: ✖ service, naming the host, the reason, the setting and how to start the sandbox there', async () => {
    const closed = await freePort();
    const { code, check } = await inProcess(createFakeClock({ start: systemClock.wallNow() }), {
      SLICER_BASE_URL: `http://127.0.0.1:${closed}/slicer`,
    });
    assert.equal(code, 1);
    assert.deepEqual(check('service-slicer'), {
      id: 'service-slicer',
      name: 'service (slicer)',
      status: 'fail',
      reason: `cannot reach http://127.0.0.1:${closed}/slicer (ECONNREFUSED)`,
      fix: 'check SLICER_BASE_URL and that the service is up ' +
        `(if it is the sandbox's address, start the sandbox: "npx slicer-auth sandbox --port ${closed}" in another terminal)`,
      durationMs: 0,
    });
  });

  test('a refused password is sent once per run, not once per scope: three runs leave the account unlocked', async () => {
    const both = { SLICER_PREDICT_SERVICE_ID: h.sandbox.env.SLICER_PREDICT_SERVICE_ID };
    for (let run = 1; run <= 3; run++) {
      const wrong = await inProcess(systemClock, { ...both, SLICER_PASSWORD: 'wrong-password' });
      assert.equal(wrong.code, 1);
      assert.equal(wrong.check('token-request-slicer')?.status, 'fail');
      assert.match(wrong.check('token-request-slicer')?.reason ?? '', /invalid_grant/, `run ${run}: the account is not locked`);
      const { status, reason } = wrong.check('token-request-predict')!;
      assert.deepEqual({ status, reason }, {
        status: 'skip',
        reason: 'the credentials were refused for slicer, so they were not sent again (the account could lock)',
      });
    }
    // Six refused logins would have locked it (the sandbox locks after five within five minutes).
    const right = await inProcess(systemClock, both);
    assert.deepEqual([right.check('token-request-slicer')?.status, right.check('token-request-predict')?.status], ['ok', 'ok']);
  });

  test('a 401 without an OAuth error, which refused credentials give too, is sent once per run as well', async () => {
    const both = { SLICER_PREDICT_SERVICE_ID: h.sandbox.env.SLICER_PREDICT_SERVICE_ID };
    h.sandbox.store.addFault({ status: 401, body: '<html>Unauthorized</html>', contentType: 'text/html', times: 2 });
    const refused = await inProcess(systemClock, both);
    assert.equal(refused.code, 1);
    assert.match(refused.check('token-request-slicer')?.fix ?? '', /^check SLICER_USERNAME and SLICER_PASSWORD, and that SLICER_AUTH_URL/);
    const { status, reason } = refused.check('token-request-predict')!;
    assert.deepEqual({ status, reason }, {
      status: 'skip',
      reason: 'the credentials were refused for slicer, so they were not sent again (the account could lock)',
    });
    assert.notEqual(h.sandbox.store.takeFault(), undefined, 'one token request was sent, not two');
  });

  test('every permanent token is judged, whatever the one before it got: one line with each verdict and each fix', async () => {
    const sandbox = h.sandbox;
    const issue = (name: string, serviceId: string, revoked: boolean) => {
      const { value, record } = sandbox.store.issuePermanent('doctor', name, [serviceId]);
      if (revoked) sandbox.store.revoke('doctor', record.id);
      return value;
    };
    const both = (slicerRevoked: boolean, predictRevoked: boolean, predictBaseUrl = sandbox.env.SLICER_PREDICT_BASE_URL) =>
      inProcess(createFakeClock({ start: systemClock.wallNow() }), {
        SLICER_PREDICT_SERVICE_ID: sandbox.env.SLICER_PREDICT_SERVICE_ID,
        SLICER_PREDICT_BASE_URL: predictBaseUrl,
        SLICER_STATIC_TOKEN: issue('slicer', sandbox.env.SLICER_SERVICE_ID, slicerRevoked),
        SLICER_PREDICT_STATIC_TOKEN: issue('predict', sandbox.env.SLICER_PREDICT_SERVICE_ID, predictRevoked),
      });
    const verdict = async (run: ReturnType<typeof both>) => {
      const { status, reason, fix } = (await run).check('permanent-tokens')!;
      return { status, reason, fix };
    };
    const refused = (key: string, url: string) => `${key} is refused by ${url}: the token is revoked or invalid`;
    const renew = (scope: string, key: string) =>
      `create a new one: slicer-auth permanent create --name "<name>" --scope ${scope}, then set ${key}, or unset it to use the password grant`;
    assert.deepEqual(await verdict(both(false, false)), {
      status: 'ok',
      reason: 'SLICER_STATIC_TOKEN accepted, SLICER_PREDICT_STATIC_TOKEN accepted',
      fix: undefined,
    });
    assert.deepEqual(await verdict(both(true, false)), {
      status: 'fail',
      reason: `${refused('SLICER_STATIC_TOKEN', sandbox.env.SLICER_BASE_URL)}; SLICER_PREDICT_STATIC_TOKEN accepted`,
      fix: renew('slicer', 'SLICER_STATIC_TOKEN'),
    });
    assert.deepEqual(await verdict(both(true, true)), {
      status: 'fail',
      reason: `${refused('SLICER_STATIC_TOKEN', sandbox.env.SLICER_BASE_URL)}; ${
        refused('SLICER_PREDICT_STATIC_TOKEN', sandbox.env.SLICER_PREDICT_BASE_URL)
      }`,
      fix: `${renew('slicer', 'SLICER_STATIC_TOKEN')}; ${renew('predict', 'SLICER_PREDICT_STATIC_TOKEN')}`,
    });
    // A prediction service that fails (503) says nothing of its token: a warning, unless the other token is refused.
    const failing = await listen(() => new Response('down', { status: 503 }));
    try {
      const unclear = `SLICER_PREDICT_STATIC_TOKEN: ${failing.origin}/predict answered 503, which says nothing of the token ` +
        '(header transport), 0 ms';
      const later = 'the service failed (5xx): run again later, and tell its owners if it goes on';
      assert.deepEqual(await verdict(both(false, false, `${failing.origin}/predict`)), {
        status: 'warn',
        reason: `SLICER_STATIC_TOKEN accepted; ${unclear}`,
        fix: later,
      });
      assert.deepEqual(await verdict(both(true, false, `${failing.origin}/predict`)), {
        status: 'fail',
        reason: `${refused('SLICER_STATIC_TOKEN', sandbox.env.SLICER_BASE_URL)}; ${unclear}`,
        fix: `${renew('slicer', 'SLICER_STATIC_TOKEN')}; ${later}`,
      });
    } finally {
      await failing.close();
    }
  });

  test('an https authorization service whose TLS handshake never ends: ✖ TLS and ✖ token endpoint, 5 s each on the clock, and no password sent', async () => {
    const sockets: Socket[] = [];
    // It reads what it is sent (so that it sees each connection end) and answers nothing.
    const mute = createServer((socket) => void sockets.push(socket.resume()));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const { port } = mute.address() as AddressInfo;
    const clock = createFakeClock({ start: systemClock.wallNow() });
    try {
      let done = false;
      const run = inProcess(clock, { SLICER_AUTH_URL: `https://127.0.0.1:${port}` }).finally(() => (done = true));
      // TCP connects at once; the TLS handshake, then the token endpoint's GET, each wait 5 s for the server's first byte.
      await eventually(() => sockets.length === 2 && clock.pending() === 1, 'the TLS handshake');
      clock.advance(4_999);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(clock.pending(), 1, 'still waiting just before the limit');
      clock.advance(1);
      await eventually(() => sockets.length === 3 && clock.pending() === 1, 'the GET at the token endpoint');
      clock.advance(5_000);
      const { code, check } = await run;
      assert.deepEqual([done, code, sockets.length, clock.pending()], [true, 1, 3, 0]);
      assert.deepEqual(check('auth-tls'), {
        id: 'auth-tls',
        name: 'authorization service: TLS',
        status: 'fail',
        reason: 'ETIMEDOUT: no TLS handshake within 5 s',
        fix: `check that the authorization service serves https at 127.0.0.1:${port} (SLICER_AUTH_URL)`,
        durationMs: 5_000,
      });
      assert.equal(
        check('auth-token-endpoint')?.reason,
        `https://127.0.0.1:${port}/oauth2/token/ took the connection but sent no answer within 5 s`,
      );
      assert.equal(check('token-request-slicer')?.reason, 'the token endpoint does not answer, so the password was not sent');
      // The TCP and TLS probes close theirs; Node's fetch keeps a connection it is still opening until its own limit.
      await eventually(() => sockets[0]?.destroyed === true && sockets[1]?.destroyed === true, 'the probes closing their connections');
    } finally {
      for (const socket of sockets) socket.destroy();
      mute.close();
    }
  });

  test('in this process: a refused port, https to a plain-http port, an untrusted certificate: each ✖ with its own fix', async () => {
    const clock = createFakeClock({ start: systemClock.wallNow() });
    const check = (id: string, name: string, reason: string, fix: string) => ({ id, name, status: 'fail', reason, fix, durationMs: 0 });
    const closed = await freePort();
    const refused = await inProcess(clock, { SLICER_AUTH_URL: `http://127.0.0.1:${closed}` });
    assert.deepEqual(
      refused.check('auth-tcp'),
      check(
        'auth-tcp',
        'authorization service: TCP',
        `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${closed}`,
        `check that the authorization service runs at 127.0.0.1:${closed} (SLICER_AUTH_URL) and that no firewall blocks it ` +
          `(if it is the sandbox's address, start the sandbox: "npx slicer-auth sandbox --port ${closed}" in another terminal)`,
      ),
    );
    const noTls = 'the TLS handshake failed: if the server at that address serves plain http (as the sandbox does), ' +
      'its URL starts with http://';
    const https = (env.SLICER_AUTH_URL ?? '').replace('http:', 'https:');
    const plain = await inProcess(clock, { SLICER_AUTH_URL: https });
    assert.deepEqual(
      plain.check('auth-tls'),
      check('auth-tls', 'authorization service: TLS', 'ERR_SSL_WRONG_VERSION_NUMBER: wrong version number', noTls),
    );
    assert.deepEqual(
      plain.check('auth-token-endpoint'),
      check('auth-token-endpoint', 'authorization service: token endpoint', 'ERR_SSL_WRONG_VERSION_NUMBER: fetch failed', noTls),
    );
    assert.equal(plain.check('token-request-slicer')?.fix, noTls);
    const tls = await listenTls(() => new Response('{}'));
    try {
      const untrusted = await inProcess(clock, { SLICER_AUTH_URL: tls.origin });
      assert.deepEqual(
        untrusted.check('auth-tls'),
        check(
          'auth-tls',
          'authorization service: TLS',
          'the certificate is not valid (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
          "the certificate's issuer is not trusted here: if your organisation's own CA issues it, trust that CA " +
            '(NODE_EXTRA_CA_CERTS=<ca.pem> for Node and Bun, DENO_CERT=<ca.pem> for Deno)',
        ),
      );
    } finally {
      await tls.close();
    }
    assert.equal(clock.pending(), 0, 'no timer is left');
  });
});
