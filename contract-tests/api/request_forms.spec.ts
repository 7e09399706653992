/**
 * Contract 4.1 rule 2 at its edges: the token request in the documented
 * form, in the other forms real clients send for the same content type, and
 * degenerate and hostile bodies (contract-tests/boundaries.ts).
 */
import { REQUEST_FORMS } from '../boundaries_request.ts';
import { accessTokenIn, type Answer, covers, expect, finding, rowTest, test } from '../fixtures.ts';

/** Whether an answer carries an access token. */
const tokenIn = (answer: Answer) => typeof accessTokenIn(answer.text) === 'string';

for (const row of REQUEST_FORMS) {
  const { title, details } = rowTest(row, 'the contract documents the form-encoded body, not what a server does with another');
  test(title, details, async ({ api }) => {
    covers(`${row.kind}: ${row.input}, ${row.value}`);
    const sent = row.send({ username: api.target.username, password: api.target.password, scope: api.scope('slicer') });
    const answer = await api.grantBody(sent.body, sent.contentType);
    const outcome = `answered ${answer.status}${tokenIn(answer) ? ' with a token' : ''}`;
    const met = row.expect === 'a token'
      ? answer.status === 200 && tokenIn(answer)
      : row.expect === 'no server error'
      ? answer.status < 500
      : answer.status >= 400 && answer.status < 500 && !tokenIn(answer);
    if (row.rule) expect(met, `4.1: ${row.input}, ${row.value}: expected ${row.expect}, ${outcome}`).toBe(true);
    else finding(met, `${row.input}, ${row.value}: expected ${row.expect}, ${outcome}`);
  });
}
