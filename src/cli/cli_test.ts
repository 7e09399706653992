import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type Finished, freePort, ROOT, runTs } from '../testing/processes.ts';
import { importableFrom } from '../package_info.ts';
import { main } from './main.ts';
import type { Io } from './usage.ts';
import { runTokenName } from '../auth_ui/run_tokens.ts';
import { startSandbox } from '../sandbox/mod.ts';
import { listen } from '../sandbox/serve.ts';
import { eventually } from '../testing/eventually.ts';
import { createFakeClock } from '../testing/fake_clock.ts';
import { harnessForFile } from '../testing/sandbox_harness.ts';
import { scratchDir } from '../testing/scratch.ts';

const h = harnessForFile();

/**
 * Runs the CLI in this process through `main(argv, io)`, with the sandbox configured (plus `env`): what it
 * prints, and its exit code. (The sandbox command and `npm start` keep a spawned test each, below.)
 */
async function cli(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<Pick<Finished, 'code' | 'out' | 'err'> & { raw: Buffer }> {
  const out: string[] = [];
  const err: string[] = [];
  const raw: Uint8Array[] = [];
  const io: Io = {
    out: (line) => out.push(`${line}\n`),
    err: (line) => err.push(`${line}\n`),
    raw: (bytes) => raw.push(bytes),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...h.sandbox.env, ...env },
  };
  const code = await main(args, io);
  return { code, out: out.join(''), err: err.join(''), raw: Buffer.concat(raw) };
}

describe('CLI: help, usage errors, exit codes', () => {
  test('--help for every command', async () => {
    const top = await cli(['--help']);
    assert.equal(top.code, 0);
    for (const command of ['token', 'call', 'permanent', 'sandbox', 'demo']) {
      assert.match(top.out, new RegExp(`\\b${command}\\b`));
      const help = await cli([command, '--help']);
      assert.equal(help.code, 0, command);
      assert.match(help.out, /^Usage:/, command);
    }
  });

  test('usage errors say what is wrong and exit 2', async () => {
    const notBlobs = scratchDir('cli-not-blobs-');
    writeFileSync(join(notBlobs, 'compliance.json'), '{}');
    const cases: [string[], RegExp][] = [
      [[], /Usage: slicer-auth <command>/],
      [['bogus'], /Unknown command "bogus"/],
      [['token', '--bogus'], /Unknown option '--bogus'/],
      [['call', 'GET'], /^Give exactly a METHOD and a path, such as: slicer-auth call GET \/jobs$/m],
      [['call', 'get', '/jobs', 'x'], /^Give exactly a METHOD and a path, such as: slicer-auth call GET \/jobs$/m],
      [['call', '/jobs/1'], /^Give a METHOD before the path, such as: slicer-auth call GET \/jobs\/1$/m],
      [['call'], /^Give exactly a METHOD and a path, such as: slicer-auth call GET \/jobs$/m],
      [['call', 'FETCH', 'x'], /Unknown method "FETCH"/],
      [['call', 'POST', 'x', '--json', '{nope'], /--json must be valid JSON/],
      [['permanent', 'revoke'], /exactly one of --name, --prefix or --run/],
      [['permanent', 'revoke', '--run', 'a b'], /--run: A run id is 1-64 letters/],
      [
        ['permanent', 'revoke', '--run', 'r1', '--max-age', 'a day'],
        /--max-age takes a number and a unit \(m, h or d\), such as 24h; got "a day"/,
      ],
      [['permanent', 'revoke', '--name', 'x', '--max-age', '1h'], /--max-age goes with --run/],
      [['permanent', 'list', '--name', 'x'], /takes no --name/],
      [
        ['contract', '--merge', '/nonexistent/blobs'],
        /^--merge: "\/nonexistent\/blobs" holds no blob report \(a \.zip\): collect the files of every shard's reports\/contract\/blob\/ in one folder and name it$/m,
      ],
      [['contract', '--merge', notBlobs], /^--merge: ".*cli-not-blobs-\w+" holds no blob report \(a \.zip\)/m],
      [
        ['contract', '--merge', '--workers=2'],
        /^--merge runs nothing, so it takes no other option: merge the shards after they have run$/m,
      ],
      [
        ['contract', '--merge=blobs', '--target', 'live'],
        /^--merge runs nothing, so it takes no other option: merge the shards after they have run$/m,
      ],
      [['token', '--min-validity='], /^--min-validity takes a number of seconds, 0 or more, such as 300; got ""$/m],
      [['token', '--min-validity', ' '], /^--min-validity takes a number of seconds, 0 or more, such as 300; got " "$/m],
      [['token', '--min-validity', '1e3'], /^--min-validity takes a number of seconds, 0 or more, such as 300; got "1e3"$/m],
      [['token', '--min-validity=-5'], /^--min-validity takes a number of seconds, 0 or more, such as 300; got "-5"$/m],
      [['sandbox', '--port', 'abc'], /--port must be a port number/],
      [['sandbox', '--port='], /--port must be a port number, got ""/],
      [['sandbox', '--port', ' 8787'], /--port must be a port number, got " 8787"/],
      [['sandbox', '--port', '0x50'], /--port must be a port number, got "0x50"/],
      [['init', '--sandbox', '--port', '8e3'], /--port must be a port number, got "8e3"/],
      [['sandbox', '--test-mode', '--ui-variant='], /--ui-variant takes 0 to 6, got ""/],
      [['sandbox', '--test-mode', '--ui-variant', '7'], /--ui-variant takes 0 to 6, got "7"/],
      [['sandbox', '--test-mode', '--ui-variant', '1.5'], /--ui-variant takes 0 to 6, got "1.5"/],
      [['token', '--scope', 'slicr'], /--scope takes "slicer", "predict" or "service_id=<id>", got "slicr" \(did you mean "slicer"\?\)/],
      [['call', 'GET', 'x', '--scope', 'nope'], /--scope takes "slicer", "predict" or "service_id=<id>", got "nope"/],
      [['tokn'], /Unknown command "tokn": did you mean "token"\?/],
      [['token', '--jsn'], /Unknown option '--jsn'.* \(did you mean "--json"\?\)/],
      [['token', 'predict'], /Unexpected argument 'predict'.* \(did you mean "--scope predict"\?\)\n/],
      [['doctor', 'service_id=x'], /Unexpected argument 'service_id=x'.* \(did you mean "--scope service_id=x"\?\)\n/],
      [['token', 'prediction'], /Unexpected argument 'prediction'. This command does not take positional arguments\n\nUsage/],
      [['sandbox', 'slicer'], /Unexpected argument 'slicer'. This command does not take positional arguments\n\nUsage/],
    ];
    for (const [args, message] of cases) {
      const run = await cli(args);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.err + run.out, message, args.join(' '));
    }
  });

  test('configuration errors exit 3 and name the variable; refusals exit 1', async () => {
    const missing = await cli(['token'], { SLICER_SERVICE_ID: undefined });
    assert.equal(missing.code, 3);
    assert.match(missing.err, /SLICER_SERVICE_ID.*\[CONFIG_INVALID\]/s);
    const wrongPassword = 'wrong-Pa55-7f3a9c';
    const wrong = await cli(['token'], { SLICER_PASSWORD: wrongPassword });
    assert.equal(wrong.code, 1);
    assert.match(
      wrong.err,
      /invalid_grant: .*; the credentials were refused: check SLICER_USERNAME and SLICER_PASSWORD \[TOKEN_REQUEST_REJECTED\]\n/,
    );
    assert.match(
      wrong.err,
      /^After several failures the account may be locked for a while \("npx slicer-auth doctor" checks the whole set-up and sends the credentials once\)\.$/m,
    );
    assert.ok(!(wrong.err + wrong.out).includes(wrongPassword), 'no password echoed');
    const unknownService = await cli(['token'], { SLICER_SERVICE_ID: 'no-such-service' });
    assert.match(
      unknownService.err,
      /invalid_scope: .*; the scope was refused: check the service id it names \(SLICER_SERVICE_ID or SLICER_PREDICT_SERVICE_ID\), and that this user may use that service \[TOKEN_REQUEST_REJECTED\]\n/,
    );
    assert.doesNotMatch(unknownService.err, /SLICER_USERNAME|After several failures/, 'a refused scope is no refused password');
    // The contract names no error format: a 401 in its own words may refuse the password as well. (A user of its own:
    // the clients of this process with the same credentials share the 15 minutes' pause that follows.)
    h.sandbox.store.addUser('bare-401', 'Pa55-bare-401');
    h.sandbox.store.addFault({ status: 401, body: 'Unauthorized', contentType: 'text/plain', times: 1 });
    const bare = await cli(['token'], { SLICER_USERNAME: 'bare-401', SLICER_PASSWORD: 'Pa55-bare-401' });
    assert.equal(bare.code, 1);
    assert.match(
      bare.err,
      /answered 401 \(said: Unauthorized\); the answer carries no OAuth error: check SLICER_USERNAME and SLICER_PASSWORD, /,
    );
    assert.match(bare.err, /^After several failures the account may be locked for a while/m);
  });

  test('with nothing configured, a configuration error also says how to try the embedded sandbox; with something set, it does not', async () => {
    const nothing = await cli(['token'], {
      ...Object.fromEntries(Object.keys(h.sandbox.env).map((key) => [key, undefined])),
      SLICER_ENV_FILE: '/dev/null',
    });
    assert.equal(nothing.code, 3, nothing.err);
    assert.match(nothing.err, /SLICER_AUTH_URL: missing/);
    assert.match(
      nothing.err,
      /^Nothing is configured: set SLICER_AUTH_URL, SLICER_USERNAME, SLICER_PASSWORD, SLICER_SERVICE_ID and SLICER_BASE_URL in the environment or \.env \("npx slicer-auth init" writes a \.env that lists every setting, with its meaning\); to try it on the embedded sandbox first, run "npx slicer-auth demo", or "npx slicer-auth init --sandbox" and "npx slicer-auth sandbox"\. \[CONFIG_INVALID\]$/m,
    );
    assert.equal(nothing.err.split('Nothing is configured').length, 2, 'said once');
    const partial = await cli(['token'], { SLICER_SERVICE_ID: undefined });
    assert.equal(partial.code, 3);
    assert.doesNotMatch(partial.err, /Nothing is configured/);
  });
});

