/**
 * The wire's pure parts as tables: how a token is attached, where a redirect
 * may lead, and what the next hop sends. (Sending itself is tested against
 * real servers: redirect_test, fetch_behaviour_test.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redirected, sameOriginRedirect, withToken } from './request_wire.ts';

describe('withToken', () => {
  test('the header transport sets Authorization: Bearer, keeps the other headers and hands redirects back', () => {
    const init = { method: 'GET', headers: { accept: 'application/json', authorization: 'Basic old' } };
    const sent = withToken(init, 'T0K', 'header');
    assert.equal(new Headers(sent.headers).get('authorization'), 'Bearer T0K');
    assert.equal(new Headers(sent.headers).get('accept'), 'application/json');
    assert.equal(sent.redirect, 'manual');
    assert.equal(sent.method, 'GET');
    assert.deepEqual(init.headers, { accept: 'application/json', authorization: 'Basic old' }, "the caller's options are not changed");
  });

  test('the post transport adds a token field to a form body, replacing one the caller set, and no header', () => {
    const body = new URLSearchParams({ model: 'a.stl', token: 'stale' });
    const sent = withToken({ method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 'T0K', 'post');
    assert.equal((sent.body as URLSearchParams).toString(), 'model=a.stl&token=T0K');
    assert.equal(body.toString(), 'model=a.stl&token=stale', "the caller's body is not changed");
    assert.equal(new Headers(sent.headers).get('authorization'), null);
    assert.equal(sent.redirect, 'manual');
  });

  test('the post transport adds a token field to a multipart body, dropping the old boundary', () => {
    const body = new FormData();
    body.set('model', new File(['solid'], 'a.stl'));
    body.set('quality', 'high');
    const sent = withToken({ method: 'POST', body, headers: { 'content-type': 'multipart/form-data; boundary=old' } }, 'T0K', 'post');
    const form = sent.body as FormData;
    assert.deepEqual([...form.keys()], ['model', 'quality', 'token']);
    assert.equal(form.get('token'), 'T0K');
    assert.equal((form.get('model') as File).name, 'a.stl');
    assert.equal(new Headers(sent.headers).get('content-type'), null, 'fetch writes the new boundary');
    assert.equal(body.get('token'), null, "the caller's form is not changed");
    assert.equal(sent.redirect, 'manual');
  });

  test('with the post transport, a body that is not a form (JSON, none) carries the header', () => {
    for (const body of ['{"a":1}', null]) {
      const sent = withToken({ method: 'POST', body }, 'T0K', 'post');
      assert.equal(new Headers(sent.headers).get('authorization'), 'Bearer T0K', String(body));
      assert.equal(sent.body, body);
    }
  });
});

describe('sameOriginRedirect', () => {
  const answer = (status: number, location?: string) => new Response(null, { status, headers: location ? { location } : {} });
  const FROM = 'https://svc.example/api/jobs';
  const rows: [string, Response, string | undefined][] = [
    ['301 to a path', answer(301, '/api/moved'), 'https://svc.example/api/moved'],
    ['302 relative to the URL', answer(302, 'other'), 'https://svc.example/api/other'],
    ['303 absolute, same origin', answer(303, 'https://svc.example/x?y=1'), 'https://svc.example/x?y=1'],
    ['307', answer(307, '/a'), 'https://svc.example/a'],
    ['308', answer(308, '/b'), 'https://svc.example/b'],
    ['another host', answer(302, 'https://evil.example/api/jobs'), undefined],
    ['another port', answer(302, 'https://svc.example:8443/api/jobs'), undefined],
    ['another scheme (https → http)', answer(302, 'http://svc.example/api/jobs'), undefined],
    ['a look-alike host', answer(302, 'https://svc.example.evil.example/'), undefined],
    ['user-info before the host', answer(302, 'https://svc.example@evil.example/'), undefined],
    ['protocol-relative to another host', answer(302, '//evil.example/x'), undefined],
    ['no Location', answer(302), undefined],
    ['a Location that is not a URL', answer(302, 'http://[::1'), undefined],
    ['200 with a Location', answer(200, '/a'), undefined],
    ['201 Created with a Location', answer(201, '/a'), undefined],
    ['300 Multiple Choices', answer(300, '/a'), undefined],
    ['304 Not Modified', answer(304, '/a'), undefined],
  ];
  for (const [name, response, expected] of rows) {
    test(`${name} → ${expected ?? 'handed back'}`, () => assert.equal(sameOriginRedirect(FROM, response), expected));
  }
});

describe('redirected', () => {
  const post = { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json', 'x-trace': 't' } };
  test('307 and 308 repeat the method, the body and the headers', () => {
    for (const status of [307, 308]) assert.equal(redirected(post, status), post);
  });
  test('301, 302 and 303 turn a POST into a bodiless GET without its content type, keeping the other headers', () => {
    for (const status of [301, 302, 303]) {
      const next = redirected(post, status);
      assert.equal(next.method, 'GET');
      assert.equal(next.body, null);
      assert.equal(new Headers(next.headers).get('content-type'), null);
      assert.equal(new Headers(next.headers).get('x-trace'), 't');
    }
  });
  test('a HEAD stays a HEAD, in any case', () => {
    assert.equal(redirected({ method: 'head' }, 302).method, 'HEAD');
    assert.equal(redirected({ method: 'HEAD' }, 303).method, 'HEAD');
    assert.equal(redirected({}, 302).method, 'GET');
  });
});
