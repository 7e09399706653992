/**
 * The configuration's edges: what each task needs (the UI no scope, a scope
 * that is no scope nothing else), one line per setting however many checks
 * its value fails, blank values, the credentials triple, former option names,
 * and what Deno refuses to show (simulated by an environment that throws as
 * Deno's does).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseConfig, requireSettings } from './config.ts';
import { isDenoRefusal } from './deno_refusal.ts';
import { deniedFlag, readEnv } from './env.ts';
import { InsecureUrlError } from '../errors.ts';
import { SCOPE_FORMS } from './services.ts';
import { configError } from '../testing/config_error.ts';
import { scratchDir } from '../testing/scratch.ts';

/** The issues of the configuration error a call throws. */
const issuesOf = (call: () => unknown) => configError(call).issues;

/** An environment as Deno shows it with `--allow-env` lacking these variables: reading one throws. */
function refusing(values: Record<string, string>, refused: readonly string[]): Record<string, string> {
  return new Proxy(values, {
    get(target, key) {
      if (refused.includes(String(key))) throw Object.assign(new Error(`Requires env access to "${String(key)}"`), { name: 'NotCapable' });
      return target[key as string];
    },
  });
}

const AUTH_URL = { key: 'SLICER_AUTH_URL', option: 'authUrl', message: 'missing: set it to the authorization service URL' };
const GRANT = 'missing: needed for the password grant (or set a permanent token)';
const USERNAME = { key: 'SLICER_USERNAME', option: 'username', message: GRANT };
const PASSWORD = { key: 'SLICER_PASSWORD', option: 'password', message: GRANT };
const SERVICE_ID = { key: 'SLICER_SERVICE_ID', option: 'serviceId', message: 'missing: set it to the slicing service identifier' };

test('a task without a scope (the UI) needs no service id; with credentials asked, the password grant; a malformed scope only itself', () => {
  const bare = parseConfig({}, {}, { scope: null });
  assert.deepEqual(issuesOf(() => requireSettings(bare, { scope: null, authUrl: true })), [AUTH_URL]);
  assert.deepEqual(issuesOf(() => requireSettings(bare, { scope: null, credentials: true })), [AUTH_URL, USERNAME, PASSWORD]);
  const withId = parseConfig({ SLICER_SERVICE_ID: 'slicer-1' });
  assert.deepEqual(issuesOf(() => requireSettings(withId, { scope: 'Slicer' })), [
    { key: 'scope', message: `expected ${SCOPE_FORMS}, got "Slicer"` },
  ]);
  const permanent = parseConfig({ SLICER_SERVICE_ID: 'slicer-1', SLICER_STATIC_TOKEN: 'perm-1' });
  assert.deepEqual(issuesOf(() => requireSettings(permanent, { scope: 'slicer', relative: true })), [
    { key: 'SLICER_BASE_URL', option: 'baseUrl', message: 'missing: set it, or pass an absolute URL' },
  ]);
});

test("when anything is wrong, the error lists each setting once: its value's first problem, then what the task needs", () => {
  const issues = issuesOf(() => parseConfig({ SLICER_AUTH_URL: 'https://user:pw@auth.example/?q' }, {}, { scope: 'slicer' }));
  assert.deepEqual(issues, [
    {
      key: 'SLICER_AUTH_URL',
      option: 'authUrl',
      message: 'expected a URL without "user:password@" (credentials in a URL are refused: give them as their own settings)',
      source: 'environment',
    },
    USERNAME,
    PASSWORD,
    SERVICE_ID,
  ]);
});

test('a value of spaces, in a variable or an option, is unset', () => {
  const config = parseConfig({ SLICER_SERVICE_ID: 'slicer-1', SLICER_BASE_URL: ' \t' }, { predictBaseUrl: '  ' });
  assert.equal(config.baseUrl, undefined);
  assert.equal(config.predictBaseUrl, undefined);
  assert.deepEqual(config.sources, { serviceId: { kind: 'environment' } });
});

test('credentials exist only when the auth URL, the username and the password are all set', () => {
  const all = { SLICER_SERVICE_ID: 'slicer-1', SLICER_AUTH_URL: 'https://auth.example', SLICER_USERNAME: 'bot', SLICER_PASSWORD: 'pw-1' };
  const credentials = parseConfig(all).credentials;
  assert.equal(credentials?.authUrl, 'https://auth.example');
  assert.equal(credentials?.username, 'bot');
  assert.equal(credentials?.password.reveal(), 'pw-1');
  for (const unset of ['SLICER_AUTH_URL', 'SLICER_USERNAME', 'SLICER_PASSWORD']) {
    assert.equal(parseConfig({ ...all, [unset]: undefined }).credentials, undefined, unset);
  }
});

