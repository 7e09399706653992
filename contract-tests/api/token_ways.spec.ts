/**
 * Contract 5.1 rule 2 at its edges: a valid token changed slightly (near-
 * misses), in the header and as the post argument, is refused; the post
 * argument in the forms real clients send is accepted; degenerate and hostile
 * tokens are refused without a server error (contract-tests/boundaries.ts).
 */
import { TOKEN_WAYS } from '../boundaries_token.ts';
import { covers, expect, finding, refused, rowTest, test } from '../fixtures.ts';

for (const row of TOKEN_WAYS) {
  const { title, details } = rowTest(row, 'the contract writes the header as "Bearer"; other spellings are not stated');
  test(title, details, async ({ api }) => {
    covers(`${row.kind}: ${row.input}, ${row.value}`);
    const answer = await api.call('slicer', row.present(await api.issue('slicer')));
    const met = row.expect === 'accepted' ? !refused(answer) && answer.status < 500 : refused(answer);
    const what = `5.1: a token in the ${
      row.input.replace(/^token \((.*)\)$/, '$1')
    }, ${row.value}, was answered ${answer.status}, expected ${row.expect}`;
    if (row.rule) expect(met, what).toBe(true);
    else finding(met, what);
  });
}
