import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, mock, test } from 'node:test';
import { renderEnvExample } from '../cli/env_example.ts';
import { createAuthClient } from '../client.ts';
import { parseConfig, secretsOf } from './config.ts';
import { readEnv } from './env.ts';
import { ConfigError } from '../errors.ts';
import { withSettingsTable } from '../../scripts/settings_docs.ts';
import { ENV_KEYS, SETTINGS } from './settings.ts';
import { ROOT, runTs } from '../testing/processes.ts';
import { scratchDir } from '../testing/scratch.ts';
import { readToolSettings, TOOL_SETTINGS } from './tool_settings.ts';

describe('the settings table is the single source', () => {
  test('.env.example is generated from it (npm run docs:settings)', () => {
    assert.equal(readFileSync(join(ROOT, '.env.example'), 'utf8'), renderEnvExample());
  });

  test("the README's configuration table is generated from it (npm run docs:settings) and lists exactly its variables", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.equal(readme, withSettingsTable(readme), 'README.md is stale: run npm run docs:settings');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Using the module'));
    const rows = section.split('\n').filter((line) => line.startsWith('| `SLICER_'));
    const listed = rows.map((row) => /^\| `(SLICER_\w+)` \(`(\w+)`\)/.exec(row)?.slice(1, 3).join(' '));
    const tables = [...Object.entries(SETTINGS), ...Object.entries(TOOL_SETTINGS)];
    assert.deepEqual(listed, tables.map(([option, s]) => `${s.env} ${option}`));
    assert.deepEqual(ENV_KEYS, Object.values(SETTINGS).map((s) => s.env));
  });
});

test('the docs name each setting by its current option, never a former one (the CHANGELOG keeps the renames)', () => {
  for (const file of ['README.md', 'SECURITY.md', 'docs/contract.md']) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const { formerOption } of Object.values(SETTINGS) as { formerOption?: string }[]) {
      if (formerOption) {
        assert.doesNotMatch(text, new RegExp(`option \`${formerOption}\`|\\{ ${formerOption}:`), `${file} names option ${formerOption}`);
      }
    }
  }
});

describe('renamed variables', () => {
  test('the former names still work for one minor version, with one deprecation line each naming the new name', async () => {
    const env = new URL('./env.ts', import.meta.url).href;
    const script = `import { readEnv } from ${JSON.stringify(env)};
const values = readEnv({ env: { SLICER_TOKEN: 'a', SLICER_TOKEN_CACHE: '/tmp/t.json', SLICER_TOKEN_STORE_KEY: 'k', SLICER_STORE_URL: 'redis://new:6379' }, envFile: false });
readEnv({ env: { SLICER_TOKEN: 'a' }, envFile: false });
console.log(JSON.stringify(Object.fromEntries(Object.entries(values).map(([key, found]) => [key, found.value]))));`;
    const run = await runTs(['--input-type=module', '-e', script], { PATH: process.env.PATH });
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(JSON.parse(run.out), {
      SLICER_STATIC_TOKEN: 'a',
      SLICER_CACHE_FILE: '/tmp/t.json',
      SLICER_STORE_URL: 'redis://new:6379',
      SLICER_STORE_KEY: 'k',
    });
    assert.deepEqual(run.err.trim().split('\n').sort(), [
      '[slicer-auth] SLICER_TOKEN is deprecated: rename it to SLICER_STATIC_TOKEN (the old name is read until the next minor version)',
      '[slicer-auth] SLICER_TOKEN_CACHE is deprecated: rename it to SLICER_CACHE_FILE (the old name is read until the next minor version)',
      '[slicer-auth] SLICER_TOKEN_STORE_KEY is deprecated: rename it to SLICER_STORE_KEY (the old name is read until the next minor version)',
    ]);
  });
});

