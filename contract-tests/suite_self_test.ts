/**
 * The suite's own test. The suite must fail when a service breaks the
 * contract, naming exactly the violated clause, on every UI variant; its
 * strictness probes must never fail a run (unless strict); and against a
 * separately started service treated as live, on every UI variant, it must
 * pass, leave no permanent token active, and keep secrets out of every report.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { describe, test } from 'node:test';
import { startSandbox, type UiVariant } from '../src/sandbox/mod.ts';
import { listen } from '../src/sandbox/serve.ts';
import type { Violation } from '../src/sandbox/store.ts';
import { accountMenu } from '../src/testing/menu_scripts.ts';
import { runProcess, runTs } from '../src/testing/processes.ts';
import { SHADOW_LIST } from '../src/testing/shadow_list.ts';
import { runSuite } from './run_suite.ts';
import { scratchDir } from '../src/testing/scratch.ts';

const API = ['--project', 'api'];
const cases: [Violation, string, string[], RegExp?][] = [
  ['numeric-expires-in', 'auth-contract 4.1 rule 1', API, /drifted from the documented type/],
  ['wrong-token-type', 'auth-contract 4.1 rule 1', API, /token_type/],
  ['wrong-scope-echo', 'auth-contract 4.1 rule 1', API, /scope/],
  ['reused-token', 'auth-contract 4.1 rule 1', API, /same access_token/],
  ['post-token-ignored', 'auth-contract 5.1 rule 2', API, /post argument .* was refused/],
  ['scope-ignored', 'auth-contract 5.2 scope', API],
  ['no-expiry', 'auth-contract 5.2/8 validity', ['--project', 'clock', '--no-deps']],
  ['revoke-noop', 'auth-contract 5.3 revoking steps 1-3', ['--project', 'ui', '--grep', 'revoking, steps']],
  // A copy that is a part of the value shown: alone in an element on some variants, in a sentence on another.
  [
    'copy-mismatch',
    'auth-contract 5.3 creating steps 1-8',
    ['--project', 'ui', '--grep', 'creating, steps'],
    /is not the value the page displays/,
  ],
];
const VARIANTS = [0, 1, 2, 3] as const satisfies readonly UiVariant[];
// The runs with a violation go two at a time: most are one test after the login, which leaves a core idle (the
// boundary rows took 124 s this way, 172 s one at a time on 2 cores). The live runs below use both cores alone.

for (const uiVariant of VARIANTS) {
  describe(`UI variant ${uiVariant}: the suite catches a service that breaks the contract, naming exactly the clause`, {
    concurrency: 2,
  }, () => {
    // A violation the browser does not see is checked once, on the sandbox's own UI: the variants change only the UI.
    for (const [violation, clause, args, message] of cases.filter(([, , args]) => uiVariant === 0 || args.includes('ui'))) {
      test(`${violation} → fails ${clause}`, async () => {
        const result = await runSuite(args, { violation, uiVariant });
        assert.notEqual(result.exitCode, 0, `the suite passed against a sandbox violating "${violation}"`);
        assert.ok(result.clauses.length > 0, 'no test failed');
        assert.deepEqual([...new Set(result.clauses)], [clause], `failing tests named other clauses: ${result.clauses.join(', ')}`);
        if (message) assert.match(result.messages, message);
        if (args === API) assert.ok(result.passed > 10, 'the other clauses still pass');
        assert.match(
          result.compliance,
          new RegExp(`\\*\\*Failing clauses:\\*\\* ${clause.replace('auth-contract ', '').replace(/[./]/g, '\\$&')}\\n`),
        );
      });
    }
  });
}

/**
 * The violations of the boundary rows (contract-tests/boundaries.ts): each row the sandbox can be made to fail,
 * with the tests that must catch it. Checked on the sandbox's own UI; the suite's independence from the markup
 * is the variants' business above.
 */
