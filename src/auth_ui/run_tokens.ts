/**
 * Names of the permanent tokens a contract run creates: each carries its
 * run's id and its creation time, so that a run (or the CLI's cleanup) revokes
 * only its own tokens, plus tokens of runs older than a maximum age (a crashed
 * run's), and never a concurrent run's or a person's token.
 */
import { systemClock } from '../clock.ts';
import { escapeRegExp } from './label_match.ts';

/** Every contract-run token name starts with this. */
const RUN_TOKEN_PREFIX = 'contract-test';

/** How old another run's tokens must be before a cleanup revokes them. */
export const DEFAULT_MAX_AGE_MS = 24 * 3600_000;

const RUN_ID = /^[\w.-]{1,64}$/;
/** A creation time's pattern, as {@link stamp} writes it. */
const STAMP = '\\d{8}T\\d{6}Z';
/** The name of a token a run created: its run, its creation time and its label. */
export const RUN_TOKEN_NAME = new RegExp(`^${RUN_TOKEN_PREFIX} run=([\\w.-]{1,64}) at=(${STAMP}) ([^]*)$`);

/** A creation time as names carry it: `20261123T011500Z`. */
function stamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/**
 * A new run id: the start time and a random suffix, e.g. `20261123T011500Z-3f9a`.
 *
 * @param now the start time
 * @returns the id
 */
export function newRunId(now: Date = new Date(systemClock.wallNow())): string {
  return `${stamp(now)}-${crypto.randomUUID().slice(0, 4)}`;
}

/**
 * Checks a run id given by a user or CI (`SLICER_CONTRACT_RUN_ID`, `--run`).
 *
 * @param id the id
 * @returns the id
 * @throws Error naming the rule when it has other characters or is too long
 */
export function checkRunId(id: string): string {
  if (!RUN_ID.test(id)) throw new Error(`A run id is 1-64 letters, digits, ".", "_" or "-"; got "${id}"`);
  return id;
}

/**
 * The name of a token a run creates.
 *
 * @param runId the run
 * @param at when it is created
 * @param label what it is for (test id, purpose)
 * @returns e.g. `contract-test run=20261123T011500Z-3f9a at=20261123T011502Z 4be1c2 revoke`
 */
export function runTokenName(runId: string, at: Date, label: string): string {
  return `${RUN_TOKEN_PREFIX} run=${checkRunId(runId)} at=${stamp(at)} ${label}`;
}

/**
 * The run, creation time and label a token name carries.
 *
 * @param name a token name
 * @returns them, or undefined for a name no run made
 */
export function parseRunTokenName(name: string): { runId: string; createdAt: Date; label: string } | undefined {
  const match = RUN_TOKEN_NAME.exec(name);
  if (!match) return undefined;
  const [, runId, at, label] = match as unknown as [string, string, string, string];
  const iso = `${at.slice(0, 4)}-${at.slice(4, 6)}-${at.slice(6, 8)}T${at.slice(9, 11)}:${at.slice(11, 13)}:${at.slice(13, 15)}Z`;
  return { runId, createdAt: new Date(iso), label };
}

/**
 * The names of the tokens a test of a run makes, on any attempt: they carry the run and start their label with the
 * test's tag.
 *
 * @param runId the run
 * @param tag the test's tag, as its names carry it (`4be1c2` in `… 4be1c2 revoke`)
 * @returns the pattern, anchored at the start
 */
export function testTokenNames(runId: string, tag: string): RegExp {
  return new RegExp(`^${RUN_TOKEN_PREFIX} run=${escapeRegExp(checkRunId(runId))} at=${STAMP} ${escapeRegExp(tag)} `);
}

/**
 * Whether a cleanup for one run revokes a token: it is that run's, or another
 * run's older than the maximum age. A token no run made is never revoked.
 *
 * @param name the token's name
 * @param runId the run being cleaned up
 * @param now the current time
 * @param maxAgeMs the age past which another run's tokens are swept
 * @returns true to revoke
 */
export function cleanupRevokes(name: string, runId: string, now: Date, maxAgeMs: number = DEFAULT_MAX_AGE_MS): boolean {
  const parsed = parseRunTokenName(name);
  if (!parsed) return false;
  return parsed.runId === runId || now.getTime() - parsed.createdAt.getTime() > maxAgeMs;
}
