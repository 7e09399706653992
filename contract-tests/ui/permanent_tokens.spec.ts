/**
 * Contract 5.3: permanent tokens in the browser UI, step by step with the
 * documented labels and in the documented order.
 */
import { nearMisses } from '../boundary.ts';
import { clause, covers, expect, refused, test } from '../fixtures.ts';
import { control } from '../../src/auth_ui/controls.ts';
import { ScopeNotOffered } from '../../src/auth_ui/new_token_dialog.ts';
import { TokensPage } from '../../src/auth_ui/tokens_page.ts';

/** Revocation may take a moment on a live service; the sandbox must be immediate. */
const revocationWait = (live: boolean) => ({ timeout: live ? 30_000 : 2_000, intervals: [250, 500, 1000] });

test(
  '5.3 creating, step 4: the list is empty for a first token',
  clause('5.3 creating step 4', '@sandbox'),
  async ({ browser, controls, target }) => {
    test.skip(!controls, 'needs a fresh user (sandbox test controls)');
    const user = await (controls as NonNullable<typeof controls>).newUser();
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    try {
      const tokens = new TokensPage(await context.newPage(), target.authUrl, user);
      await tokens.open();
      await expect(tokens.tokenRows()).toHaveCount(0);
      await expect(control(tokens.page, 'Revoke'), 'no entry of any markup offers Revoke').toHaveCount(0);
      await expect(tokens.newToken).toBeVisible();
    } finally {
      await context.close();
    }
  },
);

test(
  '5.3 creating, steps 1–8: create, add the scope, copy the value, Done lists it; the token works',
  clause('5.3 creating steps 1-8'),
  async ({ tokensPage, permanentTokens, api, target }) => {
    covers('steps 1-8 in order', 'the new token in the header and as post argument');
    const name = permanentTokens.name('create');
    await tokensPage.open();
    await tokensPage.openCreationForm();
    const dialog = tokensPage.dialog;
    await dialog.enterName(name);
    await dialog.enterScope(target.serviceId);
    await dialog.add.click();
    await expect(dialog.added(target.serviceId), 'step 6: Add puts the scope in the list').toBeVisible();
    await dialog.create.click();
    // Steps 7–8: the value is displayed, and "Copy token value" copies exactly the displayed value (readValue checks both).
    const value = api.secret(await dialog.readValue());
    expect(value.length > 0, 'step 7: Create displays the token').toBe(true);
    await dialog.done.click();
    await tokensPage.shows(tokensPage.row(name), 'step 8: after Done the token appears in the list');

    const header = await api.call('slicer', { header: value });
    expect(refused(header), `5.1: the permanent token in the header was refused (${header.status})`).toBe(false);
    const post = await api.call('slicer', { post: value });
    expect(refused(post), `5.1: the permanent token as post argument was refused (${post.status})`).toBe(false);
  },
);

test(
  '5.3 revoking, steps 1–3: Revoke + OK shows it revoked and it is refused at once',
  clause('5.3 revoking steps 1-3'),
  async ({ tokensPage, permanentTokens, api, target }) => {
    const name = permanentTokens.name('revoke');
    await tokensPage.open();
    const value = api.secret(await tokensPage.create(name, [target.serviceId]));
    expect(refused(await api.call('slicer', { header: value })), 'the new token works before revoking').toBe(false);
    await tokensPage.open();
    await tokensPage.revoke(name, true);
    expect(await tokensPage.isRevoked(name), 'step 3: shown as revoked').toBe(true);
    await tokensPage.page.reload();
    await tokensPage.shows(tokensPage.revoked(name), 'a revoked token stays listed as revoked');
    // Refused every way a token travels (5.1 rule 2), after it was accepted every way before.
    covers('header, before and after revocation', 'post argument, after revocation');
    await expect.poll(async () => refused(await api.call('slicer', { header: value })), {
      message: 'the revoked token is refused in the header',
      ...revocationWait(target.live),
    }).toBe(true);
    expect(refused(await api.call('slicer', { post: value })), 'the revoked token is refused as post argument').toBe(true);
  },
);

