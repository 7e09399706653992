/**
 * Reads the client's variables from the process environment and `.env`,
 * remembering where each value came from.
 *
 * Only the fixed list `ENV_KEYS` (from the settings table) is read, one key
 * at a time: Deno with `--allow-env=KEYS` refuses to enumerate `process.env`.
 * `.env` goes through `dotenv.parse` into a plain object; nothing is written
 * to `process.env`, and a variable already set in the environment wins.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { closest } from '../closest.ts';
import { isDenoRefusal } from './deno_refusal.ts';
import { ConfigError } from '../errors.ts';
import { ENV_KEYS, type EnvKey, FORMER_NAMES } from './settings.ts';

/** The runtime's `process` (Node, Bun, Deno 2), not imported: `node:process` as a module costs ~1.5 ms at start-up. */
const process = globalThis.process;

/** The variable that names an explicit env file (read from the environment given, never from a file). */
const ENV_FILE_KEY = 'SLICER_ENV_FILE';

/** Where a setting's value came from. */
export type Source =
  | { readonly kind: 'option' }
  | { readonly kind: 'environment' }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'default' }
  /** The runtime refused to let the variable be read (Deno without `--allow-env`); its value reads as empty. */
  | { readonly kind: 'denied' };

/** A value found for a variable, with its origin. */
export interface Found {
  readonly value: string;
  readonly source: Source;
}

/** Values found for the client's variables; absent keys are unset. */
export type EnvValues = Partial<Record<EnvKey, Found>>;

/** Where {@link readEnv} looks. */
export interface ReadEnvOptions {
  /**
   * Variables to use instead of the process environment.
   * @default process.env
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * Path of the env file, or `false` to read none. A path given here (or in
   * `SLICER_ENV_FILE`) must be readable; the default `.env` is optional.
   * @default ".env" in the current directory
   */
  envFile?: string | false | undefined;
}

/** Tells how a source reads in messages: `environment`, `file <path>`, `option`, … */
export function describeSource(source: Source): string {
  return source.kind === 'file' ? `file ${source.path}` : source.kind;
}

/** The warnings given so far: each is given once per process. */
const warned = new Set<string>();

/**
 * Gives a warning about the settings, once per process.
 *
 * @param message the warning, without secrets
 */
