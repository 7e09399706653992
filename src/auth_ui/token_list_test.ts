import assert from 'node:assert/strict';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from './browser.ts';
import { TokenList } from './token_list.ts';

let browser: Browser;

before(async () => {
  browser = await chromium.launch(chromiumLaunchOptions());
});
after(async () => {
  await browser.close();
});

/** A new page showing this markup. */
async function pageWith(html: string): Promise<Page> {
  const page = await browser.newPage();
  await page.setContent(html);
  return page;
}

// A status shown as a symbol named by its label or title only; a Revoke control whose tooltip mentions "revoked".
const ICONS = `<table><tr><th>Name</th><th>State</th><th></th></tr>
  <tr><td>kept</td><td><span role="img" aria-label="Active">●</span></td>
    <td><button title="The token will be revoked at once">Revoke</button></td></tr>
  <tr><td>gone</td><td><span role="img" aria-label="Token revoked" title="Token revoked">⊘</span></td><td></td></tr>
  <tr><td>pictured</td><td><img alt="Revoked" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></td><td></td></tr>
</table>`;

test('an entry says "revoked" by an icon\'s label, title or alternative text; a Revoke control\'s tooltip does not', async () => {
  const page = await pageWith(ICONS);
  const list = new TokenList(page);
  assert.deepEqual(await list.list(), [
    { name: 'kept', revoked: false },
    { name: 'gone', revoked: true },
    { name: 'pictured', revoked: true },
  ]);
  assert.equal(await list.isRevoked('kept'), false);
  assert.equal(await list.isRevoked('gone'), true);
  assert.equal(await list.isRevoked('pictured'), true);
  assert.equal(await list.countAll(list.row('gone')), 1, 'an entry that holds no Revoke control is found by its icon');
  assert.equal(await list.tokenRows().count(), 3);
  await page.close();
});

// Revoked entries that keep their Revoke, disabled (natively, by aria-disabled, in a disabled fieldset): no longer active.
test('an entry whose Revoke is disabled is no active entry: it is read as revoked', async () => {
  const page = await pageWith(`<table><tr><th>Name</th><th>Status</th><th>Action</th></tr>
    <tr><td>kept</td><td>Active</td><td><button>Revoke</button></td></tr>
    <tr><td>gone</td><td>Revoked</td><td><button disabled>Revoke</button></td></tr>
    <tr><td>greyed</td><td>Revoked</td><td><a href="#" aria-disabled="true">Revoke</a></td></tr>
    <tr><td>fenced</td><td>Revoked</td><td><fieldset disabled><button>Revoke</button></fieldset></td></tr></table>`);
  const list = new TokenList(page);
  assert.deepEqual(await list.list(), [
    { name: 'kept', revoked: false },
    { name: 'gone', revoked: true },
    { name: 'greyed', revoked: true },
    { name: 'fenced', revoked: true },
  ]);
  for (const name of ['gone', 'greyed', 'fenced']) {
    assert.equal(await list.countAll(list.active(name)), 0, `${name}: not active`);
    assert.equal(await list.isRevoked(name), true, `${name}: revoked`);
  }
  assert.equal(await list.countAll(list.active('kept')), 1);
  await page.close();
});

// A table with a "Revoked at" column: its header row says "revoked" and is no token.
test('a header row that names a "Revoked at" column is no entry', async () => {
  const page = await pageWith(`<table><thead><tr><th>Name</th><th>Status</th><th>Revoked at</th><th></th></tr></thead>
    <tbody><tr><td>kept</td><td>Active</td><td></td><td><button>Revoke</button></td></tr>
    <tr><td>gone</td><td>Revoked</td><td>2026-11-01</td><td></td></tr></tbody></table>`);
  const list = new TokenList(page);
  assert.deepEqual(await list.list(), [{ name: 'kept', revoked: false }, { name: 'gone', revoked: true }]);
  assert.equal(await list.tokenRows().count(), 2);
  assert.equal(await list.isRevoked('Name'), false, 'a column header is no token');
  await page.close();
});

// A token list whose names link to each token, the one shown in a detail pane marked current, and a revoked one whose name
// is plain text: a list, not a navigation (neither links marking the current view nor links beside its plain text).
test('a token list whose items link to each token, one marked current, is listed', async () => {
  const page = await pageWith(`<ul><li><a href="/tokens/1" aria-current="page">viewed</a> <button>Revoke</button></li>
    <li><a href="/tokens/2">other</a> <button>Revoke</button></li><li>revoked key <span>Revoked</span></li></ul>`);
  assert.deepEqual(await new TokenList(page).list(), [
    { name: 'viewed', revoked: false },
    { name: 'other', revoked: false },
    { name: 'revoked key', revoked: true },
  ]);
  await page.close();
});

test('boxes that show tokens by icons only cannot be listed, and the error says why', async () => {
  const page = await pageWith('<div><div><h3>gone</h3><span role="img" aria-label="Revoked">⊘</span></div></div>');
  await assert.rejects(new TokenList(page).list(), /a Revoke control or a "Revoked" mark\) but no table row or list item holds them/);
  await page.close();
});

// Revoked tokens in parts of their own, unmarked: after a heading, under a caption, in a labelled section; the active ones
// before them under a part whose first heading (not its first element) is "Revoked tokens". The footer makes the page
// as large as a real one: no entry is as large as the whole page.
const PARTS = `<div>
  <div><h1>Tokens</h1></div>
  <table><tr><th>Name</th><th></th></tr><tr><td>kept</td><td><button>Revoke</button></td></tr></table>
  <h2>Revoked tokens</h2>
  <p>They stay listed for a year.</p>
  <table><tr><th>Name</th><th>Created</th></tr><tr><td>gone</td><td>2026-11-01</td></tr></table>
</div>
<div><table><caption>Revoked (1)</caption><tr><td>captioned</td></tr></table></div>
<div><section aria-label="Revoked permanent tokens"><ul><li>labelled</li></ul></section></div>
<h2>Tokens (revoked ones are kept for a year)</h2><ul><li>mentioned</li></ul>
<footer>${'<span></span>'.repeat(200)}</footer>`;

test('an entry in a part titled "Revoked…" is revoked; a title that only mentions revoking does not count', async () => {
  const page = await pageWith(PARTS);
  const list = new TokenList(page);
  assert.deepEqual(await list.list(), [
    { name: 'kept', revoked: false },
    { name: 'gone', revoked: true },
    { name: 'captioned', revoked: true },
    { name: 'labelled', revoked: true },
  ]);
  for (const name of ['gone', 'captioned', 'labelled']) assert.equal(await list.isRevoked(name), true, name);
  assert.equal(await list.countAll(list.active('kept')), 1);
  assert.equal(await list.isRevoked('kept'), false);
  assert.equal(await list.countAll(list.row('mentioned')), 0);
  assert.equal(await list.tokenRows().count(), 4, 'header rows are no entries');
  await page.close();
});

