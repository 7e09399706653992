/**
 * The compliance report. It names what was checked (`run_facts.ts`) — the
 * target (origins only), the run id and seed (each merged shard's), the
 * suite's version, start and end, the shard or the merge — then one row
 * per clause of `docs/contract.md` and kind (contract rule or strictness
 * probe): passed, failed (with the failing tests), or not
 * checked and why, with counts and what the checks cover. Written to the
 * console, to `<reports>/compliance.json`, `.md` and `.html`
 * (self-contained), and to `$GITHUB_STEP_SUMMARY` when set.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import process from 'node:process';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError } from '@playwright/test/reporter';
import { makeFolders } from '../src/folders.ts';
import { packageRoot } from '../src/package_info.ts';
import { REPORTS } from './paths.ts';
import { factLines, type RunFacts, runFacts } from './run_facts.ts';

/** How a clause fared. */
export type ClauseStatus = 'passed' | 'failed' | 'not checked';

/** One row of the report. */
export interface ComplianceRow {
  clause: string;
  kind: 'rule' | 'probe';
  checks: number;
  passed: number;
  failed: number;
  skipped: number;
  warned: number;
  reasons: string[];
  covers: string[];
  /** Passed, failed (a check failed), or not checked (every check skipped). */
  status: ClauseStatus;
  /** Titles of the failed tests. */
  failedTests: string[];
}

/** The anchor GitHub gives a heading of `docs/contract.md`. */
export function anchor(clause: string): string {
  return clause.toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLine = (text: string, max = 160) => text.replace(ANSI, '').split('\n').find((line) => line.trim())?.trim().slice(0, max) ?? '';
const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/**
 * Each reason once, in first-seen order: one given by several checks (a skip of a whole group) names how many, as
 * `skipped (11 checks): why`.
 */
function counted(reasons: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => count === 1 ? reason : reason.replace(': ', ` (${count} checks): `));
}

/**
 * Builds the rows from the run's tests.
 *
 * @param tests every test of the run, after it
 * @returns one row per clause and kind, in clause order
 */
function complianceRows(tests: readonly TestCase[]): ComplianceRow[] {
  const rows = new Map<string, ComplianceRow>();
  for (const test of tests) {
    const last = test.results.at(-1);
    const annotations = [...test.annotations, ...(last?.annotations ?? [])];
    const clause = annotations.find((a) => a.type === 'clause')?.description?.replace(/^auth-contract /, '') ?? '(no clause)';
    const kind = annotations.some((a) => a.type === 'kind' && a.description === 'probe') ? 'probe' : 'rule';
    const key = `${clause}\u0000${kind}`;
    const row = rows.get(key) ??
      {
        clause,
        kind,
        checks: 0,
        passed: 0,
        failed: 0,
        skipped: 0,
        warned: 0,
        reasons: [],
        covers: [],
        status: 'passed',
        failedTests: [],
      } satisfies ComplianceRow;
    rows.set(key, row);
    row.checks++;
    for (const a of annotations) {
      if (a.type === 'covers' && a.description && !row.covers.includes(a.description)) row.covers.push(a.description);
    }
    const outcome = test.outcome();
    const warning = annotations.find((a) => a.type === 'warning')?.description;
    if (outcome === 'skipped') {
      row.skipped++;
      row.reasons.push(`skipped: ${annotations.find((a) => a.type === 'skip')?.description ?? test.title}`);
    } else if (outcome === 'unexpected') {
      row.failed++;
      row.failedTests.push(test.title);
      row.reasons.push(`${test.title}: ${firstLine(last?.error?.message ?? 'failed')}`);
    } else if (warning) {
      row.warned++;
      row.reasons.push(`warning: ${warning}`);
    } else row.passed++;
  }
  for (const row of rows.values()) {
    row.status = row.failed > 0 ? 'failed' : row.skipped === row.checks ? 'not checked' : 'passed';
    row.reasons = counted(row.reasons);
  }
  return [...rows.values()].sort((a, b) => a.clause.localeCompare(b.clause, 'en', { numeric: true }) || a.kind.localeCompare(b.kind));
}

/**
 * The report as Markdown.
 *
 * @param rows the rows
 * @param link how a clause links to its text (undefined: no link)
 * @returns the Markdown text
 */
function complianceMarkdown(rows: readonly ComplianceRow[], link?: (clause: string) => string, facts?: RunFacts): string {
  const failing = [...new Set(rows.filter((r) => r.failed > 0).map((r) => r.clause))];
  const warned = [...new Set(rows.filter((r) => r.warned > 0).map((r) => r.clause))];
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '## Contract compliance',
    '',
    ...(facts ? [...factLines(facts).map((line) => `- ${line}`), ''] : []),
    failing.length ? `**Failing clauses:** ${failing.join(', ')}` : rows.length ? '**No contract rule failed.**' : '**No test ran.**',
    warned.length
      ? `**Probe warnings:** ${
        warned.join(', ')
      } (behaviour the contract does not state; never fails the run unless SLICER_CONTRACT_STRICT=1)`
      : '',
    '',
    '| Clause | Kind | Status | Checks | Passed | Failed | Skipped | Warned | Covers | Not passed, and why |',
    '|---|---|---|---:|---:|---:|---:|---:|---|---|',
    ...rows.map((r) =>
      `| ${
        link ? `[${r.clause}](${link(r.clause)})` : r.clause
      } | ${r.kind} | ${r.status} | ${r.checks} | ${r.passed} | ${r.failed} | ${r.skipped} | ${r.warned} | ${cell(r.covers.join(', '))} | ${
        cell(r.reasons.join('; '))
      } |`
    ),
    '',
  ].join('\n');
}

