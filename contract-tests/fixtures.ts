/**
 * Fixtures of the contract suite: the target, the secret-redacting API helper,
 * the sandbox's test controls, the TOKENS page, and a tracker that revokes
 * every permanent token a test created, in teardown, even when the test fails.
 * Specs import everything they need from here.
 */
import { test as base } from '@playwright/test';
import { SECRET_ATTRIBUTE, TokensPage } from '../src/auth_ui/tokens_page.ts';
import { ContractApi } from './contract_api.ts';
import { SandboxControls } from './sandbox_controls.ts';
import { loadTarget, type Target } from './target.ts';

export { expect } from '@playwright/test';
export { clause, covers, finding, probe, STRICT } from './clauses.ts';
export { type Answer, ContractApi, type Presentation, refused, type Service } from './contract_api.ts';
export { SandboxControls } from './sandbox_controls.ts';

/** Prefix of every permanent token the suite creates, so leftovers can be found (`permanent revoke --prefix`). */
export const TOKEN_NAME_PREFIX = 'contract-test';

/** Tracks the permanent tokens a test creates. */
export interface PermanentTokens {
  /** A unique, recognisable token name for this test. */
  name(label: string): string;
}

interface Fixtures {
  api: ContractApi;
  controls: SandboxControls | undefined;
  tokensPage: TokensPage;
  permanentTokens: PermanentTokens;
}

/** The suite's `test`, with its fixtures. */
export const test = base.extend<Fixtures, { target: Target }>({
  target: [
    // deno-lint-ignore no-empty-pattern
    async ({}, use) => {
      await use(loadTarget());
    },
    { scope: 'worker' },
  ],
  api: async ({ request, target }, use) => {
    await use(new ContractApi(request, target));
  },
  controls: async ({ request, target }, use) => {
    await use(target.controlsUrl ? new SandboxControls(request, target.controlsUrl) : undefined);
  },
  page: async ({ page }, use, testInfo) => {
    await use(page);
    // Playwright's own failure screenshot cannot mask; this one covers token values and password fields.
    if (testInfo.status !== testInfo.expectedStatus && !page.isClosed()) {
      const mask = [page.locator(`[${SECRET_ATTRIBUTE}]`), page.locator('input[type=password]')];
      const shot = await page.screenshot({ fullPage: true, mask }).catch(() => undefined);
      if (shot) await testInfo.attach('screenshot on failure (secrets masked)', { body: shot, contentType: 'image/png' });
    }
  },
  tokensPage: async ({ page, target }, use) => {
    await use(new TokensPage(page, target.authUrl, { username: target.username, password: target.password }));
  },
  permanentTokens: async ({ context, target }, use, testInfo) => {
    const created: string[] = [];
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    await use({
      name(label) {
        // Unique across shards (each machine of a sharded run creates its own tokens) and tests.
        const shard = testInfo.config.shard ? `s${testInfo.config.shard.current}of${testInfo.config.shard.total} ` : '';
        const name = `${TOKEN_NAME_PREFIX} ${stamp} ${shard}${testInfo.testId.slice(0, 6)} ${label}`;
        created.push(name);
        return name;
      },
    });
    if (created.length === 0) return;
    // Teardown runs when the test failed too: revoke whatever it left active.
    const page = await context.newPage();
    const tokens = new TokensPage(page, target.authUrl, { username: target.username, password: target.password });
    await tokens.open();
    for (const entry of await tokens.list()) {
      if (created.includes(entry.name) && !entry.revoked) await tokens.revoke(entry.name, true);
    }
    await page.close();
  },
});
