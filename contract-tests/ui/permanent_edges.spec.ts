/**
 * Contract 5.3 at its edges (contract-tests/boundaries.ts): names of every
 * kind round-trip exactly (generated from a seed the report prints), tokens
 * with each single scope and with both work exactly where their scopes say,
 * two tokens alive at once are revoked in either order, and near-misses of a
 * permanent token are refused (a near-miss of a service id as scope is step 7
 * in permanent_tokens.spec.ts).
 */
import { nearMisses } from '../boundary.ts';
import { generatedNames, runSeed } from '../boundaries_ui.ts';
import { clause, covers, expect, finding, probe, refused, type Service, test } from '../fixtures.ts';

const SEED = runSeed();

test.describe('5.3 creating step 5: any name is listed exactly as entered', () => {
  const names = generatedNames(SEED, 2);
  for (const [i, label] of names.entries()) {
    test(
      `5.3 creating step 5: generated name ${i + 1} (seed ${SEED}) round-trips`,
      clause('5.3 creating step 5'),
      async ({ tokensPage, permanentTokens, target }) => {
        test.info().annotations.push({ type: 'seed', description: String(SEED) });
        covers('generated names: non-ASCII, emoji, inner spaces, HTML-special characters (seeded)');
        const name = permanentTokens.name(label);
        await tokensPage.open();
        await tokensPage.create(name, [target.serviceId]);
        expect(await tokensPage.showsExactly(name), `the list shows the name exactly as entered (seed ${SEED}, name ${i + 1})`).toBe(true);
      },
    );
  }

  test(
    "5.3 creating step 5 (probe): a 200-character name (or the field's maxlength) round-trips",
    probe('5.3 creating step 5', 'the contract allows any name and states no length'),
    async ({ tokensPage, permanentTokens, target }) => {
      const short = permanentTokens.name('');
      await tokensPage.open();
      await tokensPage.openCreationForm();
      const declared = Number(await tokensPage.dialog.name.getAttribute('maxlength'));
      await tokensPage.dialog.leave();
      const length = declared > 0 ? declared : 200;
      const name = permanentTokens.name('L'.repeat(Math.max(1, length - short.length)));
      await tokensPage.open();
      await tokensPage.create(name, [target.serviceId]);
      finding(await tokensPage.showsExactly(name), `a ${name.length}-character name is not listed as entered`);
    },
  );
});

test(
  '5.3 creating step 6: tokens with each single scope and with both work exactly where their scopes say',
  clause('5.3 creating step 6'),
  async ({ tokensPage, permanentTokens, api, target }) => {
    test.skip(
      !target.predictServiceId || !target.predictBaseUrl,
      'needs both services (SLICER_PREDICT_SERVICE_ID, SLICER_PREDICT_BASE_URL)',
    );
    const ids: Record<Service, string> = { slicer: target.serviceId, predict: target.predictServiceId as string };
    const cases: [string, Service[]][] = [['slicer only', ['slicer']], ['predict only', ['predict']], ['both', ['slicer', 'predict']]];
    for (const [label, services] of cases) {
      covers(`scopes: ${label}`);
      await tokensPage.open();
      const value = api.secret(await tokensPage.create(permanentTokens.name(`scopes ${label}`), services.map((s) => ids[s])));
      for (const service of ['slicer', 'predict'] as const) {
        for (const presentation of [{ header: value }, { post: value }]) {
          const how = 'header' in presentation ? 'header' : 'post argument';
          const answer = await api.call(service, presentation);
          expect(refused(answer), `a token for ${label} (${how}) at the ${service} service: ${answer.status}`).toBe(
            !services.includes(service),
          );
        }
      }
    }
  },
);

for (const order of ['older first', 'newer first'] as const) {
  test(
    `5.3 revoking steps 1-3: two tokens alive at once, revoked ${order}: each refused once revoked, the other still accepted`,
    clause('5.3 revoking steps 1-3'),
    async ({ tokensPage, permanentTokens, api, target }) => {
      covers(`two tokens, revoked ${order}`);
      const names = [permanentTokens.name(`pair ${order} 1`), permanentTokens.name(`pair ${order} 2`)];
      const values: string[] = [];
      for (const name of names) {
        await tokensPage.open();
        values.push(api.secret(await tokensPage.create(name, [target.serviceId])));
      }
      const sequence = order === 'older first' ? [0, 1] : [1, 0];
      for (const [step, index] of sequence.entries()) {
        await tokensPage.open();
        await tokensPage.revoke(names[index] as string, true);
        await expect.poll(async () => refused(await api.call('slicer', { header: values[index] as string })), {
          message: `the revoked token (${order}, step ${step + 1}) is refused`,
          timeout: target.live ? 30_000 : 2_000,
        }).toBe(true);
        const other = sequence[step + 1];
        if (other !== undefined) {
          expect(refused(await api.call('slicer', { header: values[other] as string })), `the other token (${order}) still works`).toBe(
            false,
          );
        }
      }
    },
  );
}

test(
  '5.1 rule 2: near-misses of a permanent token are refused, in the header and as post argument',
  clause('5.1 rule 2'),
  async ({ tokensPage, permanentTokens, api, target }) => {
    await tokensPage.open();
    const value = api.secret(await tokensPage.create(permanentTokens.name('near misses'), [target.serviceId]));
    expect(refused(await api.call('slicer', { header: value })), 'the token itself is accepted').toBe(false);
    for (const { value: what, apply } of nearMisses()) {
      covers(`permanent token ${what}, header and post argument`);
      expect(refused(await api.call('slicer', { header: apply(value) })), `a permanent token ${what} (header) was accepted`).toBe(true);
      expect(refused(await api.call('slicer', { post: apply(value) })), `a permanent token ${what} (post argument) was accepted`).toBe(
        true,
      );
    }
  },
);
