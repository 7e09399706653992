/**
 * `npm run test:runtimes`: the module on Node (tsx), Deno 2 and Bun, each
 * against a sandbox started here: the smoke script under each runtime, then
 * the module's unit tests under `deno test` and `bun test`. Prints one
 * summary line.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { startSandbox } from '../src/sandbox/mod.ts';
import { ENV_KEYS } from '../src/settings/settings.ts';
import { runProcess } from '../src/testing/processes.ts';
import { redisRequired, startRedis } from '../src/testing/redis_server.ts';
import { scratchDir } from '../src/testing/scratch.ts';

/** The module's own unit tests (node:test + node:assert/strict), portable as they are. */
const UNIT_TESTS = [
  'src/token_cache/token_cache_test.ts',
  'src/settings/config_test.ts',
  'src/client_test.ts',
  'src/token_source/token_source_test.ts',
];
/** Deno and Bun come from npm through npx (outside the lock file: npm ci cannot lock every platform's binaries). */
const DENO = ['npx', '--yes', 'deno@2.9.6'] as const;
const BUN = ['npx', '--yes', 'bun@1.4.5'] as const;
/** Deno may read exactly the module's variables, nothing more. */
const DENO_ENV = ENV_KEYS.join(',');

/** `deno run` of the smoke script with exactly the module's variables and loopback, plus `extra` flags. */
const denoSmoke = (...extra: string[]) => [
  ...DENO.slice(1),
  'run',
  `--allow-env=${DENO_ENV}`,
  '--allow-net=127.0.0.1',
  ...extra,
  'scripts/runtime_smoke.ts',
];
/** `deno run` of a CLI command without --allow-env: the environment cannot be read. */
const denoWithoutEnv = (command: string) => [...DENO.slice(1), 'run', '--allow-read', '--allow-net=127.0.0.1', 'src/cli.ts', command];

