/**
 * Contract 4.1: requests that must not yield a token. Only what is documented
 * is asserted (no token, a 4xx: part 7 specifies no error format); the status
 * and body seen are recorded as annotations. Wrong-password attempts are kept
 * to one per run: a staging account can lock.
 */
import { type Answer, clause, type ContractApi, expect, test } from '../fixtures.ts';

function expectNoToken(api: ContractApi, answer: Answer, what: string): void {
  test.info().annotations.push({ type: 'observed', description: `${what}: ${answer.status} ${api.redact(answer.text).slice(0, 300)}` });
  expect(answer.status >= 400 && answer.status < 500, `${what} must be refused with a 4xx, got ${answer.status}`).toBe(true);
  let token: unknown;
  try {
    token = (JSON.parse(answer.text) as { access_token?: unknown }).access_token;
  } catch {
    token = undefined;
  }
  expect(token === undefined, `${what} must not issue an access_token`).toBe(true);
}

const cases: [string, (good: Record<string, string>) => Record<string, string | undefined>][] = [
  ['a wrong password', (good) => ({ ...good, password: `${good.password}-wrong` })],
  ['an unknown user', (good) => ({ ...good, username: `no-such-user-${Date.now()}` })],
  ['another grant_type', (good) => ({ ...good, grant_type: 'client_credentials' })],
  ['an unknown scope', (good) => ({ ...good, scope: `service_id=no-such-service-${Date.now()}` })],
  ['a missing grant_type', (good) => ({ ...good, grant_type: undefined })],
  ['a missing username', (good) => ({ ...good, username: undefined })],
  ['a missing password', (good) => ({ ...good, password: undefined })],
  ['a missing scope', (good) => ({ ...good, scope: undefined })],
];

for (const [what, change] of cases) {
  test(`4.1 request fields: ${what} yields no token`, clause('4.1 request fields'), async ({ api }) => {
    expectNoToken(api, await api.grant(change(api.goodGrant())), what);
  });
}