// After Done, a page that says "Token <b>name</b> created" above a part of the list that does not hold the new token (it
// is on another page): the list, a table or boxes, is not the name's entry, and its Revoke controls are not the token's.
for (
  const [kind, list] of [
    ['a table', '<table><tr><td>older</td><td><button>Revoke</button></td></tr></table>'],
    ['two boxes', '<div><div><h3>older</h3><button>Revoke</button></div><div><h3>oldest</h3><button>Revoke</button></div></div>'],
  ]
) {
  test(`a name shown beside ${kind} of other tokens has no entry there`, async () => {
    const page = await pageWith(`<main><p class="flash">Token <b>new one</b> created.</p>${list}</main>`);
    const tokens = new TokenList(page);
    assert.equal(await tokens.row('new one').count(), 0);
    assert.equal(await tokens.row('older').count(), 1, 'the entries of the list are still found');
    await page.close();
  });
}

test('a collapsed part whose summary says "revoked" is opened to read it; other collapsed parts stay closed', async () => {
  const page = await pageWith(`<details><summary>Account</summary><a href="#">Sign out</a></details>
    <ul><li>kept <button>Revoke</button></li></ul>
    <details><summary>Revoked tokens (1)</summary><ul><li>gone</li></ul></details>`);
  const list = new TokenList(page);
  assert.equal(await list.isRevoked('gone'), true);
  assert.deepEqual(await list.list(), [{ name: 'kept', revoked: false }, { name: 'gone', revoked: true }]);
  assert.deepEqual(await page.locator('details').evaluateAll((parts) => parts.map((part) => part.hasAttribute('open'))), [false, true]);
  await page.close();
});

// Revoked tokens out of sight until a switch shows them: a checkbox, a toggle button, a switch that hides them. A
// "Show revoked" button that does not say whether it is pressed, and other checkboxes, are left alone.
const SWITCHED = `<label><input type="checkbox" id="remember"> Remember this view</label>
  <label><input type="checkbox" id="show"> Show revoked tokens</label>
  <button type="button" aria-pressed="false" id="include">Include revoked</button>
  <div role="switch" tabindex="0" aria-checked="true" id="hide">Hide revoked</div>
  <button type="button" id="plain">Show revoked</button>
  <ul><li>kept <button>Revoke</button></li></ul>
  <ul id="by-show" hidden><li>gone one <span>Revoked</span></li></ul>
  <ul id="by-include" hidden><li>gone two <span>Revoked</span></li></ul>
  <ul id="by-hide" hidden><li>gone three <span>Revoked</span></li></ul>
  <script>
    const $ = (id) => document.getElementById(id);
    $('show').addEventListener('change', () => { $('by-show').hidden = !$('show').checked; });
    $('include').addEventListener('click', () => {
      const pressed = $('include').getAttribute('aria-pressed') !== 'true';
      $('include').setAttribute('aria-pressed', String(pressed));
      $('by-include').hidden = !pressed;
    });
    $('hide').addEventListener('click', () => {
      const hiding = $('hide').getAttribute('aria-checked') !== 'true';
      $('hide').setAttribute('aria-checked', String(hiding));
      $('by-hide').hidden = hiding;
    });
    $('plain').addEventListener('click', () => { document.body.dataset.plain = 'clicked'; });
  </script>`;

test('revoked tokens kept out of sight are shown by the switches whose state can be read, once', async () => {
  const page = await pageWith(SWITCHED);
  const list = new TokenList(page);
  for (const name of ['gone one', 'gone two', 'gone three', 'gone one']) assert.equal(await list.isRevoked(name), true, name);
  const state = await page.evaluate(() => ({
    remember: (document.getElementById('remember') as HTMLInputElement).checked,
    show: (document.getElementById('show') as HTMLInputElement).checked,
    include: document.getElementById('include')?.getAttribute('aria-pressed'),
    hide: document.getElementById('hide')?.getAttribute('aria-checked'),
    plain: document.body.dataset.plain ?? 'not clicked',
  }));
  assert.deepEqual(state, { remember: false, show: true, include: 'true', hide: 'false', plain: 'not clicked' });
  assert.deepEqual((await list.list()).map(({ name, revoked }) => `${revoked ? 'revoked' : 'active'} ${name}`), [
    'active kept',
    'revoked gone one',
    'revoked gone two',
    'revoked gone three',
  ]);
  await page.close();
});

/**
 * A list paged in place by a script, five to a page, its pager numbers with "Next" and no "First" or "Previous", the
 * page showing marked; its revoked tokens hidden until a switch is on, which the script redraws only once it has
 * fetched the list again. It starts on its last page.
 *
 * @param pager the pager's markup for a number, and for the page showing
 */
function pagedInPlace(pager: { number: string; showing: string; around: string; next?: false }): string {
  return `<button role="switch" id="show" aria-checked="false">Show revoked tokens</button><ul id="tokens"></ul><div id="pager"></div>
  <script>
    const tokens = Array.from({ length: 12 }, (_, i) => ({ name: 'tok ' + i, revoked: i % 4 === 3 }));
    let show = false;
    const shown = () => tokens.filter((token) => show || !token.revoked);
    let at = Math.ceil(shown().length / 5);
    window.switched = 0;
    const draw = () => {
      const pages = Math.ceil(shown().length / 5);
      at = Math.min(at, pages);
      document.getElementById('show').setAttribute('aria-checked', String(show));
      document.getElementById('tokens').innerHTML = shown().slice((at - 1) * 5, at * 5)
        .map((token) => '<li>' + token.name + (token.revoked ? ' <span>Revoked</span>' : ' <button>Revoke</button>') + '</li>').join('');
      const numbers = Array.from({ length: pages }, (_, i) => (i + 1 === at ? ${JSON.stringify(pager.showing)} : ${
    JSON.stringify(pager.number)
  })
        .replaceAll('N', String(i + 1))).join(' ');
      document.getElementById('pager').innerHTML = ${JSON.stringify(pager.around)}.replace('…', numbers + (${
    pager.next !== false
  } && at < pages ? ' <button data-to="' + (at + 1) + '">Next</button>' : ''));
    };
    document.addEventListener('click', (event) => {
      const to = event.target.closest('[data-to]');
      if (to) { event.preventDefault(); at = Number(to.dataset.to); draw(); }
    });
    document.getElementById('show').addEventListener('click', () => {
      window.switched++;
      show = !show;
      setTimeout(draw, 300);
    });
    draw();
  </script>`;
}

