import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from '@playwright/test';
import { listen } from '../sandbox/serve.ts';
import { chromiumLaunchOptions } from './browser.ts';
import { NewTokenDialog, ScopeNotOffered } from './new_token_dialog.ts';

let browser: Browser;

before(async () => {
  browser = await chromium.launch(chromiumLaunchOptions());
});
after(async () => {
  await browser.close();
});

/** A page holding a Scope `<select>` of these choices (`[value, text]`) and a list of added scopes that shows `added`. */
async function formWith(choices: [string, string][], added = ''): Promise<Page> {
  const page = await browser.newPage();
  const options = choices.map(([value, text]) => `<option value="${value}">${text}</option>`).join('');
  await page.setContent(
    `<label for="s">Scope</label><select id="s"><option value="">Choose</option>${options}</select><ul><li>${added}</li></ul>`,
  );
  return page;
}

/** The value the Scope `<select>` holds after {@link NewTokenDialog.enterScope}. */
async function chosen(page: Page, scope: string): Promise<string> {
  await new NewTokenDialog(page).enterScope(scope);
  return await page.locator('select').inputValue();
}

test('a <select> Scope: the choice whose value is the scope, before one that shows it; never a prompt', async () => {
  const page = await formWith([['', 'svc-1'], ['other', 'svc-1'], ['svc-1', 'Slicing service']]);
  assert.equal(await chosen(page, 'svc-1'), 'svc-1');
  await page.close();
});

test('a <select> Scope: the choice that shows the scope whole, then the one that shows it as a word', async () => {
  const whole = await formWith([['7', 'Slicing service (svc-1)'], ['8', ' svc-1 ']]);
  assert.equal(await chosen(whole, 'svc-1'), '8');
  await whole.close();
  const word = await formWith([['6', 'svc-10 (old)'], ['7', 'Slicing service (svc-1)'], ['8', 'Prediction (svc-2)']]);
  assert.equal(await chosen(word, 'svc-1'), '7', 'a longer id that starts alike is not the scope');
  await word.close();
});

test('a <select> Scope with no choice for the scope: ScopeNotOffered names the scope and the choices, nothing is chosen', async () => {
  const page = await formWith([['a', 'svc-10'], ['b', 'Prediction (svc-2)']]);
  await assert.rejects(new NewTokenDialog(page).enterScope('svc-1'), (error: unknown) => {
    assert.ok(error instanceof ScopeNotOffered);
    assert.equal(error.message, 'step 5: the Scope field offers no choice for "svc-1" (it offers: "svc-10", "Prediction (svc-2)")');
    return true;
  });
  assert.equal(await page.locator('select').inputValue(), '');
  await page.close();
});

test('the added scope is found as its choice shows it, never as the <select> offers it', async () => {
  const offered = await formWith([['svc-1', 'svc-1']]);
  assert.equal(await new NewTokenDialog(offered).added('svc-1').count(), 0, 'a choice that shows the scope is not an added scope');
  await offered.close();
  const page = await formWith([['svc-1', 'Slicing service']], 'Slicing service');
  const dialog = new NewTokenDialog(page);
  assert.equal(await dialog.added('svc-1').count(), 0);
  await dialog.enterScope('svc-1');
  assert.equal(await dialog.added('svc-1').textContent(), 'Slicing service');
  await page.close();
});

test('a text Scope field is typed into', async () => {
  const page = await browser.newPage();
  await page.setContent('<label for="s">Scope</label><input id="s">');
  await new NewTokenDialog(page).enterScope('svc-1');
  assert.equal(await page.locator('input').inputValue(), 'svc-1');
  await page.close();
});

test('a field is found by a label that says more in words set aside: a help icon, words hidden from sight', async () => {
  const page = await browser.newPage();
  await page.setContent(`
    <style>.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }</style>
    <input placeholder="Search tokens">
    <label for="n">Name <span class="material-icons" title="Any name is allowed">help_outline</span></label>
    <input id="n">
    <label>Scope<span class="sr-only"> (a service identifier)</span>
      <select><option value="">Choose</option><option value="svc-1">Slicing service</option></select></label>
    <label>Scope notes <span class="material-icons">help</span></label><input class="notes">`);
  const dialog = new NewTokenDialog(page);
  await dialog.name.fill('nightly');
  await dialog.enterScope('svc-1');
  assert.deepEqual(
    await page.locator('input, select').evaluateAll((fields) => fields.map((field) => (field as HTMLInputElement).value)),
    ['', 'nightly', 'svc-1', ''],
  );
  await page.close();
});