describe('renamed settings in this process', () => {
  // The deprecation lines are said once per process: the tests above count them in a process of their own.
  test('a former variable or option fills its current name, and the current name wins over it', () => {
    const warn = mock.method(console, 'warn', () => {});
    try {
      const values = readEnv({ env: { SLICER_PREDICT_TOKEN: 'p', SLICER_TOKEN_STORE: 'redis://old:6379' }, envFile: false });
      assert.deepEqual(Object.fromEntries(Object.entries(values).map(([key, found]) => [key, found?.value])), {
        SLICER_PREDICT_STATIC_TOKEN: 'p',
        SLICER_STORE_URL: 'redis://old:6379',
      });
      const config = parseConfig({}, { serviceId: 's', predictToken: 'old', predictStaticToken: 'new', tokenCacheFile: '/tmp/c.json' });
      assert.equal(config.predictStaticToken?.reveal(), 'new');
      assert.equal(config.cacheFile, '/tmp/c.json');
    } finally {
      warn.mock.restore();
    }
  });
});

describe('renamed options', () => {
  test('the former option names still work for one minor version, each with one deprecation line naming the new name', async () => {
    const config = new URL('./config.ts', import.meta.url).href;
    const script = `import { parseConfig } from ${JSON.stringify(config)};
const former = { token: 'perm', predictToken: 'perm2', tokenCacheFile: '/tmp/c.json', tokenStore: 'redis://h:6379/0', tokenStoreKey: 'k' };
const parsed = parseConfig({}, { serviceId: 's', ...former });
parseConfig({}, { serviceId: 's', token: 'again' });
const current = parseConfig({}, { serviceId: 's', token: 'old', staticToken: 'new' });
console.log(JSON.stringify([parsed.staticToken.reveal(), parsed.predictStaticToken.reveal(), parsed.cacheFile, parsed.storeUrl.reveal(),
  parsed.storeKey.reveal(), current.staticToken.reveal()]));`;
    const run = await runTs(['--input-type=module', '-e', script], { PATH: process.env.PATH });
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(JSON.parse(run.out), ['perm', 'perm2', '/tmp/c.json', 'redis://h:6379/0', 'k', 'new']);
    assert.deepEqual(run.err.trim().split('\n').sort(), [
      // Both given: the file is not used, and one line says so.
      '[slicer-auth] SLICER_CACHE_FILE (option cacheFile) is not used: SLICER_STORE_URL (option storeUrl) is set too, and Redis is the shared token store (unset one of them)',
      '[slicer-auth] predictToken is deprecated: rename it to predictStaticToken (the old name is read until the next minor version)',
      '[slicer-auth] token is deprecated: rename it to staticToken (the old name is read until the next minor version)',
      '[slicer-auth] tokenCacheFile is deprecated: rename it to cacheFile (the old name is read until the next minor version)',
      '[slicer-auth] tokenStore is deprecated: rename it to storeUrl (the old name is read until the next minor version)',
      '[slicer-auth] tokenStoreKey is deprecated: rename it to storeKey (the old name is read until the next minor version)',
    ]);
  });
});