/** A cache file that Deno is allowed to use, with the flags that allow it; and one in a folder it is not. */
const cacheFile = join(scratchDir('runtimes-deno-cache-'), 'tokens.json');
const CACHE_FLAGS = [`--allow-read=.,${dirname(cacheFile)}`, `--allow-write=${dirname(cacheFile)}`, '--allow-sys=uid'];
const DENIED_CACHE = join(tmpdir(), 'slicer-auth-deno-denied', 'tokens.json');
/** `deno run` of a CLI command with the whole environment and loopback, plus `flags`. */
const denoCli = (flags: string[], ...command: string[]) => [
  ...DENO.slice(1),
  'run',
  '--allow-env',
  '--allow-net=127.0.0.1',
  ...flags,
  'src/cli.ts',
  ...command,
];
/** The temporary folder of the unit tests under Deno and Bun, which they must leave empty. */
const unitTmp = scratchDir('runtimes-unit-tmp-');
const sandbox = await startSandbox({ testMode: true });
/** A sandbox whose password holds "$", in an env file as `init --sandbox` writes it (unquoted), for Bun to load. */
const dollar = await startSandbox({ testMode: true, password: 'pa$word1-p@$w0rd!' });
const dollarEnvFile = join(scratchDir('runtimes-bun-dollar-'), '.env');
writeFileSync(dollarEnvFile, Object.entries(dollar.env).map(([key, value]) => `${key}=${value}\n`).join(''));
const dollarEnv = { PATH: process.env.PATH, HOME: process.env.HOME, SLICER_ENV_FILE: dollarEnvFile, NO_COLOR: '1' };
const redis = redisRequired() ? await startRedis() : undefined;
const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...sandbox.env, NO_COLOR: '1' };
const withRedis = { ...env, SLICER_STORE_URL: redis?.url };
// A token in that cache file, left by Node, for Deno to read.
await runProcess(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'token'], { ...env, SLICER_CACHE_FILE: cacheFile }, 60_000);
/** A check: its name, command and arguments, what its output must match, its environment, and its exit code (0 unless said). */
const checks: [string, string, string[], RegExp, Record<string, string | undefined>?, number?][] = [
  ['node + tsx smoke', process.execPath, ['--import', 'tsx', 'scripts/runtime_smoke.ts'], /smoke ok node/],
  // --allow-env lists the current names only: the former ones, refused, are unset and said to be deprecated nowhere.
  ['deno smoke (narrow permissions)', DENO[0], denoSmoke('--allow-read=.'), /^(?![\s\S]*deprecated)(?=[\s\S]*smoke ok deno)/],
  // A cache file where Deno may neither read nor write: one warning names the flags, and the run goes on without it.
  [
    'deno smoke, a cache file it may not use',
    DENO[0],
    denoSmoke('--allow-read=.'),
    /^(?=[\s\S]*cannot read it \(Deno does not allow it: run with --allow-read=(\/\S+) --allow-write=\1 --allow-sys=uid\))(?=[\s\S]*smoke ok deno)/,
    { ...env, SLICER_CACHE_FILE: DENIED_CACHE },
  ],
  // With the flags that warning names, the token Node left in the cache file is used, with no warning.
  [
    'deno token from a cache file, with the flags it needs',
    DENO[0],
    denoCli(CACHE_FLAGS, 'token', '--json'),
    /^(?![\s\S]*token cache)(?=[\s\S]*"source":"file")/,
    { ...env, SLICER_CACHE_FILE: cacheFile },
  ],
  // The doctor under Deno tells a cache file it may not use, with the flags; with them, it passes the file.
  [
    'deno doctor, a cache file it may not use',
    DENO[0],
    denoCli(['--allow-read=.'], 'doctor', '--scope', 'slicer'),
    /✖ shared token store: \S+tokens\.json: Deno does not allow this process to use it\n\s+fix: run with --allow-read=(\/\S+) --allow-write=\1 --allow-sys=uid\n/,
    { ...env, SLICER_CACHE_FILE: DENIED_CACHE },
    1,
  ],
  [
    'deno doctor, a cache file with the flags it needs',
    DENO[0],
    denoCli(CACHE_FLAGS, 'doctor', '--scope', 'slicer'),
    /✔ shared token store: file \S+tokens\.json \(private to this user\)/,
    { ...env, SLICER_CACHE_FILE: cacheFile },
  ],
  // A cache file under ~: Deno tells the home folder only with --allow-sys=homedir, and the configuration error says so.
  [
    'deno, a cache file under ~ without --allow-sys=homedir',
    DENO[0],
    denoCli(['--allow-read=.'], 'token'),
    /SLICER_CACHE_FILE: a path under "~" needs the home folder: run Deno with --allow-sys=homedir, or write the full path/,
    { ...env, SLICER_CACHE_FILE: '~/slicer-auth-unused/tokens.json' },
    3,
  ],
  // No --allow-read: an optional .env is skipped with one warning naming the flag.
  ['deno smoke without --allow-read', DENO[0], denoSmoke(), /^(?=[\s\S]*--allow-read=\.env\))(?=[\s\S]*smoke ok deno)/],
  // The doctor under Deno names the permissions it was not given as flags.
  ['deno doctor (narrow permissions)', DENO[0], [
    ...DENO.slice(1),
    'run',
    '--allow-env',
    '--allow-net=127.0.0.1',
    'src/cli.ts',
    'doctor',
    '--scope',
    'slicer',
  ], /! runtime: Deno .*not granted for everything: net, read\n\s+fix: .*--allow-read=\.env[\s\S]*✔ token request \(slicer\)/],
  // Without --allow-env: the configuration error and the doctor say the environment could not be read, and name the flag.
  [
    'deno without --allow-env: the CLI names the flag',
    DENO[0],
    denoWithoutEnv('token'),
    /SLICER_AUTH_URL: cannot be read: no permission to read the environment \(Deno: run with --allow-env/,
    env,
    3,
  ],
  [
    'deno without --allow-env: the doctor names the flag',
    DENO[0],
    denoWithoutEnv('doctor'),
    /✖ configuration: [\s\S]*fix: let the runtime read the environment: run Deno with --allow-env, or --allow-env=SLICER_/,
    env,
    1,
  ],
  ['bun smoke', BUN[0], [...BUN.slice(1), '--no-env-file', 'scripts/runtime_smoke.ts'], /smoke ok bun/],
  // Bun, and Deno with --env-file, load an env file themselves and expand "$word1" in it; the password is read as
  // written there, as under Node.
  [
    'bun, a "$" in the password in .env',
    BUN[0],
    [...BUN.slice(1), `--env-file=${dollarEnvFile}`, 'src/cli.ts', 'token'],
    /^[\w-]{20,}$/m,
    dollarEnv,
  ],
  [
    'deno --env-file, a "$" in the password in .env',
    DENO[0],
    denoCli([`--allow-read=.,${dollarEnvFile}`, `--env-file=${dollarEnvFile}`], 'token'),
    /^[\w-]{20,}$/m,
    dollarEnv,
  ],
  // The CLI on Bun, spawned as a user runs it.
  ['bun src/cli.ts token', BUN[0], [...BUN.slice(1), '--no-env-file', 'src/cli.ts', 'token'], /^[\w-]{20,}$/m],
  [
    'deno test (unit tests)',
    DENO[0],
    [...DENO.slice(1), 'test', '-A', '--quiet', ...UNIT_TESTS],
    /ok \| \d+ passed .*\| 0 failed/,
    { ...env, TMPDIR: unitTmp },
  ],
  ['bun test (unit tests)', BUN[0], [...BUN.slice(1), 'test', '--no-env-file', ...UNIT_TESTS], /\n\s*0 fail/, { ...env, TMPDIR: unitTmp }],
  // The Redis store on each runtime (ioredis's `debug` reads DEBUG: Deno needs the whole environment here).
  ...(redis
    ? [
      ['node + tsx, Redis store', process.execPath, ['--import', 'tsx', 'scripts/redis_smoke.ts'], /redis ok node store/, withRedis],
      [
        'deno, Redis store',
        DENO[0],
        [...DENO.slice(1), 'run', '--allow-env', '--allow-net=127.0.0.1', 'scripts/redis_smoke.ts'],
        /redis ok deno store/,
        withRedis,
      ],
      ['bun, Redis store', BUN[0], [...BUN.slice(1), '--no-env-file', 'scripts/redis_smoke.ts'], /redis ok bun store/, withRedis],
    ] satisfies typeof checks
    : []),
];
let passed = 0;
let failed = 0;
try {
  for (const [name, command, args, expected, extra, code] of checks) {
    const result = await runProcess(command, args, extra ?? env, 180_000);
    const output = result.out + result.err;
    if (result.code === (code ?? 0) && expected.test(output)) {
      passed++;
      console.log(`✔ ${name} (${result.seconds.toFixed(1)} s, exited by itself)`);
    } else {
      failed++;
      console.log(`✖ ${name} (exit ${result.code})\n${output}`);
    }
  }
  // Their scratch folders hold .env files and cache files with tokens: none may outlive the unit tests' runs.
  const left = readdirSync(unitTmp);
  if (left.length === 0) {
    passed++;
    console.log('✔ deno test and bun test leave nothing in the temporary folder');
  } else {
    failed++;
    console.log(`✖ deno test and bun test left in the temporary folder: ${left.join(', ')}`);
  }
} finally {
  await Promise.all([sandbox.close(), dollar.close()]);
  await redis?.stop();
}
console.log(`runtimes: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
