import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRunId, cleanupRevokes, newRunId, parseRunTokenName, runTokenName, testTokenNames } from './run_tokens.ts';

const NOW = new Date('2026-11-23T01:15:00.123Z');

test('a run token name carries its run id and creation time, and reads back', () => {
  const name = runTokenName('nightly-42.1', NOW, '4be1c2 revoke');
  assert.equal(name, 'contract-test run=nightly-42.1 at=20261123T011500Z 4be1c2 revoke');
  assert.deepEqual(parseRunTokenName(name), { runId: 'nightly-42.1', createdAt: new Date('2026-11-23T01:15:00Z'), label: '4be1c2 revoke' });
  assert.equal(parseRunTokenName('contract-test 2026-11-23 old style'), undefined);
  assert.equal(parseRunTokenName('my deploy token'), undefined);
});

test('a generated run id is the start time and a random suffix, valid as a run id', () => {
  const id = newRunId(NOW);
  assert.match(id, /^20261123T011500Z-[0-9a-f]{4}$/);
  assert.equal(checkRunId(id), id);
  assert.notEqual(newRunId(NOW), newRunId(NOW));
  assert.throws(() => checkRunId('a b'), /A run id is 1-64 letters, digits, "\.", "_" or "-"; got "a b"/);
});

test('a cleanup revokes its own run and runs older than the maximum age, never a concurrent run or a person', () => {
  const own = runTokenName('run-a', NOW, 'x');
  const concurrent = runTokenName('run-b', new Date(NOW.getTime() - 3600_000), 'x');
  const crashed = runTokenName('run-c', new Date(NOW.getTime() - 25 * 3600_000), 'x');
  assert.equal(cleanupRevokes(own, 'run-a', NOW), true);
  assert.equal(cleanupRevokes(concurrent, 'run-a', NOW), false);
  assert.equal(cleanupRevokes(crashed, 'run-a', NOW), true, 'older than 24 h by default');
  assert.equal(cleanupRevokes(crashed, 'run-a', NOW, 48 * 3600_000), false, 'a larger maximum age keeps it');
  assert.equal(cleanupRevokes('contract-test by hand', 'run-a', NOW), false);
  assert.equal(cleanupRevokes('production deploy', 'run-a', NOW, 0), false);
});

test("a test's token names are those of its run with its tag, on any attempt: never another run's, another test's or a person's", () => {
  const earlier = new Date(NOW.getTime() - 60_000);
  const names = testTokenNames('run.a', '4be1c2');
  assert.equal(names.test(runTokenName('run.a', NOW, '4be1c2 revoke')), true);
  assert.equal(names.test(runTokenName('run.a', earlier, '4be1c2 cancel')), true, 'an earlier attempt');
  assert.equal(names.test(runTokenName('run-a', NOW, '4be1c2 revoke')), false, 'another run');
  assert.equal(names.test(runTokenName('run.ab', NOW, '4be1c2 revoke')), false, 'a longer run id');
  assert.equal(names.test(runTokenName('run.a', NOW, '4be1c3 revoke')), false, 'another test');
  assert.equal(names.test(runTokenName('run.a', NOW, '4be1c2x revoke')), false, 'a longer tag');
  assert.equal(names.test(`Copy of ${runTokenName('run.a', NOW, '4be1c2 revoke')}`), false, 'a name that only holds one');
  assert.equal(names.test('4be1c2 revoke'), false, 'a name no run made');
});