test(
  '5.3 revoking, step 2: Cancel keeps the token working',
  clause('5.3 revoking step 2'),
  async ({ tokensPage, permanentTokens, api, target }) => {
    covers('Cancel at the confirmation');
    const name = permanentTokens.name('cancel');
    await tokensPage.open();
    const value = api.secret(await tokensPage.create(name, [target.serviceId]));
    await tokensPage.revoke(name, false);
    await tokensPage.page.reload();
    expect(await tokensPage.isRevoked(name), 'Cancel must not revoke').toBe(false);
    expect(refused(await api.call('slicer', { header: value })), 'the token still works after Cancel').toBe(false);
  },
);

test(
  '5.3 creating, step 7: an incorrect scope creates nothing: an unknown service id, and the service id changed at its last character',
  clause('5.3 creating step 7'),
  async ({ tokensPage, permanentTokens, page, target }) => {
    const lastChanged = nearMisses().find((n) => n.value === 'changed at its last character');
    if (!lastChanged) throw new Error('boundaries.ts has no near-miss "changed at its last character"');
    const incorrect: [string, string][] = [
      ['an unknown service id', `no-such-service-${Date.now()}`],
      ['a near-miss of the service id (its last character changed)', lastChanged.apply(target.serviceId)],
    ];
    for (const [what, scope] of incorrect) {
      covers(`${what} as scope`);
      const name = permanentTokens.name(`bad-scope ${what}`);
      await tokensPage.open();
      // A Scope field that is a `<select>` does not let an incorrect scope be entered at all; that meets the clause too.
      const offered = await tokensPage.startCreating(name, [scope]).then(() => true, (error: unknown) => {
        if (error instanceof ScopeNotOffered) return false;
        throw error;
      });
      if (offered) {
        await expect(tokensPage.dialog.error, `${what}: an incorrect scope shows a visible error`).not.toBeEmpty();
        await expect(tokensPage.dialog.copy, `${what}: no token value is shown`).toBeHidden();
      } else {
        covers(`${what}: not among the Scope field's choices`);
      }
      // The list afresh: reloaded once Cancel closed the form, else opened again by steps 1-3.
      if (await tokensPage.dialog.leave()) await page.reload();
      else await tokensPage.open();
      expect(await tokensPage.countAll(tokensPage.row(name)), `${what}: no token was created`).toBe(0);
    }
  },
);

test(
  '5.3 creating, step 5: a name with HTML special characters is shown literally',
  clause('5.3 creating step 5'),
  async ({ tokensPage, permanentTokens, target }) => {
    covers('HTML special characters in the name');
    const name = permanentTokens.name(`<b>bold</b> & "quotes" 'single' <script>x</script>`);
    await tokensPage.open();
    await tokensPage.create(name, [target.serviceId]);
    const row = tokensPage.row(name);
    await expect(row).toHaveCount(1);
    await expect(row.locator('b, script'), 'no markup was interpreted').toHaveCount(0);
  },
);

test(
  '5.2 scope, for permanent tokens: a token created for one service is refused by the other, every way it travels',
  clause('5.2 scope'),
  async ({ tokensPage, permanentTokens, api, target }) => {
    test.skip(
      !target.predictServiceId || !target.predictBaseUrl,
      'needs both services (SLICER_PREDICT_SERVICE_ID, SLICER_PREDICT_BASE_URL)',
    );
    covers(
      'permanent token: its own service by header and post argument',
      'permanent token: the other service by header and post argument',
    );
    await tokensPage.open();
    const slicer = api.secret(await tokensPage.create(permanentTokens.name('slicer-only'), [target.serviceId]));
    await tokensPage.open();
    const predict = api.secret(await tokensPage.create(permanentTokens.name('predict-only'), [target.predictServiceId as string]));
    for (const [token, own, other] of [[slicer, 'slicer', 'predict'], [predict, 'predict', 'slicer']] as const) {
      for (const presentation of [{ header: token }, { post: token }]) {
        const how = 'header' in presentation ? 'header' : 'post argument';
        expect(refused(await api.call(own, presentation)), `a ${own} permanent token (${how}) is refused by its own service`).toBe(false);
        expect(refused(await api.call(other, presentation)), `a ${own} permanent token (${how}) is accepted by the ${other} service`).toBe(
          true,
        );
      }
    }
  },
);