describe('tool settings', () => {
  test('are read from the environment, then .env, with defaults; a bad value names its variable and source', () => {
    const file = join(scratchDir('slicer-tools-'), '.env');
    writeFileSync(file, 'SLICER_CONTRACT_SLOW=1\nSLICER_SANDBOX_VIOLATIONS=a, b\nSLICER_CONTRACT_STRICT=yes\n');
    const tools = readToolSettings({ env: { SLICER_CONTRACT_STRICT: '0' }, envFile: file });
    assert.equal(tools.contractSlow, true, 'from .env');
    assert.equal(tools.contractStrict, false, 'the environment wins over .env');
    assert.deepEqual(tools.sandboxViolations, ['a', 'b']);
    assert.equal(tools.contractTarget, 'sandbox');
    assert.equal(tools.contractReports, 'reports/contract');
    assert.throws(
      () => readToolSettings({ env: { SLICER_CONTRACT_TARGET: 'staging' }, envFile: false }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /SLICER_CONTRACT_TARGET: expected "sandbox" or "live" \(from environment\)/);
        return true;
      },
    );
  });

  test('a saved browser login is taken when this process can read it, and named with the reason when it cannot', () => {
    const dir = scratchDir('slicer-state-');
    const state = join(dir, 'state.json');
    writeFileSync(state, '{"cookies":[],"origins":[]}');
    const read = (path: string) => readToolSettings({ env: { SLICER_UI_STORAGE_STATE: path }, envFile: false }).uiStorageState;
    assert.equal(read(` ${state} `), state);
    for (const [path, why] of [[join(dir, 'missing.json'), 'ENOENT'], [dir, 'not a file']] as const) {
      assert.throws(() => read(path), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.issues.map((issue) => [issue.key, issue.message.split(':')[0]]), [
          ['SLICER_UI_STORAGE_STATE', `cannot read ${path} (${why})`],
        ]);
        return true;
      });
    }
  });

  test('a reports folder that a file keeps from being made is named with that file; a missing one is made later', () => {
    const dir = scratchDir('slicer-reports-');
    writeFileSync(join(dir, 'file'), '');
    const read = (path: string) => readToolSettings({ env: { SLICER_CONTRACT_REPORTS: path }, envFile: false }).contractReports;
    assert.equal(read(dir), dir);
    assert.equal(read(join(dir, 'new', 'reports')), join(dir, 'new', 'reports'), 'made when the suite writes');
    for (const path of [join(dir, 'file'), join(dir, 'file', 'reports')]) {
      assert.throws(() => read(path), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.issues.map((issue) => [issue.key, issue.message]), [
          ['SLICER_CONTRACT_REPORTS', `${join(dir, 'file')} is a file, where the reports need a folder: name a folder (made when missing)`],
        ]);
        return true;
      });
    }
  });
});

describe('paths', () => {
  test('a leading ~ (alone or before /) is the home folder in every path setting; "~name/" is refused, naming the setting', () => {
    const home = scratchDir('slicer-home-');
    writeFileSync(join(home, 'state.json'), '{"cookies":[],"origins":[]}');
    const saved = process.env.HOME;
    process.env.HOME = home; // where node:os's homedir() looks first
    try {
      const config = (value: string) => parseConfig({ SLICER_SERVICE_ID: 's', SLICER_CACHE_FILE: value }).cacheFile;
      assert.equal(config(' ~/.cache/slicer-auth/tokens.json '), `${home}/.cache/slicer-auth/tokens.json`);
      assert.equal(config('~'), home);
      assert.equal(config('./~/tokens.json'), './~/tokens.json', 'a ~ past the start is a name');
      assert.equal(config('tokens~.json'), 'tokens~.json');
      const tools = readToolSettings({
        env: { SLICER_CONTRACT_REPORTS: '~/reports', SLICER_UI_STORAGE_STATE: '~/state.json', SLICER_CHROMIUM_PATH: '~/bin/chromium' },
        envFile: false,
      });
      assert.deepEqual([tools.contractReports, tools.uiStorageState, tools.chromiumPath], [
        `${home}/reports`,
        `${home}/state.json`,
        `${home}/bin/chromium`,
      ]);
      for (const refused of ['~bob/tokens.json', '~bob/~']) {
        assert.throws(() => config(refused), (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.deepEqual(error.issues.map((issue) => [issue.key, issue.message]), [
            ['SLICER_CACHE_FILE', 'expected a path; "~name/" is not expanded here: write the full path'],
          ]);
          return true;
        });
      }
    } finally {
      if (saved === undefined) delete process.env.HOME;
      else process.env.HOME = saved;
    }
  });
});

/** The values a configuration's messages are redacted by, in clear. */
const revealed = (config: Parameters<typeof secretsOf>[0]) =>
  secretsOf(config).map((value) => (typeof value === 'string' ? value : value.reveal()));

