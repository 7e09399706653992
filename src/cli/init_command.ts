/**
 * `slicer-auth init [--sandbox [--port N]] [--force]`: the first ten minutes
 * in one command. Writes `.env` — the lines of `slicer-auth sandbox` on that
 * port, or every setting with its doc, commented placeholders — and a first
 * script, `first-call.mts`, that runs unchanged under `npx tsx`, Bun and Deno
 * in any project (`.mts` is a module whatever package.json says). Never a
 * secret from the command line: the password is the sandbox's own, or yours
 * to type into `.env`. A project's own `.env` that sets no `SLICER_` variable
 * keeps its lines: the settings go after them. In a git work tree that does
 * not ignore `.env` yet, it adds `.env` to the folder's `.gitignore`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SANDBOX_PORT } from '../defaults.ts';
import { makeFolders } from '../folders.ts';
import { importableFrom } from '../package_info.ts';
import { createSandbox } from '../sandbox/mod.ts';
import { sandboxCommand } from '../token_source/network_cause.ts';
import { renderEnvExample } from './env_example.ts';
import { envLines } from './sandbox_command.ts';
import { EXIT, type Io, numberFlag, UsageError } from './usage.ts';

/** How to install the package for the first script, on each runtime. */
const INSTALL = 'npm install slicer-auth tsx (or: bun add slicer-auth, deno add npm:slicer-auth)';

/** How to run the first script, on each runtime. */
const RUN_FIRST_CALL = 'npx tsx first-call.mts (or: bun first-call.mts, deno run -A first-call.mts)';

/** Help text of the command. */
export const INIT_HELP = `Usage: slicer-auth init [--sandbox [--port N]] [--force] [--dir PATH]

Writes .env and a first script, first-call.mts, in the current folder (or --dir).

  --sandbox   .env points at "slicer-auth sandbox" (run it in another terminal);
              without it, .env lists every setting to fill in, with its meaning
  --port N    the sandbox's port (default ${SANDBOX_PORT}, as "slicer-auth sandbox" uses)
  --force     overwrite .env and first-call.mts if they exist (a .env that sets no
              SLICER_ variable yet keeps its lines: the settings are added after them)
  --dir PATH  write them there instead (made if missing)

In a git work tree, .env is added to the folder's .gitignore unless git ignores it already.

Then: ${RUN_FIRST_CALL}`;

/** The command's options (for parseArgs and shell completion). */
export const INIT_OPTIONS = {
  sandbox: { type: 'boolean' },
  port: { type: 'string' },
  force: { type: 'boolean' },
  dir: { type: 'string' },
} as const;

/** The first script: a token and one call, closing the client so that the process exits. */
const FIRST_CALL = `// A first call with slicer-auth. Run it with: ${RUN_FIRST_CALL}
// Settings come from the environment, then .env (node_modules/slicer-auth/.env.example describes each).
import { createAuthClient } from 'slicer-auth';

const client = createAuthClient();
try {
  const info = await client.getTokenInfo(); // scope "slicer"; 'predict' for the prediction service
  console.log(\`Token for \${info.scope} (\${info.source}), valid until \${info.expiresAt?.toISOString() ?? 'revoked (permanent token)'}\`);
  const response = await client.tokenFetch('jobs'); // a path under SLICER_BASE_URL
  console.log(\`GET \${client.baseUrl()}/jobs → \${response.status}\`, await response.text());
} finally {
  await client.close();
}
`;

/**
 * Writes the files.
 *
 * @param args the arguments after `init`
 * @param io output streams
 * @returns the exit code
 */