test('CLI: sandbox on a busy port says so and names --port', async () => {
  const busy = await listen(() => new Response('taken'));
  try {
    const run = await cli(['sandbox', '--port', String(busy.port)]);
    assert.equal(run.code, 1);
    assert.equal(
      run.err,
      `Port ${busy.port} of 127.0.0.1 is in use: stop what listens there, or choose another with --port <n> (--port 0 picks a free ` +
        'one) and point .env at it: "npx slicer-auth init --sandbox --force --port <n>", or paste the lines it prints\n',
    );
  } finally {
    await busy.close();
  }
});

describe('CLI: init', () => {
  test("init --sandbox writes the sandbox's .env lines for its port and a first script; a second init changes nothing", async () => {
    const dir = scratchDir('cli-init-');
    const run = await cli(['init', '--sandbox', '--port', '9911', '--dir', dir]);
    assert.equal(run.code, 0, run.err);
    const env = readFileSync(join(dir, '.env'), 'utf8');
    assert.match(env, /^SLICER_AUTH_URL=http:\/\/127\.0\.0\.1:9911$/m);
    assert.match(env, /^SLICER_BASE_URL=http:\/\/127\.0\.0\.1:9911\/slicer$/m);
    assert.match(env, /^SLICER_PASSWORD=sandbox-password$/m, "the sandbox's own password, no one else's");
    assert.match(env, /npx slicer-auth sandbox --port 9911/);
    assert.match(
      run.out,
      /Next: "npx slicer-auth sandbox --port 9911" in another terminal, then cd \S+, then npm install slicer-auth tsx \(or: bun add slicer-auth, deno add npm:slicer-auth\), then npx tsx first-call\.mts \(or: bun first-call\.mts, deno run -A first-call\.mts\)\./,
    );
    assert.equal(statSync(join(dir, '.env')).mode & 0o777, 0o600);
    assert.match(
      readFileSync(join(dir, 'first-call.mts'), 'utf8'),
      /from 'slicer-auth'[\s\S]*client\.tokenFetch\('jobs'\)[\s\S]*client\.close\(\)/,
    );
    const again = await cli(['init', '--dir', dir]);
    assert.equal(again.code, 1);
    assert.match(again.err, /\.env and first-call\.mts already exist: nothing was written \(--force overwrites\)/);
    assert.equal(readFileSync(join(dir, '.env'), 'utf8'), env);
    const forced = await cli(['init', '--force', '--dir', dir]);
    assert.equal(forced.code, 0, forced.err);
    assert.match(
      readFileSync(join(dir, '.env'), 'utf8'),
      /^# Base address of the authorization service[\s\S]*^SLICER_PASSWORD=$/m,
      'placeholders, no value',
    );
    // Filled in but for the addresses: they are missing, not an example host the password would be sent to.
    const forgotten = await cli(['token'], {
      SLICER_AUTH_URL: undefined,
      SLICER_BASE_URL: undefined,
      SLICER_PREDICT_BASE_URL: undefined,
      SLICER_ENV_FILE: join(dir, '.env'),
    });
    assert.equal(forgotten.code, 3, forgotten.err);
    assert.match(forgotten.err, /^ {2}- SLICER_AUTH_URL: missing\b/m);
    assert.doesNotMatch(forgotten.err, /auth\.example\.com/);
    assert.match((await cli(['init', '--port', '1'])).err, /--port goes with --sandbox/);
  });

  test("init adds the settings after the lines of a project's own .env (one that sets no SLICER_ variable), and makes it private", async () => {
    const dir = scratchDir('cli-init-own-');
    const own = 'DATABASE_URL=postgres://db.internal/app\n# the payment key\nAPI_KEY=abc';
    writeFileSync(join(dir, '.env'), own, { mode: 0o644 });
    chmodSync(join(dir, '.env'), 0o644);
    const run = await cli(['init', '--sandbox', '--dir', dir]);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(run.out.split('\n').slice(0, 2), [
      `added the settings to ${join(dir, '.env')}, after its own lines`,
      `wrote ${join(dir, 'first-call.mts')}`,
    ]);
    const env = readFileSync(join(dir, '.env'), 'utf8');
    assert.ok(env.startsWith(`${own}\n\n# The embedded sandbox: start it with "npx slicer-auth sandbox" in another terminal.\n`), env);
    assert.match(env, /^SLICER_PASSWORD=sandbox-password$/m);
    assert.equal(statSync(join(dir, '.env')).mode & 0o777, 0o600, 'it holds a password now');
    const again = await cli(['init', '--sandbox', '--dir', dir]);
    assert.match(again.err, /^\.env and first-call\.mts already exist: nothing was written/m, 'now it sets SLICER_ variables');
    assert.equal(readFileSync(join(dir, '.env'), 'utf8'), env);
    // --force keeps a project's own lines too; an empty .env is no one's; `export SLICER_…` sets a SLICER_ variable.
    // A line sets a SLICER_ variable as dotenv reads it: indented, after `export`, with spaces around "=".
    const cases = [
      ['KEY=1\n', true],
      ['NOT_SLICER_AUTH=1\n', true],
      ['', false],
      [' \n', false],
      ['export  SLICER_USERNAME=me\n', false],
      ['  SLICER_USERNAME=me\n', false],
      ['SLICER_USERNAME = me\n', false],
    ] as const;
    for (const [before, kept] of cases) {
      writeFileSync(join(dir, '.env'), before);
      const forced = await cli(['init', '--sandbox', '--force', '--dir', dir]);
      assert.equal(forced.code, 0, forced.err);
      const text = readFileSync(join(dir, '.env'), 'utf8');
      assert.equal(text.startsWith(`${before}\n# The embedded sandbox`), kept, JSON.stringify(before));
      assert.equal(text.startsWith('# The embedded sandbox'), !kept, JSON.stringify(before));
    }
    writeFileSync(join(dir, '.env'), '');
    assert.equal((await cli(['init', '--sandbox', '--dir', join(dir)])).code, 1, 'first-call.mts is there: nothing is written');
    assert.equal(readFileSync(join(dir, '.env'), 'utf8'), '');
  });

  test('init --dir makes a missing folder, and says to go there to run the first script; one that cannot be made is named, with nothing written', async () => {
    const root = scratchDir('cli-init-dir-');
    const made = await cli(['init', '--sandbox', '--dir', join(root, 'new', 'project')]);
    assert.equal(made.code, 0, made.err);
    assert.match(readFileSync(join(root, 'new', 'project', '.env'), 'utf8'), /^SLICER_AUTH_URL=http:\/\/127\.0\.0\.1:8787$/m);
    const next = (run: { out: string }) => /^Next: .*$/m.exec(run.out)?.[0];
    const INSTALL = 'npm install slicer-auth tsx (or: bun add slicer-auth, deno add npm:slicer-auth)';
    assert.equal(
      next(made),
      `Next: "npx slicer-auth sandbox" in another terminal, then cd ${
        join(root, 'new', 'project')
      }, then ${INSTALL}, then npx tsx first-call.mts (or: bun first-call.mts, deno run -A first-call.mts).`,
    );
    const quoted = await cli(['init', '--dir', join(root, "it's mine")]);
    assert.match(
      next(quoted) ?? '',
      new RegExp(`, then cd '${root}/it'\\\\''s mine', then npm install slicer-auth tsx .*, then npx tsx first-call\\.mts `),
    );
    const home = process.cwd();
    process.chdir(join(root, 'new'));
    try {
      const here = await cli(['init', '--sandbox', '--dir', '.']);
      assert.equal(here.code, 0, here.err);
      assert.equal(
        next(here),
        `Next: "npx slicer-auth sandbox" in another terminal, then ${INSTALL}, then npx tsx first-call.mts (or: bun first-call.mts, deno run -A first-call.mts).`,
      );
    } finally {
      process.chdir(home);
    }
    // Where the script can import the package by name (installed above it, or named in a Deno config), no install step.
    mkdirSync(join(root, 'installed', 'node_modules', 'slicer-auth'), { recursive: true });
    writeFileSync(join(root, 'installed', 'node_modules', 'slicer-auth', 'package.json'), '{"name":"slicer-auth"}');
    writeFileSync(join(root, 'deno.json'), '{"imports":{"slicer-auth":"npm:slicer-auth@^0.3.0"}}');
    for (const dir of [join(root, 'installed', 'scripts'), join(root, 'deno')]) {
      assert.equal(
        next(await cli(['init', '--dir', dir])),
        `Next: fill in .env (the URLs, your user and password, the service ids), then cd ${dir}, then npx tsx first-call.mts (or: bun first-call.mts, deno run -A first-call.mts).`,
        dir,
      );
    }
    // This clone imports itself by name.
    assert.ok(importableFrom(ROOT), 'the clone');
    writeFileSync(join(root, 'file'), 'not a folder');
    const refused = await cli(['init', '--dir', join(root, 'file', 'project')]);
    assert.deepEqual([refused.code, refused.out], [1, '']);
    assert.equal(
      refused.err,
      `Cannot make the folder ${join(root, 'file', 'project')} (ENOTDIR): nothing was written; give --dir a folder you can write to\n`,
    );
  });

  test('in a git work tree, init makes git ignore .env (it will hold the password); outside one, or where it is ignored, it adds nothing', async () => {
    const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
    const ignored = (dir: string) => git(dir, 'check-ignore', '.env').trim();
    const fresh = scratchDir('cli-init-git-');
    git(fresh, 'init', '-q');
    const run = await cli(['init', '--dir', fresh]);
    assert.equal(run.code, 0, run.err);
    assert.equal(readFileSync(join(fresh, '.gitignore'), 'utf8'), '.env\n');
    assert.match(run.out, /^added \.env to .*\.gitignore, so that git does not take the password it will hold$/m);
    assert.equal(ignored(fresh), '.env');
    // A .gitignore of the project's own, its last line unended: kept, with .env on a line after it.
    const own = scratchDir('cli-init-git-own-');
    git(own, 'init', '-q');
    writeFileSync(join(own, '.gitignore'), 'node_modules');
    assert.equal((await cli(['init', '--sandbox', '--dir', own])).code, 0);
    assert.equal(readFileSync(join(own, '.gitignore'), 'utf8'), 'node_modules\n.env\n');
    // Already ignored (by a pattern of the project's): the .gitignore is left as it is.
    const covered = scratchDir('cli-init-git-covered-');
    git(covered, 'init', '-q');
    writeFileSync(join(covered, '.gitignore'), '.env*\n');
    const quiet = await cli(['init', '--dir', covered]);
    assert.equal(readFileSync(join(covered, '.gitignore'), 'utf8'), '.env*\n');
    assert.doesNotMatch(quiet.out, /gitignore/);
    // No git work tree: no .gitignore is made.
    const plain = scratchDir('cli-init-plain-');
    const outside = await cli(['init', '--dir', plain]);
    assert.equal(existsSync(join(plain, '.gitignore')), false);
    assert.doesNotMatch(outside.out, /gitignore/);
  });

  test('the first script runs as written against the sandbox init points at', async () => {
    const dir = scratchDir('cli-first-');
    const port = new URL(h.sandbox.env.SLICER_AUTH_URL).port;
    assert.equal((await cli(['init', '--sandbox', '--port', port, '--dir', dir])).code, 0);
    // The harness's sandbox listens on that port with the default user; the script imports the package by name.
    const script = readFileSync(join(dir, 'first-call.mts'), 'utf8').replace(
      "from 'slicer-auth'",
      `from ${JSON.stringify(join(ROOT, 'mod.ts'))}`,
    );
    writeFileSync(join(dir, 'first-call.mts'), script);
    const run = await runTs([join(dir, 'first-call.mts')], {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SLICER_ENV_FILE: join(dir, '.env'),
    }, 60_000);
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /^Token for service_id=sandbox-slicer \(request\), valid until \d{4}-/m);
    assert.match(run.out, new RegExp(`^GET http://127\\.0\\.0\\.1:${port}/slicer/jobs → 200`, 'm'));
  });
});

