/**
 * `npm run test:consumers`: the package as its users get it. Packs the
 * tarball (`npm pack`, which builds), installs it into fresh scratch projects
 * outside the clone, and in each runs a script that calls `getToken()` and
 * `authedFetch().json()` against a sandbox and must exit by itself; each
 * project's own type-check runs too. Plus `deno publish --dry-run`.
 *
 * - Node: plain `node` on an `.mjs` file, and `npx tsx` on a `.ts` file;
 *   `tsc --noEmit` with the defaults of `tsc --init`.
 * - Deno: the npm-installed package imported by name, `deno run` with only
 *   `--allow-env --allow-net --allow-read`; `deno check`.
 * - Bun: `bun add <tarball>`, `bun run`; `tsc` with `bun init`'s tsconfig and bun-types.
 * - The README's quick start, literally, in a project made by `npm init -y`
 *   (CommonJS by default), one made by `bun init`, and a bare Deno folder:
 *   `demo`, `init --sandbox`, `sandbox` in the background, `first-call.mts`
 *   on each runtime; and every TypeScript block of the README type-checked
 *   against the installed package.
 * - The nightly check: `npx slicer-auth contract` runs the packaged suite
 *   with the user's @playwright/test against the sandbox (its service part
 *   whole, its browser part through the login and creating steps 1-8; the
 *   clone's own run covers the rest), and `--merge` merges its blob report;
 *   a live target with blank settings refuses to start; without Playwright
 *   it names the install.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { startSandbox } from '../src/sandbox/mod.ts';
import { freePort, ROOT, runProcess } from '../src/testing/processes.ts';

const DENO = ['npx', '--yes', 'deno@2.9.6'];
const BUN = ['npx', '--yes', 'bun@1.4.5'];
const INSTALL = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
/** The quick start's calls run with no SLICER_* variable of the test's sandbox: the .env that init wrote is what they read. */
const BARE = {
  env: {
    SLICER_AUTH_URL: undefined,
    SLICER_BASE_URL: undefined,
    SLICER_USERNAME: undefined,
    SLICER_PASSWORD: undefined,
    SLICER_SERVICE_ID: undefined,
  },
};
/** The user's Playwright: the version this repository tests with. */
const PLAYWRIGHT = `@playwright/test@${
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies[
    '@playwright/test'
  ]?.replace(/^\^/, '')
}`;

const SCRIPT = `import { authedFetch, getToken, isAuthError } from 'slicer-auth';

const token: string = await getToken();
const answer = await authedFetch('consumer').json<{ status: string; service: string }>();
if (!token || answer.status !== 'success') throw new Error('unexpected answer');
try {
  await getToken('predict', { minValidity: 10 });
} catch (error) {
  if (!isAuthError(error)) throw error;
}
console.log('consumer ok', answer.service);
`;
/** The same script without types, for plain node. */
const MJS = SCRIPT.replace(': string', '').replace('<{ status: string; service: string }>', '');

const sandbox = await startSandbox();
const scratch = mkdtempSync(join(tmpdir(), 'slicer-consumers-'));
const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...sandbox.env, NO_COLOR: '1' };
let passed = 0;
let failed = 0;

async function check(
  name: string,
  cwd: string,
  command: string[],
  expected: RegExp,
  extra: { env?: Record<string, string | undefined>; code?: number; timeoutMs?: number } = {},
): Promise<boolean> {
  const [bin, ...args] = command as [string, ...string[]];
  const result = await runProcess(bin, args, { ...env, ...extra.env }, extra.timeoutMs ?? 240_000, cwd);
  const output = result.out + result.err;
  const ok = result.code === (extra.code ?? 0) && expected.test(output);
  if (ok) passed++;
  else failed++;
  console.log(ok ? `✔ ${name} (${result.seconds.toFixed(1)} s)` : `✖ ${name} (exit ${result.code})\n${output.slice(-3000)}`);
  return ok;
}

