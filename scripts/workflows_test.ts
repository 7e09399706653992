/**
 * The project's GitHub workflows and its reusable action say what the README
 * promises: CI on push and pull request running the README's test command on
 * Node 20, 22 and 24, Deno and Bun, and the publish dry runs; a release only
 * after CI passes; the weekly mutation run; the nightly example through the
 * action, which uploads only reports the leak self-test proves clean, and
 * whose shards are runs of their own.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { test } from 'node:test';
import { parse } from 'yaml';
import { checkRunId } from '../src/auth_ui/run_tokens.ts';
import { scratchDir } from '../src/testing/scratch.ts';

type Workflow = {
  on: Record<string, unknown>;
  jobs: Record<
    string,
    {
      needs?: string | string[];
      uses?: string;
      strategy?: { matrix?: { node?: number[] } };
      steps?: { run?: string; uses?: string; with?: Record<string, unknown> }[];
    }
  >;
};
const load = (path: string) => parse(readFileSync(path, 'utf8')) as Workflow;
const runs = (workflow: Workflow) =>
  Object.values(workflow.jobs).flatMap((job) => job.steps ?? []).map((step) => step.run ?? '').join('\n');

/** A step of the reusable action. */
type ActionStep = { id?: string; name?: string; run?: string; env?: Record<string, string>; with?: Record<string, string> };
/** The reusable action's steps, in order. */
const actionSteps = () => (parse(readFileSync('action.yml', 'utf8')) as { runs: { steps: ActionStep[] } }).runs.steps;

/**
 * Runs a step's script as GitHub's runner runs a `shell: bash` step.
 *
 * @param script the step's `run`
 * @param env its variables (PATH besides)
 * @param cwd its working directory
 * @returns its exit code and output
 */
