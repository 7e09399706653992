/**
 * A client's scopes resolved once: each scope and URL kind is resolved on its first use and kept, a scope that
 * cannot be used is refused on every use, and the scope of an absolute URL is the configured service it goes to.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../errors.ts';
import { parseConfig } from './config.ts';
import { scopeTargets } from './scope_target.ts';

const config = (more: Record<string, string> = {}) =>
  parseConfig({
    SLICER_AUTH_URL: 'https://auth.example',
    SLICER_USERNAME: 'bot',
    SLICER_PASSWORD: 'pw',
    SLICER_SERVICE_ID: 'slicer-id',
    SLICER_BASE_URL: 'https://slicer.example/api',
    SLICER_PREDICT_SERVICE_ID: 'predict-id',
    ...more,
  });

test('a scope is resolved once per URL kind: the same target each time, for its name and its service_id alike', () => {
  const targets = scopeTargets(config());
  const slicer = targets.resolve();
  assert.equal(targets.resolve('slicer'), slicer, 'the default scope is the slicing service, kept');
  assert.equal(slicer.scope, 'service_id=slicer-id');
  assert.equal(slicer.baseUrl, 'https://slicer.example/api');
  assert.deepEqual([...slicer.origins], ['https://slicer.example']);
  const relative = targets.resolve('slicer', true);
  assert.notEqual(relative, slicer, 'a relative lane is resolved apart: it needs the base URL');
  assert.equal(targets.resolve('slicer', true), relative);
  assert.deepEqual({ ...relative, origins: [...relative.origins] }, { ...slicer, origins: [...slicer.origins] });
  assert.equal(targets.resolve('service_id=predict-id').scope, 'service_id=predict-id');
});

test('a scope that cannot be used is refused on every use, and keeps nothing', () => {
  const targets = scopeTargets(config());
  for (let i = 0; i < 2; i++) {
    assert.throws(() => targets.resolve('predict', true), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.issues.map((issue) => issue.key), ['SLICER_PREDICT_BASE_URL']);
      return true;
    });
    assert.throws(() => targets.resolve(null as unknown as string), /got "null"/);
  }
  assert.equal(targets.resolve('predict').baseUrl, undefined, 'an absolute call of the scope needs no base URL');
});

test("the scope of an absolute URL is the service whose base URL it is under, else the default's", () => {
  const { scopeOf } = scopeTargets(config({ SLICER_PREDICT_BASE_URL: 'https://slicer.example/api/predict' }));
  assert.equal(scopeOf('https://slicer.example/api/predict/forecast'), 'predict', 'the longer base URL it is under');
  assert.equal(scopeOf('https://slicer.example/api/jobs'), 'slicer');
  assert.equal(scopeOf('https://elsewhere.example/x'), 'slicer');
});
