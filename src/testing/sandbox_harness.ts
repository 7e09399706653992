/**
 * Test harness: a sandbox in test mode on loopback, plus clients pointed at it
 * that share one controllable clock with the sandbox. Imported by tests only.
 */
import { after, before, beforeEach } from 'node:test';
import { type AuthClient, type AuthClientOptions, createAuthClient } from '../client.ts';
import { type Sandbox, startSandbox } from '../sandbox/mod.ts';

/** A running test sandbox with a shared fake clock. */
export interface Harness {
  readonly sandbox: Sandbox;
  /** The fake monotonic clock of the clients, ms. */
  now(): number;
  /** Moves the clients' clock and the sandbox's clock forward together. */
  advance(seconds: number): void;
  /** A client of the sandbox using the fake clock; options override. */
  client(options?: AuthClientOptions): AuthClient;
  /** Warnings the clients logged. */
  readonly warnings: string[];
  /** Tokens issued so far, by service id. */
  issued(serviceId?: string): number;
  close(): Promise<void>;
}

/**
 * Starts a test sandbox.
 *
 * @returns the harness; close it in `after`
 */
export async function startHarness(): Promise<Harness> {
  const sandbox = await startSandbox({ testMode: true });
  let time = 1_000_000;
  const warnings: string[] = [];
  return {
    sandbox,
    now: () => time,
    advance(seconds) {
      time += seconds * 1000;
      sandbox.clock.advance(seconds * 1000);
    },
    client: (options = {}) =>
      createAuthClient({
        env: sandbox.env,
        envFile: false,
        now: () => time,
        random: () => 0.5,
        logger: { warn: (message) => warnings.push(message) },
        ...options,
      }),
    warnings,
    issued: (serviceId = sandbox.env.SLICER_SERVICE_ID) => sandbox.store.stats().issued[serviceId] ?? 0,
    close: () => sandbox.close(),
  };
}

/**
 * The harness of a test file's tests: started before the first, closed after the last; before each test its sandbox
 * is reset (no token, fault, violation or count left by another) and its warnings cleared. Call it at the top of the
 * file: the hooks it registers run before the file's own.
 *
 * @returns the harness, whose members are there once the file's first test starts
 */
export function harnessForFile(): Harness {
  const shared = {} as Harness;
  before(async () => {
    Object.assign(shared, await startHarness());
  });
  after(() => shared.close());
  beforeEach(() => {
    shared.sandbox.store.reset();
    shared.warnings.length = 0;
  });
  return shared;
}
