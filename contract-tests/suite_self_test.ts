/**
 * The suite must fail when the service breaks the contract. Each case starts
 * the sandbox with one deliberate violation (a test-mode-only control) and
 * checks that the suite reports failures, and that every failing test names
 * the violated clause.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { inflateRawSync } from 'node:zlib';
import { join } from 'node:path';
import process from 'node:process';
import { describe, test } from 'node:test';
import { SANDBOX_DEFAULTS } from '../src/sandbox/mod.ts';
import type { Violation } from '../src/sandbox/store.ts';

interface JsonTest {
  annotations: { type: string; description?: string }[];
  results: { status: string; error?: { message?: string } }[];
}
interface JsonSpec {
  title: string;
  tests: JsonTest[];
}
interface JsonSuite {
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}

/**
 * The text of every file in the HTML report's embedded zip (steps, errors,
 * annotations): a minimal reader of the zip's central directory.
 */
function htmlReportText(folder: string): string {
  const html = readFileSync(join(folder, 'index.html'), 'utf8');
  const base64 = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(html)?.[1];
  assert.ok(base64, 'the HTML report embeds its data');
  const zip = Buffer.from(base64, 'base64');
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  const texts: string[] = [];
  for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    texts.push((method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return texts.join('\n');
}

/** Runs the suite against a sandbox violating one clause (or none); returns the failed tests' clauses and messages, and all report text. */
function runSuite(violation: Violation | '', args: string[]): { clauses: string[]; messages: string; passed: number; report: string } {
  const dir = mkdtempSync(join(tmpdir(), 'contract-self-'));
  try {
    const json = join(dir, 'report.json');
    const env: Record<string, string | undefined> = {
      ...process.env,
      SLICER_SANDBOX_VIOLATIONS: violation,
      PLAYWRIGHT_JSON_OUTPUT_FILE: json,
      PLAYWRIGHT_JSON_OUTPUT_NAME: json,
      SLICER_CONTRACT_REPORTS: join(dir, 'reports'),
      PLAYWRIGHT_HTML_OUTPUT_DIR: join(dir, 'html'),
      PLAYWRIGHT_HTML_OPEN: 'never',
      PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(dir, 'junit.xml'),
    };
    delete env.SLICER_AUTH_URL; // always the sandbox
    const run = spawnSync(process.execPath, [
      'node_modules/@playwright/test/cli.js',
      'test',
      '-c',
      'contract-tests/playwright.config.ts',
      '--reporter=json,html,junit',
      ...args,
    ], {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (violation) assert.notEqual(run.status, 0, `the suite passed against a sandbox violating "${violation}"`);
    const text = readFileSync(json, 'utf8');
    const report = JSON.parse(text) as { suites: JsonSuite[] };
    const failed: { clause: string; message: string }[] = [];
    let passed = 0;
    const walk = (suite: JsonSuite) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests) {
          const last = t.results.at(-1);
          if (last?.status === 'passed') passed++;
          if (last && last.status !== 'passed' && last.status !== 'skipped') {
            failed.push({
              clause: t.annotations.find((a) => a.type === 'clause')?.description ?? `(no clause: ${spec.title})`,
              message: last.error?.message ?? '',
            });
          }
        }
      }
      suite.suites?.forEach(walk);
    };
    report.suites.forEach(walk);
    const everything = [text, htmlReportText(join(dir, 'html')), readFileSync(join(dir, 'junit.xml'), 'utf8'), run.stdout, run.stderr].join(
      '\n',
    );
    return { clauses: failed.map((f) => f.clause), messages: failed.map((f) => f.message).join('\n'), passed, report: everything };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const API = ['--project', 'api'];
const cases: [Violation, string, string[], RegExp?][] = [
  ['numeric-expires-in', 'auth-contract 4.1 rule 1', API, /drifted from the documented type/],
  ['wrong-token-type', 'auth-contract 4.1 rule 1', API, /token_type/],
  ['wrong-scope-echo', 'auth-contract 4.1 rule 1', API, /scope/],
  ['reused-token', 'auth-contract 4.1 rule 1', API, /same access_token/],
  ['post-token-ignored', 'auth-contract 5.1 rule 2', API, /post argument was refused/],
  ['scope-ignored', 'auth-contract 5.2 scope', API],
  ['no-expiry', 'auth-contract 5.2/8 validity', ['--project', 'clock', '--no-deps']],
  ['revoke-noop', 'auth-contract 5.3 revoking steps 1-3', ['--project', 'ui', '--grep', 'revoking, steps']],
];

describe('the contract suite catches a service that breaks the contract', { concurrency: 1 }, () => {
  for (const [violation, clause, args, message] of cases) {
    test(`${violation} → fails ${clause}`, () => {
      const result = runSuite(violation, args);
      assert.ok(result.clauses.length > 0, 'no test failed');
      assert.deepEqual([...new Set(result.clauses)], [clause], `failing tests named other clauses: ${result.clauses.join(', ')}`);
      if (message) assert.match(result.messages, message);
      if (args === API) assert.ok(result.passed > 10, 'the other clauses still pass');
    });
  }
});

test('the report of a run holds no password and no token', () => {
  const result = runSuite('', ['--project', 'ui']);
  assert.deepEqual(result.clauses, []);
  assert.match(result.report, /"subtitle":"getByRole\('button', \{ name: 'Tokens and sessions' \}\)"/, 'the report lists the steps');
  assert.ok(!result.report.includes(SANDBOX_DEFAULTS.password), 'the password is in the report');
  assert.equal(/[A-Za-z0-9_-]{43}/.exec(result.report)?.[0], undefined, 'a token-shaped value is in the report');
});
