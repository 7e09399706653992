import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accessTokenIn, documentedDrift } from './token_answer.ts';

describe('accessTokenIn: the access_token of an answer, as the body has it', () => {
  const rows: [string, string, unknown][] = [
    ['a token answer', '{"access_token":"abc","token_type":"Bearer"}', 'abc'],
    ['a refusal', '{"error":"invalid_grant"}', undefined],
    ['an empty access_token', '{"access_token":""}', ''],
    ['a number', '{"access_token":7}', 7],
    ['JSON null', 'null', undefined],
    ['a JSON number', '5', undefined],
    ['HTML', '<html>Unauthorized</html>', undefined],
    ['a form-encoded answer', 'access_token=abc&token_type=bearer', undefined],
    ['nothing', '', undefined],
  ];
  for (const [label, text, expected] of rows) test(label, () => assert.equal(accessTokenIn(text), expected));
});

describe('documentedDrift: how a token answer differs from contract 4.1 rule 1', () => {
  const scope = 'service_id=slicer-id';
  const documented = { token_type: 'Bearer', scope, access_token: 't', expires_in: '3600' };

  test('the documented answer: no difference', () => assert.deepEqual(documentedDrift(documented, scope), []));

  test('every field that differs is named, with what the answer has, in one list', () => {
    assert.deepEqual(documentedDrift({ ...documented, token_type: 'bearer', scope: undefined, expires_in: 3600 }, scope), [
      'token_type is "bearer", documented "Bearer"',
      'scope is left out, documented as the requested scope "service_id=slicer-id"',
      'expires_in drifted from the documented type: documented as a string holding seconds ("3600"), got a JSON number (3600)',
    ]);
  });

  const rows: [string, Record<string, unknown>, string][] = [
    ['another token type', { token_type: 'MAC' }, 'token_type is "MAC", documented "Bearer"'],
    [
      'the other service scope',
      { scope: 'service_id=predict-id' },
      'scope is "service_id=predict-id", documented as the requested scope "service_id=slicer-id"',
    ],
    ['the scope as the id alone', { scope: 'slicer-id' }, 'scope is "slicer-id", documented as the requested scope "service_id=slicer-id"'],
    [
      'expires_in null',
      { expires_in: null },
      'expires_in drifted from the documented type: documented as a string holding seconds ("3600"), got null',
    ],
    ['expires_in left out', { expires_in: undefined }, 'expires_in is left out, documented as a string holding seconds ("3600")'],
    ['expires_in another string', { expires_in: '7200' }, 'expires_in is "7200", documented as a string holding seconds ("3600")'],
    ['expires_in with a unit', { expires_in: '3600s' }, 'expires_in is "3600s", documented as a string holding seconds ("3600")'],
    [
      'a long value, cut at 80 characters',
      { token_type: 'x'.repeat(200) },
      `token_type is "${'x'.repeat(78)}…, documented "Bearer"`,
    ],
  ];
  for (const [label, change, expected] of rows) {
    test(label, () => assert.deepEqual(documentedDrift({ ...documented, ...change }, scope), [expected]));
  }
});
