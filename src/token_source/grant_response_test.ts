/**
 * What a user reads when the token endpoint answers something other than a
 * token: every message of `processGrantResponse`, word for word. The answers
 * are built in memory (this is the parsing alone; `token_source_test.ts`
 * sends real requests to a real server).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TokenEndpointRedirectError, TokenRequestRejectedError, TokenResponseError } from '../errors.ts';
import { processGrantResponse } from './grant_response.ts';
import { redactor } from '../redact.ts';
import { isServiceRefusal } from './refusal.ts';

const SCOPE = 'service_id=slicer';
const WHERE = `Cannot get a token for scope "${SCOPE}"`;
/** The fix of a refusal of the credentials, word for word. */
const CREDENTIALS_FIX = '; the credentials were refused: check SLICER_USERNAME and SLICER_PASSWORD';
/** The fix of an answer that is no token response, word for word. */
const ANSWER_FIX = "; check SLICER_AUTH_URL (the authorization service's base address), else tell that service's owners";

/** An answer as if fetched from `url` (a Response built in memory has no URL of its own). */
function answer(body: BodyInit | null, init: ResponseInit, url?: string): Response {
  const response = new Response(body, init);
  if (url) Object.defineProperty(response, 'url', { value: url });
  return response;
}

const json = (value: unknown, status = 200) => answer(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

/** The error processGrantResponse throws for an answer. */
async function failure(response: Response, secrets: string[] = []): Promise<Error> {
  try {
    await processGrantResponse(response, SCOPE, 0, redactor(secrets));
  } catch (error) {
    return error as Error;
  }
  assert.fail('expected an error');
}

describe('processGrantResponse', () => {
  test('a redirect (300 included) names where it pointed, origin and path only, and is never followed', async () => {
    const error = await failure(
      answer(null, { status: 300, headers: { location: '/accounts/login?next=secret' } }, 'https://auth.example/oauth2/token/'),
    );
    assert.ok(error instanceof TokenEndpointRedirectError);
    assert.equal(
      error.message,
      `${WHERE}: the token endpoint answered 300, a redirect to https://auth.example/accounts/login; ` +
        'the password is sent to the configured endpoint only: check SLICER_AUTH_URL (https, exact path)',
    );
    assert.equal(error.location, 'https://auth.example/accounts/login');
    assert.equal(error.status, 300);
  });

  test('a relative redirect from an answer without a URL shows the path alone; one without Location says nowhere', async () => {
    const relative = await failure(answer(null, { status: 302, headers: { location: '/login' } }));
    assert.match(relative.message, /answered 302, a redirect to \/login; /);
    assert.equal((relative as TokenEndpointRedirectError).location, '/login');
    const nowhere = await failure(answer(null, { status: 307 }));
    assert.match(nowhere.message, /answered 307, a redirect to nowhere; /);
    assert.equal((nowhere as TokenEndpointRedirectError).location, undefined);
    assert.equal(Object.hasOwn(nowhere, 'location'), false, 'so a log lists no "location: undefined"');
  });

  test('a refusal names the status, then the OAuth error and its description, redacted', async () => {
    const both = await failure(json({ error: 'invalid_grant', error_description: 'bad password hunter2' }, 400), ['hunter2']);
    assert.ok(both instanceof TokenRequestRejectedError);
    assert.equal(both.message, `${WHERE}: the token endpoint answered 400 invalid_grant: bad password [redacted]${CREDENTIALS_FIX}`);
    assert.equal(both.error, 'invalid_grant');
    assert.equal(both.error_description, 'bad password [redacted]');
    const errorOnly = await failure(json({ error: 'invalid_request' }, 400));
    assert.equal(errorOnly.message, `${WHERE}: the token endpoint answered 400 invalid_request`);
    assert.equal((errorOnly as TokenRequestRejectedError).error_description, undefined);
    assert.equal(both.response?.status, 400, 'the answer is kept for the caller');
    assert.deepEqual(
      Object.keys(both),
      ['code', 'name', 'status', 'error', 'error_description'],
      'not the answer, whose headers a log would show',
    );
    assert.deepEqual(Object.keys(errorOnly), ['code', 'name', 'status', 'error'], 'no description given, none listed');
    const descriptionOnly = await failure(json({ error_description: 'locked' }, 403));
    assert.equal(descriptionOnly.message, `${WHERE}: the token endpoint answered 403 locked`);
  });

  test('an OAuth refusal names the fix its error calls for: the credentials, or the service id in the scope; no other', async () => {
    for (const [status, error] of [[400, 'invalid_grant'], [401, 'invalid_client'], [429, 'invalid_grant']] as const) {
      const refused = await failure(json({ error, error_description: 'no' }, status));
      assert.equal(refused.message, `${WHERE}: the token endpoint answered ${status} ${error}: no${CREDENTIALS_FIX}`, error);
    }
    const scope = await failure(json({ error: 'invalid_scope' }, 400));
    assert.equal(
      scope.message,
      `${WHERE}: the token endpoint answered 400 invalid_scope; the scope was refused: check the service id it names ` +
        '(SLICER_SERVICE_ID or SLICER_PREDICT_SERVICE_ID), and that this user may use that service',
    );
    for (const error of ['invalid_request', 'unauthorized_client', 'unsupported_grant_type', 'server_error', 'invalid_grant_type']) {
      const other = await failure(json({ error }, 400));
      assert.equal(other.message, `${WHERE}: the token endpoint answered 400 ${error}`, error);
    }
  });

  // Some servers answer a refused grant with 200: read as a token answer, it said "token_type is missing".
  test('a 2xx carrying an OAuth error and no access_token is a refusal; one that carries a token is a token', async () => {
    const error = await failure(json({ error: 'invalid_grant', error_description: 'bad password hunter2' }), ['hunter2']);
    assert.ok(error instanceof TokenRequestRejectedError);
    assert.equal(error.message, `${WHERE}: the token endpoint answered 200 invalid_grant: bad password [redacted]${CREDENTIALS_FIX}`);
    assert.deepEqual([error.status, error.error, error.error_description], [200, 'invalid_grant', 'bad password [redacted]']);
    const described = await failure(json({ error_description: 'locked', token_type: 'Bearer' }));
    assert.ok(described instanceof TokenResponseError, 'a description alone is no refusal');
    assert.equal(described.message, `${WHERE}: the token response is malformed: access_token is missing${ANSWER_FIX}`);
    const grant = await processGrantResponse(
      json({ error: 'none', access_token: 'tok', token_type: 'Bearer', expires_in: '60' }),
      SCOPE,
      0,
      redactor([]),
    );
    assert.deepEqual(grant, { token: 'tok', expiresAt: 60_000, lifetime: 60_000 });
  });

  test('a 401 or 403 whose body is not JSON, or not OAuth fields, names both causes: the credentials, or an address that is no token endpoint', async () => {
    const hint =
      '; the answer carries no OAuth error: check SLICER_USERNAME and SLICER_PASSWORD, and that SLICER_AUTH_URL is the authorization ' +
      "service's base address, not a service's or a proxy's";
    for (const status of [401, 403]) {
      // The answer's own words, when it has any and is no HTML page.
      for (
        const [body, said] of [
          ['<h1>Forbidden</h1>', ''],
          ['\n  <p>Forbidden</p>', ''],
          ['{"error": 42}', ' (said: error: 42)'],
          ['"denied"', ' (said: denied)'],
          ['[]', ''],
          ['{"detail": "Authentication credentials were not provided."}', ' (said: detail: Authentication credentials were not provided.)'],
        ] as const
      ) {
        const error = await failure(answer(body, { status }));
        assert.ok(error instanceof TokenRequestRejectedError, body);
        assert.equal(error.message, `${WHERE}: the token endpoint answered ${status}${said}${hint}`, body);
        assert.equal(error.error, undefined, body);
      }
    }
    const client = await failure(json({ error: 'invalid_client' }, 401));
    assert.equal(client.message, `${WHERE}: the token endpoint answered 401 invalid_client${CREDENTIALS_FIX}`, 'an OAuth error says which');
  });

  test("a 401 that asks for a Bearer token is a service's: it names SLICER_AUTH_URL alone, whatever the body says", async () => {
    const hint = "; the answer asks for a Bearer token, as a service does: SLICER_AUTH_URL must be the authorization service's " +
      "base address, not a service's";
    for (const challenge of ['Bearer realm="slicer", error="invalid_token"', 'bearer', 'Basic realm="gateway", Bearer realm="api"']) {
      const headers = { 'content-type': 'application/json', 'www-authenticate': challenge };
      const bare = await failure(answer('{"status":"access_error"}', { status: 401, headers }));
      assert.equal(bare.message, `${WHERE}: the token endpoint answered 401 (said: status: access_error)${hint}`, challenge);
      const oauth = await failure(answer('{"error":"invalid_token"}', { status: 401, headers }));
      assert.equal(oauth.message, `${WHERE}: the token endpoint answered 401 invalid_token${hint}`, challenge);
    }
    const unexplained = '; the answer carries no OAuth error: check SLICER_USERNAME and SLICER_PASSWORD, and that SLICER_AUTH_URL is the ' +
      "authorization service's base address, not a service's or a proxy's";
    for (const challenge of ['Basic realm="bearer"', 'Bearerish', 'Negotiate']) {
      const error = await failure(answer('{}', { status: 401, headers: { 'www-authenticate': challenge } }));
      assert.equal(error.message, `${WHERE}: the token endpoint answered 401${unexplained}`, challenge);
    }
    const forbidden = await failure(answer('{}', { status: 403, headers: { 'www-authenticate': 'Bearer' } }));
    assert.equal(forbidden.message, `${WHERE}: the token endpoint answered 403${unexplained}`, 'a 403 asks for nothing');
    assert.equal(isServiceRefusal({ status: 401 }), false, 'a refusal whose answer was not kept asks for nothing');
  });

  test('a 404, 405 or 410 without OAuth fields says that nothing takes token requests there, naming SLICER_AUTH_URL', async () => {
    const hint = "; nothing takes token requests there: check SLICER_AUTH_URL, the authorization service's base address " +
      '(the token endpoint is {SLICER_AUTH_URL}/oauth2/token/)';
    for (
      const [status, body, said] of [[404, '<h1>Not Found</h1>', ''], [405, '', ''], [
        410,
        '{"detail": "gone"}',
        ' (said: detail: gone)',
      ]] as const
    ) {
      const error = await failure(answer(body, { status }));
      assert.ok(error instanceof TokenRequestRejectedError);
      assert.equal(error.message, `${WHERE}: the token endpoint answered ${status}${said}${hint}`);
      assert.equal(error.status, status);
    }
    // SLICER_AUTH_URL ending in /oauth2: the client's path doubles it.
    for (const url of ['https://auth.example/oauth2/oauth2/token/', 'https://auth.example/sso/oauth2/oauth2/token/']) {
      const doubled = await failure(answer('<h1>Not Found</h1>', { status: 404 }, url));
      assert.equal(
        doubled.message,
        `${WHERE}: the token endpoint answered 404; SLICER_AUTH_URL ends in /oauth2, and the client appends /oauth2/token/ to it: remove the /oauth2`,
      );
    }
    const single = await failure(answer('', { status: 404 }, 'https://auth.example/oauth2/token/'));
    assert.equal(single.message, `${WHERE}: the token endpoint answered 404${hint}`, 'the endpoint as documented: another cause');
    // A service that answers 404 for an unknown user says so in OAuth fields: that is a refusal, not a wrong address.
    const user = await failure(json({ error: 'invalid_grant' }, 404));
    assert.equal(user.message, `${WHERE}: the token endpoint answered 404 invalid_grant${CREDENTIALS_FIX}`);
    const described = await failure(json({ error_description: 'no such user' }, 404));
    assert.equal(described.message, `${WHERE}: the token endpoint answered 404 no such user`);
    for (const status of [400, 409, 429]) {
      assert.equal((await failure(answer('', { status }))).message, `${WHERE}: the token endpoint answered ${status}`);
    }
  });

  test("a refusal without OAuth fields gives the answer's own words: on one line, cut at 160 characters, the password redacted as sent", async () => {
    const rejected = (body: string, status = 400) => failure(answer(body, { status }), ['pä"ss wörd']).then((error) => error.message);
    assert.equal(
      await rejected('{"non_field_errors":["Unable to log in with provided credentials."]}'),
      `${WHERE}: the token endpoint answered 400 (said: non_field_errors: Unable to log in with provided credentials.)`,
    );
    assert.equal(
      await rejected('Bad\r\n\tcredentials\u0000\u001b[31m for pä"ss wörd '),
      `${WHERE}: the token endpoint answered 400 (said: Bad credentials [31m for [redacted])`,
      'text on one line, without control characters; the password as sent',
    );
    // JSON escapes the password's quote and letters; its words are read unescaped, so the password is found in them.
    assert.equal(
      await rejected('{"errors":[{"field":"password","got":"p\\u00e4\\"ss w\\u00f6rd","ok":false}],"code":7}'),
      `${WHERE}: the token endpoint answered 400 (said: field: password; got: [redacted]; ok: false; code: 7)`,
    );
    const long = `${'x'.repeat(159)}yz`;
    assert.equal(await rejected(long), `${WHERE}: the token endpoint answered 400 (said: ${'x'.repeat(159)}y…)`);
    assert.equal(await rejected(long.slice(0, 160)), `${WHERE}: the token endpoint answered 400 (said: ${long.slice(0, 160)})`);
    // Seven objects or arrays down are read; the eighth is too deep.
    const nested = (open: string, close: string, levels: number) => `{"b":${open.repeat(levels)}"deep"${close.repeat(levels)},"c":"near"}`;
    for (const [open, close, name] of [['{"a":', '}', 'a'], ['[', ']', 'b']] as const) {
      assert.equal(await rejected(nested(open, close, 7)), `${WHERE}: the token endpoint answered 400 (said: ${name}: deep; c: near)`);
      assert.equal(await rejected(nested(open, close, 8)), `${WHERE}: the token endpoint answered 400 (said: c: near)`);
    }
    assert.equal(
      (await failure(answer(new TextEncoder().encode('Denied'), { status: 400 }))).message,
      `${WHERE}: the token endpoint answered 400 (said: Denied)`,
      'no content type',
    );
    assert.equal(await rejected('  \n '), `${WHERE}: the token endpoint answered 400`, 'blank: nothing said');
    assert.equal(await rejected('{"detail": null, "items": []}'), `${WHERE}: the token endpoint answered 400`, 'no words');
    assert.equal(
      (await failure(answer('Denied', { status: 400, headers: { 'content-type': 'text/html' } }))).message,
      `${WHERE}: the token endpoint answered 400`,
      'an HTML page, by its content type',
    );
  });

  test('a 2xx that is not JSON says whether it looks like an HTML page, with its content type', async () => {
    const cases: [BodyInit, Record<string, string>, string][] = [
      ['  <html>', { 'content-type': 'text/plain' }, 'an HTML page (content type "text/plain")'],
      ['\n\t<p>Sign in</p>', {}, 'an HTML page (content type "text/plain;charset=UTF-8")'],
      ['Service unavailable', { 'content-type': 'text/html' }, 'an HTML page (content type "text/html")'],
      ['x < y', { 'content-type': 'text/plain' }, 'a body that is not JSON (content type "text/plain")'],
      [new TextEncoder().encode('token=abc'), {}, 'a body that is not JSON (content type "no content type")'],
    ];
    for (const [body, headers, said] of cases) {
      const error = await failure(answer(body, { status: 200, headers }));
      assert.ok(error instanceof TokenResponseError);
      assert.equal(
        error.message,
        `${WHERE}: the token endpoint answered 200 with ${said}, not a JSON token response; check SLICER_AUTH_URL`,
      );
    }
  });

  test('JSON that is not an object is said to be so', async () => {
    for (const body of [42, null, 'token', [{ access_token: 'abc' }]]) {
      const error = await failure(json(body));
      assert.ok(error instanceof TokenResponseError);
      assert.equal(error.message, `${WHERE}: the token response is not a JSON object${ANSWER_FIX}`, JSON.stringify(body));
      assert.deepEqual(error.paths, ['(body)']);
    }
  });

  test('a malformed token response lists each field at fault with what it must be, never a value', async () => {
    const error = await failure(json({ access_token: 'tok-secret', token_type: 'MAC', expires_in: 'soon' }));
    assert.ok(error instanceof TokenResponseError);
    assert.equal(
      error.message,
      `${WHERE}: the token response is malformed: token_type must be "Bearer"; expires_in must be a number of seconds${ANSWER_FIX}`,
    );
    assert.deepEqual(error.paths, ['token_type', 'expires_in']);
  });

  test('each field at fault is named with what it must be, word for word', async () => {
    const good = { token_type: 'Bearer', access_token: 'tok', expires_in: '3600' };
    const cases: [Record<string, unknown>, string][] = [
      [{ token_type: 5 }, 'token_type must be the string "Bearer"'],
      [{ access_token: 7 }, 'access_token must be a string'],
      [{ access_token: '' }, 'access_token must not be empty'],
      [
        { access_token: 'to\nk' },
        'access_token must be a token an HTTP header can carry (no line break or other control character, no character past U+00FF, no space at either end)',
      ],
      [{ scope: 7 }, 'scope must be a string'],
      [{ expires_in: true }, 'expires_in must be a number of seconds (documented as a string)'],
      [{ expires_in: ' ' }, 'expires_in must be a number of seconds'],
      [{ expires_in: '0.5' }, 'expires_in must be at least 1 second'],
    ];
    for (const [fields, expected] of cases) {
      const error = await failure(json({ ...good, ...fields }));
      assert.equal(error.message, `${WHERE}: the token response is malformed: ${expected}${ANSWER_FIX}`, JSON.stringify(fields));
    }
    const one = await processGrantResponse(json({ ...good, access_token: 'x' }), SCOPE, 0, redactor([]));
    assert.equal(one.token, 'x', 'a token of one character');
  });

  test('a required field left out is said to be missing, not to be an object', async () => {
    const error = await failure(json({ expires_in: '3600' }));
    assert.ok(error instanceof TokenResponseError);
    assert.equal(error.message, `${WHERE}: the token response is malformed: token_type is missing; access_token is missing${ANSWER_FIX}`);
    assert.deepEqual(error.paths, ['token_type', 'access_token']);
  });

  test('a validity over a year is taken as a year, so that the expiry stays a date (1e308 s would be Infinity ms)', async () => {
    const YEAR = 365 * 24 * 3600_000;
    for (const [expires_in, lifetime] of [['31536000', YEAR], ['31536001', YEAR], ['1e308', YEAR], ['31535999', YEAR - 1000]] as const) {
      const grant = await processGrantResponse(json({ access_token: 'tok', token_type: 'Bearer', expires_in }), SCOPE, 500, redactor([]));
      assert.deepEqual(grant, { token: 'tok', expiresAt: 500 + lifetime, lifetime }, expires_in);
    }
  });

  // RFC 6749 §5.1 lets a server leave expires_in out when the default is documented: contract part 8 documents 3600 s.
  test('an expires_in left out or null is the documented 3600 s', async () => {
    for (const expires_in of [undefined, null]) {
      const grant = await processGrantResponse(json({ access_token: 'tok', token_type: 'Bearer', expires_in }), SCOPE, 500, redactor([]));
      assert.deepEqual(grant, { token: 'tok', expiresAt: 500 + 3600_000, lifetime: 3600_000 }, String(expires_in));
    }
  });

  test('a token for another scope is refused, naming that scope with the token redacted', async () => {
    const error = await failure(json({ access_token: 'tok', token_type: 'Bearer', expires_in: '3600', scope: 'service_id=other tok' }));
    assert.ok(error instanceof TokenResponseError);
    assert.equal(
      error.message,
      `${WHERE}: the token response is for scope "service_id=other [redacted]", not the one requested; the token is not used: ` +
        "tell the authorization service's owners",
    );
    assert.deepEqual(error.paths, ['scope']);
  });

  test('a scope naming the requested service by its id alone (without "service_id=") is accepted; another id is not', async () => {
    for (const scope of ['slicer', `read slicer`]) {
      const grant = await processGrantResponse(
        json({ access_token: 'tok', token_type: 'Bearer', expires_in: '60', scope }),
        SCOPE,
        0,
        redactor([]),
      );
      assert.deepEqual(grant, { token: 'tok', expiresAt: 60_000, lifetime: 60_000 }, scope);
    }
    for (const scope of ['slicer-x', 'service_id', 'slicer=service_id', 'id=slicer']) {
      const error = await failure(json({ access_token: 'tok', token_type: 'Bearer', expires_in: '60', scope }));
      assert.equal(
        error.message,
        `${WHERE}: the token response is for scope "${scope}", not the one requested; the token is not used: tell the authorization service's owners`,
        scope,
      );
    }
  });

  test('a scope list holding the requested scope among others, any whitespace between, is accepted', async () => {
    const grant = await processGrantResponse(
      json({ access_token: 'tok', token_type: 'bearer', expires_in: '60', scope: `read\t ${SCOPE}\nwrite` }),
      SCOPE,
      1_000,
      redactor([]),
    );
    assert.deepEqual(grant, { token: 'tok', expiresAt: 61_000, lifetime: 60_000 });
  });
});
