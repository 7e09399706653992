import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSandbox } from './mod.ts';
import { UI_VARIANTS, type UiVariant } from './ui_variants.ts';

const ORIGIN = 'http://127.0.0.1:8787';
/** A name longer than a list that cuts names short shows (24 characters). */
const LONG = 'seventh, whose name is longer than a list shows';

async function session(uiVariant: UiVariant) {
  const parts = createSandbox({ testMode: true, uiVariant });
  const env = parts.serveAt(ORIGIN);
  const get = (path: string, cookie: string) => parts.app.request(`${ORIGIN}${path}`, { headers: { cookie }, redirect: 'manual' });
  const login = await parts.app.request(`${ORIGIN}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: ORIGIN },
    body: new URLSearchParams({ username: env.SLICER_USERNAME, password: env.SLICER_PASSWORD }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  // Seven tokens: more than a list in parts shows at once; the last one's name longer than a list may show.
  const issued = ['listed', 'second', 'third', 'fourth', 'fifth', 'sixth', LONG].map((name) =>
    parts.store.issuePermanent(env.SLICER_USERNAME, name, [env.SLICER_SERVICE_ID])
  );
  // The first revoked: a variant shows it in a part of its own.
  parts.store.revoke(env.SLICER_USERNAME, issued[0]?.record.id ?? '');
  return { parts, get, cookie };
}

describe('UI variants keep the documented labels and change everything else', () => {
  test('each variant renders its own markup for what the contract leaves open', async () => {
    const pages: string[] = [];
    for (const variant of [0, 1, 2, 3, 4, 5, 6] as const) {
      const { get, cookie, parts } = await session(variant);
      const start = await (await parts.app.request(`${ORIGIN}/`)).text();
      const login = await (await parts.app.request(`${ORIGIN}/login`)).text();
      const home = await (await get('/', cookie)).text();
      const list = await (await get('/security/tokens', cookie)).text();
      const formPage = await get('/security/tokens/new', cookie);
      // The TOKENS page, and the creation form's own page on a variant that has one.
      const tokens = list + await formPage.text();
      const style = UI_VARIANTS[variant];
      assert.ok(style);
      assert.equal(formPage.status, style.form === 'page' ? 200 : 302, `variant ${variant}: the creation form's own page`);
      assert.equal(list.includes('href="/security/tokens/new"'), style.form === 'page');
      assert.equal(list.includes('id="new-token-dialog"'), style.form !== 'page');
      const paged = style.pages === 'paged' || style.pages === 'next-only';
      assert.equal(list.includes('<nav class="pager" aria-label="Pages">'), paged, `variant ${variant}: pages`);
      const second = await (await get('/security/tokens?page=2', cookie)).text();
      assert.equal(
        second.includes('<a href="?page=1">« First</a> <a href="?page=1">‹ Previous</a>'),
        style.pages === 'paged',
        `variant ${variant}: a way back from the second page`,
      );
      assert.equal(list.includes('<button type="button" data-more="?page=2">Load more</button>'), style.pages === 'more');
      // The newest token, with the long name, is on the second part of a list in parts (the first of a list in one).
      const cut = second.includes(`<span title="${LONG}">seventh, whose name is l…</span>`);
      assert.equal(cut, style.names === 'cut', `variant ${variant}: a long name cut short, whole in its tooltip`);
      assert.equal(new RegExp(`>${LONG} ?<`).test(second), style.names === 'whole', `variant ${variant}: a long name whole`);
      const onSight =
        /<div class="scroll-box"><ul class="token-list".*<\/ul> <p class="muted" data-more="\?status=all&amp;page=2" data-on-sight>/s;
      const all = await (await get('/security/tokens?status=all', cookie)).text();
      assert.equal(onSight.test(all), style.pages === 'scroll', `variant ${variant}: a box that grows as it is scrolled`);
      assert.equal(all.includes('sixth'), style.pages === 'one', `variant ${variant}: the newest token in the first part`);
      const documented = ['>TOKENS<', '>New permanent token<', '>Name<', '>Scope<', '>Add<', '>Create<', '>Copy token value<', '>Done<'];
      const labels = {
        documented: [...documented, '>Revoke<'],
        'hidden-words': [...documented, '>Revoke<span class="visually-hidden"> the token “second”</span><'],
        decorated: [
          '>🔑 TOKENS<',
          '>＋ New permanent token<',
          '>Name<',
          '>Scope<',
          '>＋ Add<',
          '>Create ›<',
          '>📋 Copy token value<',
          '>✓ Done<',
          ' aria-label="Revoke the token “second”">🗑 Revoke<',
        ],
        'other-case': [
          '<span class="caps">Tokens</span>',
          '>NEW PERMANENT TOKEN<',
          '>Name *<',
          '>Scope *<',
          '>ADD<',
          '>CREATE<',
          '>COPY TOKEN VALUE<',
          '>DONE<',
          '>REVOKE<',
        ],
      }[style.labels];
      for (const label of labels) assert.ok(tokens.includes(label), `variant ${variant} shows "${label}"`);
      const entry = {
        documented: '>Tokens and sessions<',
        'hidden-words': '>Tokens and sessions<',
        'other-case': '>TOKENS AND SESSIONS<',
        decorated: '>🛡 Tokens and sessions<',
      };
      assert.ok(home.includes(entry[style.labels]), `variant ${variant}: "Tokens and sessions"`);
      assert.ok(login.includes(`>${style.login.submit}</button>`), `variant ${variant}: login wording`);
      assert.equal(/<form\s+method="post"\s+action="\/login">/.test(login), style.loginForm === 'form', `variant ${variant}: login kind`);
      assert.equal(login.includes('<div id="login-app"'), style.loginForm === 'script', `variant ${variant}: a script's login`);
      assert.equal(login.includes('name="step" value="user"'), style.loginSteps === 'user-first', `variant ${variant}: login steps`);
      const landing = '<a class="button primary" href="/login?next=%2F">Sign in</a>';
      assert.equal(start.includes(landing), style.loginStart === 'landing', `variant ${variant}: a landing page's "Sign in"`);
      assert.equal(start === login, style.loginStart === 'form', `variant ${variant}: the login form at {auth_url}/`);
      assert.equal(tokens.includes('aria-label="Token value"'), style.value === 'labelled');
      assert.equal(tokens.includes('<ul class="token-list"'), style.list === 'list');
      assert.equal(tokens.includes('<div class="token-cards">'), style.list === 'cards');
      assert.equal(
        tokens.includes('<span class="badge active" role="img" aria-label="Active" title="Active">●</span>'),
        style.status === 'icon',
      );
      assert.equal(tokens.includes('<span class="badge active">Active</span>'), style.status === 'word');
      assert.equal(
        tokens.includes('>Revoked</span>'),
        (style.revokedIn === 'list' || style.revokedIn === 'hidden') && style.status === 'word',
      );
      const collapsed =
        /<details>\s*<summary>Revoked tokens \(1\)<\/summary><ul class="token-list" aria-label="Permanent tokens"><li>listed <span class="muted">[^<]*<\/span> {2}<\/li><\/ul>/;
      assert.equal(
        collapsed.test(tokens),
        style.revokedIn === 'collapsed',
        `variant ${variant}: the revoked token unmarked, in a collapsed part`,
      );
      const hidden =
        /<input type="checkbox" id="show-revoked"> Show revoked tokens<\/label>.*<div\s+id="revoked-tokens" hidden>.*>listed</s;
      assert.equal(hidden.test(tokens), style.revokedIn === 'hidden', `variant ${variant}: the revoked token hidden until shown`);
      const tabbed =
        /<div role="tabpanel" id="panel-revoked" aria-labelledby="tab-revoked"\s+hidden>\s*<table.*<td class="name">listed<\/td>.*?<td><\/td><td><\/td><\/tr>/s;
      assert.equal(tabbed.test(tokens), style.revokedIn === 'tabs', `variant ${variant}: the revoked token unmarked, in a tab's panel`);
      // A filter of links, the current one marked by a class alone: the active tokens at first, the revoked one when asked.
      const filter = (status: string) => `<li><a href="?status=${status}" class="selected">`;
      const revokedView = await (await get('/security/tokens?status=revoked', cookie)).text();
      assert.equal(
        list.includes(filter('active')) && !list.includes('listed') && revokedView.includes(filter('revoked')) &&
          /<li>listed .*<span class="badge revoked">Revoked<\/span>/.test(revokedView) && !revokedView.includes('second'),
        style.revokedIn === 'filter-links',
        `variant ${variant}: the revoked token shown by a filter's links`,
      );
      assert.equal(tokens.includes('data-kind="chips"'), style.scopes === 'chips');
      const services = `<option value="${parts.store.serviceIds.slicer}">Slicing service</option>`;
      assert.equal(
        tokens.includes(`<select id="token-scope"><option value="">Choose a service</option>${services}`),
        style.scopeField === 'select',
      );
      assert.equal(tokens.includes('<label for="token-name">'), style.fieldLabels === 'for');
      assert.equal(tokens.includes('<table'), style.list === 'table' || style.list === 'dated-table');
      assert.equal(/<th>Created<\/th>\s*<th>Name<\/th>/.test(tokens), style.list === 'dated-table');
      assert.equal(tokens.includes('role="alertdialog"'), style.confirm === 'inline');
      assert.equal(tokens.includes('<nav'), style.nav !== 'tabs' && style.nav !== 'menu');
      assert.equal(tokens.includes('role="menubar"'), style.nav === 'menu');
      assert.equal(tokens.includes('data-prefix="Your token: "'), style.value === 'sentence');
      assert.equal(tokens.includes('<dialog'), style.form === 'dialog');
      assert.equal(home.includes('<a class="button primary" href="/security/">'), style.entry === 'link');
      pages.push(tokens);
    }
    assert.equal(pages.length, UI_VARIANTS.length, 'every variant is looked at');
    assert.equal(new Set(pages).size, pages.length, 'every variant renders a page of its own');
  });

  test('variants 2 and 3 ask to log in again once, right after "Tokens and sessions"', async () => {
    for (const variant of [2, 3] as const) {
      const { get, cookie } = await session(variant);
      assert.equal((await get('/security/', cookie)).status, 200);
      assert.equal((await get('/security/tokens', cookie)).status, 303, `variant ${variant}: the session ended mid-way`);
    }
    const { get, cookie } = await session(0);
    assert.equal((await get('/security/', cookie)).status, 200);
    assert.equal((await get('/security/tokens', cookie)).status, 200, 'the default UI keeps the session');
  });

  test('variant 2 asks for the user name alone, then for the password on the page that answers it', async () => {
    const parts = createSandbox({ testMode: true, uiVariant: 2 });
    const env = parts.serveAt(ORIGIN);
    const post = (fields: Record<string, string>) =>
      parts.app.request(`${ORIGIN}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: ORIGIN },
        body: new URLSearchParams(fields),
      });
    const first = await (await parts.app.request(`${ORIGIN}/?next=/security/`)).text();
    assert.match(first, /<input id="username" name="username"/);
    assert.match(first, /<input type="password" autocomplete="current-password" hidden>/, 'only a hidden password input on the first page');
    assert.doesNotMatch(first, /id="password"/);

    const second = await post({ username: env.SLICER_USERNAME, step: 'user', next: '/security/' });
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('set-cookie'), null, 'the user name alone opens no session');
    const asked = await second.text();
    assert.ok(asked.includes(`Signing in as <strong>${env.SLICER_USERNAME}</strong>`));
    assert.ok(asked.includes(`<input type="hidden" name="username" value="${env.SLICER_USERNAME}">`));
    assert.match(asked, /<input id="password" name="password" type="password"/);
    assert.ok(asked.includes('<input type="hidden" name="next" value="/security/">'), 'the page to return to is kept');
    assert.doesNotMatch(asked, /id="username"/, 'no field for the user name on the password page');

    const wrong = await post({ username: env.SLICER_USERNAME, password: 'wrong' });
    assert.equal(wrong.status, 401);
    assert.ok((await wrong.text()).includes(`Signing in as <strong>${env.SLICER_USERNAME}</strong>`), 'a wrong password asks again for it');
    const empty = await (await post({ username: '', step: 'user' })).text();
    assert.ok(empty.includes('Enter your user name.') && empty.includes('name="step" value="user"'));

    const done = await post({ username: env.SLICER_USERNAME, password: env.SLICER_PASSWORD, next: '/security/' });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), '/security/');
    assert.match(done.headers.get('set-cookie') ?? '', /^sandbox_session=/);
  });

  test('variants exist only in test mode', () => {
    assert.throws(() => createSandbox({ uiVariant: 1 }), /test-mode feature/);
  });
});
