/**
 * One process of the bench's fixed-token rounds (b): plain `fetch`,
 * `tokenFetch`, ky and `authedFetch` (and the last two with options on every
 * call) against the echo server at `BENCH_ECHO`, each warmed up, then
 * `BENCH_ROUNDS` rounds of 4,000 requests with 20 in flight, clients
 * interleaved in an order reversed every round, a full collection before each
 * (with `--expose-gc`) so that a round pays for its own garbage. Prints one
 * JSON line: per client (in the order above), the client CPU µs per request
 * and the requests/s of every round. The bench runs several of these, since
 * a process's JIT and heap layout shift its figures by a few per cent.
 */
import process from 'node:process';
import ky from 'ky';
import { createAuthClient } from '../mod.ts';
import { load } from './load.ts';

const echo = process.env.BENCH_ECHO as string;
const token = 'fixed-bench-token';
const headers = { authorization: `Bearer ${token}` };
const plainKy = ky.create({ prefixUrl: echo, headers });
const client = createAuthClient({ env: {}, envFile: false, serviceId: 'bench', staticToken: token, baseUrl: echo });
/** Options a caller gives on every call: a header and a timeout. */
const options = { headers: { 'x-trace': 'bench' }, timeout: 10_000 };
const calls: Record<string, () => Promise<unknown>> = {
  'plain fetch': () => fetch(`${echo}/bench`, { headers }).then((r) => r.json()),
  tokenFetch: () => client.tokenFetch(`${echo}/bench`).then((r) => r.json()),
  ky: () => plainKy('bench').json(),
  authedFetch: () => client.authedFetch('bench').json(),
  'ky, options on every call': () => plainKy('bench', options).json(),
  'authedFetch, options on every call': () => client.authedFetch('bench', options).json(),
};
const gc = (globalThis as { gc?: () => void }).gc;

/** A round: a full collection first, then 4,000 calls, 20 in flight. */
async function round(call: () => Promise<unknown>, total = 4000) {
  gc?.();
  await new Promise((resolve) => setImmediate(resolve));
  return await load(call, total, 20);
}

const clients = Object.entries(calls);
for (const [, call] of clients) await round(call, 2000); // warm up every path first
const rounds = { cpu: {} as Record<string, number[]>, rate: {} as Record<string, number[]> };
for (let i = 0; i < Number(process.env.BENCH_ROUNDS ?? 5); i++) {
  for (const [name, call] of i % 2 ? [...clients].reverse() : clients) {
    const result = await round(call);
    (rounds.cpu[name] ??= []).push(result.cpuPerRequest);
    (rounds.rate[name] ??= []).push(result.rate);
  }
}
console.log(JSON.stringify(rounds));
