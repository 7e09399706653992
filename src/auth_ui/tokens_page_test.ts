import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { type Browser, type BrowserContext, chromium } from '@playwright/test';
import { startSandbox } from '../sandbox/mod.ts';
import { listen } from '../sandbox/serve.ts';
import { lateScript } from '../testing/late_script.ts';
import { listenTls } from '../testing/tls_server.ts';
import { chromiumLaunchOptions } from './browser.ts';
import { TokensPage } from './tokens_page.ts';

const sandbox = await startSandbox({ testMode: true });
const { SLICER_AUTH_URL: authUrl, SLICER_USERNAME: username, SLICER_PASSWORD: password, SLICER_SERVICE_ID: serviceId } = sandbox.env;
let browser: Browser;
let context: BrowserContext;

before(async () => {
  browser = await chromium.launch(chromiumLaunchOptions());
  context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
});
beforeEach(() => sandbox.store.reset());
after(async () => {
  await browser.close();
  await sandbox.close();
});

// The deadline ends a run whose script is held and never released (no click came), instead of waiting forever.
test(
  'controls clicked before the page script has run are clicked again: a token is created and revoked',
  { timeout: 180_000 },
  async () => {
    const page = await context.newPage();
    const late = await lateScript(page);
    const tokens = new TokensPage(page, authUrl, { username, password });
    late.arm('/security/tokens');
    await tokens.open();
    const value = await tokens.create('late script', [serviceId]);
    assert.equal(late.early(), 1, '"New permanent token" was first clicked while the script was held');
    assert.equal((sandbox.store.check(value) as { kind?: string }).kind, 'permanent', 'the value read is a live permanent token');

    late.arm('/security/tokens');
    await tokens.open();
    await tokens.revoke('late script');
    assert.equal(late.early(), 2, '"Revoke" was first clicked while the script was held');
    assert.equal(sandbox.store.check(value), 'revoked');
  },
);

