/**
 * Contract 5.2: the scope chosen in the token request fixes which service the
 * token can be used for.
 */
import { clause, covers, expect, refused, type Service, test } from '../fixtures.ts';

for (const [own, other] of [['slicer', 'predict'], ['predict', 'slicer']] as const satisfies readonly [Service, Service][]) {
  test(
    `5.2: a ${own} token is accepted by the ${own} service and refused by the ${other} service`,
    clause('5.2 scope'),
    async ({ api, target }) => {
      test.skip(!target.predictServiceId || !target.predictBaseUrl, 'needs SLICER_PREDICT_SERVICE_ID and SLICER_PREDICT_BASE_URL');
      covers(`${own} token at both services`);
      const token = await api.issue(own);
      expect(refused(await api.call(own, { header: token })), `the ${own} service refused its own token`).toBe(false);
      const answer = await api.call(other, { header: token });
      expect(refused(answer), `the ${other} service accepted a ${own}-scoped token (${answer.status})`).toBe(true);
    },
  );
}