test('the insecure-URL refusal names the variable, and a file source is named by its path', () => {
  assert.throws(
    () => parseConfig({ SLICER_SERVICE_ID: 's', SLICER_AUTH_URL: 'http://auth.example', SLICER_USERNAME: 'u', SLICER_PASSWORD: 'p' }),
    (error) =>
      error instanceof InsecureUrlError && error.message.includes('use an https SLICER_AUTH_URL, or set SLICER_ALLOW_INSECURE_HTTP=1'),
  );
  const file = join(scratchDir('slicer-config-'), 'staging.env');
  writeFileSync(file, 'SLICER_SERVICE_ID=slicer-1\nSLICER_BASE_URL=nope\n');
  assert.deepEqual(issuesOf(() => parseConfig(readEnv({ env: {}, envFile: file }))), [
    {
      key: 'SLICER_BASE_URL',
      option: 'baseUrl',
      message: 'expected an http(s) URL such as https://auth.example.com',
      source: `file ${file}`,
    },
  ]);
});

test('a former option name is said once to be deprecated and is taken; current names alone say nothing', (t) => {
  const warn = t.mock.method(console, 'warn', () => undefined);
  const env = { SLICER_SERVICE_ID: 'slicer-1' };
  assert.equal(parseConfig(env, { staticToken: 'perm-1', predictStaticToken: 'perm-2', cacheFile: 'cache.json' }).cacheFile, 'cache.json');
  assert.equal(warn.mock.callCount(), 0);
  assert.equal(parseConfig(env, { tokenCacheFile: 'old.json' }).cacheFile, 'old.json');
  assert.equal(parseConfig(env, { tokenCacheFile: 'old.json' }).cacheFile, 'old.json');
  assert.deepEqual(warn.mock.calls.map((call) => call.arguments), [
    ['[slicer-auth] tokenCacheFile is deprecated: rename it to cacheFile (the old name is read until the next minor version)'],
  ]);
});

test('a variable Deno refuses to show is named with the flag that grants it; a refused SLICER_ENV_FILE leaves the default .env', (t) => {
  const found = readEnv({ env: refusing({ SLICER_SERVICE_ID: 'slicer-1' }, ['SLICER_PASSWORD', 'SLICER_USERNAME']), envFile: false });
  assert.equal(deniedFlag(found), '--allow-env=SLICER_USERNAME,SLICER_PASSWORD');
  assert.equal(deniedFlag(readEnv({ env: { SLICER_SERVICE_ID: 'slicer-1' }, envFile: false })), undefined);
  assert.equal(deniedFlag({ SLICER_PASSWORD: undefined }), undefined);
  const flag = (key: string) =>
    `cannot be read: no permission to read the environment (Deno: run with --allow-env, or --allow-env=${key} and the other variables)`;
  assert.deepEqual(issuesOf(() => parseConfig({ ...found, SLICER_AUTH_URL: 'ftp://auth.example' }, {}, { scope: 'slicer' })), [
    {
      key: 'SLICER_AUTH_URL',
      option: 'authUrl',
      message: 'expected an http(s) URL such as https://auth.example.com',
      source: 'environment',
    },
    { key: 'SLICER_USERNAME', option: 'username', message: flag('SLICER_USERNAME') },
    { key: 'SLICER_PASSWORD', option: 'password', message: flag('SLICER_PASSWORD') },
  ]);

  const dir = scratchDir('slicer-config-');
  writeFileSync(join(dir, '.env'), 'SLICER_SERVICE_ID=from-default-file\n');
  const cwd = process.cwd();
  process.chdir(dir);
  t.after(() => process.chdir(cwd));
  assert.deepEqual(readEnv({ env: refusing({}, ['SLICER_ENV_FILE']) }, ['SLICER_SERVICE_ID']), {
    SLICER_SERVICE_ID: { value: 'from-default-file', source: { kind: 'file', path: '.env' } },
  });
});

test("Deno's refusal is told by its error's name, before and since Deno 2", () => {
  const named = (name: string) => Object.assign(new Error('Requires read access'), { name });
  assert.equal(isDenoRefusal(named('NotCapable')), true);
  assert.equal(isDenoRefusal(named('PermissionDenied')), true);
  for (const other of [named('NotFound'), new Error('NotCapable'), undefined, null, 'NotCapable']) {
    assert.equal(isDenoRefusal(other), false, String(other));
  }
});