test('a list paged in place, its pager numbering its pages, is read from its "1" (on by "Next", else by numbers); a switch redrawn later is chosen once', async () => {
  const pagers = {
    'buttons, the page showing aria-current': {
      number: '<button data-to="N">N</button>',
      showing: '<button data-to="N" aria-current="page">N</button>',
      around: '<nav aria-label="Pagination">…</nav>',
    },
    'links in a list, the page showing classed active': {
      number: '<li class="page-item"><a class="page-link" href="#" data-to="N">N</a></li>',
      showing:
        '<li class="page-item active"><a class="page-link" href="#" data-to="N">N <span class="visually-hidden">(current)</span></a></li>',
      around: '<ul class="pagination">…</ul>',
    },
    'numbers alone, no "Next", the page showing aria-current': {
      number: '<a href="#" data-to="N" aria-label="Go to page N">N</a>',
      showing: '<a href="#" data-to="N" aria-current="page" aria-label="Page N">N</a>',
      around: '<nav aria-label="Pagination">…</nav>',
      next: false as const,
    },
  };
  for (const [kind, pager] of Object.entries(pagers)) {
    const page = await pageWith(pagedInPlace(pager));
    const list = new TokenList(page);
    assert.equal(await list.seek(list.row('tok 0')), true, `${kind}: the first page is found from the last`);
    assert.equal(await list.countAll(list.row('tok 3')), 1, `${kind}: a revoked token is counted`);
    assert.equal(await list.seek(list.row('tok 1')), true, `${kind}: the first page is found again`);
    assert.equal(await page.evaluate(() => (window as unknown as { switched: number }).switched), 1, `${kind}: the switch is chosen once`);
    assert.equal(await list.isRevoked('tok 11'), true, `${kind}: the last page`);
    await page.close();
  }
});

// Filters that offer "All" beside "Revoked": tabs and a <select>. Other tabs and selects are left as they are.
const FILTERED = `<div role="tablist"><button role="tab" aria-selected="true">Mine</button>
    <button role="tab" aria-selected="false" id="all-users">All users</button></div>
  <div role="tablist" id="tabs"><button role="tab" aria-selected="true">Active</button>
    <button role="tab" aria-selected="false" id="all">All tokens</button><button role="tab" aria-selected="false">Revoked</button></div>
  <label>Status <select id="status"><option>Active</option><option>Revoked</option><option>All statuses</option></select></label>
  <label>Per page <select id="size"><option>10</option><option>50</option><option>All</option></select></label>
  <ul><li>kept <button>Revoke</button></li></ul>
  <ul id="by-tab" hidden><li>gone one <span>Revoked</span></li></ul>
  <ul id="by-select" hidden><li>gone two <span>Revoked</span></li></ul>
  <script>
    const $ = (id) => document.getElementById(id);
    for (const tab of $('tabs').children) {
      tab.addEventListener('click', () => {
        for (const other of $('tabs').children) other.setAttribute('aria-selected', String(other === tab));
        $('by-tab').hidden = tab.id !== 'all';
      });
    }
    $('status').addEventListener('change', () => { $('by-select').hidden = $('status').value !== 'All statuses'; });
  </script>`;

test('revoked tokens filtered out are shown by choosing "All" where a filter offers it beside "Revoked"', async () => {
  const page = await pageWith(FILTERED);
  const list = new TokenList(page);
  for (const name of ['gone one', 'gone two', 'gone one']) assert.equal(await list.isRevoked(name), true, name);
  assert.equal(await list.countAll(list.row('gone one')), 1, 'tabs that offer "All" are not walked as views');
  assert.equal(await list.countAll(list.row('gone two')), 1, 'nor is a <select> that does');
  const state = await page.evaluate(() => ({
    allUsers: document.getElementById('all-users')?.getAttribute('aria-selected'),
    all: document.getElementById('all')?.getAttribute('aria-selected'),
    status: (document.getElementById('status') as HTMLSelectElement).value,
    size: (document.getElementById('size') as HTMLSelectElement).value,
  }));
  assert.deepEqual(state, { allUsers: 'false', all: 'true', status: 'All statuses', size: '10' });
  await page.close();
});