test('an address that answers other than with a web page, or with a server error, is named with its answer at once, not after the wait for a control', async () => {
  const page = await context.newPage();
  try {
    const service = sandbox.env.SLICER_BASE_URL; // a service's base address, given for the authorization service's
    await assert.rejects(
      new TokensPage(page, service, { username, password }).open(),
      {
        message: `${service}/ answered 401 with application/json, not a web page: check SLICER_AUTH_URL, the base address of ` +
          'the authorization service, whose web UI opens there',
      },
    );
    const proxy = await listen(() => new Response('<h1>502 Bad Gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }));
    try {
      const down = `http://127.0.0.1:${proxy.port}`;
      await assert.rejects(new TokensPage(page, down, { username, password }).open(), {
        message: `${down}/ answered 502: the authorization service's web UI is down or failing; run again later`,
      });
    } finally {
      await proxy.close();
    }
  } finally {
    await page.close();
  }
});

test("a UI whose certificate's issuer the browser does not trust fails at once, saying how to make Chromium trust that CA", async () => {
  const page = await context.newPage();
  const ui = await listenTls(() => new Response('<h1>Sign in</h1>', { headers: { 'content-type': 'text/html' } }));
  try {
    await assert.rejects(new TokensPage(page, ui.origin, { username, password }).open(), {
      message: `${ui.origin}/: the browser does not trust the certificate's issuer (net::ERR_CERT_AUTHORITY_INVALID): if your ` +
        "organisation's own CA issues it, add that CA to the NSS database Chromium reads on Linux: certutil -d sql:$HOME/.pki/nssdb " +
        "-A -t C,, -n my-ca -i ca.pem (certutil: Debian's libnss3-tools; a new database first: certutil -d sql:$HOME/.pki/nssdb " +
        '-N --empty-password)',
    });
  } finally {
    await ui.close();
    await page.close();
  }
});

// Every UI variant shows added scopes and lists tokens in other markup (table, table with the date first, list items, plain boxes);
// variants 1 and 2 show the list in parts of five (pages, "Load more"); variant 4 its revoked tokens in a tab of their own, and
// its Revoke buttons say more in words hidden from sight.
// Variant 5 runs the list-in-parts flow below, with more tokens than its first part shows.
for (const uiVariant of [0, 1, 2, 3, 4] as const) {
  test(`UI variant ${uiVariant}: entries are found by name, counted, revoked one at a time and listed`, { timeout: 120_000 }, async () => {
    const other = await startSandbox({ testMode: true, uiVariant });
    const page = await context.newPage();
    try {
      const env = other.env;
      const twins = [1, 2].map(() => other.store.issuePermanent(env.SLICER_USERNAME, 'twin', [env.SLICER_SERVICE_ID]).value);
      other.store.issuePermanent(env.SLICER_USERNAME, 'Name with "quotes" and \'apostrophes\'', [env.SLICER_SERVICE_ID]);
      const tokens = new TokensPage(page, env.SLICER_AUTH_URL, { username: env.SLICER_USERNAME, password: env.SLICER_PASSWORD });
      await tokens.open();
      const made = await tokens.create('made here', [env.SLICER_SERVICE_ID]);
      assert.equal((other.store.check(made) as { kind?: string }).kind, 'permanent', 'steps 4–8 created a live token');
      assert.equal(await tokens.countAll(tokens.active('made here')), 1, 'step 8: it is listed');
      assert.equal(await tokens.countAll(tokens.row('twin')), 2, 'one entry per token of that name');
      assert.equal(await tokens.countAll(tokens.active('Name with "quotes" and \'apostrophes\'')), 1);
      assert.equal(await tokens.showsExactly('Name with "quotes" and \'apostrophes\''), true);
      assert.equal(await tokens.countAll(tokens.row('twi')), 0, 'a part of a name is not the name');

      await tokens.revoke('twin');
      assert.equal(await tokens.countAll(tokens.active('twin')), 1, 'Revoke, then OK revoked one of the two');
      assert.equal(await tokens.isRevoked('twin'), true);
      assert.deepEqual(twins.map((value) => other.store.check(value) === 'revoked').sort(), [false, true], 'the service revoked one');

      const listing = tokens.list().then((entries) =>
        entries.map(({ name, revoked }) => `${revoked ? 'revoked' : 'active'} ${name}`).sort()
      );
      if (uiVariant === 3) {
        await assert.rejects(listing, /no table row or list item holds them/);
      } else {
        assert.deepEqual(await listing, [
          'active Name with "quotes" and \'apostrophes\'',
          'active made here',
          'active twin',
          'revoked twin',
        ]);
      }
      assert.equal(await tokens.revokeEvery(['twin', 'twin']), 1);
      assert.equal(await tokens.countAll(tokens.active('twin')), 0);
      await tokens.revokeEvery(['made here', 'Name with "quotes" and \'apostrophes\'']);
      // Only revoked tokens left: a list of boxes must still not pass for an empty one.
      const revokedOnly = tokens.list().then((entries) => entries.filter(({ revoked }) => revoked).length);
      if (uiVariant === 3) await assert.rejects(revokedOnly, /no table row or list item holds them/);
      else assert.equal(await revokedOnly, 4);
    } finally {
      await page.close();
      await other.close();
    }
  });
}

// A staging service keeps every revoked token listed: a year of nightly runs is thousands of entries. Each lookup must
// stay one pass over the page (a locator per row resolved the whole list again for each row, past any timeout).
test('a list of 3000 tokens is listed whole, and one of them found, revoked and counted by name', { timeout: 120_000 }, async () => {
  for (let i = 0; i < 3000; i++) sandbox.store.issuePermanent(username, `nightly ${i}`, [serviceId]);
  const page = await context.newPage();
  try {
    const tokens = new TokensPage(page, authUrl, { username, password });
    await tokens.open();
    const listed = await tokens.list();
    assert.equal(listed.length, 3000);
    assert.deepEqual(listed.find((entry) => entry.name === 'nightly 1234'), { name: 'nightly 1234', revoked: false });
    await tokens.revoke('nightly 1234');
    assert.equal(await tokens.active('nightly 1234').count(), 0);
    assert.equal(await tokens.isRevoked('nightly 1234'), true);
    assert.equal(await tokens.active('nightly 123').count(), 1, 'a name that another begins with is its own entry');
  } finally {
    await page.close();
  }
});

// A list in parts, oldest first, five at a time: pages (UI variant 1), pages that offer only "Next" (UI variant 6),
// "Load more" (UI variant 2) or a box that fetches the next part when scrolled to its end (UI variant 5, its revoked
// tokens shown by a filter's "All"). What each step looks for is in another part.
for (
  const [uiVariant, parts] of [
    [1, 'pages'],
    [6, 'pages with only "Next"'],
    [2, '"Load more"'],
    [5, 'a box that grows as it is scrolled'],
  ] as const
) {
  test(
    `a list in parts (${parts}) is read whole: a new token in the last part, twins in two, every part listed`,
    { timeout: 120_000 },
    async () => {
      const parted = await startSandbox({ testMode: true, uiVariant });
      const page = await context.newPage();
      try {
        const env = parted.env;
        const older = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `older ${from + i}`);
        for (const name of [...older(1, 4), 'twin', 'twin', ...older(5, 8)]) {
          parted.store.issuePermanent(env.SLICER_USERNAME, name, [env.SLICER_SERVICE_ID]);
        }
        const tokens = new TokensPage(page, env.SLICER_AUTH_URL, { username: env.SLICER_USERNAME, password: env.SLICER_PASSWORD });
        await tokens.open();
        assert.equal(await tokens.row('made here').count(), 0, 'the first part does not show what the last will');
        await tokens.create('made here', [env.SLICER_SERVICE_ID]);
        const paged = uiVariant === 1 || uiVariant === 6;
        if (paged) assert.match(page.url(), /[?&]page=3$/, 'step 8 found the new token on the last page');
        assert.equal(await tokens.countAll(tokens.row('twin')), 2, 'one twin in the first part, one in the second');
        assert.equal(await tokens.seek(tokens.row('older 1')), true);
        if (paged) assert.doesNotMatch(page.url(), /page=[23]/, 'the first page is found again from the last');
        assert.equal(await tokens.revokeEvery(['twin', 'twin']), 2);
        assert.equal(await tokens.countAll(tokens.active('twin')), 0);
        // Looked for on every part for 15 s: once is enough.
        if (uiVariant === 1) await assert.rejects(tokens.revoke('twin'), /revoking: an active token named "twin" is listed/);
        // In the order shown: variant 1 shows each page's revoked tokens after its active ones.
        const active = (names: string[]) => names.map((name) => `active ${name}`);
        assert.deepEqual(
          (await tokens.list()).map(({ name, revoked }) => `${revoked ? 'revoked' : 'active'} ${name}`),
          uiVariant === 1
            ? [...active(older(1, 4)), 'revoked twin', ...active(older(5, 8)), 'revoked twin', 'active made here']
            : [...active(older(1, 4)), 'revoked twin', 'revoked twin', ...active([...older(5, 8), 'made here'])],
        );
        assert.equal(await tokens.isRevoked('older 8'), false);
        assert.equal(await tokens.showsExactly('made here'), true);
      } finally {
        await page.close();
        await parted.close();
      }
    },
  );
}

// A cleanup revokes as it walks the list: tokens on three pages are revoked in one walk and one more to see none left,
// where revoking them one by one walked every page three times or more for each.
test(
  'revokeEvery revokes tokens spread over pages in one walk of the list and one more, never more of a name than given; a miss walks it once',
  { timeout: 120_000 },
  async () => {
    const paged = await startSandbox({ testMode: true, uiVariant: 1 });
    const page = await context.newPage();
    try {
      const env = paged.env;
      const issue = (name: string) => paged.store.issuePermanent(env.SLICER_USERNAME, name, [env.SLICER_SERVICE_ID]).value;
      const values = new Map(Array.from({ length: 13 }, (_, i) => [`token ${i + 1}`, issue(`token ${i + 1}`)]));
      const twins = [issue('twin'), issue('twin')];
      const tokens = new TokensPage(page, env.SLICER_AUTH_URL, { username: env.SLICER_USERNAME, password: env.SLICER_PASSWORD });
      await tokens.open();
      let loads = 0;
      page.on('request', (request) => void (request.resourceType() === 'document' && loads++));
      const chosen = ['token 2', 'token 7', 'token 11', 'token 13'];
      const told: string[] = [];
      assert.equal(await tokens.revokeEvery(chosen, (name) => told.push(name)), 4);
      // Pages 2 and 3 turned to, a reload after each revocation, then pages 1 to 3 walked to see none left: 9 (41 when
      // each was counted, revoked, found revoked and the list counted again).
      assert.ok(loads <= 10, `${loads} pages loaded to revoke 4 tokens on a list of 3 pages`);
      assert.deepEqual(told, chosen, 'each told as it is revoked, in the order of the list');
      assert.deepEqual([...values].filter(([, value]) => paged.store.check(value) === 'revoked').map(([name]) => name), chosen);

      // Looked for from the first page and not found: pages 2 and 3, once.
      await tokens.open();
      loads = 0;
      assert.equal(await tokens.seek(tokens.active('token 2')), false);
      assert.equal(loads, 2, 'a token looked for from the first page is looked for on each other page once');

      await assert.rejects(tokens.revokeEvery(['twin']), {
        message: 'revoking "twin": an active entry of that name still shows after Revoke, then OK on 1 (as many as were to be revoked): ' +
          'one did not take, or another was created meanwhile',
      });
      assert.deepEqual(twins.map((value) => paged.store.check(value) === 'revoked').sort(), [false, true], 'one twin was revoked');
    } finally {
      await page.close();
      await paged.close();
    }
  },
);

test(
  'a Name field that cuts the name short (its maxlength, or a script) fails step 5 before anything is created, saying how much it keeps',
  { timeout: 60_000 },
  async () => {
    const page = await context.newPage();
    // The sandbox's own page, its Name field given a maxlength shorter than the name.
    await page.route(`${authUrl}/security/tokens`, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(
        '<input id="token-name" type="text"',
        '<input id="token-name" type="text" maxlength="12"',
      );
      await route.fulfill({ response, body });
    });
    const tokens = new TokensPage(page, authUrl, { username, password });
    await tokens.open();
    await assert.rejects(tokens.create('contract-test run=a b', [serviceId]), {
      message: "step 5: the Name field keeps 12 of the name's 21 characters (its maxlength is 12); the contract allows any name, so " +
        'nothing was created',
    });
    assert.equal(tokens.createClicked, false);
    // A script that cuts what is typed, without a maxlength.
    await page.unrouteAll();
    await page.addInitScript(() =>
      document.addEventListener('input', (event) => {
        const field = event.target as HTMLInputElement;
        if (field.id === 'token-name') field.value = field.value.slice(0, 9);
      }, true)
    );
    await tokens.open();
    await assert.rejects(tokens.create('contract-test run=a b', [serviceId]), {
      message: "step 5: the Name field keeps 9 of the name's 21 characters; the contract allows any name, so nothing was created",
    });
    assert.deepEqual(sandbox.store.list(username, 'permanent'), [], 'no token was created');
    await page.close();
  },
);
