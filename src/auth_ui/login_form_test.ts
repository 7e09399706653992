import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { type Browser, chromium, expect, type Page } from '@playwright/test';
import { startSandbox } from '../sandbox/mod.ts';
import { type LateScript, lateScript } from '../testing/late_script.ts';
import { chromiumLaunchOptions } from './browser.ts';
import { LoginForm } from './login_form.ts';

// Variant 3 logs in through a script: inputs without a form, whose values reach the script only through the input
// events it hears, and a button that does nothing until the script has attached its handler.
const sandbox = await startSandbox({ testMode: true, uiVariant: 3 });
const { SLICER_AUTH_URL: authUrl, SLICER_USERNAME: username, SLICER_PASSWORD: password } = sandbox.env;
// Variant 2 asks for the user name alone, then for the password on the page that answers it.
const userFirst = await startSandbox({ testMode: true, uiVariant: 2 });
// Variant 1 shows a landing page whose "Sign in" leads to the login form.
const landing = await startSandbox({ testMode: true, uiVariant: 1 });
const sandboxes = [sandbox, userFirst, landing];
let browser: Browser;
/** The origin of a page made by `setContent` (about:blank): none. */
const BLANK = 'null';

before(async () => (browser = await chromium.launch(chromiumLaunchOptions())));
beforeEach(() => {
  for (const each of sandboxes) each.store.reset();
});
after(async () => {
  await browser.close();
  for (const each of sandboxes) await each.close();
});

/**
 * The page as the page object sees it, letting the held script go when the
 * page object waits for the page to load (a held script would keep it from
 * loading): a login form typed into before then loses what was typed.
 */
