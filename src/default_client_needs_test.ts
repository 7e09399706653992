/**
 * The free functions with nothing configured: importing them does no work, and
 * each call's configuration error lists what that call needs (its scope's
 * service, and its base URL for a relative path), not what another would. The
 * client is never built here, so every test sees the same empty environment.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { authedFetch, getToken, getTokenInfo, tokenFetch } from './default_client.ts';
import { ConfigError } from './errors.ts';
import { bareEnvironment } from './testing/bare_environment.ts';

before(bareEnvironment);

const GRANT = ['SLICER_AUTH_URL', 'SLICER_USERNAME', 'SLICER_PASSWORD'];
const SLICER = ['SLICER_SERVICE_ID', ...GRANT];
/** Every use needs the slicing service's id (config.ts), so a predict call names both. */
const PREDICT = ['SLICER_PREDICT_SERVICE_ID', ...SLICER];

/**
 * The variables a call's configuration error lists, in its order.
 *
 * @param call the call, which throws or rejects
 * @returns the issues' keys
 */
async function missing(call: () => unknown): Promise<string[]> {
  let keys: string[] = [];
  await assert.rejects(async () => call(), (error) => {
    assert.ok(error instanceof ConfigError, String(error));
    keys = error.issues.map((issue) => issue.key);
    return true;
  });
  return keys.sort();
}

test('getToken and getTokenInfo name what their scope needs', async () => {
  assert.deepEqual(await missing(() => getToken()), [...SLICER].sort());
  assert.deepEqual(await missing(() => getToken('predict')), [...PREDICT].sort());
  assert.deepEqual(await missing(() => getTokenInfo()), [...SLICER].sort());
  assert.deepEqual(await missing(() => getTokenInfo('predict')), [...PREDICT].sort());
});

test("tokenFetch asks for the scope's base URL only for a relative path", async () => {
  assert.deepEqual(await missing(() => tokenFetch('jobs')), ['SLICER_BASE_URL', ...SLICER].sort());
  assert.deepEqual(await missing(() => tokenFetch('jobs', { scope: 'predict' })), ['SLICER_PREDICT_BASE_URL', ...PREDICT].sort());
  assert.deepEqual(await missing(() => tokenFetch('https://slicer.example/jobs')), [...SLICER].sort());
  assert.deepEqual(await missing(() => tokenFetch(new URL('https://slicer.example/jobs'))), [...SLICER].sort());
});

test("authedFetch asks for the base URL of the call's scope, or of its extension's", async () => {
  assert.deepEqual(await missing(() => authedFetch('jobs')), ['SLICER_BASE_URL', ...SLICER].sort());
  assert.deepEqual(await missing(() => authedFetch.get('jobs', { scope: 'predict' })), ['SLICER_PREDICT_BASE_URL', ...PREDICT].sort());
  const predict = authedFetch.extend({ scope: 'predict' });
  assert.deepEqual(await missing(() => predict('jobs')), ['SLICER_PREDICT_BASE_URL', ...PREDICT].sort());
  assert.deepEqual(await missing(() => predict('jobs', { scope: 'slicer' })), ['SLICER_BASE_URL', ...SLICER].sort());
  assert.deepEqual(await missing(() => authedFetch('https://slicer.example/jobs')), [...SLICER].sort());
});
