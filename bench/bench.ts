/**
 * `npm run bench`: figures, not pass/fail, all measured in this one run on
 * loopback; the README's table is one run's output.
 *
 * (a) Token requests: 1,000 concurrent cold `getToken()` calls, and expiry
 *     crossings under concurrent load (sandbox clock), failures counted.
 * (b) Cost per request with a fixed token: plain `fetch`, `tokenFetch`, ky
 *     and `authedFetch` (the last two also with options on every call)
 *     against a bare server in another process; the client's
 *     CPU per request (process.cpuUsage) and requests/s, rounds interleaved,
 *     in 5 fresh processes (bench/fixed_token.ts), medians of all rounds;
 *     ratios against ky and against plain fetch.
 * (c) Throughput while tokens roll over, for authedFetch and tokenFetch:
 *     2-second tokens from a sandbox in another process, 50 requests in
 *     flight (every fifth a JSON POST, options on every call), real clock,
 *     next to the same load with a token that does not expire, and next to
 *     the peer: a bearer header on plain fetch, its token refreshed by hand;
 *     the peer's code also runs as a fourth client (an A/A control), whose
 *     ratio to the peer shows how far the measure alone moves a ratio.
 * (d) Memory: heap growth over 100,000 authedFetch requests (--expose-gc).
 * (e) Cold start of a one-off script (one token, one request) per runtime,
 *     next to a plain-fetch script doing the same two requests.
 * (f) A fleet of processes on simulated hosts (separate file systems)
 *     crossing expiries: token requests against the ideal, per shared store.
 *
 * `npm run bench -- c e` runs only those sections.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { createAuthClient } from '../mod.ts';
import { startSandbox } from '../src/sandbox/mod.ts';
import { ROOT, runProcess } from '../src/testing/processes.ts';
import { redisAvailable, startRedis } from '../src/testing/redis_server.ts';
import { load } from './load.ts';

/** The sections to run: the letters given (`npm run bench -- c e`), else all. */
const asked = process.argv.slice(2);
const runs = (section: string) => asked.length === 0 || asked.includes(section);

const rows: [string, string][] = [];
const row = (name: string, value: string | number) => (rows.push([name, String(value)]), console.error(`  ${name}: ${value}`));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
/** A full collection, with `--expose-gc` (as `npm run bench` runs): each round then pays for its own garbage. */
const gc = (globalThis as { gc?: () => void }).gc;

// (a) Token requests, in-process sandbox (counts, not CPU).
if (runs('a')) {
  const sandbox = await startSandbox({ testMode: true });
  const issued = () => Object.values(sandbox.store.stats().issued).reduce((a, b) => a + b, 0);
  const client = createAuthClient({ env: sandbox.env, envFile: false });
  const results = await Promise.allSettled(Array.from({ length: 1000 }, () => client.getToken()));
  row('1,000 concurrent cold getToken(): token requests', issued());
  row('… failed calls', results.filter((r) => r.status === 'rejected').length);
  sandbox.store.setLifetime(60);
  let now = 0;
  const clocked = createAuthClient({ env: sandbox.env, envFile: false, now: () => now });
  const before = issued();
  let failed = 0;
  let calls = 0;
  for (let t = 0; t < 1200; t += 10) {
    const batch = await Promise.allSettled(Array.from({ length: 50 }, () => clocked.authedFetch('bench').json()));
    calls += batch.length;
    failed += batch.filter((r) => r.status === 'rejected').length;
    now += 10_000;
    sandbox.clock.advance(10_000);
  }
  row(
    `20 expiry crossings (60 s tokens), ${calls} calls: token requests`,
    `${issued() - before} (ideal ≈ 1200 s ÷ 30 s refresh point = 40)`,
  );
  row('… failed calls', failed);
  await sandbox.close();
}