function releasedByLoadWait(page: Page, late: LateScript, released: () => void): Page {
  return new Proxy(page, {
    get(target, key) {
      if (key === 'waitForLoadState') {
        return (...args: Parameters<Page['waitForLoadState']>) => {
          if (late.release()) released();
          return target.waitForLoadState(...args);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// The deadline ends a run whose script is held and never released, instead of waiting forever.
test('a login page reached by a click is typed into only once its script has run', { timeout: 180_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const late = await lateScript(page);
  let released = 0;
  const form = new LoginForm(releasedByLoadWait(page, late, () => released++));
  await page.setContent(`<a href="${authUrl}/?next=/">Sign in</a>`);
  late.arm('/');
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(form.password).toBeVisible();
  await form.logIn(username, password, new URL(authUrl).origin);
  assert.equal(late.early(), 0, 'nothing was typed or clicked while the script was held');
  assert.equal(released, 1, 'the page object waited for the login page to load');
  await expect(page.getByText(`Signed in as ${username}`)).toBeVisible();
  await context.close();
});

test('a login page with a resource that never loads is logged into once the wait for it ends', { timeout: 180_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The login page gets an image that never arrives, so the page never finishes loading.
  await page.route(`${authUrl}/`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()).replace('</main>', '<img src="/never.png" alt=""></main>') });
  });
  await page.route('**/never.png', () => {});
  await page.setContent(`<a href="${authUrl}/">Sign in</a>`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  const form = new LoginForm(page);
  await expect(form.password).toBeVisible();
  await form.logIn(username, password, new URL(authUrl).origin);
  await expect(page.getByText(`Signed in as ${username}`)).toBeVisible();
  // A handler still fetching a page when the context closes would throw after the test ("Response has been disposed").
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.close();
});

// Variant 2 asks for the user name alone first; variant 1 shows a landing page whose "Sign in" leads to the form.
for (
  const [title, sandboxOf, userField] of [
    ['a login that asks for the user name alone gets it, then the password on the page that follows', () => userFirst, 1],
    ['a landing page\'s "Sign in" is chosen, then the login form it leads to is filled', () => landing, 0],
  ] as const
) {
  test(title, { timeout: 60_000 }, async () => {
    const { SLICER_AUTH_URL: url, SLICER_USERNAME: user, SLICER_PASSWORD: secret } = sandboxOf().env;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${url}/`);
    const form = new LoginForm(page);
    await expect(form.password).toHaveCount(0);
    await expect(form.userName).toHaveCount(userField);
    assert.equal(await form.isShown(), true, 'the page asks to log in');
    await form.logIn(user, secret, new URL(url).origin);
    await expect(page.getByText(`Signed in as ${user}`)).toBeVisible();
    assert.equal(await new LoginForm(page).isShown(), false);
    await context.close();
  });
}

// A login step whose next page never comes: an unknown user (the page says so), or single sign-on behind "Sign in".
for (
  const [title, content, message, shown] of [
    [
      'a user-name page that leads to no password field fails naming SLICER_USERNAME',
      `<form onsubmit="event.preventDefault(); this.querySelector('p').textContent = 'No such account'">
        <label for="id">Email</label><input id="id" type="email"><button type="submit">Next</button><p></p></form>`,
      'Logging in as "nobody@example.com": the service asked for the user name, then showed no password field: check SLICER_USERNAME',
      'No such account',
    ],
    [
      'a "Sign in" that leads to no login form fails naming SLICER_UI_STORAGE_STATE',
      `<button onclick="this.after('Continue with Example SSO')">Sign in</button>`,
      'Choosing "Sign in" showed no login form (no password or user-name field): behind single sign-on, save a browser login ' +
      'and set SLICER_UI_STORAGE_STATE',
      'Continue with Example SSO',
    ],
  ] as const
) {
  test(title, { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent(content);
    const form = new LoginForm(page);
    assert.equal(await form.isShown(), true);
    await assert.rejects(form.logIn('nobody@example.com', 'pass-never-shown', BLANK), (error: Error) => {
      assert.equal(error.message, message);
      return true;
    });
    await expect(page.getByText(shown)).toBeVisible();
    await context.close();
  });
}

test('a page past the login is not taken for one, whatever user fields it shows', { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const shown = async (body: string) => {
    await page.setContent(body);
    return await new LoginForm(page).isShown();
  };
  const filter = '<label for="f">Filter by user</label><input id="f" type="text">';
  assert.equal(await shown(filter), true, 'a field labelled for a user, alone, asks for the user name');
  assert.equal(await shown(`<input type="text" autocomplete="username">`), true, 'a field with the user-name autofill hint');
  for (const past of ['Tokens and sessions', 'TOKENS', 'New permanent token']) {
    assert.equal(await shown(`<button>${past}</button>${filter}`), false, `a page showing "${past}" is past the login`);
  }
  assert.equal(await shown('<a href="#">Log in</a>'), true, 'a landing page asks to choose "Log in"');
  assert.equal(await shown('<a href="#">Sign in</a><button>Tokens and sessions</button>'), false, 'a page past the login');
  assert.equal(await shown('<button>Log out</button>'), false, '"Log out" is not a way in');
  assert.equal(await shown('<input type="search" aria-label="Search users">'), false, 'a search box is not a user-name field');
  assert.equal(await shown('<input type="text" autocomplete="username" readonly>'), false, 'a read-only field is not asked for');
  assert.equal(await shown('<label for="n">Name</label><input id="n" type="text">'), false, 'a field not named for a user');
  await context.close();
});

// A step's wait as long as the test's whole deadline: a failed login told only once that wait ends fails the test.
const LONG_STEP_MS = 120_000;

test('a wrong password fails at once, quoting the error each login variant shows', { timeout: 60_000 }, async () => {
  for (const each of sandboxes) {
    const { SLICER_AUTH_URL: url, SLICER_USERNAME: user } = each.env;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${url}/`);
    await assert.rejects(new LoginForm(page, LONG_STEP_MS).logIn(user, 'wrong-pass-never-shown', new URL(url).origin), (error: Error) => {
      assert.equal(
        error.message,
        `Logging in as "${user}" did not get past the login form (the page shows an error: "Invalid username or password."): ` +
          'check SLICER_USERNAME and SLICER_PASSWORD',
      );
      return true;
    });
    await context.close();
  }
});

test("an error in an error's class is quoted, whatever it says; a password the page repeats is not", { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Django's login: its error list reads as no error word, and this one repeats what was typed.
  await page.setContent(`<form onsubmit="event.preventDefault(); const list = document.createElement('ul');
    list.className = 'errorlist nonfield'; list.innerHTML = '<li>Please enter a correct username and password for ' + this.p.value + '.</li>';
    this.prepend(list)"><input name="u" type="text"><input name="p" type="password"><button type="submit">Log in</button></form>`);
  await assert.rejects(new LoginForm(page, LONG_STEP_MS).logIn('ada', 'pass-never-shown', BLANK), (error: Error) => {
    assert.equal(
      error.message,
      'Logging in as "ada" did not get past the login form (the page shows an error: "Please enter a correct username and ' +
        'password for [redacted]."): check SLICER_USERNAME and SLICER_PASSWORD',
    );
    return true;
  });
  await context.close();
});

test('a field the page marks invalid once submitted fails the step at once, saying so; one marked before does not', {
  timeout: 60_000,
}, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // An accessible form that tells a wrong password by aria-invalid alone, with no words a page object knows.
  await page.setContent(`<form onsubmit="event.preventDefault(); this.p.setAttribute('aria-invalid', 'true')">
    <input name="u" type="text"><input name="p" type="password"><button type="submit">Log in</button></form>`);
  await assert.rejects(new LoginForm(page, LONG_STEP_MS).logIn('ada', 'pass-never-shown', BLANK), {
    message:
      'Logging in as "ada" did not get past the login form (the page marks a field invalid): check SLICER_USERNAME and SLICER_PASSWORD',
  });
  await page.setContent(`<form onsubmit="event.preventDefault()">
    <input name="u" type="text" aria-invalid="true"><input name="p" type="password"><button type="submit">Log in</button></form>`);
  await assert.rejects(new LoginForm(page, 1_000).logIn('ada', 'pass-never-shown', BLANK), {
    message: 'Logging in as "ada" did not get past the login form: check SLICER_USERNAME and SLICER_PASSWORD',
  });
  await context.close();
});

test('a form served again, empty, after submitting fails the step at once; the same page kept does not', { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // A service that answers a wrong login with its form again, with no word of why: each step's form posts to itself.
  const served = { form: '' };
  await page.route('http://login.test/**', (route) => route.fulfill({ contentType: 'text/html', body: served.form }));
  served.form = '<form method="post"><input name="u" type="text"><input name="p" type="password"><button>Log in</button></form>';
  await page.goto('http://login.test/');
  await assert.rejects(new LoginForm(page, LONG_STEP_MS).logIn('ada', 'pass-never-shown', 'http://login.test'), {
    message: 'Logging in as "ada" did not get past the login form (the form came back, empty): check SLICER_USERNAME and SLICER_PASSWORD',
  });
  // An identifier-first page that asks for the user name again.
  served.form = '<form method="post"><input name="u" type="text" autocomplete="username"><button>Next</button></form>';
  await page.goto('http://login.test/user');
  await assert.rejects(new LoginForm(page, LONG_STEP_MS).logIn('nobody', 'pass-never-shown', 'http://login.test'), {
    message:
      'Logging in as "nobody": the service asked for the user name, then showed no password field (the form came back, empty): check SLICER_USERNAME',
  });
  // The same page, its field still filled: the step waits its time, and says nothing of a form coming back.
  await page.setContent(
    '<form onsubmit="event.preventDefault()"><input name="u" type="text"><input name="p" type="password"><button>Log in</button></form>',
  );
  await assert.rejects(new LoginForm(page, 1_000).logIn('ada', 'pass-never-shown', 'http://login.test'), {
    message: 'Logging in as "ada" did not get past the login form: check SLICER_USERNAME and SLICER_PASSWORD',
  });
  await context.close();
});

test("an error the page showed before submitting is not taken for the step's: the step waits its time, and quotes nothing", {
  timeout: 60_000,
}, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setContent(`<p class="error">Your session has expired</p><form onsubmit="event.preventDefault()">
    <input name="u" type="text"><input name="p" type="password"><button type="submit">Log in</button></form>`);
  await assert.rejects(new LoginForm(page, 1_000).logIn('ada', 'pass-never-shown', BLANK), {
    message: 'Logging in as "ada" did not get past the login form: check SLICER_USERNAME and SLICER_PASSWORD',
  });
  await context.close();
});

