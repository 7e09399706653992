/**
 * Test harness: a sandbox in test mode on loopback, plus clients pointed at it
 * that share one controllable clock with the sandbox. Imported by tests only.
 */
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