describe('CLI: an installed tool', () => {
  test('--version, -V and -v print the package version', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-V', '-v']) {
      const run = await cli([flag]);
      assert.equal(run.code, 0, flag);
      assert.equal(run.out.trim(), version, flag);
    }
  });

  test('"help <command>" prints that command\'s help, as "<command> --help" does; an unknown one is named', async () => {
    const asked = await cli(['help', 'call']);
    assert.equal(asked.code, 0);
    assert.equal(asked.out, (await cli(['call', '--help'])).out);
    assert.match(asked.out, /^Usage: slicer-auth call <METHOD> <path>/);
    const unknown = await cli(['help', 'tokn']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /^Unknown command "tokn": did you mean "token"\?/);
  });

  test('completion bash completes commands, actions and options in a real bash; zsh and fish scripts name them too', async () => {
    const script = (await cli(['completion', 'bash'])).out;
    const complete = (words: string[]) => {
      const line = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${
        words.length - 1
      }; _slicer_auth; echo "\${COMPREPLY[*]}"`;
      return execFileSync('bash', ['-c', line], { encoding: 'utf8' }).trim();
    };
    assert.equal(complete(['slicer-auth', 'per']), 'permanent');
    assert.equal(complete(['slicer-auth', 'permanent', '']), 'create list revoke');
    assert.equal(complete(['slicer-auth', 'permanent', 'revoke', '--r']), '--run');
    assert.equal(complete(['slicer-auth', 'doctor', '--w']), '--write-check');
    assert.match((await cli(['completion', 'zsh'])).out, /^#compdef slicer-auth\nautoload -U \+X bashcompinit/);
    assert.match((await cli(['completion', 'fish'])).out, /__fish_seen_subcommand_from permanent' -a 'create list revoke'/);
    const wrong = await cli(['completion', 'powershell']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.err, /Name one shell: bash, zsh or fish \(got "powershell"\)/);
  });
});

describe('CLI: contract --merge', () => {
  test("merges the blob reports in a folder, by default the reports' own blob folder, into one compliance report", async () => {
    const reports = scratchDir('cli-merge-');
    // In processes of their own, so that Playwright's output stays out of this test's.
    const contract = (args: string[], env: Record<string, string> = {}) =>
      runTs(
        ['src/cli.ts', 'contract', ...args],
        { PATH: process.env.PATH, HOME: process.env.HOME, SLICER_CONTRACT_REPORTS: reports, SLICER_ENV_FILE: '/dev/null', ...env },
        120_000,
      );
    const part = () => (JSON.parse(readFileSync(join(reports, 'compliance.json'), 'utf8')) as { part: string }).part;
    const shard = await contract(['--target', 'sandbox', '--project', 'api', '--grep', 'a request without a token is refused']);
    assert.equal(shard.code, 0, shard.err);
    assert.equal(part(), 'whole run');
    const merged = await contract(['--merge']);
    assert.equal(merged.code, 0, merged.err);
    assert.match(merged.out, /^Run: [\w.-]+ \(merged shards\)/m);
    assert.equal(part(), 'merged shards');
    // A folder named, as CI collects each shard's blob into one; in a merge job, which needs no target or secret.
    const collected = join(scratchDir('cli-merge-collected-'), 'blobs');
    renameSync(join(reports, 'blob'), collected);
    for (const args of [[`--merge=${collected}`], ['--merge', collected]]) {
      rmSync(join(reports, 'compliance.json'));
      const run = await contract(args, { SLICER_CONTRACT_TARGET: 'live', SLICER_AUTH_URL: '', SLICER_PASSWORD: '' });
      assert.equal(run.code, 0, run.err);
      assert.equal(part(), 'merged shards');
    }
    const none = await contract(['--merge']);
    assert.equal(none.code, 2);
    assert.match(none.err, new RegExp(`^--merge: "${join(reports, 'blob')}" holds no blob report \\(a \\.zip\\)`, 'm'));
  });
});

describe('CLI: token and call against the sandbox', () => {
  test('token prints a working token, and --json', async () => {
    const run = await cli(['token']);
    assert.equal(run.code, 0, run.err);
    const token = run.out.trim();
    const answer = await fetch(`${h.sandbox.env.SLICER_BASE_URL}/x`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(answer.status, 200);
    const json = JSON.parse((await cli(['token', '--scope', 'predict', '--json'])).out) as Record<string, string>;
    assert.deepEqual(Object.keys(json), ['token', 'scope', 'expiresAt', 'obtainedAt', 'source']);
    const predict = await fetch(`${h.sandbox.env.SLICER_PREDICT_BASE_URL}/x`, { headers: { authorization: `Bearer ${json.token}` } });
    assert.equal(predict.status, 200, 'the token --json prints works');
    assert.equal(json.scope, `service_id=${h.sandbox.env.SLICER_PREDICT_SERVICE_ID}`);
    assert.equal(json.source, 'request');
    const lifetime = Date.parse(json.expiresAt as string) - Date.parse(json.obtainedAt as string);
    assert.ok(lifetime > 3_599_000 && lifetime <= 3_600_000, `valid 3600 s from when it was requested (${lifetime} ms)`);
  });

  test('token --min-validity: a validity no token of the service has is a usage error naming the flag and the limit', async () => {
    const run = await cli(['token', '--min-validity', '7200']);
    assert.equal(run.code, 2);
    assert.equal(run.out, '');
    assert.equal(
      run.err.split('\n')[0],
      '--min-validity 7200 cannot be met: the service issues tokens valid 3600 s; give at most 3600',
    );
    const met = await cli(['token', '--min-validity', '3500', '--json']);
    assert.equal(met.code, 0, met.err);
    assert.equal((JSON.parse(met.out) as { scope: string }).scope, `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`);
  });

  test('call makes authenticated requests with JSON and form bodies', async () => {
    const get = await cli(['call', 'GET', 'jobs/7']);
    assert.equal(get.code, 0, get.err);
    assert.match(get.err, /^200/);
    assert.equal((JSON.parse(get.out) as { path: string }).path, '/slicer/jobs/7');
    const form = await cli(['call', 'POST', 'slice', '--form', 'model=a.stl', '--scope', 'predict'], { SLICER_TOKEN_TRANSPORT: 'post' });
    assert.deepEqual(JSON.parse(form.out), {
      status: 'success',
      method: 'POST',
      path: '/predict/slice',
      service: 'predict',
      token_via: 'post',
      token_kind: 'temporary',
    });
    const json = await cli(['call', 'PUT', 'x', '--json', '{"a":1}']);
    assert.equal(json.code, 0);
  });

  test('call sends no token to another origin, and says so once on stderr', async () => {
    const seen: (string | null)[] = [];
    const other = await listen((request) => (seen.push(request.headers.get('authorization')), Response.json({ ok: true })));
    try {
      const run = await cli(['call', 'GET', `http://127.0.0.1:${other.port}/upload`]);
      assert.equal(run.code, 0, run.err);
      assert.deepEqual(seen, [null]);
      assert.match(run.err, /Sent GET http:\/\/127\.0\.0\.1:\d+ without the token .* SLICER_ALLOWED_ORIGINS/);
      const allowed = await cli(['call', 'GET', `http://127.0.0.1:${other.port}/upload`], {
        SLICER_ALLOWED_ORIGINS: `http://127.0.0.1:${other.port}`,
      });
      assert.equal(allowed.code, 0, allowed.err);
      assert.match(seen[1] ?? '', /^Bearer \S+$/, 'a listed origin receives it');
    } finally {
      await other.close();
    }
  });

  test('call --form field=@path uploads the file as multipart, field=value stays text; a missing file names the argument', async () => {
    const dir = scratchDir('cli-form-');
    writeFileSync(join(dir, 'part.stl'), 'solid part');
    let received: Record<string, string> = {};
    const other = await listen(async (request) => {
      const form = await request.formData();
      received = Object.fromEntries(
        [...form].map(([key, value]) => [key, typeof value === 'string' ? value : `file ${value.name}: ${value.size} bytes`]),
      );
      return Response.json({ type: request.headers.get('content-type')?.split(';')[0] });
    });
    try {
      const url = `http://127.0.0.1:${other.port}/upload`;
      const run = await cli(['call', 'POST', url, '--form', `model=@${join(dir, 'part.stl')}`, '--form', 'quality=high'], {
        SLICER_ALLOWED_ORIGINS: `http://127.0.0.1:${other.port}`,
        SLICER_TOKEN_TRANSPORT: 'post',
      });
      assert.equal(run.code, 0, run.err);
      assert.deepEqual(JSON.parse(run.out), { type: 'multipart/form-data' });
      assert.equal(received.model, 'file part.stl: 10 bytes');
      assert.equal(received.quality, 'high');
      assert.match(received.token ?? '', /^\S{20,}$/, 'the post transport put the token in the multipart body');
      const missing = await cli(['call', 'POST', url, '--form', 'model=@/no/such/file.stl']);
      assert.equal(missing.code, 2);
      assert.match(missing.err, /--form model=@\/no\/such\/file\.stl: cannot read "\/no\/such\/file\.stl" \(ENOENT\)/);
    } finally {
      await other.close();
    }
  });

  test("call --json @path sends the file as the JSON body (curl's convention); a missing file or one not JSON names the argument", async () => {
    const dir = scratchDir('cli-json-');
    writeFileSync(join(dir, 'job.json'), '{"model": "part.stl", "layers": [1, 2]}\n');
    writeFileSync(join(dir, 'notes.txt'), 'not json');
    let received = '';
    const other = await listen(async (request) => {
      received = `${request.headers.get('content-type')} ${await request.text()}`;
      return Response.json({ ok: true });
    });
    try {
      const url = `http://127.0.0.1:${other.port}/jobs`;
      const run = await cli(['call', 'POST', url, '--json', `@${join(dir, 'job.json')}`]);
      assert.equal(run.code, 0, run.err);
      assert.equal(received, 'application/json {"model": "part.stl", "layers": [1, 2]}\n');
      const missing = await cli(['call', 'POST', url, '--json', '@/no/such/job.json']);
      assert.equal(missing.code, 2);
      assert.match(missing.err, /^--json @\/no\/such\/job\.json: cannot read "\/no\/such\/job\.json" \(ENOENT\)$/m);
      const text = await cli(['call', 'POST', url, '--json', `@${join(dir, 'notes.txt')}`]);
      assert.equal(text.code, 2);
      assert.match(text.err, /^--json @\S+notes\.txt: the file is not valid JSON text$/m);
    } finally {
      await other.close();
    }
  });

  test('call chooses the scope by the URL, as tokenFetch does; --scope overrides it', async () => {
    const predictUrl = `${h.sandbox.env.SLICER_PREDICT_BASE_URL}/forecast`;
    const byUrl = await cli(['call', 'GET', predictUrl]);
    assert.equal(byUrl.code, 0, byUrl.err);
    assert.equal((JSON.parse(byUrl.out) as { service: string }).service, 'predict', 'the prediction token for the prediction service');
    const forced = await cli(['call', 'GET', predictUrl, '--scope', 'slicer']);
    assert.equal(forced.code, 1, 'a slicing token is refused by the prediction service');
    assert.match(forced.err, /^401/);
  });

  test('call names the host, the reason and the setting to check when the service cannot be reached', async () => {
    const port = await freePort(); // a loopback port that refuses connections
    const relative = await cli(['call', 'GET', 'jobs'], { SLICER_BASE_URL: `http://127.0.0.1:${port}/api` });
    assert.equal(relative.code, 1);
    assert.equal(
      relative.err,
      `Failed: cannot reach 127.0.0.1:${port} (ECONNREFUSED): check SLICER_BASE_URL and that the service is up ` +
        `(if it is the sandbox's address, start the sandbox: "npx slicer-auth sandbox --port ${port}" in another terminal)\n`,
    );
    const predict = await cli(['call', 'GET', 'x', '--scope', 'predict'], { SLICER_PREDICT_BASE_URL: `http://127.0.0.1:${port}` });
    assert.match(predict.err, /^Failed: cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\): check SLICER_PREDICT_BASE_URL and/m);
    const absolute = await cli(['call', 'GET', `http://127.0.0.1:${port}/x?key=k-3f9a`]);
    assert.equal(absolute.code, 1);
    assert.match(
      absolute.err,
      /^Failed: cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\): check the URL and that the service is up \(if it is the sandbox's/m,
    );
    assert.doesNotMatch(absolute.err, /k-3f9a/, 'the host alone, not the query');
  });

  test('call writes an answer that is no UTF-8 text byte for byte, without a newline; UTF-8 text is printed as a line, and no answer as nothing', async () => {
    const archive = Uint8Array.from({ length: 256 }, (_, i) => i);
    const gcode = 'G28 ; home — é\nG1 X10\n';
    const service = await listen((request) =>
      new URL(request.url).pathname.endsWith('.zip')
        ? new Response(archive, { headers: { 'content-type': 'application/zip' } })
        : request.method === 'DELETE'
        ? new Response(null, { status: 204 })
        : new Response(gcode, { headers: { 'content-type': 'text/x-gcode' } })
    );
    try {
      const env = { SLICER_BASE_URL: `${service.origin}/api` };
      const zip = await cli(['call', 'GET', 'jobs/1/result.zip'], env);
      assert.equal(zip.code, 0, zip.err);
      assert.equal(zip.err, '200 OK\n');
      assert.deepEqual([...zip.raw], [...archive]);
      assert.equal(zip.out, '');
      const text = await cli(['call', 'GET', 'jobs/1/result.gcode'], env);
      assert.equal(text.out, `${gcode}\n`);
      assert.equal(text.raw.length, 0);
      const none = await cli(['call', 'DELETE', 'jobs/1'], env);
      assert.deepEqual([none.err, none.out, none.raw.length], ['204 No Content\n', '', 0], 'no answer: nothing printed');
    } finally {
      await service.close();
    }
  });

  test('call --timeout: no whole answer in time ends the call on its clock, naming the host, the setting and the flag', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = 0;
    const service = await listen(async (request) => {
      arrived++;
      // "stalled": the headers and a first part, then nothing; else no answer until released.
      if (new URL(request.url).pathname.endsWith('stalled')) {
        return new Response(new ReadableStream({ start: (body) => body.enqueue(new TextEncoder().encode('part')) }));
      }
      await held;
      return new Response('late');
    });
    const clock = createFakeClock();
    const out: string[] = [];
    const err: string[] = [];
    const io: Io = {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      raw: () => undefined,
      env: { ...h.sandbox.env, SLICER_BASE_URL: `${service.origin}/api` },
      clock,
    };
    const late = (seconds: string) =>
      `Failed: no whole answer from 127.0.0.1:${service.port} within ${seconds} s: check SLICER_BASE_URL and that the service is up, ` +
      'or give a longer --timeout';
    try {
      let code: number | undefined;
      const run = main(['call', 'GET', 'jobs', '--timeout', '2.5'], io).then((exit) => (code = exit));
      await eventually(() => arrived === 1 && clock.pending() === 1, 'the request at the service');
      clock.advance(2_499);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(code, undefined, 'still waiting just before the limit');
      clock.advance(1);
      await run;
      assert.deepEqual([code, err, out], [1, [late('2.5')], []]);
      // The limit holds while the body is read too.
      err.length = 0;
      const stalled = main(['call', 'GET', 'stalled'], io).then((exit) => (code = exit));
      await eventually(() => err.includes('200 OK'), 'the headers of the stalled answer');
      clock.advance(300_000);
      await stalled;
      assert.deepEqual([code, err, out], [1, ['200 OK', late('300')], []]);
      // A call answered in time leaves no timer behind.
      release();
      err.length = 0;
      assert.equal(await main(['call', 'GET', 'jobs', '--timeout', '30'], io), 0);
      assert.deepEqual([err, out, clock.pending()], [['200 OK'], ['late'], 0]);
      for (const bad of ['0', '-1', 'soon', '']) {
        const usage = await cli(['call', 'GET', 'jobs', `--timeout=${bad}`]);
        assert.equal(usage.code, 2, bad);
        assert.match(usage.err, new RegExp(`^--timeout takes a number of seconds above 0, such as 30; got "${bad}"$`, 'm'), bad);
      }
    } finally {
      release();
      await service.close();
    }
  });

  test('call exits 1 when the service refuses', async () => {
    const run = await cli(['call', 'GET', `${h.sandbox.env.SLICER_AUTH_URL}/nope`]);
    assert.equal(run.code, 1);
    assert.match(run.err, /^404/);
  });

  test('call names the permanent token a service refuses, and the fix; a refused temporary token is answered as it came', async () => {
    const fix = "Create a new one in the authorization service's UI, or unset it to use the password grant";
    const slicer = await cli(['call', 'GET', 'jobs'], { SLICER_STATIC_TOKEN: 'revoked-long-ago-1' });
    assert.equal(slicer.code, 1);
    assert.equal(
      slicer.err,
      `401 Unauthorized\nThe permanent token in SLICER_STATIC_TOKEN was refused (401): it is invalid or revoked. ${fix}\n`,
    );
    const predict = await cli(['call', 'GET', 'x', '--scope', 'predict'], { SLICER_PREDICT_STATIC_TOKEN: 'revoked-long-ago-2' });
    assert.match(predict.err, /^The permanent token in SLICER_PREDICT_STATIC_TOKEN was refused/m);
    const temporary = await cli(['call', 'GET', `${h.sandbox.env.SLICER_PREDICT_BASE_URL}/x`, '--scope', 'slicer']);
    assert.equal(temporary.err, '401 Unauthorized\n');
  });
});

