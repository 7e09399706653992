import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { type Sandbox, startSandbox } from './mod.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox({ testMode: true });
});
after(() => sb.close());
beforeEach(() => sb.store.reset()); // every test starts from a fresh sandbox

/** mulberry32: a small seeded generator, so a failure can be replayed with its seed. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const text = (max: number) =>
    Array.from({ length: Math.floor(next() * max) }, () => String.fromCharCode(Math.floor(next() * 0x2ff))).join('');
  /** Printable ASCII: what a client can put in a header value. */
  const ascii = (max: number) =>
    Array.from({ length: Math.floor(next() * max) }, () => String.fromCharCode(0x21 + Math.floor(next() * 94))).join('');
  return { next, pick, text, ascii };
}

const PATHS = [
  '/',
  '/login',
  '/logout',
  '/security',
  '/security/',
  '/security/tokens',
  '/security/sessions',
  '/security/tokens/abc/revoke',
  '/security/sessions/abc/revoke',
  '/oauth2/token/',
  '/oauth2/token',
  '/oauth2/',
  '/slicer',
  '/slicer/x',
  '/predict/y/z',
  '/static/ui.css',
  '/static/ui.js',
  '/__test/clock',
  '/__test/faults',
  '/__test/settings',
  '/__test/users',
  '/__test/stats',
  '/nope',
  '/%2e%2e/',
  '/slicer/%00',
  '/?next=//evil.example',
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const TYPES = [
  undefined,
  'application/x-www-form-urlencoded',
  'application/json',
  'multipart/form-data',
  'multipart/form-data; boundary=zzz',
  'text/plain',
  'application/xml',
  '*/*',
  ';;;',
  'application/json; charset=utf-16',
];

test('thousands of random requests to every route: no 5xx, no crash, a well-formed answer each time', async () => {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1e9);
  const r = generator(seed);
  const body = () =>
    r.pick([
      () => r.text(200),
      () =>
        new URLSearchParams({
          grant_type: r.pick(['password', '', 'x']),
          username: r.pick(['sandbox-user', r.text(8)]),
          password: r.text(12),
          scope: r.pick(['service_id=sandbox-slicer', r.text(10)]),
          token: r.text(43),
        }).toString(),
      () => JSON.stringify({ [r.text(5)]: r.pick([r.text(10), r.next(), null, [1], { a: 1 }]) }),
      () => `--zzz\r\nContent-Disposition: form-data; name="token"\r\n\r\n${r.text(20)}\r\n--zzz--\r\n`,
      () => 'x'.repeat(Math.floor(r.next() * 70_000)),
      () => '',
    ])();
  let count = 0;
  const one = async () => {
    const method = r.pick(METHODS);
    const path = r.pick(PATHS) + r.pick(['', '', `?${r.text(10)}`, `/${encodeURIComponent(r.text(6))}`]);
    const headers: Record<string, string> = {};
    const type = r.pick(TYPES);
    if (type) headers['content-type'] = type;
    if (r.next() < 0.4) {
      headers.authorization = r.pick([
        `Bearer ${r.ascii(40)}`,
        'Bearer',
        'Basic Zm9v',
        `bearer  ${encodeURIComponent(r.text(10))}`,
        r.ascii(20),
      ]);
    }
    if (r.next() < 0.3) headers.cookie = `sandbox_session=${encodeURIComponent(r.text(30))}`;
    if (r.next() < 0.3) headers.origin = r.pick([sb.env.SLICER_AUTH_URL, 'https://evil.example', 'null']);
    const init: RequestInit = { method, headers, redirect: 'manual' };
    if (method !== 'GET' && method !== 'HEAD') init.body = body();
    const context = `seed ${seed}: ${method} ${path} ${JSON.stringify(headers)}`;
    let response: Response;
    try {
      response = await fetch(sb.env.SLICER_AUTH_URL + path, init);
    } catch (error) {
      throw new Error(`${context}: no answer: ${String(error)} ${String((error as Error).cause ?? '')}`);
    }
    assert.ok(response.status < 500, `${context} answered ${response.status}`);
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    if (response.status >= 300 && response.status < 400) assert.ok(response.headers.get('location'), context);
    else if (method !== 'HEAD') {
      if (contentType.includes('json')) JSON.parse(text);
      else if (contentType.includes('html')) assert.match(text, /^\s*<!doctype html>/i, context);
      else assert.match(contentType, /text\/(css|javascript|plain)/, `${context}: content type "${contentType}"`);
    }
    count++;
  };
  const total = 3000;
  let started = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (started < total) {
        started++;
        await one();
      }
    }),
  );
  assert.equal(count, total, 'every request got a well-formed answer');
  const alive = await fetch(`${sb.env.SLICER_AUTH_URL}/oauth2/token/`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', username: 'x', password: 'y', scope: 'service_id=sandbox-slicer' }),
  });
  assert.ok(alive.status < 500, 'still serving');
});
