/**
 * Contract 4.1: requests that must not yield a token. Only what is documented
 * is a rule: a token comes from a username and its password, so a wrong
 * password or an unknown user yields none. What a server does with a request
 * that breaks the client's side of 4.1 (a missing field, another grant_type,
 * another scope, repeated parameters, a JSON body) is not stated: those are
 * strictness probes, reported as warnings. The status and body seen are
 * recorded as annotations. Wrong-password attempts are kept to one per run:
 * a staging account can lock.
 */
import { accessTokenIn, type Answer, clause, type ContractApi, covers, expect, finding, probe, test } from '../fixtures.ts';

/** Whether an answer refuses (a 4xx) without issuing a token; recorded as an annotation (any token in it was registered on arrival). */
function noToken(api: ContractApi, answer: Answer, what: string): boolean {
  test.info().annotations.push({ type: 'observed', description: `${what}: ${answer.status} ${api.redact(answer.text).slice(0, 300)}` });
  return answer.status >= 400 && answer.status < 500 && accessTokenIn(answer.text) === undefined;
}

const rules: [string, (good: Record<string, string>) => Record<string, string | undefined>][] = [
  ['a wrong password', (good) => ({ ...good, password: `${good.password}-wrong` })],
  ['an unknown user', (good) => ({ ...good, username: `no-such-user-${Date.now()}` })],
];
for (const [what, change] of rules) {
  test(`4.1 request fields: ${what} yields no token`, clause('4.1 request fields'), async ({ api }) => {
    covers(what);
    expect(noToken(api, await api.grant(change(api.goodGrant())), what), `${what} must be refused with a 4xx and no access_token`).toBe(
      true,
    );
  });
}

const OPEN = 'the contract lists the fields a client sends; it states nothing about what a server does otherwise';
const probes: [string, (good: Record<string, string>) => Record<string, string | undefined>][] = [
  ['another grant_type', (good) => ({ ...good, grant_type: 'client_credentials' })],
  ['an unknown scope', (good) => ({ ...good, scope: `service_id=no-such-service-${Date.now()}` })],
  ['a missing grant_type', (good) => ({ ...good, grant_type: undefined })],
  ['a missing username', (good) => ({ ...good, username: undefined })],
  ['a missing password', (good) => ({ ...good, password: undefined })],
  ['a missing scope', (good) => ({ ...good, scope: undefined })],
];
for (const [what, change] of probes) {
  test(`4.1 request fields (probe): ${what} yields no token`, probe('4.1 request fields', OPEN), async ({ api }) => {
    const answer = await api.grant(change(api.goodGrant()));
    finding(noToken(api, answer, what), `${what} was answered ${answer.status}, not a 4xx without a token`);
  });
}

test('4.1 request fields (probe): a repeated parameter yields no token', probe('4.1 request fields', OPEN), async ({ api }) => {
  const body = `grant_type=refresh_token&${new URLSearchParams(api.goodGrant())}`;
  const answer = await api.grantBody(body, 'application/x-www-form-urlencoded');
  finding(noToken(api, answer, 'a repeated grant_type'), `a repeated grant_type was answered ${answer.status}, not a 4xx without a token`);
});

test(
  '4.1 rule 2 (probe): a JSON body yields no token',
  probe('4.1 rule 2', 'the contract says the body is form-encoded; it does not say a JSON body is refused'),
  async ({ api }) => {
    const answer = await api.grantBody(JSON.stringify(api.goodGrant()), 'application/json');
    finding(noToken(api, answer, 'a JSON body'), `a JSON body was answered ${answer.status}, not a 4xx without a token`);
  },
);
