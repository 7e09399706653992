/**
 * The secret box and redaction, value by value: every form a secret takes in
 * free text, the order forms are replaced in.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import { printedWithoutToken, redact, redactor, Secret } from './redact.ts';

describe('Secret', () => {
  test('prints as [redacted] every way a value is turned into text, and reveals the value only when asked', () => {
    const secret = new Secret('hunter2');
    assert.equal(String(secret), '[redacted]');
    assert.equal(`${secret}`, '[redacted]');
    assert.equal(JSON.stringify({ secret }), '{"secret":"[redacted]"}');
    assert.equal(inspect(secret), '[redacted]');
    assert.equal(inspect({ secret }, { showHidden: true, depth: 5 }), '{ secret: [redacted] }');
    assert.equal(secret.reveal(), 'hunter2');
  });
});

describe('printedWithoutToken', () => {
  test('inspect and JSON show the token as [redacted] and the other fields as they are; reading or spreading gives it', () => {
    const info = printedWithoutToken({ token: 'tok-7f3a', scope: 'service_id=s', expiresAt: new Date(0) });
    assert.equal(inspect(info), "{\n  token: '[redacted]',\n  scope: 'service_id=s',\n  expiresAt: 1970-01-01T00:00:00.000Z\n}");
    assert.equal(inspect({ info }, { showHidden: true, depth: 5 }), inspect({ info: { ...info, token: '[redacted]' } }));
    assert.equal(JSON.stringify({ info }), '{"info":{"token":"[redacted]","scope":"service_id=s","expiresAt":"1970-01-01T00:00:00.000Z"}}');
    assert.equal(info.token, 'tok-7f3a');
    assert.deepEqual(Object.keys(info), ['token', 'scope', 'expiresAt']);
    assert.equal(JSON.stringify({ ...info }), '{"token":"tok-7f3a","scope":"service_id=s","expiresAt":"1970-01-01T00:00:00.000Z"}');
  });
});

describe('redact', () => {
  test('replaces the value as is, URL-encoded both ways, base64 with and without padding, and base64url', () => {
    const value = 'a b/c?~'; // space, slash and a base64 that holds /
    const base64 = Buffer.from(value).toString('base64');
    assert.equal(base64, 'YSBiL2M/fg==');
    const forms = [value, 'a%20b%2Fc%3F~', 'a+b%2Fc%3F%7E', base64, 'YSBiL2M/fg', 'YSBiL2M_fg'];
    for (const form of forms) assert.equal(redact(`<${form}>`, [value]), '<[redacted]>', form);
    // A base64 that holds + as well: base64url writes it -.
    assert.equal(Buffer.from('a?>b/c~').toString('base64'), 'YT8+Yi9jfg==');
    assert.equal(redact('<YT8-Yi9jfg>', ['a?>b/c~']), '<[redacted]>');
  });

  test('encodes the value as UTF-8 before base64', () => {
    const value = 'pässwörd';
    assert.equal(redact(`Basic ${Buffer.from(value).toString('base64')}`, [value]), 'Basic [redacted]');
  });

  test('replaces every occurrence, the longest form first so none is left half-replaced', () => {
    // "=x" is "PXg=" in base64, which holds its unpadded form "PXg".
    assert.equal(redact('PXg= and PXg= and =x', ['=x']), '[redacted] and [redacted] and [redacted]');
    // "Q" is "UQ==" in base64, which holds the value itself: replaced whole, not as "U[redacted]==".
    assert.equal(redact('UQ== and Q', ['Q']), '[redacted] and [redacted]');
  });

  test('takes strings and Secrets, several at once, and ignores empty or missing ones', () => {
    assert.equal(redact('user pw tok', ['', undefined, new Secret('pw'), 'tok']), 'user [redacted] [redacted]');
    assert.equal(redact('nothing to hide', []), 'nothing to hide');
  });
});

describe('redactor', () => {
  test('redacts every text by the secrets it was made with, read once (a generator serves every call)', () => {
    const clean = redactor((function* () {
      yield new Secret('pw');
      yield undefined;
      yield 'tok';
    })());
    assert.equal(clean('user pw tok'), 'user [redacted] [redacted]');
    assert.equal(clean('again pw'), 'again [redacted]');
    assert.equal(redactor([])('nothing to hide'), 'nothing to hide');
  });
});
