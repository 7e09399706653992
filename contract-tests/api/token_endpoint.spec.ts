/**
 * Contract 4.1: issuing a temporary access token.
 */
import * as v from 'valibot';
import { TokenResponseSchema } from '../../src/schemas.ts';
import { accessTokenIn, clause, covers, documentedDrift, expect, finding, probe, type Service, test } from '../fixtures.ts';

for (const service of ['slicer', 'predict'] as const satisfies readonly Service[]) {
  test.describe(`4.1 token endpoint, scope ${service}`, () => {
    test.beforeEach(({ target }) => {
      test.skip(service === 'predict' && !target.predictServiceId, 'SLICER_PREDICT_SERVICE_ID is not set');
    });

    test(`4.1 rule 1: a valid request answers every documented field (${service})`, clause('4.1 rule 1'), async ({ api }) => {
      covers(`${service} scope: token_type, scope, access_token, expires_in`);
      const answer = await api.grant(api.goodGrant(service));
      expect(answer.status, 'status of a valid token request').toBe(200);
      let parsed: unknown;
      try {
        parsed = JSON.parse(answer.text);
      } catch {
        throw new Error(`4.1: the response body is not JSON (content type "${answer.contentType}")`);
      }
      const shape = v.safeParse(TokenResponseSchema, parsed);
      if (shape.success) api.secret(shape.output.access_token);
      // Issue paths and fixed messages only: valibot's own messages would quote the token.
      const issues = (shape.issues ?? []).map((issue) => `${v.getDotPath(issue) ?? 'body'}: ${issue.message}`);
      expect(issues, `4.1: the response body has the documented shape: ${issues.join('; ')}`).toEqual([]);
      const drift = documentedDrift(parsed as Record<string, unknown>, api.scope(service)).map((text) => api.redact(text));
      expect(drift, `4.1 rule 1: the answer differs from the documented fields: ${drift.join('; ')}`).toEqual([]);
    });

    test(`4.1 rule 1: each call answers a new access_token (${service})`, clause('4.1 rule 1'), async ({ api }) => {
      covers(`${service} scope: a new token per request`);
      const first = await api.issue(service);
      const second = await api.issue(service);
      expect(first === second, '4.1: two requests gave the same access_token').toBe(false);
    });
  });
}

test('4.1 rule 2: the form-encoded body with an explicit Content-Type is accepted', clause('4.1 rule 2'), async ({ api }) => {
  covers('form-encoded body with explicit Content-Type');
  const answer = await api.grant(api.goodGrant());
  expect(answer.status, 'a form-encoded request with Content-Type application/x-www-form-urlencoded').toBe(200);
  expect(typeof accessTokenIn(answer.text), 'the answer carries an access_token').toBe('string');
});

test(
  '4.1 rule 1 (probe): a token answer says it is JSON',
  probe('4.1 rule 1', 'the contract documents a JSON body, not the content type it is sent with'),
  async ({ api }) => {
    covers('the content type of a token answer');
    const answer = await api.grant(api.goodGrant());
    expect(answer.status, 'status of a valid token request').toBe(200);
    const type = answer.contentType ? `"${answer.contentType}"` : 'not given';
    finding(answer.contentType.toLowerCase().includes('json'), `a token answer's content type is ${type}, not JSON's (application/json)`);
  },
);
