/**
 * Contract 5.3 / 5.2: a permanent token is valid until revoked, long after a
 * temporary token's 3600 s. Moves the sandbox clock: runs in project
 * `clock-ui`, after everything else.
 */
import { clause, expect, refused, test } from '../fixtures.ts';

test(
  "5.2/5.3: a permanent token still works long after a temporary token's lifetime (sandbox clock)",
  clause('5.3 permanent validity', '@sandbox'),
  async ({ tokensPage, permanentTokens, api, controls, target }) => {
    test.skip(!controls, 'needs the sandbox clock (test controls)');
    const name = permanentTokens.name('long-lived');
    await tokensPage.open();
    const value = api.secret(await tokensPage.create(name, [target.serviceId]));
    await controls?.advance(30 * 24 * 3600);
    expect(refused(await api.call('slicer', { header: value })), 'the permanent token expired').toBe(false);
  },
);