function runStep(script: string | undefined, env: Record<string, string>, cwd?: string) {
  const run = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script ?? ''], {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

test("CI runs on push and pull request: the README's test command on Node 20, 22 and 24, Deno and Bun, the publish dry runs", () => {
  const ci = load('.github/workflows/ci.yml');
  assert.ok('push' in ci.on && 'pull_request' in ci.on && 'workflow_call' in ci.on);
  assert.deepEqual(ci.jobs.test?.strategy?.matrix?.node, [20, 22, 24]);
  assert.match(runs(ci), /bash \.ci\/run/);
  assert.match(readFileSync('.ci/run', 'utf8'), /^npm test 2>&1/m, ".ci/run runs the README's test command");
  assert.match(readFileSync('README.md', 'utf8'), /npm ci && npm test/);
  assert.match(runs(ci), /npm run test:runtimes/);
  assert.match(runs(ci), /npm publish --dry-run/);
  assert.match(runs(ci), /deno@[\d.]+ publish --dry-run/);
  assert.ok(
    ci.jobs.test?.steps?.some((step) => step.uses?.startsWith('actions/upload-artifact') && String(step.with?.path).includes('compliance')),
  );
});

test('a release publishes only after CI passes', () => {
  const release = load('.github/workflows/release.yml');
  assert.equal(release.jobs.ci?.uses, './.github/workflows/ci.yml');
  assert.equal(release.jobs.publish?.needs, 'ci');
  assert.match(runs(release), /npm publish --provenance/);
});

test('the nightly example checks staging through the reusable action, which uploads no trace', () => {
  const nightly = load('.github/workflows/contract-nightly.yml');
  assert.ok(nightly.jobs.contract?.steps?.some((step) => step.uses === './'));
  const steps = actionSteps();
  const script = steps.map((step) => step.run ?? '').join('\n');
  for (const command of ['slicer-auth doctor', 'slicer-auth contract', '--target live', 'permanent revoke --run']) {
    assert.ok(script.includes(command), command);
  }
  assert.ok(!readFileSync('action.yml', 'utf8').includes('SLICER_CONTRACT_TRACE: '), 'traces stay off');
  const uploaded = steps.map((step) => step.with?.path ?? '').join('\n');
  assert.ok(!uploaded.includes('artifacts') && !uploaded.includes('trace'), 'no failure artifacts or traces uploaded');
});

test("the action's shards are runs of their own: each has its id, revokes only its tokens and uploads its reports under it", () => {
  const steps = actionSteps();
  const naming = steps.find((step) => step.id === 'run');
  assert.deepEqual(naming?.env, { RUN_ID: '${{ inputs.run-id }}', SHARD: '${{ inputs.shard }}' });
  /** The naming step's script with its inputs. */
  const name = (shard: string) => {
    const output = join(scratchDir('action-output-'), 'output');
    writeFileSync(output, '');
    const run = runStep(naming?.run, { RUN_ID: 'nightly-7-1', SHARD: shard, GITHUB_OUTPUT: output });
    return { code: run.code, output: readFileSync(output, 'utf8'), err: run.err };
  };
  assert.deepEqual(name(''), { code: 0, output: 'id=nightly-7-1\n', err: '' });
  assert.deepEqual(name('1/2'), { code: 0, output: 'id=nightly-7-1-shard-1of2\n', err: '' });
  assert.deepEqual(name('2/2'), { code: 0, output: 'id=nightly-7-1-shard-2of2\n', err: '' });
  assert.equal(checkRunId('nightly-7-1-shard-2of2'), 'nightly-7-1-shard-2of2', 'a run id the suite and revoke --run take');
  for (const shard of ['3/2', '0/2', '1/0', '1-2', '2', 'x/y', '1/2 ']) {
    assert.deepEqual(
      name(shard),
      { code: 1, output: '', err: `The shard input takes i/n with i from 1 to n, such as 1/2; got "${shard}"\n` },
      shard,
    );
  }
  // The suite's tokens, their cleanup and the reports all go by the shard's id.
  const byRunId = steps.filter((step) => step.env?.SLICER_CONTRACT_RUN_ID !== undefined);
  assert.deepEqual(byRunId.map((step) => step.env?.SLICER_CONTRACT_RUN_ID), ['${{ steps.run.outputs.id }}', '${{ steps.run.outputs.id }}']);
  assert.ok(byRunId.some((step) => step.run?.includes('slicer-auth contract')));
  assert.ok(byRunId.some((step) => step.run?.includes('permanent revoke --run "$SLICER_CONTRACT_RUN_ID"')));
  const uploads = steps.filter((step) => step.with?.path?.includes('compliance.json'));
  assert.deepEqual(uploads.map((step) => step.with?.name), ['contract-reports-${{ steps.run.outputs.id }}']);
});

test("the action's last step fails, saying why, unless a live target's report shows no failed clause", () => {
  const verdict = actionSteps().find((step) => step.name?.startsWith('Fail unless'))?.run;
  /** The step's script in a folder whose report is `report` (none when undefined). */
  const judge = (report?: object) => {
    const folder = scratchDir('action-verdict-');
    if (report) {
      mkdirSync(join(folder, 'reports', 'contract'), { recursive: true });
      writeFileSync(join(folder, 'reports', 'contract', 'compliance.json'), JSON.stringify(report));
    }
    return runStep(verdict, {}, folder);
  };
  const live = { live: true, target: 'live: auth https://auth.example', runId: 'n-1', seed: '7', errors: [] };
  const clauses = [{ clause: '4.1 rule 2', status: 'passed' }, { clause: '5.3 revoking', status: 'not checked' }];
  assert.deepEqual(judge({ ...live, clauses }), {
    code: 0,
    out: 'Compliant: live: auth https://auth.example, run n-1, seed 7\n',
    err: '',
  });
  assert.deepEqual(judge(), {
    code: 1,
    out: '',
    err: 'No compliance report: the suite did not run (see the step that failed above)\n',
  });
  assert.deepEqual(
    judge({
      ...live,
      live: false,
      target: 'not reached (no test ran)',
      errors: ['The token endpoint refused the credentials'],
      clauses: [],
    }),
    { code: 1, out: '', err: 'The suite stopped before its tests: The token endpoint refused the credentials\n' },
  );
  assert.deepEqual(judge({ ...live, live: false, target: 'sandbox (embedded)', clauses }), {
    code: 1,
    out: '',
    err: 'The target was not live: sandbox (embedded)\n',
  });
  assert.deepEqual(judge({ ...live, clauses: [...clauses, { clause: '5.1 rule 2', status: 'failed' }] }), {
    code: 1,
    out: '',
    err: 'Failing clauses: 5.1 rule 2\n',
  });
});

test('a weekly workflow runs the mutation tests and uploads their report', () => {
  const weekly = load('.github/workflows/mutation.yml');
  assert.ok('schedule' in weekly.on);
  assert.match(runs(weekly), /npm run test:mutation/);
  assert.ok(
    Object.values(weekly.jobs).flatMap((job) => job.steps ?? []).some((step) => String(step.with?.path).includes('reports/mutation')),
  );
});
