/**
 * Usage errors and exit codes of the CLI.
 */

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

/** Output streams of a command, injectable for tests. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** The process's streams. */
export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};
