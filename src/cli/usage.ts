/**
 * Usage errors, exit codes and the context of the CLI's commands.
 */
import type { Clock } from '../clock.ts';
import { closest } from '../closest.ts';
import { parseScope, SCOPE_FORMS, type ScopeInput, SERVICES } from '../settings/services.ts';

/** Exit codes: documented in the README and in `--help`. */
export const EXIT = {
  OK: 0,
  /** The token endpoint or a service refused or failed. */
  FAILED: 1,
  /** Wrong command line. */
  USAGE: 2,
  /** Missing or malformed configuration. */
  CONFIG: 3,
} as const;

/** A wrong command line; its message says what to type instead. */
export class UsageError extends Error {
  /** @param message what is wrong, and the usage line */
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What a command works with: its output streams and the environment it reads its settings from; injectable for tests. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Writes bytes to standard output as they are: an answer that is no UTF-8 text (an archive, an image). */
  raw(bytes: Uint8Array): void;
  /**
   * The variables the command reads its settings from (then `.env`, or the file `SLICER_ENV_FILE` names in them).
   * @default process.env
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** What a command's own time limits run on (`call --timeout`). @default the system clock */
  readonly clock?: Clock | undefined;
}

/** The process's streams and environment. */
export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  raw: (bytes) => process.stdout.write(bytes),
};

/**
 * What a command's client reads and where it logs: the command's environment, and its standard error.
 *
 * @param io the command's context
 * @returns client options
 */
export function clientContext(io: Io): { env: Io['env']; logger: { warn(message: string): void } } {
  return { env: io.env, logger: { warn: (message) => io.err(`[slicer-auth] ${message}`) } };
}

/**
 * A flag's number, written in decimal digits, with a fractional part where `fraction` allows one. Any other text is
 * `NaN`, which the caller's range check refuses: `Number` would read an empty value or a space as 0 and take hex or
 * exponents (`--port=` would pick a random port).
 *
 * @param value what was given
 * @param fraction whether digits after a point are allowed
 * @returns the number, or `NaN`
 */
export function numberFlag(value: string, fraction = false): number {
  return (fraction ? /^\d+(\.\d+)?$/ : /^\d+$/).test(value) ? Number(value) : Number.NaN;
}

/**
 * A `--scope` value: a service's name or `service_id=<id>`.
 *
 * @param value what was given
 * @returns the scope
 * @throws {UsageError} naming the accepted values
 */
export function scopeFlag(value: string): ScopeInput {
  try {
    return parseScope(value);
  } catch {
    const suggestion = closest(value, SERVICES.map((s) => s.name));
    throw new UsageError(`--scope takes ${SCOPE_FORMS}, got "${value}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`);
  }
}