test('step 7 without "Copy token value": the failure quotes the error the page shows (an alert, or text that reads as one)', async () => {
  const shown = async (body: string) => {
    const page = await browser.newPage();
    await page.setContent(body);
    const failure = await new NewTokenDialog(page).readValue().then(() => 'read a value', (error: Error) => error.message);
    await page.close();
    return failure;
  };
  // At once: each waits out the time "Copy token value" is given to show.
  const [alert, text, none] = await Promise.all([
    shown('<p role="alert">\n  Unknown service "svc-x":\n  use one of svc-1, svc-2</p><p role="alert"></p>'),
    shown('<p>Tokens last until revoked.</p><p class="e">Invalid scope</p>'),
    shown('<p>Tokens last until revoked.</p>'),
  ]);
  assert.equal(
    alert,
    'step 7: Create showed no "Copy token value"; the page shows an error: "Unknown service "svc-x": use one of svc-1, svc-2"',
  );
  assert.equal(text, 'step 7: Create showed no "Copy token value"; the page shows an error: "Invalid scope"');
  assert.match(none, /^step 7: Create shows the token with "Copy token value"\n/, 'no error shown: the wait that failed, as it was');
});

test('the copied value is found where the page shows it: a sentence that quotes it and ends after it, a web component, split by elements; a copy short of a character is not', async (t) => {
  const pages = new Map<string, string>();
  const server = await listen((request) =>
    new Response(pages.get(new URL(request.url).pathname) ?? '', { headers: { 'content-type': 'text/html; charset=utf-8' } })
  );
  t.after(() => server.close());
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  t.after(() => context.close());
  const copying = (value: string) => `<button onclick="navigator.clipboard.writeText('${value}')">Copy token value</button>`;
  pages.set('/sentence', `<p>Your new token is “tok-Ab3.d_9”. Store it now.</p>${copying('tok-Ab3.d_9')}`);
  pages.set(
    '/component',
    `<token-value></token-value>${copying('tok-Xy7')}<script>customElements.define('token-value', class extends HTMLElement {
      constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<code>tok-Xy7</code>'; } });</script>`,
  );
  pages.set('/short', `<p>Your new token is “tok-Ab3d9”.</p>${copying('tok-Ab3d')}`);
  // A long value given places to break (`<wbr>`), or shown a part per element.
  pages.set('/split', `<p>Token: <code>tok-Ab<wbr>3d9-<span>Qx</span>7</code></p>${copying('tok-Ab3d9-Qx7')}`);
  pages.set('/split-short', `<p>Token: <code>tok-Ab<wbr>3d9-<span>Qx</span>7</code></p>${copying('tok-Ab3d9-Qx')}`);
  // Masked as a password field masks it, the value is the field's; masked in the text, it is shown nowhere.
  pages.set('/password-field', `<input type="password" readonly value="tok-Pw9">${copying('tok-Pw9')}`);
  pages.set('/masked', `<p>Token: <code>tok-••••••</code> <button>Reveal</button></p>${copying('tok-Ab3d9')}`);
  const read = async (path: string) => {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${server.port}${path}`);
    return await new NewTokenDialog(page).readValue().catch((error: Error) => error.message);
  };
  assert.equal(await read('/sentence'), 'tok-Ab3.d_9');
  assert.equal(await read('/component'), 'tok-Xy7');
  const notShown = 'Step 7/8: the value "Copy token value" copied is not the value the page displays (it must show whole, as a ' +
    "text or a field's value, a password field's too: a value shown masked or cut short cannot be checked against the copy)";
  assert.equal(await read('/short'), notShown);
  assert.equal(await read('/split'), 'tok-Ab3d9-Qx7');
  assert.equal(await read('/split-short'), notShown);
  assert.equal(await read('/password-field'), 'tok-Pw9', "a password field's value, masked on screen");
  assert.equal(await read('/masked'), notShown, 'a value masked in the text');
});