/**
 * Runs `slicer-auth sandbox --port <port>` in the background, as the quick start's second terminal, until stopped.
 *
 * @param cwd the project
 * @param command how the project runs the CLI
 * @param port the port
 * @returns a stop function, once the sandbox printed its lines; it ends the launcher and the sandbox it started (npx and
 *   `bun x` do not pass a signal on), and resolves once they are gone
 */
async function backgroundSandbox(cwd: string, command: string[], port: number): Promise<() => Promise<void>> {
  const [bin, ...args] = command as [string, ...string[]];
  // A process group of its own, so that stopping it reaches the sandbox under the launcher.
  const child = spawn(bin, [...args, 'sandbox', '--port', String(port)], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const closed = new Promise<void>((resolve) => child.stdout.once('close', () => resolve()));
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${out}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Ctrl-C')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return () => {
    process.kill(-(child.pid as number), 'SIGTERM');
    return closed; // the pipe closes when the last process holding it, the sandbox, has ended
  };
}

/** The TypeScript blocks of the README, each a module of its own. */
function readmeBlocks(): Record<string, string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  return Object.fromEntries(blocks.map((block, i) => [`readme-${i + 1}.mts`, block]));
}

function project(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  for (const [file, text] of Object.entries({ 'package.json': JSON.stringify({ name, private: true, type: 'module' }), ...files })) {
    writeFileSync(join(dir, file), text, { flag: 'w' });
  }
  return dir;
}