describe('CLI: permanent tokens through the web UI', () => {
  test('a saved browser state that cannot be read is a configuration error naming the variable, before any browser', async () => {
    const folder = scratchDir('slicer-state-');
    const cases = [
      [['permanent', 'list'], '/nonexistent/state.json', 'ENOENT'],
      [['contract', '--target', 'sandbox'], '/nonexistent/state.json', 'ENOENT'],
      [['permanent', 'list'], folder, 'not a file'],
    ] as const;
    for (const [args, state, why] of cases) {
      const run = await cli([...args], { SLICER_UI_STORAGE_STATE: state });
      assert.deepEqual([run.code, run.out], [3, ''], args.join(' '));
      assert.equal(
        run.err,
        'Cannot read the tool settings: fix these settings (environment, .env or client options):\n' +
          `  - SLICER_UI_STORAGE_STATE: cannot read ${state} (${why}): save the browser's logged-in state there ` +
          "(Playwright's storageState), or unset it to log in with the password (from environment) [CONFIG_INVALID]\n",
        args.join(' '),
      );
    }
  });

  test('create prints the value once; list shows it; revoke by name and by prefix', async () => {
    const stamp = Date.now();
    const created = await cli(['permanent', 'create', '--name', `cli-${stamp}-a`, '--scope', 'slicer']);
    assert.equal(created.code, 0, created.err);
    assert.match(created.err, /→ Choosing "Tokens and sessions"[\s\S]*→ Choosing "Create"[\s\S]*shown this once/);
    const value = created.out.trim();
    const use = () => fetch(`${h.sandbox.env.SLICER_BASE_URL}/x`, { headers: { authorization: `Bearer ${value}` } }).then((r) => r.status);
    assert.equal(await use(), 200);
    const twice = await cli(['permanent', 'create', '--name', `cli-${stamp}-a`, '--scope', 'slicer']);
    assert.equal(twice.code, 1, 'a name an active token already has is refused');
    assert.match(twice.err, /already named "cli-\d+-a".*--allow-duplicate/);
    assert.equal(twice.out, '', 'no second token was created');
    assert.equal((await cli(['permanent', 'create', '--name', `cli-${stamp}-b`, '--scope', 'slicer', '--scope', 'predict'])).code, 0);

    const list = await cli(['permanent', 'list']);
    assert.match(list.out, new RegExp(`active +cli-${stamp}-a`));
    assert.ok(!list.out.includes(value), 'list never prints values');

    const byName = await cli(['permanent', 'revoke', '--name', `cli-${stamp}-a`]);
    assert.equal(byName.code, 0, byName.err);
    assert.equal(await use(), 401);
    const missing = await cli(['permanent', 'revoke', '--name', `cli-${stamp}-a`]);
    assert.equal(missing.code, 1);
    const byPrefix = await cli(['permanent', 'revoke', '--prefix', `cli-${stamp}`]);
    assert.equal(byPrefix.out, `revoked  cli-${stamp}-b\n`);
    assert.match(byPrefix.err, /Revoking "cli-\d+-b" \(Revoke, then OK\)/);
    assert.match((await cli(['permanent', 'list'])).out, new RegExp(`revoked +cli-${stamp}-b`));
  });

  test('revoke --run revokes that run and runs older than --max-age; never a concurrent run, a person, or list --json lies', async () => {
    const user = h.sandbox.env.SLICER_USERNAME;
    const services = [h.sandbox.env.SLICER_SERVICE_ID];
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);
    const names = {
      own: runTokenName('run-own', hoursAgo(0), 'a'),
      concurrent: runTokenName('run-other', hoursAgo(1), 'b'),
      crashed: runTokenName('run-crashed', hoursAgo(30), 'c'),
      person: 'contract-test made by a person',
    };
    for (const name of Object.values(names)) h.sandbox.store.issuePermanent(user, name, services);
    const run = await cli(['permanent', 'revoke', '--run', 'run-own']);
    assert.equal(run.code, 0, run.err);
    const listed = JSON.parse((await cli(['permanent', 'list', '--json'])).out) as { name: string; revoked: boolean }[];
    const state = (name: string) => listed.find((t) => t.name === name)?.revoked;
    assert.deepEqual(
      [state(names.own), state(names.concurrent), state(names.crashed), state(names.person)],
      [true, false, true, false],
    );
    await cli(['permanent', 'revoke', '--run', 'run-none', '--max-age', '30m']);
    const after = JSON.parse((await cli(['permanent', 'list', '--json'])).out) as { name: string; revoked: boolean }[];
    assert.equal(after.find((t) => t.name === names.concurrent)?.revoked, true, 'older than 30 minutes: swept');
    assert.equal(after.find((t) => t.name === names.person)?.revoked, false, 'a token no run made is never swept');
  });

  test("revoke --run finds the run's tokens by their names' text in a list of boxes (no table or list) too", async () => {
    const boxes = await startSandbox({ testMode: true, uiVariant: 3 });
    try {
      const user = boxes.env.SLICER_USERNAME;
      const names = {
        own: runTokenName('run-own', new Date(), 'a'),
        other: runTokenName('run-other', new Date(), 'b'),
        person: 'contract-test run=run-own by hand',
      };
      for (const name of Object.values(names)) boxes.store.issuePermanent(user, name, [boxes.env.SLICER_SERVICE_ID]);
      const run = await cli(['permanent', 'revoke', '--run', 'run-own'], boxes.env);
      assert.equal(run.code, 0, run.err);
      assert.equal(run.out, `revoked  ${names.own}\n`);
      const active = () => boxes.store.list(user, 'permanent').filter((t) => t.revokedAt === undefined).map((t) => t.name).sort();
      assert.deepEqual(active(), [names.other, names.person].sort());
      const again = await cli(['permanent', 'revoke', '--run', 'run-own'], boxes.env);
      assert.equal(again.code, 0, again.err);
      assert.match(again.err, /No active token of run "run-own", or of a run older than 24h: nothing to revoke\./);
      assert.deepEqual(active(), [names.other, names.person].sort());
    } finally {
      await boxes.close();
    }
  });

  test("revoke by a text that another column shows (a scope, a state, a control, a date) revokes nothing: the name is the Name column's", async () => {
    const table = await startSandbox({ testMode: true });
    try {
      const user = table.env.SLICER_USERNAME;
      const serviceId = table.env.SLICER_SERVICE_ID;
      for (const name of ['first', 'second']) table.store.issuePermanent(user, name, [serviceId]);
      const active = () => table.store.list(user, 'permanent').filter((t) => t.revokedAt === undefined).map((t) => t.name).sort();
      const byScope = await cli(['permanent', 'revoke', '--name', serviceId], table.env);
      assert.equal(byScope.code, 1, byScope.err);
      assert.match(byScope.err, new RegExp(`No active token is named "${serviceId}"\\.`));
      assert.deepEqual(active(), ['first', 'second']);
      for (const prefix of [serviceId.slice(0, 4), 'Act', 'Rev', String(new Date().getFullYear())]) {
        const run = await cli(['permanent', 'revoke', '--prefix', prefix], table.env);
        assert.equal(run.code, 0, run.err);
        assert.equal(run.out, '', prefix);
        assert.deepEqual(active(), ['first', 'second'], prefix);
      }
      table.store.issuePermanent(user, serviceId, [serviceId]); // a token named as the service: only it goes
      const named = await cli(['permanent', 'revoke', '--name', serviceId], table.env);
      assert.equal(named.code, 0, named.err);
      assert.equal(named.out, `revoked  ${serviceId}\n`);
      assert.deepEqual(active(), ['first', 'second']);
    } finally {
      await table.close();
    }
  });

  test("revoke on a list of items or boxes takes no control's or state's text for a name; --prefix cannot read boxes", async () => {
    for (const uiVariant of [1, 3] as const) {
      const sandbox = await startSandbox({ testMode: true, uiVariant });
      try {
        const user = sandbox.env.SLICER_USERNAME;
        for (const name of ['first', 'second']) sandbox.store.issuePermanent(user, name, [sandbox.env.SLICER_SERVICE_ID]);
        const active = () => sandbox.store.list(user, 'permanent').filter((t) => t.revokedAt === undefined).map((t) => t.name).sort();
        for (const prefix of ['Rev', 'Act']) {
          const run = await cli(['permanent', 'revoke', '--prefix', prefix], sandbox.env);
          assert.equal(run.out, '', `variant ${uiVariant}, ${prefix}`);
          if (uiVariant === 3) assert.match(run.err, /listing needs a table or a list/);
          else assert.match(run.err, new RegExp(`No active token name starts with "${prefix}": nothing to revoke\\.`));
          assert.deepEqual(active(), ['first', 'second'], `variant ${uiVariant}, ${prefix}`);
        }
        // A state shown on every entry names none of them.
        const byState = await cli(['permanent', 'revoke', '--name', 'Active'], sandbox.env);
        assert.equal(byState.code, 1, `variant ${uiVariant}: ${byState.err}`);
        assert.match(byState.err, /No active token is named "Active"\./);
        assert.deepEqual(active(), ['first', 'second'], `variant ${uiVariant}, --name Active`);
      } finally {
        await sandbox.close();
      }
    }
  });
});

