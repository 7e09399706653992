/**
 * `slicer-auth doctor`: every check of a set-up, in order, each with a status,
 * a reason and, for a failure or a warning, the exact fix. The checks are a
 * table of small named checks; each reads what earlier ones learnt.
 *
 * Read only: at most one token request per scope (no retries, so an account
 * is never locked by the doctor), tokens sent only where the client itself
 * would send them, no permanent token created or revoked, nothing written to
 * a shared store unless `--write-check` is given, no secret shown (only
 * "set, N characters").
 */
import { authServiceChecks } from './auth_service_checks.ts';
import { type Check, type DoctorContext, type DoctorOptions, type DoctorScope, fail, type Outcome, type Status } from './check.ts';
import { systemClock } from '../../clock.ts';
import { configurationCheck } from './config_check.ts';
import { envFileCheck } from './env_file_check.ts';
import { permanentCheck } from './permanent_check.ts';
import { runtimeCheck } from './runtime_check.ts';
import { serviceCheck } from './service_check.ts';
import { SERVICES } from '../../settings/services.ts';
import { storeCheck } from './store_check.ts';
import { tokenRequestCheck } from './token_request_check.ts';

export type { DoctorOptions, Status };

/** One line of the doctor's report. */
export interface CheckResult extends Outcome {
  /** The check's stable id. */
  readonly id: string;
  readonly name: string;
  readonly durationMs: number;
}

/**
 * The checks, in the order they run: token requests before the service
 * checks, which use their tokens (and explain a refusal with the other's).
 *
 * @param scopes the scopes to check
 * @returns the table
 */
function doctorChecks(scopes: readonly DoctorScope[]): readonly Check[] {
  const services = SERVICES.filter((service) => scopes.includes(service.name));
  return [
    runtimeCheck,
    configurationCheck,
    envFileCheck,
    ...authServiceChecks,
    ...services.map(tokenRequestCheck),
    ...services.map(serviceCheck),
    permanentCheck,
    storeCheck,
  ];
}

/**
 * Runs every check.
 *
 * @param options where the configuration comes from, which scopes to check, and whether a write is allowed
 * @returns one result per check that applies, in order
 */
export async function runDoctor(options: DoctorOptions = {}): Promise<CheckResult[]> {
  const clock = options.clock ?? systemClock;
  const ctx: DoctorContext = {
    options,
    clock,
    config: undefined,
    grants: new Map(),
    failed: new Set(),
    unanswered: new Set(),
    credentialsRefusedFor: undefined,
  };
  const results: CheckResult[] = [];
  for (const check of doctorChecks(options.scopes ?? SERVICES.map((service) => service.name))) {
    const started = clock.now();
    let outcome: Outcome | undefined;
    try {
      outcome = await check.run(ctx);
    } catch (error) {
      outcome = fail((error as Error).message, 'see the reason above');
    }
    if (!outcome) continue;
    if (outcome.status === 'fail') ctx.failed.add(check.id);
    results.push({ id: check.id, name: check.name, ...outcome, durationMs: Math.round(clock.now() - started) });
  }
  return results;
}
