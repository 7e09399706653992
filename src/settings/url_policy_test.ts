/** Where secrets may go, as tables: loopback hosts, the plain-http refusal, and the origins that may receive a token. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ErrorCode, InsecureUrlError } from '../errors.ts';
import { assertSafeUrl, isLoopbackHost, mayReceiveToken, tokenOrigins } from './url_policy.ts';

describe('isLoopbackHost', () => {
  const rows: [string, boolean][] = [
    ['localhost', true],
    ['LOCALHOST', true],
    ['api.localhost', true],
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['[::1]', true],
    ['::1', true],
    ['127.0.0.1.evil.example', false],
    ['evil.example.127.0.0.1', false],
    ['localhost.evil.example', false],
    ['mylocalhost', false],
    ['128.0.0.1', false],
    ['127.0.0', false],
    ['127.0.0.1000', false],
    ['0.0.0.0', false],
    ['[::2]', false],
    ['example.com', false],
  ];
  for (const [host, loopback] of rows) test(`${host} → ${loopback}`, () => assert.equal(isLoopbackHost(host), loopback));
});

describe('assertSafeUrl', () => {
  test('https anywhere and http on loopback pass; http elsewhere is INSECURE_AUTH_URL naming host and variable', () => {
    for (const url of ['https://auth.example/x', 'http://127.0.0.1:8787/', 'http://localhost/', 'http://[::1]:3000/']) {
      assert.doesNotThrow(() => assertSafeUrl(url, 'SLICER_AUTH_URL'), url);
    }
    assert.throws(() => assertSafeUrl('http://auth.example:8080/oauth2/token/', 'SLICER_AUTH_URL'), (error: unknown) => {
      assert.ok(error instanceof InsecureUrlError);
      assert.equal(error.code, ErrorCode.INSECURE_AUTH_URL);
      assert.match(error.message, /Refusing to send the password over plain http to "auth\.example:8080": use an https SLICER_AUTH_URL/);
      return true;
    });
    assert.throws(
      () => assertSafeUrl(new URL('http://svc.example/'), 'SLICER_BASE_URL'),
      /an access token over plain http to "svc\.example": use an https SLICER_BASE_URL/,
    );
  });
});

describe('tokenOrigins and mayReceiveToken', () => {
  test("the base URL's origin and the listed ones, and nothing else", () => {
    const origins = tokenOrigins('https://svc.example:8443/api/v1', ['https://storage.example']);
    assert.deepEqual([...origins], ['https://svc.example:8443', 'https://storage.example']);
    assert.deepEqual([...tokenOrigins(undefined)], []);
    assert.deepEqual([...tokenOrigins(undefined, ['https://a.example'])], ['https://a.example']);
    const rows: [string, boolean][] = [
      ['https://svc.example:8443/anything?x=1', true],
      ['https://storage.example/bucket/file', true],
      ['https://svc.example/api/v1', false],
      ['http://svc.example:8443/api', false],
      ['https://svc.example:8443.evil.example/', false],
      ['https://storage.example.evil.example/', false],
      ['not a url', false],
    ];
    for (const [url, may] of rows) assert.equal(mayReceiveToken(url, origins), may, url);
  });
});
