import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { request } from '@playwright/test';
import fc from 'fast-check';
import { startSandbox } from '../src/sandbox/mod.ts';
import { createFakeClock } from '../src/testing/fake_clock.ts';
import { ContractApi, type Service } from './contract_api.ts';
import { rateLimitWait } from './rate_limit.ts';
import type { Target } from './target.ts';

describe('rateLimitWait: how long an answer asks the suite to wait', () => {
  const now = Date.parse('2026-11-26T06:00:00Z');
  const rows: [string, number, string | undefined, number, number | undefined][] = [
    ['429, Retry-After in seconds', 429, '7', 0, 7_000],
    ['429, Retry-After 0', 429, '0', 2, 0],
    ['429, Retry-After as an HTTP date', 429, 'Thu, 26 Nov 2026 06:00:30 GMT', 0, 30_000],
    ['429, Retry-After as a date already past', 429, 'Thu, 26 Nov 2026 05:59:00 GMT', 0, 0],
    ['429 without Retry-After, first time', 429, undefined, 0, 1_000],
    ['429 without Retry-After, fourth time', 429, undefined, 3, 8_000],
    ['429 with an unreadable Retry-After', 429, 'soon', 1, 2_000],
    ['503 with Retry-After', 503, ' 2 ', 0, 2_000],
    ['503 without Retry-After: a server error, not a limit', 503, undefined, 0, undefined],
    ['503 with an empty Retry-After', 503, '', 0, undefined],
    ['500 with Retry-After', 500, '5', 0, undefined],
    ['401', 401, '5', 0, undefined],
    ['200', 200, undefined, 0, undefined],
  ];
  for (const [label, status, retryAfter, attempt, expected] of rows) {
    test(label, () => assert.equal(rateLimitWait(status, retryAfter, attempt, now), expected));
  }
  test('any other status is answered as it is, whatever its Retry-After', () => {
    const other = fc.integer({ min: 100, max: 599 }).filter((status) => status !== 429 && status !== 503);
    fc.assert(fc.property(other, fc.option(fc.string()), fc.nat(20), (status, header, attempt) => {
      assert.equal(rateLimitWait(status, header ?? undefined, attempt, now), undefined);
    }));
  });
  test('a 429 that names no wait waits twice as long each time', () => {
    fc.assert(fc.property(fc.nat(20), (attempt) => {
      assert.equal(rateLimitWait(429, undefined, attempt + 1, now), 2 * (rateLimitWait(429, undefined, attempt, now) as number));
    }));
  });
});

const sandbox = await startSandbox({ testMode: true, password: 'Rate-Pa55 +&%' });
const context = await request.newContext();
const env = sandbox.env;
const target: Target = {
  live: true,
  authUrl: env.SLICER_AUTH_URL,
  baseUrl: env.SLICER_BASE_URL,
  predictBaseUrl: env.SLICER_PREDICT_BASE_URL,
  username: env.SLICER_USERNAME,
  password: env.SLICER_PASSWORD,
  serviceId: env.SLICER_SERVICE_ID,
  predictServiceId: env.SLICER_PREDICT_SERVICE_ID,
  controlsUrl: undefined,
  probePath: '',
};
beforeEach(() => sandbox.store.reset());
after(async () => {
  await context.dispose();
  await sandbox.close();
});

test("each service's scope and base URL are its row's settings; one without an id is named by its variable", () => {
  const contract = new ContractApi(context, target);
  assert.deepEqual(
    [contract.scope('slicer'), contract.scope('predict'), contract.baseUrl('slicer'), contract.baseUrl('predict')],
    [
      `service_id=${env.SLICER_SERVICE_ID}`,
      `service_id=${env.SLICER_PREDICT_SERVICE_ID}`,
      env.SLICER_BASE_URL,
      env.SLICER_PREDICT_BASE_URL,
    ],
  );
  assert.throws(() => new ContractApi(context, { ...target, serviceId: '' }).scope('slicer'), { message: 'SLICER_SERVICE_ID is not set' });
  const noPredict = new ContractApi(context, { ...target, predictServiceId: undefined });
  assert.throws(() => noPredict.scope('predict'), { message: 'SLICER_PREDICT_SERVICE_ID is not set' });
  assert.throws(() => noPredict.scope('other' as Service), { message: 'No service is named "other" in the services table' });
});

describe('ContractApi waits out a rate-limited token endpoint, on its clock', () => {
  const api = () => {
    const clock = createFakeClock({ autoAdvance: true });
    const waits: [number, number][] = [];
    return { clock, waits, api: new ContractApi(context, target, { clock, onWait: (ms, status) => waits.push([ms, status]) }) };
  };

  test('two 429s with Retry-After: 2, then the token: two waits of 2 s, and the token', async () => {
    sandbox.store.addFault({ status: 429, body: '{}', headers: { 'retry-after': '2' }, times: 2 });
    const { clock, waits, api: contract } = api();
    const token = await contract.issue();
    assert.equal(typeof sandbox.store.check(token), 'object', 'a live token');
    assert.deepEqual(waits, [[2_000, 429], [2_000, 429]]);
    assert.equal(clock.now(), 4_000);
  });

  test('a 503 with Retry-After is waited out; one without is answered as it is', async () => {
    sandbox.store.addFault({ status: 503, body: '', headers: { 'retry-after': '1' }, times: 1 });
    sandbox.store.addFault({ status: 503, body: 'down', contentType: 'text/plain', times: 1 });
    const { waits, api: contract } = api();
    const answer = await contract.grant(contract.goodGrant());
    assert.deepEqual([answer.status, answer.text], [503, 'down']);
    assert.deepEqual(waits, [[1_000, 503]]);
  });

  test('a limit that does not pass in 120 s fails the call, naming the limit and the fix, without the password', async () => {
    sandbox.store.addFault({ status: 429, body: '{}', headers: { 'retry-after': '50' }, times: 10 });
    const { clock, waits, api: contract } = api();
    await assert.rejects(contract.issue(), (error: Error) => {
      assert.equal(
        error.message,
        'The token endpoint still answers 429 (rate limited) after 100 s of waiting, and asks for 50 s more: the check was ' +
          'not made. Raise the rate limit for the test account, or run fewer workers or shards at once',
      );
      return true;
    });
    assert.deepEqual(waits, [[50_000, 429], [50_000, 429]]);
    assert.equal(clock.now(), 100_000);
  });
});
