/**
 * The Redis store in a fleet: 4 simulated hosts × 5 processes sharing one
 * Redis cross several token expiries with one token request per scope per
 * refresh. Real processes, so apart from the store-level tests (and from the
 * mutation run, which cannot see into other processes).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { runTs } from '../testing/processes.ts';
import { redisRequired, type RedisServer, startRedis } from '../testing/redis_server.ts';
import { type Harness, startHarness } from '../testing/sandbox_harness.ts';
import { scratchDir } from '../testing/scratch.ts';

let h: Harness;
let redis: RedisServer | undefined;
const predictId = () => h.sandbox.env.SLICER_PREDICT_SERVICE_ID;

before(async () => {
  h = await startHarness();
  if (!redisRequired()) return; // the test then skips, saying why
  redis = await startRedis();
});
after(async () => {
  await redis?.stop();
  await h.close();
});
beforeEach(() => {
  h.sandbox.store.reset();
});

describe('Redis shared token store, fleet', () => {
  test('a fleet of 4 hosts × 5 processes crossing several expiries makes one token request per scope per refresh', async (t) => {
    if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    h.sandbox.store.setLifetime(4);
    const hosts = Array.from({ length: 4 }, () => scratchDir('fleet-host-'));
    const runs = await Promise.all(
      hosts.flatMap((home) =>
        Array.from({ length: 5 }, () =>
          runTs(['src/testing/fleet_worker.ts'], {
            PATH: process.env.PATH,
            HOME: home,
            ...h.sandbox.env,
            SLICER_STORE_URL: redis?.url,
            SLICER_ENV_FILE: '/dev/null',
            FLEET_SECONDS: '9',
            // Only a hung worker is killed: 20 workers starting at once beside another npm test took over 60 s.
          }, 300_000))
      ),
    );
    // When each token expires, as the fleet reports it (the earliest report, should processes differ by a millisecond).
    const expiries: Record<string, Map<string, number>> = { slicer: new Map(), predict: new Map() };
    for (const run of runs) {
      assert.equal(run.code, 0, run.err);
      const result = JSON.parse(run.out) as { seen: Record<string, [string, number][]>; failures: number };
      assert.equal(result.failures, 0, 'no failed call');
      for (const scope of ['slicer', 'predict']) {
        for (const [print, at] of result.seen[scope] ?? []) {
          const map = expiries[scope] as Map<string, number>;
          map.set(print, Math.min(at, map.get(print) ?? at));
        }
      }
    }
    for (const [scope, issued] of [['slicer', h.issued()], ['predict', h.issued(predictId())]] as const) {
      const times = [...(expiries[scope] as Map<string, number>).values()].sort((a, b) => a - b);
      // Every token served the fleet; one refresh may still be in flight when the last worker stops, seen by none.
      assert.ok(issued - times.length <= 1 && issued >= times.length, `${scope}: ${issued} issued, ${times.length} seen`);
      assert.ok(issued >= 3, `${scope}: several expiries were crossed (${issued} tokens)`);
      // 4 s tokens are refreshed no earlier than 1.8 s into their life (a 2 s margin plus at most 10 % jitter): one
      // request per refresh means expiries at least that far apart; two requests in one refresh, expiries close together.
      const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
      assert.ok(gaps.every((gap) => gap > 1000), `${scope}: two token requests in one refresh (gaps ${gaps.join(', ')} ms)`);
    }
    h.sandbox.store.setLifetime(3600);
  });
});