// The servers of (b)–(e), in their own process.
const server = spawn(process.execPath, ['--import', 'tsx', 'bench/server.ts'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
const { echo, sandbox: sandboxEnv } = JSON.parse(
  await new Promise<string>((resolve) => createInterface({ input: server.stdout }).once('line', resolve)),
) as { echo: string; sandbox: Record<string, string> };
const control = (path: string, body: unknown) =>
  fetch(`${sandboxEnv.SLICER_AUTH_URL}/__test/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());

// (b) Fixed token: the layer's own cost, over several fresh processes (bench/fixed_token.ts).
if (runs('b')) {
  const processes = 5;
  const cpus = new Map<string, number[]>();
  const rates = new Map<string, number[]>();
  const perProcess: string[] = [];
  for (let i = 0; i < processes; i++) {
    const run = await runProcess(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/fixed_token.ts'], {
      PATH: process.env.PATH,
      BENCH_ECHO: echo,
      BENCH_ROUNDS: '5',
    }, 300_000);
    if (run.code !== 0) throw new Error(`bench/fixed_token.ts failed: ${run.err}`);
    const rounds = JSON.parse(run.out) as { cpu: Record<string, number[]>; rate: Record<string, number[]> };
    perProcess.push((median(rounds.cpu.authedFetch ?? []) / median(rounds.cpu.ky ?? [])).toFixed(2));
    for (const [name, values] of Object.entries(rounds.cpu)) cpus.set(name, [...(cpus.get(name) ?? []), ...values]);
    for (const [name, values] of Object.entries(rounds.rate)) rates.set(name, [...(rates.get(name) ?? []), ...values]);
  }
  const cpu = (name: string) => median(cpus.get(name) ?? []);
  const rate = (name: string) => median(rates.get(name) ?? []);
  for (const name of cpus.keys()) {
    row(
      `${name}, fixed token: client CPU µs/request · requests/s (20 in flight, median of ${processes} processes × 5 rounds × 4,000, interleaved)`,
      `${cpu(name).toFixed(0)} · ${rate(name).toFixed(0)}`,
    );
  }
  row('tokenFetch ÷ plain fetch: CPU per request (target ≤ 1.10)', (cpu('tokenFetch') / cpu('plain fetch')).toFixed(2));
  row('tokenFetch ÷ plain fetch: requests/s (target ≥ 0.92)', (rate('tokenFetch') / rate('plain fetch')).toFixed(2));
  row(
    'authedFetch ÷ ky, options on every call: CPU per request (target ≤ 1.10)',
    (cpu('authedFetch, options on every call') / cpu('ky, options on every call')).toFixed(2),
  );
  row('authedFetch ÷ ky: CPU per request (target ≤ 1.10)', (cpu('authedFetch') / cpu('ky')).toFixed(2));
  row('authedFetch ÷ ky: requests/s (target ≥ 0.95)', (rate('authedFetch') / rate('ky')).toFixed(2));
  row('… CPU ratio within each process (median of its 5 rounds)', perProcess.join(' · '));
  row('authedFetch ÷ plain fetch: CPU per request', (cpu('authedFetch') / cpu('plain fetch')).toFixed(2));
  row('authedFetch ÷ plain fetch: requests/s', (rate('authedFetch') / rate('plain fetch')).toFixed(2));
  row('ky ÷ plain fetch: CPU per request', (cpu('ky') / cpu('plain fetch')).toFixed(2));
}

// (d) Memory over 100,000 requests.
if (runs('d')) {
  const client = createAuthClient({ env: {}, envFile: false, serviceId: 'bench', staticToken: 'fixed-bench-token', baseUrl: echo });
  /**
   * Full collections until the heap stops shrinking, with time between them
   * for the runtime's finalization callbacks (undici registers every request's
   * signal) to run.
   */
  const settle = async () => {
    let last = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 10; i++) {
      gc?.();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const used = process.memoryUsage().heapUsed;
      if (used > last * 0.995) return;
      last = used;
    }
  };
  await load(() => client.authedFetch('bench').json(), 10_000, 20); // warm up
  await settle();
  const heapBefore = process.memoryUsage().heapUsed;
  await load(() => client.authedFetch('bench').json(), 100_000, 20);
  await settle();
  row(
    `authedFetch: heap growth over 100,000 requests${gc ? '' : ' (run with --expose-gc for a clean figure)'}`,
    `${((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(2)} MB`,
  );
}

// (c) Throughput while 2-second tokens roll over, next to a token that does not expire: each client, 50 in flight,
// every fifth request a JSON POST, options on every call. The peer is a bearer header on plain fetch, the token
// refreshed by hand as simple-oauth2's examples do (`if (token.expired(window)) token = await token.refresh()`),
// with one refresh in flight at a time so that it does not hammer the token endpoint either.
if (runs('c')) {
  /** The peer's whole token handling: a token and its expiry, refreshed a second before it ends. */
  const byHand = () => {
    let current: { token: string; expiresAt: number } | undefined;
    let refreshing: Promise<{ token: string; expiresAt: number }> | undefined;
    const refresh = async () => {
      const response = await fetch(`${sandboxEnv.SLICER_AUTH_URL}/oauth2/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          username: sandboxEnv.SLICER_USERNAME as string,
          password: sandboxEnv.SLICER_PASSWORD as string,
          scope: `service_id=${sandboxEnv.SLICER_SERVICE_ID}`,
        }),
      });
      const body = (await response.json()) as { access_token: string; expires_in: string };
      return { token: body.access_token, expiresAt: Date.now() + Number(body.expires_in) * 1000 };
    };
    return async (): Promise<string> => {
      if (!current || Date.now() > current.expiresAt - 1000) {
        refreshing ??= refresh().finally(() => (refreshing = undefined));
        current = await refreshing;
      }
      return current.token;
    };
  };
  const PEER = 'bearer header on plain fetch, refreshed by hand';
  /** The peer's own code run as a fourth client: its ratio to the peer is how far the measure alone moves a ratio. */
  const CONTROL = 'the peer again (A/A control)';
  type Kind = 'authedFetch' | 'tokenFetch' | typeof PEER | typeof CONTROL;
  const ROUNDS = 8;
  const SECONDS = 3;
  const timed = async (lifetimeSeconds: number, kind: Kind) => {
    await control('settings', { tokenLifetimeSeconds: lifetimeSeconds });
    const client = createAuthClient({ env: sandboxEnv, envFile: false, logger: { warn: () => {} } });
    // The clients of a process share their tokens, and the round before left one valid: each round starts from a
    // token of its own lifetime.
    await client.invalidate('slicer');
    await client.getToken();
    const bearer = byHand();
    await bearer();
    const base = sandboxEnv.SLICER_BASE_URL;
    const init = (n: number): RequestInit =>
      n % 5 === 0
        ? { method: 'POST', body: JSON.stringify({ n }), headers: { 'content-type': 'application/json' } }
        : { headers: { 'x-trace': 'bench' } };
    const ok = (r: Response) => (r.ok ? r.json() : Promise.reject(new Error(`status ${r.status}`)));
    const call = async (n: number): Promise<unknown> => {
      if (kind === 'authedFetch') {
        return (n % 5 === 0
          ? client.authedFetch.post('bench', { json: { n }, timeout: 10_000 })
          : client.authedFetch('bench', { headers: { 'x-trace': 'bench' }, timeout: 10_000 })).json();
      }
      if (kind === 'tokenFetch') return client.tokenFetch(`${base}/bench`, init(n)).then(ok);
      const { headers, ...rest } = init(n);
      return fetch(`${base}/bench`, { ...rest, headers: { ...headers, authorization: `Bearer ${await bearer()}` } }).then(ok);
    };
    const before = (await (await fetch(`${sandboxEnv.SLICER_AUTH_URL}/__test/stats`)).json()) as { issued: Record<string, number> };
    const latencies: number[] = [];
    let failures = 0;
    let n = 0;
    gc?.(); // not the garbage of the round before
    await new Promise((resolve) => setImmediate(resolve));
    const until = performance.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: 50 }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await call(n++).catch(() => failures++);
        latencies.push(performance.now() - t);
      }
    }));
    const after = (await (await fetch(`${sandboxEnv.SLICER_AUTH_URL}/__test/stats`)).json()) as { issued: Record<string, number> };
    await client.close();
    const sum = (stats: { issued: Record<string, number> }) => Object.values(stats.issued).reduce((a, b) => a + b, 0);
    latencies.sort((a, b) => a - b);
    return {
      rate: latencies.length / SECONDS,
      failures,
      tokens: sum(after) - sum(before),
      p50: latencies[Math.floor(latencies.length * 0.5)] ?? 0,
      p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    };
  };
  const describe = (r: Awaited<ReturnType<typeof timed>>) =>
    `${r.rate.toFixed(0)} requests/s, p50 ${r.p50.toFixed(1)} ms, p99 ${
      r.p99.toFixed(1)
    } ms, ${r.failures} failed, ${r.tokens} token requests`;
  // Rounds interleaved, the order rotated every round so that each client runs in each place as often, medians kept:
  // one 6 s run per client swung by ±30 % here.
  const kinds: Kind[] = [PEER, 'tokenFetch', 'authedFetch', CONTROL];
  const results = new Map<string, Awaited<ReturnType<typeof timed>>[]>();
  for (const kind of kinds) await timed(3600, kind); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of [...kinds.slice(round % kinds.length), ...kinds.slice(0, round % kinds.length)]) {
      for (const lifetime of [3600, 2]) {
        const key = `${kind} ${lifetime}`;
        results.set(key, [...(results.get(key) ?? []), await timed(lifetime, kind)]);
      }
    }
  }
  /** The round of median throughput, with the failures of every round. */
  const typical = (kind: Kind, lifetime: number) => {
    const all = results.get(`${kind} ${lifetime}`) ?? [];
    const middle = [...all].sort((a, b) => a.rate - b.rate)[Math.floor(all.length / 2)] as (typeof all)[number];
    return { ...middle, failures: all.reduce((sum, r) => sum + r.failures, 0) };
  };
  const each = `median of ${ROUNDS} interleaved rounds of ${SECONDS} s`;
  for (const kind of kinds.filter((kind) => kind !== CONTROL)) {
    const steady = typical(kind, 3600);
    const rolling = typical(kind, 2);
    row(`${kind}: sandbox service, 50 in flight, 20 % JSON POSTs, token valid throughout (${each})`, describe(steady));
    row(`… ${kind} with 2-second tokens (expiry crossings under load; failures of all rounds)`, describe(rolling));
    row(`… ${kind}: throughput across expiry ÷ steady (target ≥ 0.90)`, (rolling.rate / steady.rate).toFixed(2));
  }
  /** A client's requests/s over the peer's in the same round, the median of the rounds: a round's own noise cancels out. */
  const perPeer = (kind: Kind) => {
    const peer = results.get(`${PEER} 2`) ?? [];
    return median((results.get(`${kind} 2`) ?? []).map((r, round) => r.rate / (peer[round] as (typeof peer)[number]).rate));
  };
  const paired = `median of the ${ROUNDS} rounds' ratios`;
  row(`tokenFetch ÷ the peer across 2-second expiries: requests/s (${paired}; target ≥ 0.95)`, perPeer('tokenFetch').toFixed(2));
  row(`authedFetch ÷ the peer across 2-second expiries: requests/s (${paired})`, perPeer('authedFetch').toFixed(2));
  row(`${CONTROL} ÷ the peer: the same code, so how far the measure alone moves a ratio (${paired})`, perPeer(CONTROL).toFixed(2));
  await control('settings', { tokenLifetimeSeconds: 3600 });
}