test('CLI: a reader that stops early (| head) ends the output, not the command: no stack trace, the work done, exit 0', async () => {
  const dir = scratchDir('cli-epipe-');
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'init', '--sandbox', '--dir', dir], {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy(); // the reader is gone before the command writes: each write meets EPIPE
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(err, '');
  assert.equal(exited, 0);
  assert.match(readFileSync(join(dir, '.env'), 'utf8'), /^SLICER_AUTH_URL=http:\/\/127\.0\.0\.1:8787$/m);
  assert.match(readFileSync(join(dir, 'first-call.mts'), 'utf8'), /createAuthClient/);
});

test('CLI: sandbox prints the .env lines and stops cleanly on SIGTERM', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'sandbox', '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  await eventually(() => out.includes('Ctrl-C'), 'the sandbox to print its .env lines');
  const lines = Object.fromEntries(out.split('\n').filter((l) => /^SLICER_\w+=/.test(l)).map((l) => l.split(/=(.*)/s).slice(0, 2)));
  assert.deepEqual(Object.keys(lines).sort(), [
    'SLICER_AUTH_URL',
    'SLICER_BASE_URL',
    'SLICER_PASSWORD',
    'SLICER_PREDICT_BASE_URL',
    'SLICER_PREDICT_SERVICE_ID',
    'SLICER_SERVICE_ID',
    'SLICER_USERNAME',
  ]);
  assert.match(lines.SLICER_AUTH_URL ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  const grant = await fetch(`${lines.SLICER_AUTH_URL}/oauth2/token/`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'password',
      username: lines.SLICER_USERNAME ?? '',
      password: lines.SLICER_PASSWORD ?? '',
      scope: `service_id=${lines.SLICER_SERVICE_ID}`,
    }),
  });
  assert.equal(grant.status, 200);
  assert.equal((await fetch(`${lines.SLICER_AUTH_URL}/__test/stats`)).status, 404, 'no test controls by default');
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.match(out, /Sandbox stopped/);
});

