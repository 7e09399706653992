/**
 * The project's GitHub workflows and its reusable action say what the README
 * promises: CI on push and pull request running the README's test command on
 * Node 20, 22 and 24, Deno and Bun, and the publish dry runs; a release only
 * after CI passes; the weekly mutation run; the nightly example through the
 * action, which uploads only reports the leak self-test proves clean.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';

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
  const action = parse(readFileSync('action.yml', 'utf8')) as { runs: { steps: { run?: string; with?: { path?: string } }[] } };
  const script = action.runs.steps.map((step) => step.run ?? '').join('\n');
  for (const command of ['slicer-auth doctor', 'slicer-auth contract', '--target live', 'permanent revoke --run']) {
    assert.ok(script.includes(command), command);
  }
  assert.ok(!readFileSync('action.yml', 'utf8').includes('SLICER_CONTRACT_TRACE: '), 'traces stay off');
  const uploaded = action.runs.steps.map((step) => step.with?.path ?? '').join('\n');
  assert.ok(!uploaded.includes('artifacts') && !uploaded.includes('trace'), 'no failure artifacts or traces uploaded');
});

test('a weekly workflow runs the mutation tests and uploads their report', () => {
  const weekly = load('.github/workflows/mutation.yml');
  assert.ok('schedule' in weekly.on);
  assert.match(runs(weekly), /npm run test:mutation/);
  assert.ok(
    Object.values(weekly.jobs).flatMap((job) => job.steps ?? []).some((step) => String(step.with?.path).includes('reports/mutation')),
  );
});
