/**
 * How a test says what it checks: a contract *rule* (fails the run) or a
 * *strictness probe* (a warning, failing only with SLICER_CONTRACT_STRICT=1),
 * and which members of the rule's class it covers. The compliance report
 * reads these annotations.
 */
import { test, type TestDetails } from '@playwright/test';
import type { Boundary } from './boundary.ts';
import { readToolSettings } from '../src/settings/tool_settings.ts';

/**
 * Test details of a *contract rule*: behaviour `docs/contract.md` states. Its
 * failure fails the run. Titles start with the clause id too.
 *
 * @param id the clause, a heading of `docs/contract.md`, e.g. `4.1 rule 1`
 * @param tags extra tags, e.g. `@sandbox`
 * @returns details for `test(title, details, body)`
 */
export function clause(id: string, ...tags: string[]): TestDetails {
  return {
    annotation: [{ type: 'clause', description: `auth-contract ${id}` }, { type: 'kind', description: 'rule' }],
    tag: tags,
  };
}

/**
 * Test details of a *strictness probe*: behaviour the contract implies but
 * does not state (a missing field refused, duplicates, error codes). Its
 * findings are warnings (see {@link finding}); the run fails on them only
 * with `SLICER_CONTRACT_STRICT=1`.
 *
 * @param id the clause it relates to
 * @param why what the contract leaves open, for the annotation
 * @returns details for `test(title, details, body)`
 */
export function probe(id: string, why: string): TestDetails {
  return {
    annotation: [
      { type: 'clause', description: `auth-contract ${id}` },
      { type: 'kind', description: 'probe' },
      { type: 'probe', description: why },
    ],
  };
}

/** Whether probe findings fail the run (`SLICER_CONTRACT_STRICT=1`). */
export const STRICT = readToolSettings().contractStrict;

/**
 * Records what a probe found: nothing when the service behaves as expected,
 * else a `warning` annotation (and a console line); with STRICT, a failure.
 *
 * @param expected whether the service did what the probe expects
 * @param what the finding, e.g. `a request without scope was answered with a token`
 */
export function finding(expected: boolean, what: string): void {
  if (expected) return;
  test.info().annotations.push({ type: 'warning', description: what });
  console.warn(`[contract probe] ${test.info().title}: ${what}`);
  if (STRICT) throw new Error(`Strictness probe (SLICER_CONTRACT_STRICT=1): ${what}`);
}

/**
 * Names what a rule's test covers, for the compliance report (contract
 * rules hold for a class of requests: every member is checked).
 *
 * @param members e.g. `slicer service`, `header`, `multipart body`
 */
export function covers(...members: string[]): void {
  for (const member of members) test.info().annotations.push({ type: 'covers', description: member });
}

/**
 * A boundary row's test: its title, and its details (the row's clause when it is a rule, else a probe saying why).
 * The test itself still names the row with {@link covers}, which must run inside it.
 *
 * @param row the row
 * @param whyProbe what the contract leaves open, when the row is a probe
 * @returns the title and details for `test(title, details, body)`
 */
export function rowTest(row: Boundary, whyProbe: string): { readonly title: string; readonly details: TestDetails } {
  return {
    title: `${row.clause}${row.rule ? '' : ' (probe)'}: ${row.input}, ${row.value}: ${row.expect}`,
    details: row.rule ? clause(row.clause) : probe(row.clause, whyProbe),
  };
}
