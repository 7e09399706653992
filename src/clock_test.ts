/**
 * The system clock's monotonic time counts the time the machine was suspended, so a token obtained before a laptop
 * slept is not taken for valid after it expired; a wall clock set back or jittering moves nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSystemClock, type TimeSources } from './clock.ts';
import { type Harness, startHarness } from './testing/sandbox_harness.ts';

/** Time sources that move only when told to: `awake` moves both, `suspend` only the wall clock, `setWall` sets it. */
function fakeSources() {
  let monotonic = 5_000;
  let wall = 1_700_000_000_000;
  const sources: TimeSources = { monotonic: () => monotonic, wall: () => wall };
  return {
    sources,
    awake: (ms: number) => (monotonic += ms, wall += ms),
    suspend: (ms: number) => (wall += ms),
    setWall: (ms: number) => (wall += ms),
  };
}

describe('the system clock', () => {
  test('awake, its monotonic time is the platform monotonic time, and its wall time the wall clock', () => {
    const time = fakeSources();
    const clock = createSystemClock(time.sources);
    assert.equal(clock.now(), 5_000);
    time.awake(60_000);
    assert.deepEqual([clock.now(), clock.wallNow()], [65_000, 1_700_000_060_000]);
  });

  test('a suspend is added to its monotonic time, from then on', () => {
    const time = fakeSources();
    const clock = createSystemClock(time.sources);
    time.awake(1_000);
    time.suspend(7_200_000);
    time.awake(500);
    assert.equal(clock.now(), 5_000 + 1_000 + 7_200_000 + 500);
    time.awake(250);
    assert.equal(clock.now(), 5_000 + 1_000 + 7_200_000 + 500 + 250, 'counted once');
  });

  test('a wall clock set back, or ahead by a second or less between readings, moves nothing; its time never goes back', () => {
    const time = fakeSources();
    const clock = createSystemClock(time.sources);
    time.setWall(-3_600_000);
    time.awake(100);
    assert.equal(clock.now(), 5_100);
    time.setWall(1_000);
    assert.equal(clock.now(), 5_100, 'a second is within the gap');
    time.setWall(1_001);
    assert.equal(clock.now(), 6_101, 'more than a second counts');
  });
});

describe('a client on the system clock', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  test("after the machine slept past the token's expiry, getToken asks for a new token", async () => {
    const time = fakeSources();
    const client = h.client({ now: undefined, clock: createSystemClock(time.sources) });
    try {
      const first = await client.getToken('slicer');
      time.awake(60_000);
      assert.equal(await client.getToken('slicer'), first, 'valid for the hour: from memory');
      assert.equal(h.issued(), 1);
      time.suspend(2 * 3_600_000); // the laptop's lid closed for two hours: the sandbox's token expired
      h.advance(2 * 3_600 + 60);
      const second = await client.getToken('slicer');
      assert.notEqual(second, first);
      assert.equal(h.issued(), 2, 'one new token request');
    } finally {
      await client.close();
    }
  });
});
