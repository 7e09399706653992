/**
 * The services table and the scopes that name its rows (contract 4.1): a
 * service's short name, or `service_id=<id>` with an id that fits in a form
 * body, matched against the configured ids as the settings hold them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ConfigError } from '../errors.ts';
import { DEFAULT_SERVICE, parseScope, SCOPE_FORMS, scopeKind, serviceIdOf, serviceNamed, SERVICES } from './services.ts';

const [SLICER, PREDICT] = SERVICES;

test('each row names its service and its settings, and the slicing service is the default', () => {
  assert.deepEqual(
    SERVICES.map((s) => [s.name, s.title, s.id.env, s.baseUrl.env, s.staticToken.env]),
    [
      ['slicer', 'slicing service', 'SLICER_SERVICE_ID', 'SLICER_BASE_URL', 'SLICER_STATIC_TOKEN'],
      ['predict', 'prediction service', 'SLICER_PREDICT_SERVICE_ID', 'SLICER_PREDICT_BASE_URL', 'SLICER_PREDICT_STATIC_TOKEN'],
    ],
  );
  assert.deepEqual(SERVICES.map((s) => [s.id.option, s.baseUrl.option, s.staticToken.option]), [
    ['serviceId', 'baseUrl', 'staticToken'],
    ['predictServiceId', 'predictBaseUrl', 'predictStaticToken'],
  ]);
  assert.equal(DEFAULT_SERVICE, SLICER);
  assert.equal(SCOPE_FORMS, '"slicer", "predict" or "service_id=<id>"');
});

test('a short name is matched exactly', () => {
  assert.equal(serviceNamed('slicer'), SLICER);
  assert.equal(serviceNamed('predict'), PREDICT);
  for (const other of ['Predict', 'predict ', '', 'slicing', 'service_id=slicer']) assert.equal(serviceNamed(other), undefined, other);
});

test("scopeKind finds the configured service of an id, trimmed as the settings trim it; another id is 'other'", () => {
  const present = { serviceId: ' slicer-id ', predictServiceId: 'predict-id' };
  assert.equal(scopeKind(present, 'slicer'), SLICER);
  assert.equal(scopeKind({}, 'predict'), PREDICT);
  assert.equal(scopeKind(present, 'service_id=slicer-id'), SLICER);
  assert.equal(scopeKind(present, 'service_id=predict-id'), PREDICT);
  assert.equal(scopeKind(present, 'service_id=elsewhere'), 'other');
  // An unset id matches nothing, not the text "undefined".
  assert.equal(scopeKind({ serviceId: undefined }, 'service_id=undefined'), 'other');
});

test('a scope that is neither a name nor service_id=<id> fitting a form body is invalid, and parseScope refuses it by name', () => {
  const invalid = [
    '',
    'Slicer',
    'service_id=',
    'service_id=a b',
    'service_id=a&b',
    'service_id=a=b',
    'xservice_id=a',
    'service_id=a\n',
    ' service_id=a',
  ];
  for (const scope of invalid) {
    assert.equal(scopeKind({ serviceId: 'a' }, scope), 'invalid', JSON.stringify(scope));
    assert.equal(serviceIdOf({ serviceId: 'a' }, scope), undefined, JSON.stringify(scope));
    assert.throws(() => parseScope(scope), (error) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.issues, [{ key: 'scope', message: `expected ${SCOPE_FORMS}, got "${scope}"` }]);
      return true;
    });
  }
});

test('serviceIdOf maps a name to its configured id, and service_id=<id> to its id, configured or not', () => {
  const config = { serviceId: 'slicer-id', predictServiceId: 'predict-id' };
  assert.equal(serviceIdOf(config, 'slicer'), 'slicer-id');
  assert.equal(serviceIdOf(config, 'predict'), 'predict-id');
  assert.equal(serviceIdOf({ serviceId: 'slicer-id' }, 'predict'), undefined);
  assert.equal(serviceIdOf(config, 'service_id=predict-id'), 'predict-id');
  assert.equal(serviceIdOf({}, 'service_id=elsewhere'), 'elsewhere');
  assert.equal(parseScope('predict'), 'predict');
});

test('any id without spaces, = or & makes a scope that parseScope takes and serviceIdOf reads back', () => {
  const id = fc.string({ minLength: 1 }).filter((text) => !/[\s=&]/.test(text));
  fc.assert(
    fc.property(id, (text) => {
      const scope = `service_id=${text}`;
      assert.equal(parseScope(scope), scope);
      assert.equal(serviceIdOf({}, scope), text);
      assert.equal(scopeKind({ predictServiceId: text }, scope), PREDICT);
    }),
  );
});