// (e) Cold start of one-off scripts: one token, one request, then exit.
if (runs('e')) {
  const build = await runProcess('npm', ['run', '-s', 'build'], { PATH: process.env.PATH, HOME: process.env.HOME }, 180_000);
  if (build.code !== 0) throw new Error(`npm run build failed: ${build.err}`);
  const dir = join(ROOT, '.tmp', 'bench');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const oneOff = (from: string) =>
    `import { authedFetch, getToken } from '${from}';\nawait getToken();\nawait authedFetch('cold').json();\n`;
  writeFileSync(
    join(dir, 'plain.mjs'),
    `const e = process.env;
const grant = await fetch(e.SLICER_AUTH_URL + '/oauth2/token/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ grant_type: 'password', username: e.SLICER_USERNAME, password: e.SLICER_PASSWORD, scope: 'service_id=' + e.SLICER_SERVICE_ID }) });
const { access_token } = await grant.json();
await (await fetch(e.SLICER_BASE_URL + '/cold', { headers: { authorization: 'Bearer ' + access_token } })).json();
`,
  );
  writeFileSync(join(dir, 'built.mjs'), oneOff('../../dist/mod.js'));
  writeFileSync(join(dir, 'source.ts'), oneOff('../../mod.ts'));
  const exe = async (command: string[], code: string) =>
    (await runProcess(command[0] as string, [...command.slice(1), code], { PATH: process.env.PATH, HOME: process.env.HOME }, 120_000)).out
      .trim();
  const bun = await exe(['npx', '--yes', 'bun@1.4.5', '-e'], 'console.log(process.execPath)');
  const deno = await exe(['npx', '--yes', 'deno@2.9.6', 'eval'], 'console.log(Deno.execPath())');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...sandboxEnv, SLICER_ENV_FILE: '/dev/null' };
  const scripts: [string, string, string[]][] = [
    ['plain fetch script, node', process.execPath, [join(dir, 'plain.mjs')]],
    ['built package, plain node', process.execPath, [join(dir, 'built.mjs')]],
    ['sources, npx tsx', process.execPath, ['--import', 'tsx', join(dir, 'source.ts')]],
    ['sources, bun', bun, ['--no-env-file', join(dir, 'source.ts')]],
    ['sources, deno', deno, ['run', '-A', join(dir, 'source.ts')]],
  ];
  // Scripts interleaved, 7 rounds: neighbouring runs share the machine's state.
  const runs = new Map<string, number[]>(scripts.map(([name]) => [name, []]));
  for (let round = 0; round < 7; round++) {
    for (const [name, command, args] of scripts) {
      const result = await runProcess(command, args, env, 60_000);
      if (result.code !== 0) throw new Error(`${name} failed: ${result.err}`);
      runs.get(name)?.push(result.seconds * 1000);
    }
  }
  const times = new Map([...runs].map(([name, values]) => [name, median(values)]));
  for (const [name, time] of times) row(`cold start, ${name} (median of 7, interleaved, ms)`, time.toFixed(0));
  row(
    'cold start: built package under node ÷ plain fetch script (target ≤ 1.3)',
    ((times.get('built package, plain node') ?? 0) / (times.get('plain fetch script, node') ?? 1)).toFixed(2),
  );
  rmSync(dir, { recursive: true, force: true });
}