try {
  if (
    !(await check(
      'npm pack (builds dist/)',
      ROOT,
      ['npm', 'pack', '--pack-destination', scratch, '--loglevel=error'],
      /slicer-auth-\d+\.\d+\.\d+\.tgz/,
    ))
  ) {
    throw new Error('pack');
  }
  const tarball = join(scratch, readdirSync(scratch).find((f) => f.endsWith('.tgz')) as string);

  // Node and Deno: one npm project.
  const node = project('node', { 'script.mjs': MJS, 'script.ts': SCRIPT });
  if (
    await check(
      'npm install <tarball> tsx typescript',
      node,
      ['npm', 'install', ...INSTALL, tarball, 'tsx', 'typescript@7'],
      /added \d+ packages?/,
    )
  ) {
    await check('node script.mjs (plain node, no loader)', node, ['node', 'script.mjs'], /consumer ok slicer/);
    await check('npx tsx script.ts', node, ['npx', 'tsx', 'script.ts'], /consumer ok slicer/);
    await check('npx slicer-auth token (the bin runs the built CLI)', node, ['npx', 'slicer-auth', 'token'], /^[\w-]{20,}$/m);
    await check(
      'npx slicer-auth --help names the installed .env.example, which is there',
      node,
      ['sh', '-c', 'npx slicer-auth --help && test -f node_modules/slicer-auth/.env.example && echo found'],
      /\(node_modules\/slicer-auth\/\.env\.example describes each\)\.\n[\s\S]*^found$/m,
    );
    await check(
      'npx slicer-auth permanent list without Playwright names the install command',
      node,
      ['sh', '-c', 'npx slicer-auth permanent list; test $? -eq 1'],
      /npm install @playwright\/test/,
    );
    await check(
      'npx slicer-auth contract without Playwright names the install command',
      node,
      ['npx', 'slicer-auth', 'contract'],
      /Playwright, which is not installed here: run "npm install -D @playwright\/test"/,
      { code: 1 },
    );
    await check(
      'tsc --init defaults: tsc --noEmit',
      node,
      ['sh', '-c', 'npx tsc --init >/dev/null && npx tsc --noEmit && echo types ok'],
      /^types ok$/m,
    );
    await check(
      'deno run --allow-env --allow-net --allow-read script.ts',
      node,
      [...DENO, 'run', '--allow-env', '--allow-net', '--allow-read', 'script.ts'],
      /consumer ok slicer/,
    );
    await check('deno check script.ts', node, [...DENO, 'check', 'script.ts'], /Check .*script\.ts/);
  }

  // The README's quick start, literally: a project made by `npm init -y` (CommonJS), the sandbox in the background.
  const quick = join(scratch, 'quick-start-npm');
  mkdirSync(quick);
  if (
    await check('quick start, npm: npm init -y, npm install slicer-auth tsx', quick, [
      'sh',
      '-c',
      `npm init -y >/dev/null && npm install ${INSTALL.join(' ')} ${tarball} tsx typescript@7 @types/node@20`,
    ], /added \d+ packages?/)
  ) {
    const quickEnv = {
      env: {
        SLICER_AUTH_URL: undefined,
        SLICER_BASE_URL: undefined,
        SLICER_PREDICT_BASE_URL: undefined,
        SLICER_USERNAME: undefined,
        SLICER_PASSWORD: undefined,
        SLICER_SERVICE_ID: undefined,
        SLICER_PREDICT_SERVICE_ID: undefined,
      },
    };
    await check(
      'quick start, npm: npx --yes slicer-auth demo',
      quick,
      ['npx', '--yes', 'slicer-auth', 'demo'],
      /started the embedded sandbox/,
      quickEnv,
    );
    const port = await freePort();
    await check(
      'quick start, npm: npx slicer-auth init --sandbox',
      quick,
      ['npx', 'slicer-auth', 'init', '--sandbox', '--port', String(port)],
      // Installed here: the next step runs the script, with no install step.
      /wrote \.env[\s\S]*wrote first-call\.mts[\s\S]*in another terminal, then npx tsx first-call\.mts /,
      quickEnv,
    );
    const stop = await backgroundSandbox(quick, ['npx', 'slicer-auth'], port);
    try {
      await check(
        'quick start, npm: npx tsx first-call.mts (in a CommonJS project)',
        quick,
        ['npx', 'tsx', 'first-call.mts'],
        /Token for service_id=sandbox-slicer[\s\S]*\/slicer\/jobs → 200/,
        quickEnv,
      );
    } finally {
      await stop();
    }
    for (const [file, text] of Object.entries(readmeBlocks())) writeFileSync(join(quick, file), text);
    writeFileSync(
      join(quick, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'dom'],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          types: ['node'],
        },
        include: ['readme-*.mts', 'first-call.mts'],
      }),
    );
    await check("the README's TypeScript blocks and first-call.mts type-check against the package", quick, [
      'sh',
      '-c',
      'npx tsc -p . && echo types ok',
    ], /^types ok$/m);
  }

  // Bun: bun add, bun init's tsconfig with bun-types.
  const bun = project('bun', { 'script.ts': SCRIPT });
  if (
    await check('bun init + bun add <tarball>', bun, [
      'sh',
      '-c',
      `${BUN.join(' ')} init -y >/dev/null && ${BUN.join(' ')} add ${tarball} typescript@7`,
    ], /installed slicer-auth@/)
  ) {
    await check('bun run script.ts', bun, [...BUN, 'run', '--no-env-file', 'script.ts'], /consumer ok slicer/);
    // The quick start on Bun: init writes the sandbox's .env (Bun loads it too), the first script as written.
    const port = await freePort();
    await check(
      'quick start, bun: slicer-auth init --sandbox',
      bun,
      [...BUN, 'x', 'slicer-auth', 'init', '--sandbox', '--port', String(port)],
      /wrote first-call\.mts/,
      BARE,
    );
    const stop = await backgroundSandbox(bun, [...BUN, 'x', 'slicer-auth'], port);
    try {
      await check(
        'quick start, bun: bun first-call.mts',
        bun,
        [...BUN, 'first-call.mts'],
        /Token for service_id=sandbox-slicer[\s\S]*\/slicer\/jobs → 200/,
        BARE,
      );
    } finally {
      await stop();
    }
    await check(
      'tsc with bun-types (bun init tsconfig)',
      bun,
      ['sh', '-c', 'rm -f index.ts && npx tsc --noEmit -p . && echo types ok'],
      /^types ok$/m,
    );
  }

  // The quick start in a bare Deno folder: deno.json and the package in node_modules, as `deno add npm:slicer-auth`
  // with node_modules would leave them (the tarball is not on the registry), no package.json.
  const denoDir = join(scratch, 'quick-start-deno');
  mkdirSync(denoDir);
  writeFileSync(join(denoDir, 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual' }));
  if (
    await check('quick start, deno: a bare folder with the package', denoDir, [
      'sh',
      '-c',
      `npm install --no-save --no-package-lock ${INSTALL.join(' ')} ${tarball} && test ! -e package.json && echo bare ok`,
    ], /bare ok/)
  ) {
    const port = await freePort();
    const cli = [...DENO, 'run', '-A', 'node_modules/slicer-auth/bin/slicer-auth.js'];
    await check(
      'quick start, deno: slicer-auth init --sandbox',
      denoDir,
      [...cli, 'init', '--sandbox', '--port', String(port)],
      /wrote first-call\.mts/,
      BARE,
    );
    const stop = await backgroundSandbox(denoDir, cli, port);
    try {
      await check(
        'quick start, deno: deno run -A first-call.mts',
        denoDir,
        [...DENO, 'run', '-A', 'first-call.mts'],
        /Token for service_id=sandbox-slicer[\s\S]*\/slicer\/jobs → 200/,
        BARE,
      );
    } finally {
      await stop();
    }
  }

  // The nightly contract check, from the installed package and the user's own Playwright.
  const contract = project('contract', {});
  if (
    await check(
      'npm install <tarball> @playwright/test',
      contract,
      ['npm', 'install', ...INSTALL, tarball, PLAYWRIGHT],
      /added \d+ packages?/,
    )
  ) {
    // The packaged suite's service part whole, and its browser part through one test: each run loads every spec file
    // of its projects from the bundle, and the login and the creation steps run in the user's Playwright. The whole
    // suite runs from the sources in `npm run test:contract`; here it cost two more minutes for what these show.
    await check(
      'npx slicer-auth contract --target sandbox --project api --project clock (the packaged suite, service part)',
      contract,
      ['npx', 'slicer-auth', 'contract', '--target', 'sandbox', '--workers=2', '--project', 'api', '--project', 'clock', '--no-deps'],
      /Target: sandbox \(embedded\)[\s\S]*✔ 4\.1 rule 1 · rule · (\d+)\/\1 · 0 ·[\s\S]*✔ 5\.2\/8 validity · rule · 1\/2 · 0 · 1 ·/,
      { timeoutMs: 300_000 },
    );
    await check(
      'npx slicer-auth contract --target sandbox --project ui (the packaged suite, browser part: login and creating steps 1-8)',
      contract,
      ['npx', 'slicer-auth', 'contract', '--target', 'sandbox', '--project', 'ui', '--grep', 'creating, steps 1'],
      /Target: sandbox \(embedded\)[\s\S]*5\.3 creating steps 1-8 · rule · 1\/1/,
      { timeoutMs: 300_000 },
    );
    await check(
      'npx slicer-auth contract --merge (the blob reports of shards, here the one of that run)',
      contract,
      ['npx', 'slicer-auth', 'contract', '--merge'],
      /Run: [\w.-]+ \(merged shards\)[\s\S]*5\.3 creating steps 1-8 · rule · 1\/1/,
    );
    await check(
      'npx slicer-auth contract --target live with blank settings refuses to start, never the sandbox',
      contract,
      ['npx', 'slicer-auth', 'contract', '--target', 'live'],
      /live service \(SLICER_CONTRACT_TARGET=live\)[\s\S]*- SLICER_AUTH_URL: missing/,
      { env: { SLICER_AUTH_URL: '', SLICER_BASE_URL: '', SLICER_PREDICT_BASE_URL: '' }, code: 3 },
    );
  }

  await check(
    'npm publish --dry-run (npm, as the release workflow publishes)',
    ROOT,
    ['npm', 'publish', '--dry-run', '--ignore-scripts'],
    /\+ slicer-auth@\d+\.\d+\.\d+/,
  );
  await check('deno publish --dry-run (JSR)', ROOT, [...DENO, 'publish', '--dry-run', '--allow-dirty'], /Success Dry run complete/);
} finally {
  await sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`consumers: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
