/**
 * The contract suite's own tests run the suite as a user would, in a scratch
 * folder, and read back everything the run wrote: the JSON, HTML and JUnit
 * reports, the compliance report, the blob and every artifact, with zip
 * archives (the blob, the HTML report's embedded data) unpacked. Test helper.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import process from 'node:process';
import { inflateRawSync } from 'node:zlib';
import type { UiVariant } from '../src/sandbox/mod.ts';
import type { Violation } from '../src/sandbox/store.ts';
import { runProcess } from '../src/testing/processes.ts';
import type { ComplianceRow } from './compliance_reporter.ts';

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

/** The entries of a zip archive, each as text (a minimal reader of the central directory: stored and deflated). */
function unzipTexts(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'a zip archive');
  let at = zip.readUInt32LE(end + 16);
  const texts: string[] = [];
  for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    const content = method === 8 ? inflateRawSync(data) : data;
    texts.push(isZip(content) ? unzipTexts(content).join('\n') : content.toString('utf8'));
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return texts;
}

const isZip = (data: Buffer) => data.length > 4 && data.readUInt32LE(0) === 0x04034b50;

/** One file a run wrote: its path in the run's folder, its text (archives unpacked), its mode. */
export interface Written {
  readonly path: string;
  readonly text: string;
  readonly mode: number;
}

/**
 * Every file under a folder, as text: a zip archive as its entries' texts, an
 * HTML report with its embedded zip data unpacked too.
 *
 * @param folder the folder
 * @returns the files, folders included (with an empty text) so their modes can be checked
 */
function writtenFiles(folder: string): Written[] {
  return (readdirSync(folder, { recursive: true }) as string[]).map((name) => {
    const path = join(folder, name);
    const stat = statSync(path);
    if (stat.isDirectory()) return { path: relative(folder, path), text: '', mode: stat.mode };
    const data = readFileSync(path);
    const embedded = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(data.toString('latin1'))?.[1];
    const parts = isZip(data) ? unzipTexts(data) : [data.toString('utf8')];
    if (embedded) parts.push(...unzipTexts(Buffer.from(embedded, 'base64')));
    return { path: relative(folder, path), text: parts.join('\n'), mode: stat.mode };
  });
}

/** How to run the suite: which sandbox fault, UI variant, mode, and (for a live-like run) which service. */
export interface RunOptions {
  violation?: Violation | undefined;
  uiVariant?: UiVariant | undefined;
  strict?: boolean | undefined;
  /** A separately started service, run against as a live target. */
  live?: Record<string, string> | undefined;
  /** An env file for the run. @default none */
  envFile?: string | undefined;
}

/** What a run showed. */
export interface Run {
  exitCode: number | null;
  /** The clause of each failed test. */
  clauses: string[];
  messages: string;
  /** The errors of attempts that failed before a retry passed (a live run retries once), each after its test's title. */
  retried: string;
  passed: number;
  /** Every report the run wrote, and its output. */
  report: string;
  compliance: string;
  /** compliance.json, parsed. */
  facts: {
    target: string;
    live: boolean;
    runId: string;
    seed: string;
    version: string;
    part: string;
    clauses: ComplianceRow[];
  };
  /** What the run printed. */
  output: string;
  /** Every file and folder the run wrote. */
  written: Written[];
}

/**
 * Runs the suite in a scratch folder (removed afterwards).
 *
 * @param args Playwright's arguments (projects, grep)
 * @param options violation, UI variant, strictness, live target, env file
 * @returns the failed tests' clauses and messages, all report text and every file written
 */
export async function runSuite(args: string[], options: RunOptions = {}): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-self-'));
  try {
    const json = join(dir, 'report.json');
    const env: Record<string, string | undefined> = {
      ...process.env,
      SLICER_SANDBOX_VIOLATIONS: options.violation ?? '',
      SLICER_SANDBOX_UI_VARIANT: String(options.uiVariant ?? 0),
      SLICER_CONTRACT_STRICT: options.strict ? '1' : '',
      PLAYWRIGHT_JSON_OUTPUT_FILE: json,
      PLAYWRIGHT_JSON_OUTPUT_NAME: json,
      SLICER_CONTRACT_REPORTS: join(dir, 'reports'),
      PLAYWRIGHT_HTML_OUTPUT_DIR: join(dir, 'html'),
      PLAYWRIGHT_HTML_OPEN: 'never',
      PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(dir, 'junit.xml'),
      PLAYWRIGHT_BLOB_OUTPUT_DIR: join(dir, 'blob'),
      SLICER_UI_STORAGE_STATE: '',
      SLICER_ENV_FILE: options.envFile ?? '/dev/null',
      SLICER_CONTRACT_TARGET: options.live ? 'live' : 'sandbox',
      SLICER_CONTRACT_RUN_ID: '',
      ...options.live,
    };
    const run = await runProcess(
      process.execPath,
      [
        'node_modules/@playwright/test/cli.js',
        'test',
        '-c',
        'contract-tests/playwright.config.ts',
        '--reporter=json,html,junit,blob,./contract-tests/compliance_reporter.ts',
        '--output',
        join(dir, 'artifacts'),
        ...args,
      ],
      env,
      900_000, // a whole live run takes about 2 minutes alone, and over 3 beside another npm test on 2 cores
    );
    const written = writtenFiles(dir);
    const output = run.out + run.err;
    if (!existsSync(json)) {
      return {
        exitCode: run.code,
        clauses: [],
        messages: '',
        retried: '',
        passed: 0,
        report: '',
        compliance: '',
        facts: undefined as never,
        output,
        written,
      };
    }
    const text = readFileSync(json, 'utf8');
    const report = JSON.parse(text) as { suites: JsonSuite[] };
    const failed: { clause: string; message: string }[] = [];
    const retried: string[] = [];
    let passed = 0;
    const walk = (suite: JsonSuite) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests) {
          const last = t.results.at(-1);
          if (last?.status === 'passed') passed++;
          for (const attempt of t.results.slice(0, -1)) retried.push(`${spec.title}: ${attempt.error?.message ?? attempt.status}`);
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
    return {
      exitCode: run.code,
      clauses: failed.map((f) => f.clause),
      messages: failed.map((f) => f.message).join('\n'),
      retried: retried.join('\n'),
      passed,
      report: [...written.map((file) => file.text), output].join('\n'),
      compliance: readFileSync(join(dir, 'reports', 'compliance.md'), 'utf8'),
      facts: JSON.parse(readFileSync(join(dir, 'reports', 'compliance.json'), 'utf8')),
      output,
      written,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