const EDGES: [Violation, string, string[]][] = [
  ['form-charset-refused', 'auth-contract 4.1 rule 2', [...API, '--grep', 'content type']],
  ['form-order-sensitive', 'auth-contract 4.1 rule 2', [...API, '--grep', 'field order']],
  ['form-percent-undecoded', 'auth-contract 4.1 rule 2', [...API, '--grep', 'encoding of the values']],
  ['token-for-wrong-password', 'auth-contract 4.1 request fields', [...API, '--grep', 'request fields']],
  ['empty-password-accepted', 'auth-contract 4.1 request fields', [...API, '--grep', 'request fields']],
  ['password-extension-accepted', 'auth-contract 4.1 request fields', [...API, '--grep', 'request fields']],
  ['token-end-ignored', 'auth-contract 5.1 rule 2', [...API, '--grep', '5.1 rule 2']],
  ['long-token-500', 'auth-contract 5.1 rule 2', [...API, '--grep', '5.1 rule 2']],
  ['post-token-alone-only', 'auth-contract 5.1 rule 2', [...API, '--grep', '5.1 rule 2']],
  ['name-mangled', 'auth-contract 5.3 creating step 5', ['--project', 'ui', '--grep', 'generated name']],
  ['multi-scope-first-only', 'auth-contract 5.3 creating step 6', ['--project', 'ui', '--grep', 'creating step 6']],
  ['scope-near-miss-accepted', 'auth-contract 5.3 creating step 7', ['--project', 'ui', '--grep', 'incorrect scope']],
  ['revoke-newest', 'auth-contract 5.3 revoking steps 1-3', ['--project', 'ui', '--grep', 'two tokens alive']],
];

describe('the boundary rows: the suite catches a service that fails any of them, naming exactly the clause', { concurrency: 2 }, () => {
  for (const [violation, clause, args] of EDGES) {
    test(`${violation} → fails ${clause}`, async () => {
      const result = await runSuite([...args, '--retries=0'], { violation });
      assert.notEqual(result.exitCode, 0, `the suite passed against a sandbox violating "${violation}"`);
      assert.ok(result.clauses.length > 0, 'no test failed');
      assert.deepEqual([...new Set(result.clauses)], [clause], `failing tests named other clauses: ${result.clauses.join(', ')}`);
      assert.ok(result.passed > 0 || args.includes('--grep'), 'the other rows still pass');
    });
  }
});

test('the README states how many violations the self-test injects', () => {
  const injected = new Set([...cases.map(([violation]) => violation), ...EDGES.map(([violation]) => violation)]);
  assert.match(
    readFileSync('README.md', 'utf8'),
    new RegExp(`injects ${injected.size} contract violations, one at a time, and the suite catches every one`),
  );
});

describe('strictness probes never fail a run (unless SLICER_CONTRACT_STRICT=1)', { concurrency: 2 }, () => {
  const found = [['default-scope', '4.1 request fields'], ['json-accepted', '4.1 rule 2'], ['answer-typed-text', '4.1 rule 1']] as const;
  for (const [violation, clause] of found) {
    test(`${violation}: a warning for ${clause}, the run passes; strict, it fails`, async () => {
      const lenient = await runSuite(API, { violation });
      assert.equal(lenient.exitCode, 0, lenient.messages);
      assert.match(lenient.compliance, new RegExp(`\\*\\*Probe warnings:\\*\\* ${clause.replace('.', '\\.')}`));
      assert.match(lenient.compliance, /\*\*No contract rule failed\.\*\*/);
      const strict = await runSuite(API, { violation, strict: true });
      assert.notEqual(strict.exitCode, 0, 'SLICER_CONTRACT_STRICT=1 makes a probe finding fail');
      assert.deepEqual([...new Set(strict.clauses)], [`auth-contract ${clause}`]);
    });
  }
});

