import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountMenu, MENU } from '../testing/menu_scripts.ts';
import { sandboxUi } from '../testing/sandbox_ui.ts';

/** Opens the TOKENS page, and gives what the page logged of its menus. */
async function openLogging(t: Parameters<typeof sandboxUi>[0], script: string) {
  const ui = await sandboxUi(t, script);
  const logged: string[] = [];
  ui.page.on('console', (message) => /^(open|close) /.test(message.text()) && logged.push(message.text()));
  await ui.tokens.open();
  assert.equal(new URL(ui.page.url()).pathname, '/security/tokens', 'steps 2 and 3 reached the TOKENS page');
  return { ...ui, logged };
}

test('"Tokens and sessions" in a closed account menu is shown by opening that menu, not another', { timeout: 60_000 }, async (t) => {
  const { logged, tokens, sandbox, serviceId } = await openLogging(t, accountMenu(false));
  assert.deepEqual(logged, ['open Account']);
  const value = await tokens.create('from a menu', [serviceId]);
  assert.equal((sandbox.store.check(value) as { kind?: string }).kind, 'permanent', 'steps 4–8 created a live token');
});

test('a menu that mounts its items once opened is found by opening the closed menus in turn, closing each that does not hold it', {
  timeout: 60_000,
}, async (t) => {
  const { logged } = await openLogging(t, accountMenu(true));
  assert.deepEqual(logged, ['open Help', 'close Help', 'open Account']);
});

test('a menu that opens on hover only is hovered', { timeout: 60_000 }, async (t) => {
  await openLogging(
    t,
    `document.addEventListener('DOMContentLoaded', () => {
      const form = document.querySelector('form[action="/security"]');
      if (!form) return;
      const style = document.createElement('style');
      style.textContent = '.hover-menu > div { display: none } .hover-menu:hover > div { display: block }';
      const holder = document.createElement('div');
      holder.className = 'hover-menu';
      holder.innerHTML = '<span>Account ▾</span><div></div>';
      form.replaceWith(holder);
      holder.lastElementChild.append(form);
      document.head.append(style);
    });`,
  );
});

test('TOKENS in a collapsed navigation is shown by its toggle', { timeout: 60_000 }, async (t) => {
  const { logged } = await openLogging(
    t,
    `${MENU}
    document.addEventListener('DOMContentLoaded', () => {
      const nav = document.querySelector('nav.top');
      if (!nav) return;
      nav.replaceChildren(menu('☰', [...nav.children], false));
    });`,
  );
  assert.deepEqual(logged, ['open ☰']);
});

/**
 * A script that puts each Revoke in a closed "⋮" menu of its own entry, a list (`<ul role=menu>`) once open;
 * `hideOnRevoked` also leaves a hidden Revoke on revoked entries.
 */
const revokeMenus = (hideOnRevoked: boolean) =>
  `${MENU}
document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('button[data-revoke]')) {
    const place = document.createElement('span');
    button.replaceWith(place);
    const items = document.createElement('ul');
    items.setAttribute('role', 'menu');
    items.append(document.createElement('li'));
    items.firstChild.setAttribute('role', 'none');
    items.firstChild.append(button);
    place.replaceWith(menu('⋮', [items], false));
  }
  if (!${hideOnRevoked}) return;
  for (const badge of document.querySelectorAll('.badge.revoked')) {
    const hidden = document.createElement('button');
    hidden.type = 'button';
    hidden.hidden = true;
    hidden.textContent = 'Revoke';
    badge.closest('tr, li').append(hidden);
  }
});`;

test("a Revoke kept in its entry's closed menu is chosen by opening that entry's menu; such entries are listed as active", {
  timeout: 120_000,
}, async (t) => {
  const { logged, tokens, sandbox, serviceId } = await openLogging(t, revokeMenus(false));
  const kept = await tokens.create('menu kept', [serviceId]);
  const gone = await tokens.create('menu gone', [serviceId]); // listed first: the newest
  assert.deepEqual(await tokens.list(), [{ name: 'menu gone', revoked: false }, { name: 'menu kept', revoked: false }]);
  // Cancelled, the first entry's menu stays open on the same page: the next choice is still the entry it names.
  await tokens.revoke('menu gone', false);
  await tokens.revoke('menu kept');
  assert.equal(sandbox.store.check(kept), 'revoked', 'the chosen token is revoked');
  assert.equal((sandbox.store.check(gone) as { kind?: string }).kind, 'permanent', 'the cancelled one stays active');
  assert.deepEqual(logged, ['open ⋮', 'open ⋮'], "only the chosen entries' menus were opened");
  assert.deepEqual(await tokens.list(), [{ name: 'menu gone', revoked: false }, { name: 'menu kept', revoked: true }]);
  assert.equal(await tokens.revokeEvery(['menu gone']), 1);
  assert.equal(sandbox.store.check(gone), 'revoked');
});

