import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sandboxUi } from '../testing/sandbox_ui.ts';
import { SHADOW_LIST } from '../testing/shadow_list.ts';

test("a token list inside a web component's shadow root: a token is created, found, counted, revoked and listed", {
  timeout: 60_000,
}, async (t) => {
  const { tokens, sandbox, serviceId, page } = await sandboxUi(t, SHADOW_LIST);
  await tokens.open();
  const name = 'shown by a web component';
  const value = await tokens.create(name, [serviceId]);
  assert.equal(await page.locator('token-table').count(), 1, 'the list is in the component');
  assert.equal(await page.locator('xpath=//table').count(), 0, 'out of reach of a look over the page by XPath');
  assert.equal(await tokens.countAll(tokens.active(name)), 1, 'step 8: it is listed');
  assert.equal(await tokens.showsExactly(name), true);
  await tokens.revoke(name);
  assert.equal(sandbox.store.check(value), 'revoked', 'Revoke, then OK revoked it');
  assert.equal(await tokens.isRevoked(name), true, 'step 3: shown as revoked');
  assert.deepEqual(await tokens.list(), [{ name, revoked: true }]);
  assert.deepEqual(await tokens.namesLike(/^shown by/), [name]);
});