/** Options of the reporter (in the Playwright config). */
export interface ComplianceReporterOptions {
  /** Set by the merge config: this report merges the shards' blobs. */
  merged?: boolean;
}

/** Playwright reporter writing the compliance report. */
export default class ComplianceReporter implements Reporter {
  #suite: Suite | undefined;
  #part = 'whole run';
  readonly #errors: string[] = [];
  readonly #merged: boolean;

  /** @param options `merged` for the merge of shards */
  constructor(options: ComplianceReporterOptions = {}) {
    this.#merged = options.merged ?? false;
  }

  /** Keeps the root suite, to read every test at the end, and which part of a run this is. */
  onBegin(config: FullConfig, suite: Suite): void {
    this.#suite = suite;
    this.#part = this.#merged ? 'merged shards' : config.shard ? `shard ${config.shard.current}/${config.shard.total}` : 'whole run';
  }

  /** Keeps the first line of an error outside any test, such as a global setup's refusal to start. */
  onError(error: TestError): void {
    this.#errors.push(firstLine(error.message ?? error.value ?? 'error', 500).replace(/^Error: /, ''));
  }

  /** Writes the report to the console, the reports folder and the GitHub job summary. */
  onEnd(result: FullResult): void {
    const tests = this.#suite?.allTests() ?? [];
    const rows = complianceRows(tests);
    const facts = runFacts(tests, result, this.#part, this.#errors);
    const folder = resolve(REPORTS);
    makeFolders(folder);
    const contract = relative(folder, join(packageRoot(), 'docs', 'contract.md')).split('\\').join('/');
    const markdown = complianceMarkdown(rows, (clause) => `${contract}#${anchor(clause)}`, facts);
    writeFileSync(join(folder, 'compliance.md'), markdown);
    writeFileSync(join(folder, 'compliance.html'), html(rows, contract, facts));
    writeFileSync(join(folder, 'compliance.json'), `${JSON.stringify({ ...facts, clauses: rows }, null, 2)}\n`);
    if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, complianceMarkdown(rows, undefined, facts));
    console.log(
      [
        '',
        ...factLines(facts),
        'Contract compliance (clause · kind · passed/checks · failed · skipped · warned; – not checked):',
        ...rows.map((r) =>
          `  ${
            r.failed ? '✖' : r.warned ? '!' : r.status === 'not checked' ? '–' : '✔'
          } ${r.clause} · ${r.kind} · ${r.passed}/${r.checks} · ${r.failed} · ${r.skipped} · ${r.warned}${
            r.failed || r.warned ? ` — ${r.reasons.find((x) => !x.startsWith('skipped')) ?? ''}` : ''
          }`
        ),
        `Report: ${join(REPORTS, 'compliance.md')}, compliance.html and compliance.json`,
      ].join('\n'),
    );
  }

  /** @returns false: this reporter prints only its summary */
  printsToStdio(): boolean {
    return false;
  }
}

function html(rows: readonly ComplianceRow[], contract: string, facts: RunFacts): string {
  const body = rows.map((r) =>
    `<tr class="${r.failed ? 'failed' : r.warned ? 'warned' : 'passed'}"><td><a href="${escapeHtml(contract)}#${anchor(r.clause)}">${
      escapeHtml(r.clause)
    }</a></td><td>${r.kind}</td><td>${r.status}</td><td>${r.checks}</td><td>${r.passed}</td><td>${r.failed}</td><td>${r.skipped}</td><td>${r.warned}</td><td>${
      escapeHtml(r.covers.join(', '))
    }</td><td>${escapeHtml(r.reasons.join('; '))}</td></tr>`
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contract compliance</title><style>
body{font:14px/1.5 system-ui,sans-serif;margin:24px;color:#1c2433}table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #e3e8f0;padding:6px 8px;text-align:left;vertical-align:top}th{font-size:12px;text-transform:uppercase;color:#5b6678}
tr.failed td:first-child{border-left:4px solid #c62f3b}tr.warned td:first-child{border-left:4px solid #d29b00}tr.passed td:first-child{border-left:4px solid #1d8a55}
</style></head><body><h1>Contract compliance</h1><ul>${factLines(facts).map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
<table><thead><tr><th>Clause</th><th>Kind</th><th>Status</th><th>Checks</th><th>Passed</th><th>Failed</th>
<th>Skipped</th><th>Warned</th><th>Covers</th><th>Not passed, and why</th></tr></thead><tbody>
${body}
</tbody></table></body></html>
`;
}
