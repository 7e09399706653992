/**
 * Contract 4.1 request fields at their edges: degenerate, hostile and
 * near-miss credentials yield no token (contract-tests/boundaries.ts). Wrong
 * passwords go to a user of the sandbox's own, so that no account locks; on
 * a live service they are not tried (its test account would lock), and the
 * report says so.
 */
import { CREDENTIALS } from '../boundaries_request.ts';
import { accessTokenIn, clause, covers, expect, test } from '../fixtures.ts';

for (const row of CREDENTIALS) {
  test(`${row.clause}: ${row.input} ${row.value}: ${row.expect}`, clause(row.clause), async ({ api, target, controls }) => {
    test.skip(row.notLive !== undefined && target.live, `not checkable on a live service: ${row.notLive}`);
    covers(`${row.kind}: ${row.input} ${row.value}`);
    // A password row changes the password of a user of its own (the sandbox's), so that failures lock no shared account.
    const user = row.notLive && controls ? await controls.newUser() : { username: target.username, password: target.password };
    const good = { username: user.username, password: user.password, scope: api.scope('slicer') };
    const answer = await api.grant({ grant_type: 'password', ...good, ...row.change(good) });
    const token = accessTokenIn(answer.text);
    expect(
      token === undefined && answer.status >= 400 && answer.status < 500,
      `4.1: ${row.input} ${row.value} was answered ${answer.status}${token === undefined ? '' : ' with a token'}, not a 4xx without one`,
    ).toBe(true);
  });
}