// The contract says nothing of rate limits; a staging gateway may have one. Its answers are waited out as they ask, not
// taken for a refusal (a pass not earned) or for a missing token (a clause failed).
test('a rate-limited token endpoint (429, Retry-After: 1) is waited out, and the API clauses pass', async () => {
  const service = await startSandbox({ testMode: true });
  try {
    service.store.addFault({ status: 429, body: '{"error":"too_many_requests"}', headers: { 'retry-after': '1' }, times: 8 });
    const result = await runSuite([...API, '--retries=0'], { live: service.env });
    assert.equal(result.exitCode, 0, result.messages);
    assert.equal(service.store.takeFault(), undefined, 'every 429 was answered');
    assert.match(result.report, /answered 429: waited 1 s, as asked/);
  } finally {
    await service.close();
  }
});

// Each test sends the configured credentials again: wrong ones, refused by every test, would lock the account.
test('a live target whose token endpoint refuses the password stops before any test, after one request: no lock-out', async () => {
  const service = await startSandbox({ testMode: true });
  try {
    const wrong = 'Wrong-Pa55-3e1d';
    const result = await runSuite(API, { live: { ...service.env, SLICER_PASSWORD: wrong } });
    assert.notEqual(result.exitCode, 0);
    assert.equal(result.passed, 0, 'no test ran');
    assert.match(
      result.output,
      /The token endpoint refused the configured credentials, so no test was run: .* answered 400 invalid_grant: .*; the credentials were refused: check SLICER_USERNAME and SLICER_PASSWORD\. Each test would have sent them again, and refusals in a row can lock the account\./,
    );
    assert.ok(!result.output.includes(wrong), 'the password is not shown');
    assert.match(
      result.compliance,
      /^- Stopped: The token endpoint refused the configured credentials, so no test was run: .* answered 400/m,
    );
    assert.match(result.compliance, /^\*\*No test ran\.\*\*$/m, 'the report does not say that no rule failed');
    const user = service.env.SLICER_USERNAME;
    assert.equal(service.store.login(user, service.env.SLICER_PASSWORD), 'ok', 'the account is not locked');
  } finally {
    await service.close();
  }
});

// The contract names no error format: a gateway that answers a wrong password with a bare 401 refuses it just the same.
test('a live target whose token endpoint answers 401 in words of its own stops before any test, after one request', async () => {
  const service = await startSandbox({ testMode: true });
  try {
    const wrong = 'Wrong-Pa55-401x';
    service.store.addFault({ status: 401, body: '{"detail":"Invalid username/password."}', times: 5 });
    const result = await runSuite(API, { live: { ...service.env, SLICER_PASSWORD: wrong } });
    assert.notEqual(result.exitCode, 0);
    assert.equal(result.passed, 0, 'no test ran');
    assert.match(
      result.output,
      /The token endpoint refused the configured credentials, so no test was run: .* answered 401 .*; the answer carries no OAuth error: check SLICER_USERNAME and SLICER_PASSWORD, and that SLICER_AUTH_URL is .*\. Each test would have sent them again/,
    );
    assert.ok(!result.output.includes(wrong), 'the password is not shown');
    assert.equal(service.store.takeFault()?.times, 3, 'one token request was answered, and this take is the second');
  } finally {
    await service.close();
  }
});