export async function initCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: INIT_OPTIONS, strict: true });
  const port = values.port === undefined ? SANDBOX_PORT : numberFlag(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--port must be a port number, got "${values.port}"`);
  if (values.port !== undefined && !values.sandbox) throw new UsageError('--port goes with --sandbox');
  const files = {
    '.env': values.sandbox
      ? `# The embedded sandbox: start it with "${sandboxCommand(port)}" in another terminal.\n${
        envLines({ env: createSandbox().serveAt(`http://127.0.0.1:${port}`) }).join('\n')
      }\n`
      : renderEnvExample(),
    'first-call.mts': FIRST_CALL,
  };
  const dir = values.dir ?? '.';
  // A .env that sets no SLICER_ variable is the project's own (or empty): the settings go after its lines. One that
  // sets any is taken as written by init, and kept unless --force.
  const own = readIfThere(join(dir, '.env'));
  const settingsFree = own !== undefined && !SETS_SLICER.test(own);
  const added = settingsFree && own.trim() !== '';
  if (added) files['.env'] = `${own}${own.endsWith('\n') ? '' : '\n'}\n${files['.env']}`;
  const existing = Object.keys(files).filter((file) => existsSync(join(dir, file)) && !(settingsFree && file === '.env'));
  if (existing.length > 0 && !values.force) {
    io.err(`${existing.join(' and ')} already exist${existing.length > 1 ? '' : 's'}: nothing was written (--force overwrites)`);
    return EXIT.FAILED;
  }
  try {
    makeFolders(dir); // a new project's folder, as `git init PATH` makes its own
  } catch (error) {
    io.err(
      `Cannot make the folder ${dir} (${(error as { code?: string }).code}): nothing was written; give --dir a folder you can write to`,
    );
    return EXIT.FAILED;
  }
  for (const [file, text] of Object.entries(files)) {
    writeFileSync(join(dir, file), text, { mode: 0o600 });
    chmodSync(join(dir, file), 0o600); // a file that was there keeps its mode on write: this one will hold a password
    io.out(added && file === '.env' ? `added the settings to ${join(dir, file)}, after its own lines` : `wrote ${join(dir, file)}`);
  }
  const gitignore = ignoreEnvInGit(dir);
  if (gitignore) io.out(`added .env to ${gitignore}, so that git does not take the password it will hold`);
  // The first script reads the .env of the folder it runs in: from another folder, it first goes to the new one. It
  // imports the package by name: where that cannot be, the package is installed first.
  const run = [
    ...(resolve(dir) === resolve('.') ? [] : [`cd ${shellWord(dir)}`]),
    ...(importableFrom(dir) ? [] : [INSTALL]),
    RUN_FIRST_CALL,
  ].join(', then ');
  io.out(
    values.sandbox
      ? `Next: "${sandboxCommand(port)}" in another terminal, then ${run}.`
      : `Next: fill in .env (the URLs, your user and password, the service ids), then ${run}.`,
  );
  return EXIT.OK;
}

/** A line of an env file that sets a SLICER_ variable (`export` allowed, as dotenv reads it). */
const SETS_SLICER = /^\s*(?:export\s+)?SLICER_\w*\s*=/m;

/**
 * A file's text, when it is there.
 *
 * @param path the file
 * @returns its text, or undefined when there is no file to read
 */
function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    // none, or not a file to read (then it counts as there, and is kept)
  }
  return undefined;
}

/**
 * A path as a POSIX shell reads it as one word: as it is when it holds only characters no shell treats specially,
 * else in single quotes.
 *
 * @param path the path
 * @returns the word
 */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/**
 * Makes git ignore the new `.env` where the folder is in a git work tree that does not ignore it yet: `.env` on a line
 * of its own at the end of the folder's `.gitignore` (made when missing).
 *
 * @param dir the folder of `.env`
 * @returns the `.gitignore` written; undefined when none was (no git, no work tree, or `.env` ignored already)
 */
function ignoreEnvInGit(dir: string): string | undefined {
  // git check-ignore exits 0 for an ignored path, 1 for one that is not, 128 outside a work tree; without git, no status.
  let status: number | null;
  try {
    status = spawnSync('git', ['check-ignore', '-q', '.env'], { cwd: dir, stdio: 'ignore' }).status;
  } catch {
    return undefined; // a runtime that may not run programs (Deno without --allow-run)
  }
  if (status !== 1) return undefined;
  const file = join(dir, '.gitignore');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  writeFileSync(file, `${before}${before === '' || before.endsWith('\n') ? '' : '\n'}.env\n`);
  return file;
}