export function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[slicer-auth] ${message}`);
}

/**
 * Says once per process that a variable or an option was renamed.
 *
 * @param former the old name
 * @param current the new one
 */
export function deprecated(former: string, current: string): void {
  warnOnce(`${former} is deprecated: rename it to ${current} (the old name is read until the next minor version)`);
}

/**
 * Says once per process and file that a variable's value was read up to a "#", without the value.
 *
 * @param path the env file
 * @param key the variable
 */
function cutWarning(path: string, key: string): void {
  warnOnce(
    `${path}: ${key} was read up to a "#", which starts a comment in an env file; ` +
      `if the "#" and what follows belong to the value, quote it: ${key}="…"`,
  );
}

/** Stands for a variable the runtime refused to let us read (Deno without `--allow-env`, or with a list lacking it). */
const DENIED = Symbol('denied');

/** One variable, or {@link DENIED}. */
function lookup(env: Readonly<Record<string, string | undefined>>, key: string): string | undefined | typeof DENIED {
  try {
    const value: unknown = env[key];
    return value === undefined || value === null ? undefined : String(value); // a number given in `env` read as text
  } catch {
    return DENIED;
  }
}

/**
 * The variables the runtime refused to let be read, and the flag that grants them.
 *
 * @param found what `readEnv` found
 * @returns the flag (`--allow-env=KEY,…`), or undefined when nothing was refused
 */
export function deniedFlag(found: Readonly<Record<string, Found | undefined>>): string | undefined {
  const denied = Object.entries(found).filter(([, value]) => value?.source.kind === 'denied').map(([key]) => key);
  return denied.length === 0 ? undefined : `--allow-env=${denied.join(',')}`;
}

/** An env file's variables, and those whose unquoted value a "#" ended ({@link cutAtHash}). */
interface EnvFile {
  readonly values: Record<string, string>;
  readonly cut: ReadonlySet<string>;
}

/** No env file. */
const NO_FILE: EnvFile = { values: {}, cut: new Set() };

/**
 * The variables whose unquoted value holds a "#" after no space: dotenv (as Node's `--env-file` and Bun) ends the
 * value there, where a shell would not, so a password holding a "#" would be sent cut short.
 *
 * @param text an env file's text
 * @returns their names
 */
function cutAtHash(text: string): Set<string> {
  // A line that assigns an unquoted value whose first "#" comes first or right after a character that is no space.
  const cutLine = /^\s*(?:export\s+)?([\w.-]+)\s*=(?!\s*['"`])(?:[^#]*[^#\s])?#/;
  // Stryker disable next-line ArrayDeclaration: a name that no variable has is never asked for
  return new Set(text.split(/\r?\n/).flatMap((line) => cutLine.exec(line)?.[1] ?? []));
}

/**
 * Reads an env file into a plain object.
 *
 * @param path the file
 * @param namedBy what named it, `SLICER_ENV_FILE` or the `envFile` option (then it must be readable); none for `.env`
 * @returns the parsed variables and those cut at a "#"; none for a missing optional file
 * @throws {ConfigError} `CONFIG_INVALID` when a named file is missing, or any existing file cannot be read, naming
 *   what named it
 */
function readEnvFile(path: string, namedBy?: string): EnvFile {
  try {
    const text = readFileSync(path, 'utf8');
    return { values: parse(text), cut: cutAtHash(text) };
  } catch (error) {
    const name = (error as { code?: unknown }).code ?? (error as Error).name;
    if (namedBy === undefined && name === 'ENOENT') return NO_FILE;
    // Deno without --allow-read: an optional .env is skipped, once, with the flag to add.
    // Stryker disable all: only Deno refuses a read (Node's fs throws a coded error); npm run test:runtimes checks it
    if (namedBy === undefined && isDenoRefusal(error)) {
      warnOnce(`Skipping ${path}: no permission to read it (Deno: add --allow-read=${path})`);
      return NO_FILE;
    }
    // Stryker restore all
    const by = namedBy === undefined ? '' : `, named by ${namedBy}`;
    throw new ConfigError([{ key: path, message: `cannot read this env file (${String(name)})${by}` }], 'load the env file');
  }
}

const FORMER = new Set(Object.values(FORMER_NAMES)); // the former names of variables, still read

/**
 * Warns once of a `SLICER_` variable of an env file that is not read but close to one of `keys` that is: a misspelt
 * name (`SLICER_PASWORD`) would be ignored without a word. So is `SLICER_ENV_FILE` in a file: it names the file.
 */
function warnUnread(file: EnvFile, path: string, keys: readonly string[]): void {
  for (const name of Object.keys(file.values)) {
    if (name === ENV_FILE_KEY) warnOnce(`${path}: ${name} is ignored in an env file (it names the env file): set it in the environment`);
    if (!name.startsWith('SLICER_') || keys.includes(name) || FORMER.has(name)) continue;
    const near = closest(name, keys);
    if (near) warnOnce(`${path}: ${name} is no variable of slicer-auth, so it is ignored: did you mean ${near}?`);
  }
}

/** A runtime that loads an env file into the environment itself, expanding `$` there: Bun, and Deno with `--env-file`. */
export type Expander = 'bun' | 'deno';

/**
 * What each {@link Expander} expands, `\$` being a `$` to both. Bun: `${NAME}`, `${NAME:-default}` and `$NAME`; any
 * other `$` stays. Deno: `${…}` and `$NAME`, with no default; a `$` before no name is dropped.
 */
const EXPANSIONS: Record<Expander, RegExp> = {
  bun: /\\\$|\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)/g,
  deno: /\\\$|\$\{([^}]*)\}|\$(\w*)/g,
};

/**
 * Whether a runtime made `loaded` from an env file's `written` value (as dotenv reads it) by expanding a `$NAME` of a
 * variable that is not set to nothing: a "$" the file meant as written, as in a password. dotenv and Node's
 * `--env-file` read a `$` as written.
 *
 * @param expander the runtime, and so its rules (undefined: one that expands nothing, Node)
 * @param written the file's value, as dotenv reads it (undefined: none)
 * @param loaded the environment's value
 * @param env the environment
 * @returns true when the runtime's expansion of `written` is `loaded`, and took a variable that is not set
 */