// Against a service the suite did not start: on the sandbox's own UI, the token endpoint's and the services' part
// (its browser part there is `npm run test:contract`'s); on each other UI, the browser part, but for the two tests
// whose only browser step is creating a token (the token endpoint and the services do not change with the UI).
const BROWSER_PART = ['--project', 'ui', '--grep-invert', 'near-misses of a permanent token|5\\.2 scope, for permanent tokens'];
const SERVICE_PART = ['--project', 'api', '--project', 'clock', '--no-deps'];
describe('against a separately started service, as a live target, on every UI variant', { concurrency: 1 }, () => {
  for (const uiVariant of VARIANTS) {
    const browserPart = uiVariant !== 0;
    test(`UI variant ${uiVariant}: ${browserPart ? 'the browser steps pass' : 'the service steps pass'}, nothing is left behind, no secret in any report`, async () => {
      const issued: string[] = [];
      const service = await startSandbox({
        testMode: true,
        uiVariant,
        password: `Live-Pa55 ${uiVariant}+&%`,
        onIssue: (value) => issued.push(value),
      });
      try {
        const result = await runSuite(browserPart ? BROWSER_PART : SERVICE_PART, { live: service.env });
        assert.equal(result.exitCode, 0, result.messages);
        assert.deepEqual(result.clauses, []);
        assert.ok(result.passed > (browserPart ? 10 : 30), `only ${result.passed} passed`);
        const permanent = service.store.list(service.env.SLICER_USERNAME, 'permanent');
        assert.deepEqual(
          permanent.filter((t) => t.revokedAt === undefined).map((t) => t.name),
          [],
          `every permanent token the suite created is revoked${result.retried ? `; attempts retried:\n${result.retried}` : ''}`,
        );
        assert.ok(!result.report.includes(service.env.SLICER_PASSWORD), 'the password is in a report');
        assert.ok(issued.length > (browserPart ? 8 : 30), `tokens were issued (${issued.length})`);
        assert.equal(issued.find((token) => result.report.includes(token)), undefined, 'an issued token is in a file the run wrote');
        if (browserPart) {
          assert.ok(permanent.length >= 4, 'tokens were created through the UI');
          assert.match(
            result.compliance,
            /\[5\.3 creating steps 1-8\]\(.*docs\/contract\.md#53-creating-steps-1-8\) \| rule \| passed \| 1 \| 1 \|/,
          );
        } else {
          const validity = result.facts.clauses.find((c) => c.clause === '5.2/8 validity');
          assert.equal(validity?.status, 'not checked', 'live, the 3600 s clause runs only with SLICER_CONTRACT_SLOW=1');
          assert.match(String(validity?.reasons), /opt-in: set SLICER_CONTRACT_SLOW=1/);
          // The checks a live service skips for one reason give it once, with their count.
          const fields = result.facts.clauses.find((c) => c.clause === '4.1 request fields' && c.kind === 'rule');
          assert.ok(fields, 'the report has a row for 4.1 request fields');
          assert.ok(fields.skipped > 1, `${fields.skipped} wrong passwords skipped`);
          assert.deepEqual(fields.reasons, [
            `skipped (${fields.skipped} checks): not checkable on a live service: each wrong password counts toward locking ` +
            'the service\'s test account (one per run is tried: "a wrong password"); the sandbox checks it with a user of its own',
          ]);
        }
        // The report names what it checked: the live target's origins, the run, the suite's version.
        const origin = new URL(service.env.SLICER_AUTH_URL).origin;
        assert.equal(result.facts.target, `live: auth ${origin}, slicer ${origin}, predict ${origin}`);
        assert.equal(result.facts.live, true);
        assert.match(result.facts.runId, /^\d{8}T\d{6}Z-[0-9a-f]{4}$/);
        assert.match(result.facts.seed, /^\d+$/, 'the report prints the seed of the generated names');
        assert.equal(result.facts.part, 'whole run');
        assert.match(
          result.output,
          new RegExp(
            `Contract target live: auth ${origin.replace(/[.]/g, '\\.')}.* \\(run ${result.facts.runId}, seed ${result.facts.seed}\\)`,
          ),
        );
        assert.deepEqual(result.facts.clauses.filter((c) => c.status === 'failed'), []);
      } finally {
        await service.close();
      }
    });
  }
});

/**
 * A sandbox behind a proxy that adds a script to every web page it serves: a live UI the suite has never seen.
 *
 * @param service the sandbox
 * @param script what changes its UI, run in each page before the page's own scripts
 * @returns the proxy, whose origin stands for `SLICER_AUTH_URL`
 */
function scriptedProxy(service: Awaited<ReturnType<typeof startSandbox>>, script: string) {
  return listen(async (request) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.delete('host');
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
    const answer = await fetch(`${service.env.SLICER_AUTH_URL}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body,
      redirect: 'manual',
    });
    if (!answer.headers.get('content-type')?.startsWith('text/html')) return answer;
    const page = (await answer.text()).replace('<head>', `<head><script>${script}</script>`);
    const sent = new Headers(answer.headers);
    sent.delete('content-length');
    sent.delete('content-encoding');
    sent.delete('content-security-policy'); // the sandbox's allows no inline script
    return new Response(page, { status: answer.status, headers: sent });
  });
}

/**
 * Runs the suite against a sandbox behind {@link scriptedProxy}, as a live target.
 *
 * @param script what changes the sandbox's UI
 * @param args Playwright's arguments (projects, grep)
 * @returns the run, how many permanent tokens it created, and the names of those left active
 */
async function runOnScriptedUi(script: string, args: string[]) {
  const service = await startSandbox({ testMode: true });
  const proxy = await scriptedProxy(service, script);
  try {
    const result = await runSuite(args, { live: { ...service.env, SLICER_AUTH_URL: proxy.origin } });
    const permanent = service.store.list(service.env.SLICER_USERNAME, 'permanent');
    return { result, created: permanent.length, active: permanent.filter((t) => t.revokedAt === undefined).map((t) => t.name) };
  } finally {
    await proxy.close();
    await service.close();
  }
}

describe('a live UI in ways the contract leaves open', { concurrency: 1 }, () => {
  // "Tokens and sessions" in an account menu that mounts its items only once opened: the login step shows it from
  // there, as every UI test's steps do, instead of failing the whole browser part.
  test('"Tokens and sessions" in a menu mounting its items once opened: the login step passes', async () => {
    const { result } = await runOnScriptedUi(accountMenu(true), ['--project', 'setup']);
    assert.equal(result.exitCode, 0, result.messages);
    assert.equal(result.passed, 1);
    assert.match(result.output, /^ {2}✔ 5\.3 creating step 1 · rule · 1\/1 · 0 · 0 · 0$/m);
  });

  // A token list that a web component shows in its open shadow root: the suite creates, finds and revokes there.
  test("a token list inside a web component's shadow root: the creating and revoking steps pass, nothing is left active", async () => {
    const { result, created, active } = await runOnScriptedUi(SHADOW_LIST, [
      '--project',
      'ui',
      '--grep',
      'creating, steps 1|revoking, steps 1',
    ]);
    assert.equal(result.exitCode, 0, result.messages);
    assert.equal(result.passed, 3, 'the login and both tests');
    assert.ok(created >= 2, 'tokens were created through the UI');
    assert.deepEqual(active, []);
  });

  // The contract documents no way out of the creation form: the tests that leave it without creating pass on a form
  // that offers no Cancel, and create nothing.
  test('a creation form without Cancel: the tests that leave it pass, and nothing is left active', async () => {
    const { result, active } = await runOnScriptedUi(
      "document.addEventListener('DOMContentLoaded', () => document.getElementById('token-cancel')?.remove());",
      ['--project', 'ui', '--grep', 'incorrect scope creates nothing|200-character name'],
    );
    assert.equal(result.exitCode, 0, result.messages);
    assert.equal(result.passed, 3, 'the login and both tests');
    assert.deepEqual(active, []);
  });
});

describe('the target is explicit: never a silent fallback', { concurrency: 1 }, () => {
  test('a live target with a blank SLICER_AUTH_URL (an unset CI secret) refuses to start, listing what is missing', async () => {
    const result = await runSuite(API, { live: { SLICER_AUTH_URL: '', SLICER_BASE_URL: 'https://slicer.example', SLICER_USERNAME: 'u' } });
    assert.notEqual(result.exitCode, 0);
    assert.equal(result.passed, 0, 'no test ran');
    assert.match(result.output, /Cannot run the contract suite against a live service \(SLICER_CONTRACT_TARGET=live\)/);
    for (const key of ['SLICER_AUTH_URL', 'SLICER_PREDICT_BASE_URL', 'SLICER_PASSWORD', 'SLICER_SERVICE_ID', 'SLICER_PREDICT_SERVICE_ID']) {
      assert.match(result.output, new RegExp(`- ${key}: missing`));
    }
    assert.doesNotMatch(result.output, /sandbox/, 'the sandbox was not started instead');
  });

  test('a live SLICER_AUTH_URL that is no web UI fails the browser part at its first step, in seconds; its tests do not run', async () => {
    const service = await startSandbox({ testMode: true });
    const other = await listen(() =>
      new Response('<!doctype html><title>Staging</title><h1>Welcome</h1>', { headers: { 'content-type': 'text/html' } })
    );
    try {
      const wrong: [string, RegExp][] = [
        [service.env.SLICER_BASE_URL, /\/slicer\/ answered 401 with application\/json, not a web page: check SLICER_AUTH_URL/],
        [
          `http://127.0.0.1:${other.port}`,
          /step 2: after logging in, http:\/\/127\.0\.0\.1:\d+\/ offers "Tokens and sessions" \(is SLICER_AUTH_URL/,
        ],
      ];
      for (const [authUrl, said] of wrong) {
        const result = await runSuite(['--project', 'ui'], { live: { ...service.env, SLICER_AUTH_URL: authUrl } });
        assert.notEqual(result.exitCode, 0);
        assert.deepEqual(
          result.clauses,
          ['auth-contract 5.3 creating step 1'],
          'the login step failed, and no UI test ran to fail after it',
        );
        assert.equal(result.passed, 0);
        assert.match(result.messages, said);
        assert.match(result.output, /^ {2}✖ 5\.3 creating step 1 · rule · 0\/1 · 1 · 0 · 0 — /m);
        assert.match(
          result.output,
          /^ {2}– 5\.3 creating step 4 · rule · 0\/1 · 0 · 1 · 0$/m,
          'a clause whose tests did not run is not shown as passed',
        );
      }
      assert.equal(service.store.list(service.env.SLICER_USERNAME, 'permanent').length, 0, 'nothing was created');
    } finally {
      await other.close();
      await service.close();
    }
  });

  test('the sandbox target ignores live URLs in .env and says so in one line; the report names the sandbox', async () => {
    const envFile = join(scratchDir('contract-env-'), '.env');
    writeFileSync(envFile, 'SLICER_AUTH_URL=https://auth.staging.example\nSLICER_BASE_URL=https://slicer.staging.example\n');
    const result = await runSuite([...API, '--grep', '4.1 rule 2'], { envFile });
    assert.equal(result.exitCode, 0, result.output);
    assert.match(
      result.output,
      /Contract target sandbox \(embedded\): auth http:\/\/127\.0\.0\.1:\d+, .*; ignoring SLICER_AUTH_URL, SLICER_BASE_URL \(set SLICER_CONTRACT_TARGET=live/,
    );
    assert.doesNotMatch(result.output, /staging\.example.*answered|ENOTFOUND/);
    assert.match(result.facts.target, /^sandbox \(embedded\): auth http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(result.facts.live, false);
    assert.deepEqual(
      result.facts.clauses.map((c) => `${c.clause} ${c.status}`),
      ['4.1 rule 2 passed', '4.1 rule 2 passed'],
      'the rule and the probe of 4.1 rule 2 ran and passed',
    );
  });
});