describe('redaction follows the table', () => {
  test("every setting marked secret, and only those (plus a Redis URL's password), is what messages are redacted by", () => {
    const config = parseConfig({
      SLICER_SERVICE_ID: 's',
      SLICER_USERNAME: 'user-not-secret',
      SLICER_PASSWORD: 'pw-1',
      SLICER_STATIC_TOKEN: 'tok-2',
      SLICER_PREDICT_STATIC_TOKEN: 'tok-3',
      SLICER_STORE_URL: 'redis://:store-pw-4@127.0.0.1:6379/0',
      SLICER_STORE_KEY: 'key-5',
    });
    const shown = revealed(config);
    const marked = Object.values(SETTINGS).filter((s) => 'secret' in s).map((s) => s.env);
    assert.deepEqual(marked, [
      'SLICER_PASSWORD',
      'SLICER_STATIC_TOKEN',
      'SLICER_PREDICT_STATIC_TOKEN',
      'SLICER_STORE_URL',
      'SLICER_STORE_KEY',
    ]);
    assert.deepEqual(shown, ['pw-1', 'tok-2', 'tok-3', 'redis://:store-pw-4@127.0.0.1:6379/0', 'key-5', 'store-pw-4']);
  });

  test("a Redis URL's password is redacted decoded, or as written when it does not decode (a lone %); an address alone is not", () => {
    const secrets = (url: string) => revealed(parseConfig({ SLICER_SERVICE_ID: 's', SLICER_STORE_URL: url }));
    assert.deepEqual(secrets('redis://:p%40ss@127.0.0.1:6379/0'), ['redis://:p%40ss@127.0.0.1:6379/0', 'p@ss']);
    // The counterexample fast-check found (seed 452429231): createAuthClient threw a bare URIError instead of an AuthError.
    assert.deepEqual(secrets('redis://user:Q7aaaa%a@127.0.0.1:6379/0'), ['redis://user:Q7aaaa%a@127.0.0.1:6379/0', 'Q7aaaa%a']);
    // Only an address: nothing to hide, and messages name the store by it. Anything more is hidden whole (ioredis reads
    // options, a password among them, from the query).
    assert.deepEqual(secrets('redis://127.0.0.1:6379/0'), []);
    const others = { SLICER_SERVICE_ID: 's', SLICER_PASSWORD: 'pw-1', SLICER_STORE_KEY: 'key-2' };
    assert.deepEqual(
      revealed(parseConfig({ ...others, SLICER_STORE_URL: 'redis://127.0.0.1:6379/0' })),
      ['pw-1', 'key-2'],
      'the others stay',
    );
    assert.deepEqual(revealed(parseConfig(others)), ['pw-1', 'key-2'], 'no Redis URL');
    assert.deepEqual(secrets('rediss://cache.internal'), []);
    assert.deepEqual(secrets('redis://user@127.0.0.1:6379'), ['redis://user@127.0.0.1:6379']);
    assert.deepEqual(secrets('redis://127.0.0.1:6379/0?password=q-pw'), ['redis://127.0.0.1:6379/0?password=q-pw']);
    assert.deepEqual(secrets('redis://127.0.0.1:6379/0#q-pw'), ['redis://127.0.0.1:6379/0#q-pw']);
  });
});

