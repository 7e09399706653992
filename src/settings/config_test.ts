import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createAuthClient } from '../client.ts';
import { closest } from '../closest.ts';
import { parseConfig, requireSettings } from './config.ts';
import { expandedUnset, type Expander, readEnv } from './env.ts';
import { ConfigError, ErrorCode } from '../errors.ts';
import { scopeTargets } from './scope_target.ts';
import { ENV_KEYS, FORMER_NAMES } from './settings.ts';
import { configError } from '../testing/config_error.ts';
import { scratchDir } from '../testing/scratch.ts';
import { TOOL_SETTINGS } from './tool_settings.ts';

const base = {
  SLICER_AUTH_URL: 'https://auth.example.com/',
  SLICER_BASE_URL: 'https://slicer.example.com/api',
  SLICER_USERNAME: 'bot',
  SLICER_PASSWORD: 'secret-pw',
  SLICER_SERVICE_ID: 'slicer-1',
};

describe('configuration', () => {
  test('one error lists every missing or malformed variable', () => {
    const error = configError(() =>
      parseConfig({
        SLICER_AUTH_URL: 'ftp://x',
        SLICER_TOKEN_TRANSPORT: 'smoke',
        SLICER_REFRESH_MARGIN_SECONDS: 'soon',
        SLICER_BASE_URL: 'nope',
      })
    );
    assert.deepEqual(
      error.issues.map((i) => i.key),
      ['SLICER_AUTH_URL', 'SLICER_BASE_URL', 'SLICER_SERVICE_ID', 'SLICER_TOKEN_TRANSPORT', 'SLICER_REFRESH_MARGIN_SECONDS'],
    );
    assert.match(error.message, /SLICER_TOKEN_TRANSPORT: expected "header" or "post"/);
  });

  test('with nothing set anywhere, the error also says how to try the embedded sandbox; with one setting or option, it does not', () => {
    const FIRST_RUN = 'Nothing is configured: set SLICER_AUTH_URL, SLICER_USERNAME, SLICER_PASSWORD, SLICER_SERVICE_ID and ' +
      'SLICER_BASE_URL in the environment or .env ("npx slicer-auth init" writes a .env that lists every setting, with its ' +
      'meaning); to try it on the embedded sandbox first, run "npx slicer-auth demo", or "npx slicer-auth init --sandbox" ' +
      'and "npx slicer-auth sandbox".';
    const lastLine = (error: ConfigError) => error.message.split('\n').at(-1);
    assert.equal(lastLine(configError(() => parseConfig({}))), FIRST_RUN);
    // The client of a script run with no .env and no variable.
    assert.throws(
      () => createAuthClient({ env: {}, envFile: false }),
      (error) => error instanceof ConfigError && lastLine(error) === FIRST_RUN,
    );
    const missing = (error: ConfigError) => error.issues.map((issue) => issue.key);
    const fromEnv = configError(() => parseConfig({ SLICER_LOG_LEVEL: 'info' }));
    const fromOption = configError(() => requireSettings(parseConfig({}, { serviceId: 'slicer-1' }), { scope: 'slicer', relative: true }));
    assert.deepEqual(missing(fromEnv), ['SLICER_SERVICE_ID']);
    assert.deepEqual(missing(fromOption), ['SLICER_AUTH_URL', 'SLICER_USERNAME', 'SLICER_PASSWORD', 'SLICER_BASE_URL']);
    for (const error of [fromEnv, fromOption]) assert.doesNotMatch(error.message, /Nothing is configured/);
  });

  test('credentials are needed only when no permanent token covers the scope', () => {
    const noCredentials = parseConfig({ SLICER_SERVICE_ID: 's', SLICER_STATIC_TOKEN: 'perm', SLICER_PREDICT_SERVICE_ID: 'p' });
    assert.equal(scopeTargets(noCredentials).resolve('slicer').permanentToken?.reveal(), 'perm');
    const error = configError(() => scopeTargets(noCredentials).resolve('predict'));
    assert.deepEqual(
      error.issues.map((i) => i.key),
      ['SLICER_AUTH_URL', 'SLICER_USERNAME', 'SLICER_PASSWORD'],
    );
    assert.deepEqual(
      configError(() => scopeTargets(parseConfig({ SLICER_SERVICE_ID: 's' })).resolve('predict')).issues[0]?.key,
      'SLICER_PREDICT_SERVICE_ID',
    );
  });

  test('scopes: short names, full strings, and garbage', () => {
    const config = parseConfig({ ...base, SLICER_PREDICT_SERVICE_ID: 'pred-1', SLICER_PREDICT_BASE_URL: 'https://p.example.com' });
    assert.equal(scopeTargets(config).resolve().scope, 'service_id=slicer-1');
    assert.equal(scopeTargets(config).resolve('predict').scope, 'service_id=pred-1');
    assert.equal(scopeTargets(config).resolve('service_id=pred-1').baseUrl, 'https://p.example.com');
    assert.equal(config.authUrl, 'https://auth.example.com', 'trailing slash dropped');
    configError(() => scopeTargets(config).resolve('service_id=a b'));
  });

  test('the password is refused over plain http to a non-loopback host unless opted in', () => {
    assert.throws(() => parseConfig({ ...base, SLICER_AUTH_URL: 'http://auth.example.com' }), { code: ErrorCode.INSECURE_AUTH_URL });
    assert.ok(parseConfig({ ...base, SLICER_AUTH_URL: 'http://auth.example.com', SLICER_ALLOW_INSECURE_HTTP: '1' }));
    assert.ok(parseConfig({ ...base, SLICER_AUTH_URL: 'http://127.0.0.2:8080' }));
    assert.ok(parseConfig({ ...base, SLICER_AUTH_URL: 'http://[::1]:8080' }));
    assert.ok(parseConfig({ ...base, SLICER_AUTH_URL: 'http://localhost:8080' }));
  });

  test('.env is read, and the real environment wins', () => {
    const dir = scratchDir('slicer-env-');
    const file = join(dir, '.env');
    writeFileSync(file, 'SLICER_SERVICE_ID=from-file\nSLICER_USERNAME=file-user\nUNRELATED=1\n');
    const values = readEnv({ env: { SLICER_USERNAME: 'real-user' }, envFile: file });
    assert.deepEqual(values, {
      SLICER_SERVICE_ID: { value: 'from-file', source: { kind: 'file', path: file } },
      SLICER_USERNAME: { value: 'real-user', source: { kind: 'environment' } },
    });
    assert.deepEqual(readEnv({ env: {}, envFile: false }), {});
    assert.deepEqual(
      readEnv({ env: { SLICER_USERNAME: 'file-user' }, envFile: file }).SLICER_USERNAME,
      { value: 'file-user', source: { kind: 'file', path: file } },
      "the file's own value, loaded into the environment already (as Bun loads .env), is said to come from the file",
    );
  });

  test('a blank value is unset, in the environment and in the file; a variable the runtime refuses to show reads as denied', () => {
    const file = join(scratchDir('slicer-env-'), '.env');
    writeFileSync(file, 'SLICER_USERNAME="  "\nSLICER_SERVICE_ID=from-file\n');
    const refusing = new Proxy({ SLICER_SERVICE_ID: ' \t', SLICER_USERNAME: '  ' } as Record<string, string>, {
      get(target, key) {
        if (key === 'SLICER_PASSWORD') throw new Error('NotCapable: Requires env access to "SLICER_PASSWORD"');
        return target[key as string];
      },
    });
    assert.deepEqual(readEnv({ env: refusing, envFile: file }), {
      SLICER_SERVICE_ID: { value: 'from-file', source: { kind: 'file', path: file } },
      SLICER_PASSWORD: { value: '', source: { kind: 'denied' } },
    });
  });

  test('a value an env file ends at a "#" is read as dotenv reads it, with one warning naming the variable and the fix', (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const file = join(scratchDir('slicer-env-'), '.env');
    writeFileSync(
      file,
      [
        "SLICER_PASSWORD = Pa'55#word-never-shown",
        'SLICER_USERNAME=bot # the CI account#1',
        'SLICER_SERVICE_ID="slicer#1"',
        'export  SLICER_STATIC_TOKEN=#permanent-never-shown',
        'SLICER_BASE_URL=https://slicer.example.com/api#',
        '# SLICER_PREDICT_SERVICE_ID=a#b',
        'SLICER_PREDICT_BASE_URL= # set it later',
        "SLICER_CACHE_FILE= '/tmp/a#b.json'",
      ].join('\n'),
    );
    const values = readEnv({ env: {}, envFile: file });
    assert.deepEqual(Object.fromEntries(Object.entries(values).map(([key, found]) => [key, found?.value])), {
      SLICER_BASE_URL: 'https://slicer.example.com/api',
      SLICER_USERNAME: 'bot',
      SLICER_PASSWORD: "Pa'55",
      SLICER_SERVICE_ID: 'slicer#1',
      SLICER_CACHE_FILE: '/tmp/a#b.json',
    });
    readEnv({ env: {}, envFile: file });
    const cut = (key: string) =>
      `[slicer-auth] ${file}: ${key} was read up to a "#", which starts a comment in an env file; ` +
      `if the "#" and what follows belong to the value, quote it: ${key}="…"`;
    assert.deepEqual(warn.mock.calls.map((call) => call.arguments[0]), [
      cut('SLICER_BASE_URL'),
      cut('SLICER_PASSWORD'),
      cut('SLICER_STATIC_TOKEN'),
    ], 'once per variable and file');
    assert.ok(!JSON.stringify(warn.mock.calls).includes('never-shown'), 'no value is quoted');
    const other = join(scratchDir('slicer-env-'), '.env');
    writeFileSync(other, 'SLICER_PASSWORD=Pa55#word\n');
    assert.equal(readEnv({ env: { SLICER_PASSWORD: 'from-environment' }, envFile: other }).SLICER_PASSWORD?.value, 'from-environment');
    assert.equal(warn.mock.callCount(), 3, 'no warning for a value the environment sets');
    readEnv({ env: { SLICER_PASSWORD: 'Pa55' }, envFile: other });
    assert.equal(
      warn.mock.calls[3]?.arguments[0],
      cut('SLICER_PASSWORD').replace(file, other),
      'one for the value cut, loaded as Bun does',
    );
  });

  test('a former name the runtime refuses to show is unset, without a deprecation warning; one the file sets is read', (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    // Deno with --allow-env listing the current names: reading any other variable throws.
    const allowed = new Set<string>(ENV_KEYS);
    const refusing = new Proxy({ SLICER_SERVICE_ID: 'slicer-id' } as Record<string, string>, {
      get(target, key) {
        if (!allowed.has(String(key))) throw new Error(`NotCapable: Requires env access to "${String(key)}"`);
        return target[key as string];
      },
    });
    assert.deepEqual(readEnv({ env: refusing, envFile: false }), {
      SLICER_SERVICE_ID: { value: 'slicer-id', source: { kind: 'environment' } },
    });
    assert.deepEqual(warn.mock.calls, [], 'no former name said to be deprecated');
    const file = join(scratchDir('slicer-env-'), '.env');
    writeFileSync(file, 'SLICER_TOKEN_CACHE=/tmp/former.json\n');
    assert.deepEqual(readEnv({ env: refusing, envFile: file }).SLICER_CACHE_FILE, {
      value: '/tmp/former.json',
      source: { kind: 'file', path: file },
    });
  });

  test('a variable given in `env` as a number or a boolean is read as its text, and null as unset', () => {
    const env = { SLICER_REFRESH_MARGIN_SECONDS: 60, SLICER_ALLOW_INSECURE_HTTP: true, SLICER_USERNAME: null } as unknown as Record<
      string,
      string
    >;
    const values = readEnv({ env, envFile: false });
    assert.deepEqual(values, {
      SLICER_REFRESH_MARGIN_SECONDS: { value: '60', source: { kind: 'environment' } },
      SLICER_ALLOW_INSECURE_HTTP: { value: 'true', source: { kind: 'environment' } },
    });
    const config = parseConfig({ ...readEnv({ env, envFile: false }), SLICER_SERVICE_ID: 'slicer-id' });
    assert.deepEqual([config.refreshMarginSeconds, config.allowInsecureHttp], [60, true]);
  });

  test("an env file's misspelt SLICER_ variable is named once, with the variable meant; SLICER_ENV_FILE there is said to be ignored", (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const file = join(scratchDir('slicer-env-'), '.env');
    writeFileSync(
      file,
      [
        'SLICER_PASWORD=never-shown',
        'SLICER_CACHE_FLIE=/tmp/c.json',
        'SLICER_ENV_FILE=other.env',
        'SLICER_MODE=fast',
        'SLICER_TOKEN_CACHE=/tmp/old.json',
        'SLICER_TOKEN=permanent-never-shown',
        'SLICER_CONTRACT_TARGET=live',
        'OTHER_PASWORD=x',
        'SLICER=on',
        'SLICER_SERVICE_ID=s',
      ].join('\n'),
    );
    assert.deepEqual(Object.keys(readEnv({ env: {}, envFile: file })), ['SLICER_SERVICE_ID', 'SLICER_STATIC_TOKEN', 'SLICER_CACHE_FILE']);
    readEnv({ env: {}, envFile: file });
    readEnv({ env: {}, envFile: file }, Object.values(TOOL_SETTINGS).map((setting) => setting.env));
    const fromFile = warn.mock.calls.map((call) => String(call.arguments[0])).filter((line) => line.includes(file));
    assert.deepEqual(fromFile, [
      `[slicer-auth] ${file}: SLICER_PASWORD is no variable of slicer-auth, so it is ignored: did you mean SLICER_PASSWORD?`,
      `[slicer-auth] ${file}: SLICER_CACHE_FLIE is no variable of slicer-auth, so it is ignored: did you mean SLICER_CACHE_FILE?`,
      `[slicer-auth] ${file}: SLICER_ENV_FILE is ignored in an env file (it names the env file): set it in the environment`,
    ], 'once each; a former name, a tool variable, a name near none and another prefix say nothing');
    assert.ok(!JSON.stringify(warn.mock.calls).includes('never-shown'), 'no value is quoted');
  });

  test('no variable of the client is within a misspelling of a tool variable, or the reverse: one table read never names the other', () => {
    const client = [...ENV_KEYS, ...(Object.values(FORMER_NAMES) as string[])];
    const tool = Object.values(TOOL_SETTINGS).map((setting) => setting.env);
    assert.deepEqual(client.filter((name) => closest(name, tool)), []);
    assert.deepEqual(tool.filter((name) => closest(name, ENV_KEYS)), []);
  });

  test('a "$" that Bun or Deno expanded to nothing, in a value it loaded from the env file, is told from the environment\'s', () => {
    // The runtimes' own readings of these values, seen with bun 1.4.5 and deno 2.9.6 (--env-file); `written` is dotenv's.
    const cases: [Expander, written: string, loaded: string, env: Record<string, string>, expanded: boolean][] = [
      ['bun', 'pa$word1', 'pa', {}, true],
      ['bun', 'p@$w0rd!', 'p@!', {}, true],
      ['bun', 'a${UNSET}b', 'ab', {}, true],
      ['bun', 'a$$b', 'a$', {}, true],
      ['bun', 'a\\$X$Y', 'a$X', {}, true],
      ['bun', 'x$HOME-$NONE', 'x/home/u-', { HOME: '/home/u' }, true],
      ['bun', '${X:-def}$Y', 'def', {}, true],
      ['deno', 'pa$word1', 'pa', {}, true],
      ['deno', 'p@$w0rd!', 'p@!', {}, true],
      ['deno', 'a$-x', 'a-x', {}, true],
      ['deno', 'a$$b', 'a', {}, true],
      ['deno', 'a${X:-def}b', 'ab', {}, true],
      ['deno', 'a\\$X$Y', 'a$X', {}, true],
      ['deno', 'x${HOME}-$NONE', 'x/home/u-', { HOME: '/home/u' }, true],
      // A variable that is set, or Bun's default: an expansion meant as such.
      ['bun', 'a$HOME', 'a/home/u', { HOME: '/home/u' }, false],
      ['deno', 'a$HOME', 'a/home/u', { HOME: '/home/u' }, false],
      ['bun', 'a${X:-def}b', 'adefb', {}, false],
      // Another runtime's reading, or a value of the environment itself.
      ['bun', 'a$-x', 'a-x', {}, false],
      ['bun', 'pa$word1', 'another', {}, false],
      ['deno', 'pa$word1', 'pa$word1', {}, false],
      ['bun', 'plain', 'plain2', {}, false],
    ];
    for (const [expander, written, loaded, env, expanded] of cases) {
      assert.equal(expandedUnset(expander, written, loaded, env), expanded, `${expander}: ${written} → ${loaded}`);
    }
    assert.equal(expandedUnset('bun', undefined, '', {}), false, 'no value in the file');
    assert.equal(expandedUnset(undefined, 'pa$word1', 'pa', {}), false, 'Node expands nothing');
    // Under Bun, and Deno, that value in the environment is their reading of the file's, and the file's is used; under
    // Node nothing loads the file with expansions, and a value of the environment wins, as always. (`bun test` and
    // `deno test` run this file too.)
    const file = join(scratchDir('slicer-env-'), '.env');
    writeFileSync(file, 'SLICER_PASSWORD=pa$word1\n');
    assert.deepEqual(
      readEnv({ env: { SLICER_PASSWORD: 'pa' }, envFile: file }).SLICER_PASSWORD,
      process.versions.bun === undefined && process.versions.deno === undefined
        ? { value: 'pa', source: { kind: 'environment' } }
        : { value: 'pa$word1', source: { kind: 'file', path: file } },
    );
  });

  test('a Redis URL and a cache file both set: one warning per process says that the file is not used', (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const env = { SLICER_SERVICE_ID: 's', SLICER_STORE_URL: 'redis://127.0.0.1:6379/0', SLICER_CACHE_FILE: '/tmp/tokens.json' };
    parseConfig({ SLICER_SERVICE_ID: 's', SLICER_CACHE_FILE: '/tmp/tokens.json' });
    parseConfig({ SLICER_SERVICE_ID: 's', SLICER_STORE_URL: 'redis://127.0.0.1:6379/0' });
    assert.equal(warn.mock.callCount(), 0, 'either alone says nothing');
    parseConfig(env);
    parseConfig(env);
    assert.deepEqual(warn.mock.calls.map((call) => call.arguments), [[
      '[slicer-auth] SLICER_CACHE_FILE (option cacheFile) is not used: SLICER_STORE_URL (option storeUrl) is set too, and Redis is the shared token store (unset one of them)',
    ]]);
  });

  test('options override variables, and a bad client is never half-built', () => {
    const config = parseConfig(base, { serviceId: 'other', transport: 'post' });
    assert.equal(config.serviceId, 'other');
    assert.equal(config.transport, 'post');
    assert.deepEqual(config.sources.serviceId, { kind: 'option' });
    assert.equal(scopeTargets(config).resolve('slicer').scope, 'service_id=other', 'the option, not the variable, names the scope');
    configError(() => createAuthClient({ env: {}, envFile: false }));
  });
});
