/**
 * `npm run bench`: figures, not pass/fail, all measured in this one run on loopback.
 *
 * (a) Token requests: 1,000 concurrent cold `getToken()` calls, and several
 *     expiry crossings under concurrent load (sandbox clock), failures counted.
 * (b) Throughput of `authedFetch` against plain `fetch` and plain ky with a
 *     fixed token, on a bare loopback server: the cost of this layer alone.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import process from 'node:process';
import ky from 'ky';
import { createAuthClient } from '../mod.ts';
import { startSandbox } from '../src/sandbox/mod.ts';

const sandbox = await startSandbox({ testMode: true });
const issued = () => Object.values(sandbox.store.stats().issued).reduce((a, b) => a + b, 0);
const rows: [string, string][] = [];

// (a) 1,000 concurrent cold calls.
{
  const client = createAuthClient({ env: sandbox.env, envFile: false });
  const before = issued();
  const results = await Promise.allSettled(Array.from({ length: 1000 }, () => client.getToken()));
  rows.push(['1,000 concurrent cold getToken(): token requests', String(issued() - before)]);
  rows.push(['… failed calls', String(results.filter((r) => r.status === 'rejected').length)]);
}

// (a) Expiry crossings under load: 60 s tokens, 20 min of simulated time, 50 concurrent calls every 10 s.
{
  sandbox.store.setLifetime(60);
  let now = 0;
  const client = createAuthClient({ env: sandbox.env, envFile: false, now: () => now });
  const before = issued();
  let failed = 0;
  let calls = 0;
  const seconds = 1200;
  for (let t = 0; t < seconds; t += 10) {
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => client.authedFetch('bench').json()));
    calls += results.length;
    failed += results.filter((r) => r.status === 'rejected').length;
    now += 10_000;
    sandbox.clock.advance(10_000);
  }
  rows.push([
    `${seconds / 60} expiry crossings (60 s tokens), ${calls} calls: token requests`,
    `${issued() - before} (≈ ${seconds} s ÷ 30 s refresh point = ${seconds / 30})`,
  ]);
  rows.push(['… failed calls', String(failed)]);
  sandbox.store.setLifetime(3600);
}

// (b) Throughput on a bare server.
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const client = createAuthClient({ env: { ...sandbox.env, SLICER_BASE_URL: origin }, envFile: false });
const token = await client.getToken();
const headers = { authorization: `Bearer ${token}` };
const plainKy = ky.create({ prefixUrl: origin, headers });

/** Heap in use after a full collection (`--expose-gc`, as `npm run bench` runs). */
function retainedHeap(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

async function measure(name: string, call: () => Promise<unknown>, total = 4000, concurrency = 16): Promise<number> {
  for (let i = 0; i < 200; i++) await call(); // warm up
  const heapBefore = retainedHeap();
  let started = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started++ < total) await call();
    }),
  );
  const rate = total / ((performance.now() - t0) / 1000);
  rows.push([
    `${name}: requests/s (${total}, ${concurrency} concurrent)`,
    `${rate.toFixed(0)} (retained heap ${((retainedHeap() - heapBefore) / 1e6).toFixed(2)} MB)`,
  ]);
  return rate;
}
const fetchRate = await measure('plain fetch, fixed token', () => fetch(`${origin}/bench`, { headers }).then((r) => r.json()));
const kyRate = await measure('ky, fixed token', () => plainKy('bench').json());
const authedRate = await measure('authedFetch (cache + hooks)', () => client.authedFetch('bench').json());
rows.push(['authedFetch ÷ plain fetch', `${(authedRate / fetchRate).toFixed(2)}`]);
rows.push(['authedFetch ÷ ky', `${(authedRate / kyRate).toFixed(2)}`]);

server.closeAllConnections();
server.close();
await sandbox.close();

console.log(`| measure (Node ${process.version}, loopback) | result |\n|---|---|`);
for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