describe('provenance', () => {
  test('the config knows where each value came from', () => {
    const dir = scratchDir('slicer-src-');
    const file = join(dir, 'my.env');
    writeFileSync(file, 'SLICER_SERVICE_ID=from-file\nSLICER_BASE_URL=https://file.example\n');
    const config = parseConfig(readEnv({ env: { SLICER_USERNAME: 'real' }, envFile: file }), {
      baseUrl: new URL('https://option.example/'),
    });
    assert.deepEqual(config.sources, {
      serviceId: { kind: 'file', path: file },
      username: { kind: 'environment' },
      baseUrl: { kind: 'option' },
    });
    assert.equal(config.baseUrl, 'https://option.example', 'a URL option is normalised like the variable');
    assert.equal(config.transport, 'header', 'defaults apply');
  });

  test('a malformed value names its source; secrets never show', () => {
    assert.throws(
      () => parseConfig({ SLICER_SERVICE_ID: 'a b' }, { refreshMarginSeconds: -1, password: 'pw-must-not-show' }),
      (e: unknown) => {
        const message = (e as ConfigError).message;
        assert.match(message, /SLICER_SERVICE_ID: expected a service identifier .*\(from environment; option serviceId\)/);
        assert.match(message, /SLICER_REFRESH_MARGIN_SECONDS: .*\(from option refreshMarginSeconds\)/);
        assert.ok(!message.includes('pw-must-not-show'));
        return e instanceof ConfigError;
      },
    );
  });

  test('a permanent token is trimmed as pasted; one no HTTP header can carry is refused by its variable, never shown', () => {
    const config = parseConfig({ SLICER_SERVICE_ID: 's', SLICER_STATIC_TOKEN: ' perm-tok\r\n' }, { predictStaticToken: '\tperm 2 ' });
    assert.deepEqual([config.staticToken?.reveal(), config.predictStaticToken?.reveal()], ['perm-tok', 'perm 2']);
    for (const token of ['perm\nX-Leak: Q7secret', 'perm-Q7secret\u0000', 'perm-Q7secret-\u6f22', 'perm\u007fQ7secret']) {
      assert.throws(() => parseConfig({ SLICER_SERVICE_ID: 's', SLICER_PREDICT_STATIC_TOKEN: token }), (e: unknown) => {
        assert.ok(e instanceof ConfigError, String(e));
        assert.deepEqual(e.issues, [{
          key: 'SLICER_PREDICT_STATIC_TOKEN',
          option: 'predictStaticToken',
          source: 'environment',
          message:
            'expected a token as the authorization service shows it: no line break or other control character, no character past U+00FF',
        }]);
        assert.ok(!`${e.message} ${e.stack} ${JSON.stringify(e)}`.includes('Q7secret'), JSON.stringify(token));
        return true;
      });
    }
  });
});

describe('one configuration error lists everything (no rounds)', () => {
  test('an empty configuration names the service id, auth URL and both credentials at once', () => {
    try {
      createAuthClient({ env: {}, envFile: false });
      assert.fail('expected a ConfigError');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.issues.map((i) => i.key), ['SLICER_AUTH_URL', 'SLICER_USERNAME', 'SLICER_PASSWORD', 'SLICER_SERVICE_ID']);
    }
  });

  test('the free authedFetch with a relative path adds the base URL to the same first error', async () => {
    const script = `import { authedFetch } from './mod.ts';
      try { await authedFetch('jobs'); } catch (e) { console.log(JSON.stringify(e.issues.map((i) => i.key))); }`;
    const run = await runTs(['--input-type=module', '-e', script], { PATH: process.env.PATH, SLICER_ENV_FILE: '/dev/null' });
    assert.deepEqual(JSON.parse(run.out), [
      'SLICER_AUTH_URL',
      'SLICER_BASE_URL',
      'SLICER_USERNAME',
      'SLICER_PASSWORD',
      'SLICER_SERVICE_ID',
    ]);
  });

  test('an explicit env file that cannot be read is an error; the default .env is optional', () => {
    assert.throws(
      () => readEnv({ env: {}, envFile: '/nonexistent/slicer.env' }),
      /^ConfigError: .*\n {2}- \/nonexistent\/slicer\.env: cannot read this env file \(ENOENT\), named by the envFile option$/,
    );
    assert.throws(() => readEnv({ env: {}, envFile: tmpdir() }), /cannot read this env file \(EISDIR\), named by the envFile option/);
    assert.throws(
      () => readEnv({ env: { SLICER_ENV_FILE: ' /nonexistent/ci.env ' } }),
      /- \/nonexistent\/ci\.env: cannot read this env file \(ENOENT\), named by SLICER_ENV_FILE$/,
    );
    // The default: .env in the current folder. Missing, it is nothing; unreadable, it is named alone.
    const home = process.cwd();
    process.chdir(scratchDir('default-env-'));
    try {
      assert.deepEqual(readEnv({ env: { SLICER_USERNAME: 'ci' } }), { SLICER_USERNAME: { value: 'ci', source: { kind: 'environment' } } });
      mkdirSync('.env');
      assert.throws(
        () => readEnv({ env: {} }),
        /^ConfigError: Cannot load the env file: .*\n {2}- \.env: cannot read this env file \(EISDIR\)$/,
      );
    } finally {
      process.chdir(home);
    }
  });
});