/** A page from a loopback server that renders it from the address asked for, closed after the check. */
async function servedPage(render: (url: string) => string, check: (page: Page) => Promise<void>): Promise<void> {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(render(request.url ?? '/'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await check(page);
  } finally {
    await page.close();
    server.closeAllConnections();
    server.close();
  }
}

test('a filter whose choice loads another page is chosen, and the page it loads is read', async () => {
  await servedPage((url) => {
    const all = url.includes('status=all');
    return `<form method="get" action="/"><select name="status" id="status">
        <option value="active"${all ? '' : ' selected'}>Active</option><option value="revoked">Revoked</option>
        <option value="all"${all ? ' selected' : ''}>All</option></select></form>
      <ul><li>kept <button>Revoke</button></li>${all ? '<li>gone <span>Revoked</span></li>' : ''}</ul>
      <script>document.getElementById('status').addEventListener('change', (e) => e.target.form.submit());</script>`;
  }, async (page) => {
    const list = new TokenList(page);
    assert.equal(await list.isRevoked('gone'), true);
    assert.match(page.url(), /status=all$/);
  });
});

/** The entries of the views pages below, view by view: two active tokens, and two revoked, one of them an active one's twin. */
const ACTIVE_ENTRIES = [{ name: 'kept', revoked: false }, { name: 'twin', revoked: false }];
const REVOKED_ENTRIES = [{ name: 'gone', revoked: true }, { name: 'twin', revoked: true }];

// Active and revoked tokens in views of their own, never together: tabs whose panels the tabs label, the revoked ones
// unmarked in theirs. A tablist with no "Revoked" tab is left alone.
const VIEWS = `<div role="tablist"><button role="tab" aria-selected="true" id="mine">Mine</button>
    <button role="tab" aria-selected="false" id="everyone">Everyone's</button></div>
  <div role="tablist" id="tabs"><button role="tab" id="tab-active" aria-selected="true">Active (2)</button>
    <button role="tab" id="tab-revoked" aria-selected="false">Revoked (2)</button></div>
  <div role="tabpanel" id="panel-active" aria-labelledby="tab-active"><table><tr><th>Name</th><th></th></tr>
    <tr><td>kept</td><td><button>Revoke</button></td></tr><tr><td>twin</td><td><button>Revoke</button></td></tr></table></div>
  <div role="tabpanel" id="panel-revoked" aria-labelledby="tab-revoked" hidden><table><tr><th>Name</th><th>Revoked at</th></tr>
    <tr><td>gone</td><td>2026-11-01</td></tr><tr><td>twin</td><td>2026-11-02</td></tr></table></div>
  <script>
    for (const tab of document.getElementById('tabs').children) {
      tab.addEventListener('click', () => {
        for (const other of document.getElementById('tabs').children) {
          other.setAttribute('aria-selected', String(other === tab));
          document.getElementById(other.id.replace('tab', 'panel')).hidden = other !== tab;
        }
      });
    }
  </script>`;

test('a list shown in views by state ("Active | Revoked" tabs) is read in each view, each once', async () => {
  const page = await pageWith(VIEWS);
  const list = new TokenList(page);
  const selected = () => page.getByRole('tab', { selected: true }).allTextContents();
  assert.equal(await list.isRevoked('gone'), true, 'unmarked in the panel that the "Revoked" tab labels');
  assert.deepEqual(await selected(), ['Mine', 'Revoked (2)'], 'left on the view that shows it');
  assert.equal(await list.countAll(list.active('kept')), 1, 'the other views are walked from the one showing');
  assert.equal(await list.countAll(list.row('twin')), 2, 'one entry in each view');
  assert.equal(await list.isRevoked('kept'), false);
  assert.deepEqual(await list.list(), [...ACTIVE_ENTRIES, ...REVOKED_ENTRIES]);
  await page.close();
});

test('names like a pattern are read by their text, in boxes of any markup and in every view, each once', async () => {
  const boxes = await pageWith(`<div><div><span>run-x one</span> <button>Revoke</button></div>
    <div><span><b>run-x</b>  two</span> <button>Revoke</button></div>
    <div>run-x three<br>Revoked</div>
    <p>Created run-x four</p><div hidden>run-x hidden</div></div>`);
  const names = await new TokenList(boxes).namesLike(/^run-x /);
  // An element's whole text and its own texts: "run-x three" is one of the latter.
  assert.deepEqual(names, ['run-x one', 'run-x two', 'run-x threeRevoked', 'run-x three']);
  const views = await pageWith(VIEWS);
  assert.deepEqual((await new TokenList(views).namesLike(/^(?:kept|twin|gone)$/)).sort(), ['gone', 'kept', 'twin']);
  await Promise.all([boxes.close(), views.close()]);
});

test('a list shown in views by tabs whose panels they do not label is read as titled by the chosen tab', async () => {
  const page = await pageWith(VIEWS.replaceAll(/ aria-labelledby="[^"]*"/g, ''));
  const list = new TokenList(page);
  assert.equal(await list.isRevoked('gone'), true, 'unmarked, while the chosen tab says "Revoked"');
  assert.deepEqual(await list.list(), [...REVOKED_ENTRIES, ...ACTIVE_ENTRIES]);
  await page.close();
});

test("a list shown in views by tabs in a web component's shadow root is read as titled by the chosen tab there", async () => {
  // The markup above, its panels unlabelled, rendered by a custom element in its open shadow root (as a Lit app is).
  const markup = VIEWS.replace(/<script>[^]*/, '').replaceAll(/ aria-labelledby="[^"]*"/g, '');
  const page = await pageWith(`<token-views></token-views><script>
    const root = document.querySelector('token-views').attachShadow({ mode: 'open' });
    root.innerHTML = ${JSON.stringify(markup)};
    for (const tab of root.getElementById('tabs').children) {
      tab.addEventListener('click', () => {
        for (const other of root.getElementById('tabs').children) {
          other.setAttribute('aria-selected', String(other === tab));
          root.getElementById(other.id.replace('tab', 'panel')).hidden = other !== tab;
        }
      });
    }
  </script>`);
  const list = new TokenList(page);
  assert.equal(await page.locator('xpath=//table').count(), 0, 'out of reach of a look over the page by XPath');
  assert.deepEqual(await list.list(), [...ACTIVE_ENTRIES, ...REVOKED_ENTRIES]);
  assert.equal(await list.isRevoked('gone'), true, 'unmarked, while the chosen tab says "Revoked"');
  assert.equal(await list.isRevoked('kept'), false);
  // The tabs in the page, each panel's table in a component of its own: the page's chosen tab titles them.
  const around = await pageWith(
    VIEWS.replaceAll(/ aria-labelledby="[^"]*"/g, '') + `<script>
    for (const table of document.querySelectorAll('table')) {
      const host = document.createElement('token-table');
      table.replaceWith(host);
      host.attachShadow({ mode: 'open' }).append(table);
    }
  </script>`,
  );
  assert.equal(await around.locator('xpath=//table').count(), 0, 'out of reach of a look over the page by XPath');
  assert.deepEqual(await new TokenList(around).list(), [...ACTIVE_ENTRIES, ...REVOKED_ENTRIES]);
  await Promise.all([page.close(), around.close()]);
});

test("a list shown in views by a <select> that loads each view's page is read in each view", async () => {
  await servedPage((url) => {
    const revoked = url.includes('status=revoked');
    return `<form method="get" action="/"><label>Status <select name="status">
        <option value="active"${revoked ? '' : ' selected'}>Active</option>
        <option value="revoked"${revoked ? ' selected' : ''}>Revoked</option></select></label></form>
      <ul>${revoked ? '<li>gone <span>Revoked</span></li>' : '<li>kept <button>Revoke</button></li>'}</ul>
      <script>document.querySelector('select').addEventListener('change', (e) => e.target.form.submit());</script>`;
  }, async (page) => {
    const list = new TokenList(page);
    assert.equal(await list.isRevoked('gone'), true);
    assert.match(page.url(), /status=revoked$/);
    assert.equal(await list.countAll(list.active('kept')), 1);
    // From the view showing: the active one, where counting ended.
    assert.deepEqual(await list.list(), [{ name: 'kept', revoked: false }, { name: 'gone', revoked: true }]);
  });
});

// Revoked tokens shown by a link that a server reads ("?revoked=1"), and links left alone: one to a page of revoked
// tokens only (in a navigation's list, which is no entry), a script's "#" toggle, and (on /toggle) a link that toggles
// back and keeps its label.
function linked(url: string): string {
  const { pathname, searchParams } = new URL(url, 'http://127.0.0.1');
  const showing = searchParams.get('revoked') === '1';
  if (pathname === '/revoked-only') return '<ul><li>gone <span>Revoked</span></li></ul>';
  const toggle = pathname === '/toggle'
    ? `<a href="${showing ? '/toggle?revoked=0&amp;from=toggle' : '/toggle?revoked=1'}">Show revoked tokens</a>`
    : showing
    ? '<a href="/">Hide revoked tokens</a>'
    : '<a href="?revoked=1">Show revoked tokens</a>';
  return `<nav><ul><li><a href="/revoked-only?revoked=1">Show revoked only</a></li></ul></nav>
    <a href="#" id="script" onclick="document.body.dataset.script = 'clicked'">Show revoked</a> ${toggle}
    <ul><li>kept <button>Revoke</button></li>${showing ? '<li>gone <span>Revoked</span></li>' : ''}</ul>`;
}

test('a link that shows revoked tokens by adding to the query is followed; other links are not', async () => {
  await servedPage(linked, async (page) => {
    const list = new TokenList(page);
    assert.equal(await list.isRevoked('gone'), true);
    assert.match(page.url(), /\/\?revoked=1$/);
    assert.equal(await list.countAll(list.active('kept')), 1, 'the page of revoked tokens only was not followed');
    assert.deepEqual(await list.list(), [{ name: 'kept', revoked: false }, { name: 'gone', revoked: true }]);
    assert.equal(await page.evaluate(() => document.body.dataset.script ?? 'not clicked'), 'not clicked');

    await page.goto(new URL('/toggle', page.url()).href);
    assert.equal(await list.isRevoked('gone'), true);
    assert.equal(await list.countAll(list.row('gone')), 1, 'a link that changes the query (toggles back) is not followed');
    assert.match(page.url(), /\/toggle\?revoked=1$/);
  });
});

// Views as a server renders tabs: links, the one showing marked aria-current, the revoked tokens unmarked in theirs. On
// /wide, a navigation of seven links with a "Revoked" one is no group of views. On /class, the current link is marked by
// a class alone (Bootstrap's `nav-link active`); on /item, by its list item's class (`<li class="active">`); on /text,
// the current view is no link but its item's plain text, and no link on the page is marked current.
function viewLinks(url: string): string {
  const { pathname, searchParams } = new URL(url, 'http://127.0.0.1');
  const revoked = searchParams.get('status') === 'revoked';
  const marks: Record<string, (on: boolean) => [item: string, link: string]> = {
    '/class': (on) => ['', ` class="nav-link${on ? ' active' : ''}"`],
    '/item': (on) => [on ? ' class="tab active"' : ' class="tab"', ''],
  };
  const mark = marks[pathname] ?? ((on) => ['', on ? ' aria-current="page"' : '']);
  const links = ['Active', 'Revoked (1)', ...(pathname === '/wide' ? ['Help', 'Sessions', 'Keys', 'Logs', 'Account'] : [])]
    .map((label, at) => {
      const [item, link] = mark(at === (revoked ? 1 : 0));
      if (pathname === '/text' && at === (revoked ? 1 : 0)) return `<li><strong>${label}</strong></li>`;
      return `<li${item}><a href="${pathname}?status=${['active', 'revoked'][at] ?? label}"${link}>${label}</a></li>`;
    });
  const nav = pathname === '/text' ? '' : ' aria-current="page"';
  return `<nav><a href="/"${nav}>Tokens</a></nav><ul>${links.join('')}</ul>
    <table><tr><th>Name</th><th></th></tr>${
    revoked ? '<tr><td>gone</td><td></td></tr>' : '<tr><td>kept</td><td><button>Revoke</button></td></tr>'
  }</table>`;
}

test('a list shown in views by links, the current one marked, is read in each view', async () => {
  await servedPage(viewLinks, async (page) => {
    const list = new TokenList(page);
    assert.equal(await list.isRevoked('gone'), true, 'unmarked, in the view whose current link says "Revoked"');
    assert.match(page.url(), /\/\?status=revoked$/);
    assert.equal(await list.countAll(list.active('kept')), 1);
    assert.equal(await list.countAll(list.row('gone')), 1);
    assert.equal(await list.isRevoked('kept'), false);
    assert.deepEqual(await list.list(), [{ name: 'kept', revoked: false }, { name: 'gone', revoked: true }]);

    await page.goto(new URL('/wide', page.url()).href);
    assert.equal(await list.isRevoked('gone'), false);
    assert.match(page.url(), /\/wide$/, 'no link of a wide navigation was followed');
  });
});

test('a list shown in views by links, the current one marked by a class or shown as plain text, is read in each view', async () => {
  await servedPage(viewLinks, async (page) => {
    const list = new TokenList(page);
    for (const path of ['/class', '/item', '/text']) {
      await page.goto(new URL(path, page.url()).href);
      assert.equal(await list.isRevoked('gone'), true, `${path}: unmarked, in the view whose current choice says "Revoked"`);
      assert.match(page.url(), new RegExp(`${path}\\?status=revoked$`));
      assert.equal(await list.countAll(list.row('gone')), 1, `${path}: each view once`);
      assert.deepEqual(await list.list(), [{ name: 'kept', revoked: false }, { name: 'gone', revoked: true }], path);
    }
  });
});

// A filter offered as links, "All | Active | Revoked", the current one marked by a class (GitHub's "selected"), showing
// the active tokens at first: "All" is followed, once. On /unmarked, no link is marked, so the filter's state cannot be
// read and "All" is not followed (the site's navigation marks its current link, which tells nothing of the filter). On
// /text, the current choice is no link but its item's plain text, and no link on the page is marked current.
function filterLinks(url: string): string {
  const { pathname, searchParams } = new URL(url, 'http://127.0.0.1');
  const status = searchParams.get('status') ?? 'active';
  const mark = (label: string) => (pathname !== '/unmarked' && label.toLowerCase() === status ? ' class="selected"' : '');
  const links = ['All', 'Active', 'Revoked'].map((label) =>
    pathname === '/text' && label.toLowerCase() === status
      ? `<li>${label}</li>`
      : `<li><a href="${pathname}?status=${label.toLowerCase()}"${mark(label)}>${label}</a></li>`
  );
  const nav = pathname === '/text' ? '' : ' aria-current="page"';
  return `<nav><a href="/"${nav}>Tokens</a></nav><ul class="filters">${links.join('')}</ul><ul>${
    status === 'revoked' ? '' : '<li>kept <button>Revoke</button></li>'
  }${status === 'active' ? '' : '<li>gone <span>Revoked</span></li>'}</ul>`;
}

test('a filter offered as links that offers "All" beside "Revoked", the current one marked or plain text, is turned to "All"', async () => {
  await servedPage(filterLinks, async (page) => {
    const list = new TokenList(page);
    assert.equal(await list.isRevoked('gone'), true);
    assert.match(page.url(), /\/\?status=all$/);
    assert.equal(await list.countAll(list.row('gone')), 1, 'the views are not walked: "All" shows every token');
    assert.deepEqual(await list.list(), [{ name: 'kept', revoked: false }, { name: 'gone', revoked: true }]);

    await page.goto(new URL('/unmarked', page.url()).href);
    assert.equal(await list.isRevoked('gone'), false);
    assert.match(page.url(), /\/unmarked$/);

    await page.goto(new URL('/text', page.url()).href);
    assert.equal(await list.isRevoked('gone'), true, 'the current choice shown as plain text');
    assert.match(page.url(), /\/text\?status=all$/);
    assert.equal(await list.countAll(list.row('gone')), 1);
    assert.deepEqual(await list.list(), [{ name: 'kept', revoked: false }, { name: 'gone', revoked: true }]);
  });
});

// Views or a filter by state offered as toggles of a kind: buttons pressed or not (`aria-pressed`); ARIA radio buttons,
// each beside a hidden native one that follows its state for a form (as Radix UI renders them); native radio buttons,
// in their labels or hidden behind them (Bootstrap's `btn-check`); or chips that a script presses and releases one at a
// time (both can be pressed). The first toggle is chosen at first, or those given. Each toggle shows its own list ("All"
// shows both); the revoked tokens unmarked in theirs, but under native radio buttons (whose checked state no attribute
// tells), beside "All" and while two chips are pressed. A group of toggles of the same kind with no "Revoked" one
// ("Compact | Wide") is left alone, and so is a copy of the group before it in a box of no height (as a page keeps one
// for each size of screen).
function toggled(kind: 'pressed' | 'aria-radio' | 'radio' | 'btn-check' | 'chips', labels: string[], chosen = [0]): string {
  const toggle = (label: string, name: string, on: boolean, data = '') => {
    if (kind === 'radio') return `<label><input type="radio" name="${name}"${data}${on ? ' checked' : ''}> ${label}</label>`;
    const id = `${name}-${label.replace(/\W/g, '')}`;
    if (kind === 'btn-check') {
      return `<input type="radio" class="btn-check" name="${name}" id="${id}"${data}${
        on ? ' checked' : ''
      }><label for="${id}">${label}</label>`;
    }
    if (kind === 'aria-radio') {
      const bubble =
        `<input type="radio" aria-hidden="true" tabindex="-1" style="position: absolute; pointer-events: none; opacity: 0; transform: translateX(-100%)"${
          on ? ' checked' : ''
        }>`;
      return `<span><span role="radio" tabindex="0" aria-checked="${on}"${data}>${label}</span>${bubble}</span>`;
    }
    return `<button type="button" aria-pressed="${on}"${data}>${label}</button>`;
  };
  const toggles = labels.map((label, at) =>
    toggle(label, 'status', chosen.includes(at), ` data-show="${label.replace(/ .*/, '').toLowerCase()}"`)
  );
  const mark = kind === 'radio' || kind === 'btn-check' || labels.includes('All') || chosen.length > 1 ? ' <small>revoked</small>' : '';
  const layout = ['Compact', 'Wide'].map((label, at) => toggle(label, 'layout', at === 0));
  const spare = labels.map((label, at) => toggle(label, 'spare', at === 0));
  return `<style>.btn-check { position: absolute; clip: rect(0, 0, 0, 0); pointer-events: none; }</style><div>${layout.join('')}</div>
    <div id="spare" style="height: 0; overflow: hidden">${spare.join('')}</div><div${
    kind === 'aria-radio' ? ' role="radiogroup" aria-label="Status"' : ''
  }>${toggles.join('')}</div>
    <table data-list="active"><tr><td>kept</td><td><button>Revoke</button></td></tr>
      <tr><td>twin</td><td><button>Revoke</button></td></tr></table>
    <ul data-list="revoked"><li>gone${mark}</li><li>twin${mark}</li></ul>
    <script>
      const toggles = [...document.querySelectorAll('[data-show]')];
      const on = (toggle) => toggle.matches('input') ? toggle.checked : (toggle.getAttribute('aria-pressed') ?? toggle.getAttribute('aria-checked')) === 'true';
      const set = (toggle, value) => {
        if (toggle.matches('input')) toggle.checked = value;
        else toggle.setAttribute(toggle.hasAttribute('aria-pressed') ? 'aria-pressed' : 'aria-checked', String(value));
        if (toggle.nextElementSibling?.matches('input')) toggle.nextElementSibling.checked = value;
      };
      const show = () => {
        for (const list of document.querySelectorAll('[data-list]')) {
          list.hidden = !toggles.some((one) => on(one) && ['all', list.dataset.list].includes(one.dataset.show));
        }
      };
      for (const toggle of toggles) {
        toggle.addEventListener(toggle.matches('input') ? 'change' : 'click', () => {
          if (${kind === 'chips'}) set(toggle, !on(toggle));
          else for (const other of toggles) set(other, other === toggle);
          show();
        });
      }
      show();
    </script>`;
}

/** Which toggles of a page are pressed or checked, by their labels; the spare copy and the hidden native ones left out. */
function toggledOn(page: Page): Promise<string[]> {
  return page.locator(':is([aria-pressed="true"], [aria-checked="true"], input:checked):not(#spare *, [aria-hidden="true"])').evaluateAll((
    all,
  ) => all.map((one) => ((one as HTMLInputElement).labels?.[0] ?? one).textContent?.trim() ?? ''));
}

test('a list shown in views by toggles (pressed buttons, radio buttons, chips) is read in each view, each once', async () => {
  for (const kind of ['pressed', 'aria-radio', 'radio', 'btn-check', 'chips'] as const) {
    const page = await pageWith(toggled(kind, ['Active', 'Revoked (2)']));
    const list = new TokenList(page);
    assert.equal(await list.isRevoked('gone'), true, `${kind}: in the view whose chosen toggle says "Revoked"`);
    assert.deepEqual(await toggledOn(page), ['Compact', 'Revoked (2)'], `${kind}: left on the view that shows it, alone`);
    assert.equal(await list.countAll(list.active('kept')), 1, `${kind}: the other views are walked from the one showing`);
    assert.equal(await list.countAll(list.row('twin')), 2, `${kind}: one entry in each view`);
    assert.deepEqual(await list.list(), [...REVOKED_ENTRIES, ...ACTIVE_ENTRIES], `${kind}: from the view left showing, the revoked one`);
    await page.close();
  }
});

test('chips that filter together, both pressed, are read as they are: one view', async () => {
  const page = await pageWith(toggled('chips', ['Active', 'Revoked'], [0, 1]));
  const list = new TokenList(page);
  assert.equal(await list.isRevoked('gone'), true);
  assert.equal(await list.countAll(list.active('kept')), 1, 'an active entry beside revoked ones');
  assert.deepEqual(await list.list(), [...ACTIVE_ENTRIES, ...REVOKED_ENTRIES]);
  assert.deepEqual(await toggledOn(page), ['Compact', 'Active', 'Revoked'], 'no chip was pressed or released');
  await page.close();
});

test('a filter offered as toggles that offers "All" beside "Revoked" is turned to "All"', async () => {
  for (const kind of ['pressed', 'aria-radio', 'radio', 'btn-check'] as const) {
    const page = await pageWith(toggled(kind, ['Active', 'All', 'Revoked']));
    const list = new TokenList(page);
    assert.equal(await list.isRevoked('gone'), true, kind);
    assert.deepEqual(await toggledOn(page), ['Compact', 'All'], kind);
    assert.equal(await list.countAll(list.row('twin')), 2, `${kind}: the views are not walked: "All" shows every token`);
    await page.close();
  }
});

// A list that grows only as it is scrolled: twenty tokens at first, ten more each time its end shows, up to fifty; the
// last one revoked. In the page's own scrolling, each part fetched and shown after a while (more than a moment); or in a
// box that scrolls, each part shown at once from the page's memory.
function growing(scroller: string, next: string): string {
  return `${scroller.replace('><', '><ul id="tokens"></ul><p id="end">Loading…</p><')}
  <script>
    const tokens = document.getElementById('tokens');
    const add = () => {
      for (let i = 0; i < 10; i++) {
        const at = tokens.children.length;
        tokens.insertAdjacentHTML('beforeend', at === 49
          ? '<li style="height: 40px">t' + at + ' <span>Revoked</span></li>'
          : '<li style="height: 40px">t' + at + ' <button>Revoke</button></li>');
      }
      if (tokens.children.length === 50) document.getElementById('end').remove();
    };
    add();
    add();
    new IntersectionObserver((seen) => {
      if (seen.some((one) => one.isIntersecting)) ${next};
    }, { root: document.querySelector('[data-root]') }).observe(document.getElementById('end'));
  </script>`;
}

/** Reads a list that grows as it is scrolled, and checks that every token was read. */
async function readToItsEnd(page: Page): Promise<void> {
  const list = new TokenList(page);
  assert.equal(await list.isRevoked('t49'), true);
  const listed = await list.list();
  assert.equal(listed.length, 50);
  assert.deepEqual(listed.filter((token) => token.revoked), [{ name: 't49', revoked: true }]);
}

test('a list that grows as the page is scrolled, fetching each part, is read to its end', async () => {
  await servedPage(() => growing('<main></main>', "fetch('/more').then(() => setTimeout(add, 700))"), readToItsEnd);
});

test('a list that grows at once as a box in the page is scrolled is read to its end', async () => {
  const page = await pageWith(growing('<div data-root style="height: 300px; overflow-y: auto"></div>', 'add()'));
  await readToItsEnd(page);
  await page.close();
});

// A list that keeps in the page only the rows near what shows (react-window, TanStack Virtual): 60 tokens, every third
// revoked, 30 px each in a box 300 px high, two rows beyond each edge, each row drawn anew as it comes near, or, from a
// pool (vue-virtual-scroller, Angular CDK), the same row elements given other text. In the page, or in a web
// component's open shadow root. `virtualize(tree, pool)` makes the box in a tree such a list.
const VIRTUAL_BOX =
  '<div id="box" style="height: 300px; overflow-y: auto"><div id="rows" role="list" style="position: relative"></div></div>';
const VIRTUALIZE = `function virtualize(tree, pool) {
  const box = tree.getElementById('box'), rows = tree.getElementById('rows');
  rows.style.height = 60 * 30 + 'px';
  const draw = () => {
    const from = Math.max(0, Math.floor(box.scrollTop / 30) - 2), to = Math.min(60, Math.ceil((box.scrollTop + 300) / 30) + 2);
    if (!pool) {
      rows.replaceChildren(...Array.from({ length: to - from }, (_, k) => {
        const row = document.createElement('div');
        row.setAttribute('role', 'listitem');
        row.style = 'position: absolute; height: 30px; transform: translateY(' + (from + k) * 30 + 'px)';
        row.innerHTML = '<span>token ' + (from + k) + '</span> ' + ((from + k) % 3 === 0 ? 'Revoked' : '<button>Revoke</button>');
        return row;
      }));
      return;
    }
    while (rows.children.length < 15) rows.insertAdjacentHTML('beforeend', '<div role="listitem"><span></span> <span></span> <button>Revoke</button></div>');
    [...rows.children].forEach((row, k) => {
      row.hidden = from + k >= to;
      row.style = 'position: absolute; height: 30px; transform: translateY(' + (from + k) * 30 + 'px)';
      const [name, state, revoke] = row.children;
      name.textContent = 'token ' + (from + k);
      state.textContent = (from + k) % 3 === 0 ? 'Revoked' : '';
      revoke.hidden = (from + k) % 3 === 0;
    });
  };
  box.addEventListener('scroll', draw);
  draw();
}`;
const VIRTUAL_LIST = Array.from({ length: 60 }, (_, i) => ({ name: `token ${i}`, revoked: i % 3 === 0 }));
const virtual = (inComponent: boolean, pool = false) =>
  `${inComponent ? '<token-rows></token-rows>' : VIRTUAL_BOX}
  <script>
    ${VIRTUALIZE}
    const tree = ${inComponent ? `document.querySelector('token-rows').attachShadow({ mode: 'open' })` : 'document'};
    if (tree !== document) tree.innerHTML = ${JSON.stringify(VIRTUAL_BOX)};
    virtualize(tree, ${pool});
  </script>`;

for (const [inComponent, pool] of [[false, false], [true, false], [false, true]] as const) {
  const where = `${inComponent ? ', in a web component' : ''}${pool ? ', its rows from a pool' : ''}`;
  test(`a list that keeps only the rows near what shows is read part by part, each row once${where}`, async () => {
    const page = await pageWith(virtual(inComponent, pool));
    const list = new TokenList(page);
    assert.ok((await page.getByRole('listitem').count()) < 20, 'the page holds a few rows at a time');
    assert.deepEqual(await list.list(), VIRTUAL_LIST);
    assert.equal(await list.countAll(list.active('token 31')), 1, 'a row in the middle, counted once');
    assert.equal(await list.countAll(list.row('token 59')), 1, 'the last row, shown at two parts, counted once');
    assert.equal(await list.isRevoked('token 30'), true);
    assert.deepEqual(await list.namesLike(/^token \d*7$/), ['token 7', 'token 17', 'token 27', 'token 37', 'token 47', 'token 57']);
    await page.close();
  });
}

// With a clock, the box shows above its rows a line whose text changes by itself, as a virtualized list's rows from a
// pool change theirs as it scrolls.
for (const clock of [false, true]) {
  test(`a box found to hold its whole list is not scrolled back at the next read while it holds the same rows; holding others, it is looked at again${clock ? '; a clock in it is no pool' : ''}`, async () => {
    const page = await pageWith(`${VIRTUAL_BOX}<script>
      ${VIRTUALIZE}
      const box = document.getElementById('box');
      document.getElementById('rows').innerHTML = Array.from({ length: 20 }, (_, i) =>
        '<div role="listitem" style="height: 30px"><span>plain ' + i + '</span> <button>Revoke</button></div>').join('');
      if (${clock}) {
        box.insertAdjacentHTML('afterbegin', '<p id="clock" style="position: sticky; top: 0; margin: 0; height: 20px; z-index: 1"></p>');
        const tick = (now) => {
          document.getElementById('clock').textContent = 'Updated ' + Math.round(now) + ' ms ago';
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }
      window.scrolls = [];
      box.addEventListener('scroll', () => scrolls.push(box.scrollTop));
    </script>`);
    const list = new TokenList(page);
    const plain = Array.from({ length: 20 }, (_, i) => ({ name: `plain ${i}`, revoked: false }));
    assert.deepEqual(await list.list(), plain);
    // The scroll events since the last call: they fire as the page draws its next frame.
    const scrolled = () =>
      page.evaluate(async () => {
        await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
        return (window as unknown as { scrolls: number[] }).scrolls.splice(0);
      });
    const end = clock ? 320 : 300;
    assert.deepEqual(await scrolled(), [end, 0, end], 'scrolled to its end, then back to its start and to where it was');
    assert.deepEqual(await list.list(), plain);
    assert.deepEqual(await scrolled(), [], 'not scrolled at all');
    await page.evaluate(() => (window as unknown as { virtualize: (tree: Document, pool: boolean) => void }).virtualize(document, false));
    assert.deepEqual(await list.list(), VIRTUAL_LIST);
    await page.close();
  });
}

test("a list that grows at once as a box in a web component's shadow root is scrolled is read to its end", async () => {
  const page = await pageWith(`<token-box></token-box><script>
    const tree = document.querySelector('token-box').attachShadow({ mode: 'open' });
    tree.innerHTML = '<div id="box" style="height: 300px; overflow-y: auto"><ul id="tokens"></ul><p id="end">Loading…</p></div>';
    const tokens = tree.getElementById('tokens');
    const add = () => {
      for (let i = 0; i < 10; i++) {
        const at = tokens.children.length;
        tokens.insertAdjacentHTML('beforeend', '<li style="height: 40px"><span>t' + at + '</span> ' +
          (at === 49 ? '<span>Revoked</span></li>' : '<button>Revoke</button></li>'));
      }
      if (tokens.children.length === 50) tree.getElementById('end').remove();
    };
    add();
    add();
    new IntersectionObserver((seen) => {
      if (seen.some((one) => one.isIntersecting)) add();
    }, { root: tree.getElementById('box') }).observe(tree.getElementById('end'));
  </script>`);
  await readToItsEnd(page);
  await page.close();
});

const ALPHA = 'nightly build for the team alpha';
const BETA = 'nightly build for the team beta';
const GAMMA = 'contract-test run=20261207T1100Z-ab12 at=20261207T110000Z scopes both';

// Two names that begin alike, cut short alike, the whole names in a cell's tooltip and in an item's Bootstrap 5
// tooltip; one cut in its middle with three full stops, whole in an `aria-label` (in a cell, after an icon with a
// tooltip of its own); a name holding an ellipsis, shown whole.
const MARKUPS: [string, string][] = [
  [
    "a table, the whole names in the cells' title",
    `<table><tr><th>Name</th><th>Status</th><th></th></tr>
      <tr><td title="${ALPHA}">nightly build for t…</td><td>Active</td><td><button>Revoke</button></td></tr>
      <tr><td title="${BETA}">nightly build for t…</td><td>Revoked</td><td></td></tr>
      <tr><td><i class="icon-star" title="Both scopes"></i> <span aria-label="${GAMMA}">contract-test run=...scopes both</span></td><td>Active</td><td><button>Revoke</button></td></tr>
      <tr><td>Wait… what</td><td>Active</td><td><button>Revoke</button></td></tr></table>`,
  ],
  [
    'a list, the whole names in a tooltip moved by its script',
    `<ul title="Your tokens"><li><span data-bs-original-title="${ALPHA}">nightly build for t…</span> <button>Revoke</button></li>
      <li><span data-bs-original-title="${BETA}">nightly build for t…</span> <span>Revoked</span></li>
      <li><span aria-label="${GAMMA}">contract-test run=...scopes both</span> <button>Revoke</button></li>
      <li>Wait… what <button>Revoke</button></li></ul>`,
  ],
  [
    'rows of boxes, each ellipsis an element of its own',
    `<div role="list"><div role="listitem"><div title="${ALPHA}">nightly build for t<span class="dots">…</span></div><button>Revoke</button></div>
      <div role="listitem"><div title="${BETA}">nightly build for t<span class="dots">…</span></div><span>Revoked</span></div>
      <div role="listitem"><div aria-label="${GAMMA}"><span>contract-test run=</span><i>...</i><span>scopes both</span></div><button>Revoke</button></div>
      <div role="listitem"><div>Wait… what</div><button>Revoke</button></div></div>`,
  ],
];
// The table again, in a web component's open shadow root, where XPath does not go.
MARKUPS.push([
  "a web component's shadow root holding the table",
  `<token-table></token-table><script>customElements.define('token-table', class extends HTMLElement {
    connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = ${JSON.stringify(MARKUPS[0]?.[1])}; }
  });</script>`,
]);

for (const [kind, markup] of MARKUPS) {
  test(`names cut short with the whole name in an attribute are found, listed and read whole: ${kind}`, async () => {
    const page = await pageWith(markup);
    const list = new TokenList(page);
    assert.deepEqual(await list.list(), [
      { name: ALPHA, revoked: false },
      { name: BETA, revoked: true },
      { name: GAMMA, revoked: false },
      { name: 'Wait… what', revoked: false },
    ]);
    for (const name of [ALPHA, BETA, GAMMA, 'Wait… what']) {
      assert.equal(await list.row(name).count(), 1, `one entry for ${name}`);
      assert.equal(await list.showsExactly(name), true, `${name} is shown exactly`);
    }
    assert.equal(await list.countAll(list.active(ALPHA)), 1);
    assert.equal(await list.countAll(list.active(BETA)), 0);
    assert.equal(await list.isRevoked(BETA), true);
    assert.equal(await list.isRevoked(ALPHA), false);
    assert.equal(await list.row('nightly build for the team').count(), 0, 'a name that only begins the whole name is not found');
    assert.equal(await list.showsExactly(ALPHA.replace(' ', '  ')), false, 'spaces are not collapsed for exactness');
    assert.deepEqual(await list.namesLike(/^nightly|^contract-test/), [ALPHA, BETA, GAMMA], 'the whole names, never a cut text');
    assert.deepEqual(await list.namesLike(/^nightly build for the team/), [ALPHA, BETA], 'a pattern that only the whole names match');
    await page.close();
  });
}