test('demo against a configured service names its address and only reads: a GET of each base URL, any answer but a 401', async () => {
  const missing = await listen(() => Response.json({ detail: 'Not found.' }, { status: 404 }));
  try {
    const run = await cli(['demo'], { SLICER_BASE_URL: `${missing.origin}/api` });
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, new RegExp(`^Using the configured service at ${h.sandbox.env.SLICER_AUTH_URL.replaceAll('.', '\\.')}$`, 'm'));
    assert.match(run.out, new RegExp(`^ {2}✓ GET ${missing.origin.replaceAll('.', '\\.')}/api/ → 404: the token was not refused$`, 'm'));
    assert.match(run.out, /^ {2}✓ GET http:\/\/127\.0\.0\.1:\d+\/predict\/ → 200: the token was not refused$/m);
    assert.doesNotMatch(run.out, /POST|transport →/, 'nothing posted to a service of its own');
  } finally {
    await missing.close();
  }
});

test('npm start (demo) runs end to end against the embedded sandbox with no configuration, and exits', async () => {
  const run = await runTs(['src/cli.ts', 'demo'], { PATH: process.env.PATH, HOME: process.env.HOME }, 60_000);
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /started the embedded sandbox/);
  for (
    const line of [
      /header transport → slicer: success/,
      /header transport → predict: success/,
      /post transport → slicer: success \(token sent as post\)/,
      /post transport → predict: success/,
      /clock moved 3500 s ahead .* 1 token request/,
      /call with it: success \(permanent\)/,
      /Done\./,
    ]
  ) {
    assert.match(run.out, line);
  }
  assert.ok(!run.out.includes('sandbox-password'));
});