export function expandedUnset(
  expander: Expander | undefined,
  written: string | undefined,
  loaded: string,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (expander === undefined || written === undefined) return false;
  let unset = false;
  const value = (name: string, fallback?: string) => {
    const found = lookup(env, name);
    if (typeof found === 'string') return found;
    if (fallback !== undefined) return fallback;
    unset = true;
    return '';
  };
  const expanded = expander === 'bun'
    ? written.replace(
      EXPANSIONS.bun,
      (whole: string, braced?: string, fallback?: string, bare?: string) =>
        whole === '\\$' ? '$' : value((braced ?? bare) as string, fallback),
    )
    : written.replace(
      EXPANSIONS.deno,
      (whole: string, braced?: string, bare?: string) => whole === '\\$' ? '$' : value((braced ?? bare) as string),
    );
  return unset && expanded === loaded;
}

/** This runtime's expansion, when it is Bun or Deno (whose `--env-file` expands); elsewhere nothing expands. */
// Stryker disable next-line all: Node takes the last branch; npm run test:runtimes and the unit tests under Bun and Deno take the others
const EXPANDER: Expander | undefined = process?.versions?.bun ? 'bun' : process?.versions?.deno ? 'deno' : undefined;

/**
 * Collects variables: the real environment first, then the env file.
 *
 * @param options where to read from
 * @param keys the variables to read: the client's settings unless told otherwise
 * @returns the non-empty values found, by key, with their source; a variable the runtime refused to let be read
 *   (Deno without `--allow-env`) as an empty value from source `denied`
 * @throws {ConfigError} `CONFIG_INVALID` when an explicit env file cannot be read
 * @example
 * ```ts
 * const values = readEnv({ envFile: false });
 * values.SLICER_AUTH_URL?.source; // { kind: 'environment' }
 * ```
 */
export function readEnv<K extends string = EnvKey>(
  options: ReadEnvOptions = {},
  keys: readonly K[] = ENV_KEYS as readonly string[] as K[],
): Partial<Record<K, Found>> {
  const real = options.env ?? process.env;
  const fileKey = lookup(real, ENV_FILE_KEY);
  const named = options.envFile ?? ((fileKey === DENIED ? undefined : fileKey?.trim()) || undefined);
  const path = named === false ? undefined : named ?? '.env';
  const namedBy = named === undefined ? undefined : options.envFile === undefined ? ENV_FILE_KEY : 'the envFile option';
  const file = path === undefined ? NO_FILE : readEnvFile(path, namedBy);
  warnUnread(file, path as string, keys); // without a path, the file is NO_FILE: no variable to warn of
  const values: Partial<Record<K, Found>> = {};
  const find = (key: string, showDenied = true): Found | undefined => {
    const own = lookup(real, key);
    const fromFile = file.values[key];
    const set = own !== DENIED && own !== undefined && own.trim() !== '';
    // The file's value is used when read from it, or when loaded from it into the environment already (Bun does, Deno
    // with --env-file), with a "$" the runtime expanded to nothing read as written, as elsewhere.
    const fromFileUsed = set
      ? own === fromFile || expandedUnset(EXPANDER, fromFile, own, real)
      : fromFile !== undefined && fromFile.trim() !== '';
    if (file.cut.has(key) && (!set || fromFileUsed)) cutWarning(path as string, key);
    if (fromFileUsed) return { value: fromFile as string, source: { kind: 'file', path: path as string } };
    if (set) return { value: own, source: { kind: 'environment' } };
    return own === DENIED && showDenied ? { value: '', source: { kind: 'denied' } } : undefined;
  };
  for (const key of keys) {
    let found = find(key);
    const former = FORMER_NAMES[key];
    // A former name the runtime refuses to show (Deno's --allow-env lists the current names) is unset, not denied.
    if (!found && former && (found = find(former, false))) deprecated(former, key);
    if (found) values[key] = found;
  }
  return values;
}
