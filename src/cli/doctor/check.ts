/**
 * The shape of the doctor's checks: each is a small named check that reads
 * the shared context and returns an outcome (ok, or a finding with its fix).
 */
import type { Clock } from '../../clock.ts';
import type { Grant } from '../../grant.ts';
import type { Config } from '../../settings/config.ts';
import type { ReadEnvOptions } from '../../settings/env.ts';
import type { Service, ServiceName } from '../../settings/services.ts';

/** How a check ended: ✔ ok, ✖ fail, ! warn, – skip. */
export type Status = 'ok' | 'fail' | 'warn' | 'skip';

/** What a check found. */
export interface Outcome {
  readonly status: Status;
  readonly reason: string;
  /** What to do, for a failure or a warning. */
  readonly fix?: string | undefined;
}

/** Passed. */
export const ok = (reason: string): Outcome => ({ status: 'ok', reason });
/** Failed, with the fix. */
export const fail = (reason: string, fix: string): Outcome => ({ status: 'fail', reason, fix });
/** Works, but something deserves attention; with the fix. */
export const warn = (reason: string, fix: string): Outcome => ({ status: 'warn', reason, fix });
/** Not run, and why. */
export const skip = (reason: string): Outcome => ({ status: 'skip', reason });

/** Options of the doctor. */
export interface DoctorOptions extends ReadEnvOptions {
  /** Limit the scope checks to these. @default every configured scope */
  scopes?: readonly ServiceName[] | undefined;
  /** Also test that the shared store takes a write (a lock on a doctor key, released at once). @default false: read only */
  writeCheck?: boolean | undefined;
  /** Times each check and limits how long a probe waits for an answer. @default the system clock */
  clock?: Clock | undefined;
}

/** What the checks share: the options, and what earlier checks learnt. */
export interface DoctorContext {
  readonly options: DoctorOptions;
  /** The clock of the options, or the system clock. */
  readonly clock: Clock;
  /** The configuration, once the configuration check passed. */
  config: Config | undefined;
  /** Tokens the token-request checks obtained, by scope string. */
  readonly grants: Map<string, Grant>;
  /** Ids of the checks that failed so far. */
  readonly failed: Set<string>;
  /** Ids of the failed checks whose server took the connection but sent no answer in time. */
  readonly unanswered: Set<string>;
  /** The scope whose token request had its credentials refused: no other check sends them again. */
  credentialsRefusedFor: string | undefined;
}

/** One check of the doctor's table. */
export interface Check {
  /** Stable identifier, e.g. `token-request-slicer` (in `--json`). */
  readonly id: string;
  /** Its line's name, e.g. `token request (slicer)`. */
  readonly name: string;
  /** Runs it; undefined when it does not apply (no line). */
  run(ctx: DoctorContext): Outcome | undefined | Promise<Outcome | undefined>;
}

/** A scope the doctor checks: a service of the services table, by name. */
export type DoctorScope = ServiceName;

/**
 * A service's settings as configured.
 *
 * @param config the configuration
 * @param service the service
 * @returns its id, base URL and permanent token (any may be unset)
 */
export function serviceSettings(config: Config, service: Service) {
  return { serviceId: config[service.id.option], baseUrl: config[service.baseUrl.option], token: config[service.staticToken.option] };
}