/**
 * A web server on loopback (its own origin) answering what `pages` holds for a method and path (`GET /`), else a page
 * past the login, recording what is posted to it.
 */
async function site(pages: Map<string, string>, posted: string[]): Promise<{ origin: string; close: () => void }> {
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    if (request.method === 'POST') posted.push(`${request.headers.host} ${body}`);
    const location = pages.get(`redirect ${request.url}`);
    if (location) return response.writeHead(302, { location }).end();
    response.writeHead(200, { 'content-type': 'text/html' }).end(
      pages.get(`${request.method} ${request.url}`) ?? '<p>Signed in as ada</p>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

test("the password is typed only into the authorization service's own pages, sent only to its origin", { timeout: 60_000 }, async (t) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The authorization service, and another origin: a single sign-on service, or one that collects passwords.
  const ownPages = new Map<string, string>();
  const otherPages = new Map<string, string>();
  const posted: string[] = [];
  const service = await site(ownPages, posted);
  const other = await site(otherPages, posted);
  t.after(async () => {
    await context.close();
    service.close();
    other.close();
  });
  const own = service.origin;
  const form = (attributes: string, button = '<button type="submit">Log in</button>') =>
    `<form method="post" ${attributes}><input name="u" type="text"><input name="p" type="password">${button}</form>`;
  const typed = () => page.locator('input[type=password]').inputValue();
  const refused = (where: string) =>
    `Logging in as "ada": the login form ${where} the authorization service's origin (${own}); the password is typed ` +
    'only into its own pages: behind single sign-on, save a browser login and set SLICER_UI_STORAGE_STATE';

  // {auth_url}/ redirects to a login page of another origin.
  ownPages.set('redirect /', `${other.origin}/login?state=opaque`);
  otherPages.set('GET /login?state=opaque', form(''));
  await page.goto(`${own}/`);
  await assert.rejects(new LoginForm(page, 1_000).logIn('ada', 'pass-never-shown', own), {
    message: refused(`is at ${other.origin}, not at`),
  });
  assert.equal(await typed(), '', 'nothing was typed into the password field');
  ownPages.clear();

  // An identifier-first login whose user-name page leads to a password page of another origin.
  ownPages.set(
    'GET /',
    `<form method="post" action="${other.origin}/password"><input name="u" autocomplete="username"><button>Next</button></form>`,
  );
  otherPages.set('POST /password', form(''));
  await page.goto(`${own}/`);
  await assert.rejects(new LoginForm(page, 1_000).logIn('ada', 'pass-never-shown', own), {
    message: refused(`is at ${other.origin}, not at`),
  });
  assert.equal(await typed(), '');
  assert.deepEqual(posted.splice(0), [`${other.origin.slice('http://'.length)} u=ada`], 'the user name alone went to the other origin');

  // A form of the service's own page that posts elsewhere, by its action or by its button's formaction.
  for (
    const body of [
      form(`action="${other.origin}/take"`),
      form('', `<button type="submit" formaction="${other.origin}/take">Log in</button>`),
    ]
  ) {
    ownPages.set('GET /', body);
    await page.goto(`${own}/`);
    await assert.rejects(new LoginForm(page, 1_000).logIn('ada', 'pass-never-shown', own), {
      message: refused(`sends the password to ${other.origin}, not to`),
    });
    assert.equal(await typed(), '');
  }
  assert.deepEqual(posted, [], 'nothing was posted');

  // A form whose input named "action" hides its action property posts to its own page: it is logged into, whatever
  // another form of the page (a search box's, before it) posts to.
  const search = `<form action="${other.origin}/search"><input type="search" aria-label="Search"></form>`;
  ownPages.set('GET /', search + form('', '<input type="hidden" name="action" value="login"><button type="submit">Log in</button>'));
  await page.goto(`${own}/`);
  await new LoginForm(page, 10_000).logIn('ada', 'pass-never-shown', own);
  await expect(page.getByText('Signed in as ada')).toBeVisible();
  assert.deepEqual(posted, [`${own.slice('http://'.length)} u=ada&p=pass-never-shown&action=login`]);
});