test('every clause the suite names is a heading of docs/contract.md', () => {
  const headings = new Set([...readFileSync('docs/contract.md', 'utf8').matchAll(/^### (.+)$/gm)].map((m) => m[1]));
  const specs = (readdirSync('contract-tests', { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
  const named = specs.flatMap((file) =>
    [...readFileSync(join('contract-tests', file), 'utf8').matchAll(/(?:clause|probe)\('([^']+)'/g)].map((m) => m[1])
  );
  assert.ok(named.length > 10);
  for (const clause of named) assert.ok(headings.has(clause), `"${clause}" is not a heading of docs/contract.md`);
});

test('sharded runs merge (contract --merge) into one report and one compliance summary, equal to an unsharded run', async () => {
  const dir = scratchDir('contract-shards-');
  const env = (reports: string) => ({
    ...process.env,
    SLICER_CONTRACT_REPORTS: reports,
    SLICER_ENV_FILE: '/dev/null',
    SLICER_CONTRACT_TARGET: 'sandbox',
  });
  const cli = 'node_modules/@playwright/test/cli.js';
  const whole = await runProcess(
    process.execPath,
    [cli, 'test', '-c', 'contract-tests/playwright.config.ts', ...API],
    env(join(dir, 'whole')),
    120_000,
  );
  assert.equal(whole.code, 0, whole.err);
  mkdirSync(join(dir, 'merged', 'blob'), { recursive: true });
  for (const shard of ['1/2', '2/2']) {
    const reports = join(dir, `shard-${shard[0]}`);
    const run = await runProcess(
      process.execPath,
      [cli, 'test', '-c', 'contract-tests/playwright.config.ts', ...API, `--shard=${shard}`],
      env(reports),
      120_000,
    );
    assert.equal(run.code, 0, run.err);
    // As CI does: each machine's blob is collected into one folder.
    for (const file of readdirSync(join(reports, 'blob'))) copyFileSync(join(reports, 'blob', file), join(dir, 'merged', 'blob', file));
  }
  // As a user merges: `slicer-auth contract --merge`, whose folder is by default the blob folder of the reports.
  const merged = await runTs(['src/cli.ts', 'contract', '--merge'], env(join(dir, 'merged')), 120_000);
  assert.equal(merged.code, 0, merged.err);
  const rows = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line.startsWith('| ['));
  assert.deepEqual(rows(join(dir, 'merged', 'compliance.md')), rows(join(dir, 'whole', 'compliance.md')));
  assert.ok(existsSync(join(dir, 'merged', 'html', 'index.html')), 'one merged HTML report');
  for (const file of ['html', 'html/index.html', 'junit.xml', 'compliance.json']) {
    assert.equal(statSync(join(dir, 'merged', file)).mode & 0o077, 0, `${file} is private to its owner`);
  }
  type Facts = { part: string; target: string; runs: { runId: string; seed: string }[] };
  const facts = (folder: string) => JSON.parse(readFileSync(join(dir, folder, 'compliance.json'), 'utf8')) as Facts;
  assert.deepEqual([facts('shard-1').part, facts('shard-2').part, facts('merged').part], ['shard 1/2', 'shard 2/2', 'merged shards']);
  assert.match(facts('merged').target, /^sandbox \(embedded\)/);
  // Each shard was a run of its own, with its own seed: the merged report names every one, as replaying needs.
  const shards = [...facts('shard-1').runs, ...facts('shard-2').runs];
  assert.equal(new Set(shards.map((run) => run.runId)).size, 2);
  const byId = (runs: Facts['runs']) => [...runs].sort((a, b) => a.runId.localeCompare(b.runId));
  assert.deepEqual(byId(facts('merged').runs), byId(shards));
  const runsLine = `Runs: ${facts('merged').runs.map((run) => `${run.runId} (seed ${run.seed})`).join(', ')} (merged shards); ` +
    "SLICER_CONTRACT_SEED=<a run's seed> replays that run's generated values";
  assert.ok(merged.out.split('\n').includes(runsLine), merged.out);
});

test("listing the tests (contract --list) runs none and writes no report: the last run's are kept", async () => {
  const reports = scratchDir('contract-list-');
  writeFileSync(join(reports, 'compliance.md'), 'the last run\n');
  const env = { ...process.env, SLICER_CONTRACT_REPORTS: reports, SLICER_ENV_FILE: '/dev/null', SLICER_CONTRACT_TARGET: 'sandbox' };
  const listed = await runTs(['src/cli.ts', 'contract', '--list', ...API], env, 120_000);
  assert.equal(listed.code, 0, listed.err);
  assert.match(
    listed.out,
    /\[api\] › api\/token_endpoint\.spec\.ts:\d+:\d+ › .* › 4\.1 rule 1: a valid request answers every documented field \(slicer\)/,
  );
  assert.match(listed.out, /^Total: \d+ tests in \d+ files$/m);
  assert.deepEqual(readdirSync(reports), ['compliance.md'], 'nothing was written beside the last report');
  assert.equal(readFileSync(join(reports, 'compliance.md'), 'utf8'), 'the last run\n');
});