test('a Revoke merely hidden on a revoked entry, with no menu around it, leaves that entry revoked', { timeout: 90_000 }, async (t) => {
  const { tokens, serviceId } = await openLogging(t, revokeMenus(true));
  await tokens.create('hidden after', [serviceId]);
  await tokens.revoke('hidden after'); // counts one active entry fewer
  assert.deepEqual(await tokens.list(), [{ name: 'hidden after', revoked: true }]);
  assert.equal(await tokens.isRevoked('hidden after'), true);
});

/**
 * A script that puts each Revoke in a closed "⋮" menu of its own entry that mounts its items only once opened, in a
 * portal at the end of the page, and covers the page while open (as menus of component libraries do); revoked entries
 * get such a menu too, holding a Details link only, and so does an account menu in a list in the page's banner.
 */
const portalMenus = `${MENU}
const details = () => { const link = document.createElement('a'); link.href = '#details'; link.textContent = 'Details'; return link; };
document.addEventListener('DOMContentLoaded', () => {
  const banner = document.createElement('header');
  banner.append(document.createElement('ul'));
  banner.firstChild.append(document.createElement('li'));
  banner.firstChild.firstChild.append(menu('Account', [details()], true, true));
  document.body.prepend(banner);
  for (const button of document.querySelectorAll('button[data-revoke]')) {
    const place = document.createElement('span');
    button.replaceWith(place);
    button.setAttribute('role', 'menuitem');
    place.replaceWith(menu('⋮', [button], true, true, true));
  }
  for (const badge of document.querySelectorAll('.badge.revoked')) badge.closest('tr, li').append(menu('⋮', [details()], true, true));
});`;

test(
  "a Revoke that its entry's menu mounts only once opened, elsewhere in the page, is chosen by opening that menu, closed after a Cancel",
  {
    timeout: 120_000,
  },
  async (t) => {
    const { logged, tokens, sandbox, serviceId } = await openLogging(t, portalMenus);
    const kept = await tokens.create('portal kept', [serviceId]);
    const gone = await tokens.create('portal gone', [serviceId]);
    assert.deepEqual(await tokens.list(), [{ name: 'portal gone', revoked: false }, { name: 'portal kept', revoked: false }]);
    await tokens.revoke('portal gone', false);
    await tokens.revoke('portal kept');
    assert.equal(sandbox.store.check(kept), 'revoked', 'the chosen token is revoked');
    assert.equal((sandbox.store.check(gone) as { kind?: string }).kind, 'permanent', 'the cancelled one stays active');
    assert.deepEqual(logged, ['open ⋮', 'close ⋮', 'open ⋮'], "only the chosen entries' menus were opened");
    // A revoked entry's menu holds no Revoke: the entry is listed as revoked.
    assert.deepEqual(await tokens.list(), [{ name: 'portal gone', revoked: false }, { name: 'portal kept', revoked: true }]);
    assert.equal(await tokens.isRevoked('portal kept'), true);
    assert.equal(await tokens.revokeEvery(['portal gone']), 1);
    assert.equal(sandbox.store.check(gone), 'revoked');
  },
);

test("a closed menu beside a token's name, on a page with Revoke buttons, is no entry of its own: that token's Revoke is chosen", {
  timeout: 90_000,
}, async (t) => {
  const { logged, tokens, sandbox, serviceId } = await openLogging(
    t,
    `${MENU}
    document.addEventListener('DOMContentLoaded', () => {
      for (const name of document.querySelectorAll('td.name')) name.append(menu('⋮', [help()], true, true));
    });`,
  );
  const chosen = await tokens.create('beside one', [serviceId]);
  const other = await tokens.create('beside two', [serviceId]); // listed first: the newest
  await tokens.revoke('beside one');
  assert.equal(sandbox.store.check(chosen), 'revoked', 'the chosen token is revoked');
  assert.equal((sandbox.store.check(other) as { kind?: string }).kind, 'permanent', 'the one listed before it stays active');
  assert.deepEqual(logged, [], 'no menu was opened');
});