// (f) A fleet: 4 hosts × 5 processes, two scopes, 4-second tokens, 8 s each: token requests per shared store.
if (runs('f')) {
  const redis = redisAvailable() ? await startRedis() : undefined;
  await control('settings', { tokenLifetimeSeconds: 4 });
  const stats = async () =>
    Object.values(((await (await fetch(`${sandboxEnv.SLICER_AUTH_URL}/__test/stats`)).json()) as { issued: Record<string, number> }).issued)
      .reduce((a, b) => a + b, 0);
  for (
    const [name, storeFor] of [
      ['memory only (each process its own)', () => ({})],
      ['file store (one file per host)', (home: string) => ({ SLICER_CACHE_FILE: join(home, 'tokens.json') })],
      ['Redis store (the whole fleet)', () => (redis ? { SLICER_STORE_URL: redis.url } : undefined)],
    ] as const
  ) {
    if (!storeFor('') && name.startsWith('Redis')) {
      row(`fleet, ${name}`, 'skipped: redis-server is not installed');
      continue;
    }
    const before = await stats();
    const started = performance.now();
    const hosts = Array.from({ length: 4 }, () => mkdtempSync(join(tmpdir(), 'bench-host-')));
    const runs = await Promise.all(
      hosts.flatMap((home) =>
        Array.from({ length: 5 }, () =>
          runProcess(process.execPath, ['--import', 'tsx', 'src/testing/fleet_worker.ts'], {
            PATH: process.env.PATH,
            HOME: home,
            ...sandboxEnv,
            SLICER_ENV_FILE: '/dev/null',
            FLEET_SECONDS: '8',
            ...storeFor(home),
          }, 60_000))
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const failed = runs.reduce((n, run) => n + (run.code === 0 ? (JSON.parse(run.out) as { failures: number }).failures : 1), 0);
    // Ideal: one request per scope per refresh; 4 s tokens are refreshed about every 1.9 s.
    const ideal = 2 * Math.ceil(seconds / 1.9);
    row(
      `fleet, ${name}: 20 processes, 4 hosts, 2 scopes, ${
        seconds.toFixed(0)
      } s of 4 s tokens: token requests (ideal, an upper bound: start-up counts) · failed calls`,
      `${(await stats()) - before} (${ideal}) · ${failed}`,
    );
    for (const home of hosts) rmSync(home, { recursive: true, force: true });
  }
  await control('settings', { tokenLifetimeSeconds: 3600 });
  await redis?.stop();
}

server.stdin?.end();
console.log(`| measure (Node ${process.version}, loopback, 2 cores) | result |\n|---|---|`);
for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
