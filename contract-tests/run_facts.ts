/**
 * What a contract run checked, for the head of its compliance report: the
 * target, the run or the merged shards' runs with their seeds, the suite's
 * version, start and end, and what stopped the run outside any test.
 */
import process from 'node:process';
import type { FullResult, TestCase } from '@playwright/test/reporter';
import { packageVersion } from '../src/package_info.ts';

/** What a run checked, for the report's head. */
export interface RunFacts {
  /** The target line (kind and origins), as the tests noted it. */
  target: string;
  /** Whether the target was a live service. */
  live: boolean;
  /** The run id the tests' permanent tokens carry; for merged shards that ran as runs of their own, each, joined by ", ". */
  runId: string;
  /** The seed of the run's generated values: `SLICER_CONTRACT_SEED=<seed>` replays them; of merged runs, each, joined by ", ". */
  seed: string;
  /** Every run the tests noted, with its seed, in the order first noted: one, or one per shard of a merge. */
  runs: { runId: string; seed: string }[];
  /** slicer-auth version of the suite. */
  version: string;
  startedAt: string;
  endedAt: string;
  /** `shard 1/2`, `merged shards` or `whole run`. */
  part: string;
  /** What stopped the run outside any test (a global setup that refused to start), each its first line. */
  errors: string[];
}

/** The report head's lines. */
export function factLines(facts: RunFacts): string[] {
  return [
    `Target: ${facts.target}`,
    facts.runs.length > 1
      ? `Runs: ${facts.runs.map((run) => `${run.runId} (seed ${run.seed})`).join(', ')} (${facts.part}); ` +
        "SLICER_CONTRACT_SEED=<a run's seed> replays that run's generated values"
      : `Run: ${facts.runId} (${facts.part}); generated values from seed ${facts.seed} (SLICER_CONTRACT_SEED=${facts.seed} replays them)`,
    `Suite: slicer-auth ${facts.version}`,
    `From ${facts.startedAt} to ${facts.endedAt}`,
    ...facts.errors.map((error) => `Stopped: ${error}`),
  ];
}

/**
 * What a run checked, from its tests' notes and the run's times.
 *
 * @param tests the run's tests (each notes the target and run id)
 * @param result the run's result (start and duration)
 * @param part which part of a run this report covers
 * @param errors what stopped the run outside any test
 * @returns the facts
 */
export function runFacts(
  tests: readonly TestCase[],
  result: Pick<FullResult, 'startTime' | 'duration'>,
  part: string,
  errors: readonly string[] = [],
): RunFacts {
  /** A test's note of a type: the test's own annotation, or its last result's. */
  const noteOf = (test: TestCase, type: string) =>
    [...test.annotations, ...(test.results.at(-1)?.annotations ?? [])].find((a) => a.type === type)?.description;
  const target = tests.map((test) => noteOf(test, 'target')).find(Boolean) ?? 'not reached (no test ran)';
  const runs = new Map<string, string>();
  for (const test of tests) {
    const run = noteOf(test, 'run');
    if (run && !runs.has(run)) runs.set(run, noteOf(test, 'seed') ?? 'none');
  }
  if (runs.size === 0) runs.set(process.env.SLICER_CONTRACT_RUN_ID ?? 'unknown', process.env.SLICER_CONTRACT_SEED ?? 'none');
  return {
    target,
    live: target.startsWith('live'),
    runId: [...runs.keys()].join(', '),
    seed: [...runs.values()].join(', '),
    runs: [...runs].map(([runId, seed]) => ({ runId, seed })),
    version: packageVersion(),
    startedAt: result.startTime.toISOString(),
    endedAt: new Date(result.startTime.getTime() + result.duration).toISOString(),
    part,
    errors: [...errors],
  };
}
