/**
 * Each setting schema on the values users write: what it accepts and how it
 * normalises them, and the exact message of each refusal.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as v from 'valibot';
import { Secret } from '../redact.ts';
import { authUrl, flag, httpUrl, origins, redisUrl, seconds, secret, ServiceIdSchema, text, transport } from './setting_schemas.ts';

/** The output of a schema for an input, or the message of its first refusal. */
function outcome(schema: v.GenericSchema, input: string): unknown {
  const result = v.safeParse(schema, input);
  if (!result.success) return { refused: result.issues[0]?.message };
  return result.output instanceof Secret ? { secret: result.output.reveal() } : result.output;
}

/** Runs rows of [input, expected outcome] against a schema. */
function rows(schema: v.GenericSchema, cases: [string, unknown][]) {
  for (const [input, expected] of cases) assert.deepEqual(outcome(schema, input), expected, JSON.stringify(input));
}

const NOT_HTTP = { refused: 'expected an http(s) URL such as https://auth.example.com' };
const REDIS = {
  refused:
    'expected redis://[user:pass@]host:port/db or rediss://…, with "/", "#", "?" and "@" in the password percent-encoded (%2F, %23, %3F, %40)',
};
const SERVICE = { refused: 'expected a service identifier without spaces, "=" or "&"' };
const FLAG = { refused: 'expected 1/true/yes or 0/false/no' };

describe('setting schemas', () => {
  test('httpUrl: an http(s) base address, trimmed, without trailing slashes, credentials, query or fragment', () => {
    rows(httpUrl, [
      [' https://auth.example.com/ ', 'https://auth.example.com'],
      ['https://slicer.example/api//', 'https://slicer.example/api'],
      ['HTTP://LOCALHOST:8080', 'HTTP://LOCALHOST:8080'],
      ['https://slicer.example/users/@me', 'https://slicer.example/users/@me'],
      ['https://slicer.example/proxy/gs://bucket@eu', 'https://slicer.example/proxy/gs://bucket@eu'],
      ['ftp://files.example', NOT_HTTP],
      ['xhttps://auth.example', NOT_HTTP],
      ['auth.example.com', NOT_HTTP],
      ['https://user:pw@auth.example', {
        refused: 'expected a URL without "user:password@" (credentials in a URL are refused: give them as their own settings)',
      }],
      ['https://auth.example/?tenant=1', { refused: 'expected a base address without "?" query or "#" fragment' }],
      ['https://auth.example/#top', { refused: 'expected a base address without "?" query or "#" fragment' }],
    ]);
  });

  test('authUrl: a base address as httpUrl takes it, not the token endpoint the client appends', () => {
    const ENDPOINT = {
      refused: 'expected the base address of the authorization service, without /oauth2/token/ (the client appends it)',
    };
    rows(authUrl, [
      ['https://auth.example.com/', 'https://auth.example.com'],
      ['https://sso.example/tenants/a/', 'https://sso.example/tenants/a'],
      ['https://auth.example.com/oauth2/token/', ENDPOINT],
      ['https://auth.example.com/sso/oauth2/token', ENDPOINT],
      ['https://auth.example.com/OAuth2/Token//', ENDPOINT],
      ['https://auth.example.com/oauth2/token/v2', 'https://auth.example.com/oauth2/token/v2'],
      ['https://auth.example.com/oauth2/tokens', 'https://auth.example.com/oauth2/tokens'],
      ['https://auth.example.com/myoauth2/token', 'https://auth.example.com/myoauth2/token'],
      ['https://auth.example/?tenant=1', { refused: 'expected a base address without "?" query or "#" fragment' }],
      ['auth.example.com', NOT_HTTP],
    ]);
  });

  test('redisUrl: redis:// or rediss:// with a host, boxed as a secret', () => {
    rows(redisUrl, [
      [' redis://:p%40ss@cache:6379/0 ', { secret: 'redis://:p%40ss@cache:6379/0' }],
      ['REDISS://cache.example', { secret: 'REDISS://cache.example' }],
      ['http://cache:6379', REDIS],
      ['xredis://cache:6379', REDIS],
      ['redis://', REDIS],
      ['redis://:pa/ss@cache', REDIS],
    ]);
  });

  test('a service identifier is trimmed and holds no space, "=" or "&"; the whole scope value is named as such', () => {
    rows(ServiceIdSchema, [[' slicer-7 ', 'slicer-7'], ['a b', SERVICE], ['a=b', SERVICE], ['a&b', SERVICE], ['', SERVICE]]);
    const WHOLE = { refused: 'expected the service identifier alone, without "service_id=" (the client writes the scope)' };
    rows(ServiceIdSchema, [[' service_id=slicer-7', WHOLE], ['SERVICE_ID=slicer-7', WHOLE], ['x_service_id=slicer-7', SERVICE]]);
  });

  test('a secret is kept exactly as given; text is trimmed', () => {
    rows(secret, [['  pw with spaces ', { secret: '  pw with spaces ' }]]);
    rows(text, [['  /tmp/tokens.json ', '/tmp/tokens.json']]);
  });

  test('flag: 1/true/yes and 0/false/no in any case', () => {
    rows(flag, [[' YES ', true], ['1', true], ['True', true], ['no', false], ['0', false], ['FALSE', false], ['maybe', FLAG], ['2', FLAG]]);
  });

  test('seconds: a number, 0 or more', () => {
    rows(seconds, [[' 30 ', 30], ['0', 0], ['2.5', 2.5], ['-1', { refused: 'expected a number of seconds, 0 or more' }], [
      'soon',
      { refused: 'expected a number of seconds' },
    ]]);
  });

  test('origins: separated by commas or spaces, each without a path, normalised to scheme, host and port', () => {
    rows(origins, [
      ['https://a.example, HTTP://B.example:8080/', ['https://a.example', 'http://b.example:8080']],
      ['https://a.example  https://c.example:443', ['https://a.example', 'https://c.example']],
      ['', []],
      ['https://a.example/files', { refused: 'expected origins such as https://storage.example.com, without a path' }],
      ['xhttps://a.example', { refused: 'expected origins such as https://storage.example.com, without a path' }],
      ['storage', { refused: 'expected origins such as https://storage.example.com, separated by commas' }],
    ]);
  });

  test('transport: header or post, in any case', () => {
    rows(transport, [[' POST ', 'post'], ['Header', 'header'], ['cookie', { refused: 'expected "header" or "post"' }]]);
  });
});
