import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './browser.ts';
import { everyControl, markSecrets, SECRET_ATTRIBUTE } from './controls.ts';
import { labelled, saysWord } from './label_match.ts';

let browser: Browser;

before(async () => {
  browser = await chromium.launch(chromiumLaunchOptions());
});
after(async () => {
  await browser.close();
});

test('a documented label matches whole, in any case, beside spaces, punctuation, symbols and a count after it, never beside another word', () => {
  const matches = (label: string, shown: string) => labelled(label).test(shown);
  for (
    const shown of [
      'New permanent token',
      ' NEW  PERMANENT\ntoken ',
      '＋ New permanent token',
      'New permanent token…',
      '+New permanent token',
    ]
  ) {
    assert.equal(matches('New permanent token', shown), true, shown);
  }
  for (const shown of ['Name *', 'Name:', '* Name']) assert.equal(matches('Name', shown), true, shown);
  for (const shown of ['Tokens 3', 'TOKENS (12)', '🔑 Tokens · 3']) assert.equal(matches('TOKENS', shown), true, shown);
  for (const shown of ['Create ›', '🗑 Revoke', '✓ Done', '📋 Copy token value']) {
    assert.equal(matches(shown.replace(/^\W+|\W+$/gu, ''), shown), true, shown);
  }
  // Emoji as most fonts draw them: with a variation selector, joined, a keycap, a subdivision flag's tags.
  for (
    const shown of [
      '🗑\ufe0f Revoke',
      'Revoke ✖\ufe0f',
      '👩\u200d💻 Revoke',
      '#\ufe0f\u20e3 Revoke',
      '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} Revoke',
    ]
  ) {
    assert.equal(matches('Revoke', shown), true, shown);
  }
  for (
    const [label, shown] of [['Revoke', 'Revoke all'], ['Revoke', 'Revoked'], ['TOKENS', '3 Tokens'], ['TOKENS', 'Tokens 3 new'], [
      'Done',
      'Not done',
    ]]
  ) {
    assert.equal(matches(label as string, shown as string), false, shown);
  }
  assert.equal(matches('Copy token value', 'Copy token.value'), false, "the label's own characters are literal");
});

test('a control is found by its accessible name, by its text when its name says more, or by what shows as its label (a summary too); once, and only when visible', async () => {
  const page = await browser.newPage();
  try {
    await page.setContent(`
      <table>
        <tr><td>alpha</td><td><button aria-label="Revoke the token “alpha”">Revoke</button></td></tr>
        <tr><td>beta</td><td><button aria-label="Revoke"><svg aria-hidden="true" width="8" height="8"></svg></button></td></tr>
        <tr><td>gamma</td><td><a href="/revoke/gamma" title="Revoke gamma">🗑 Revoke</a></td></tr>
        <tr><td>delta</td><td><button>Revoke all</button> <button>Revoked</button> <button hidden>Revoke</button></td></tr>
        <tr><td>epsilon</td><td><button>Revoke<span class="visually-hidden"> the token epsilon</span></button></td></tr>
        <tr><td>zeta</td><td><a href="/zeta"><svg width="8" height="8"><title>Bin</title></svg> REVOKE <span class="sr-only">zeta</span></a></td></tr>
        <tr><td>theta</td><td><button><span class="material-icons">delete</span>Revoke</button></td></tr>
        <tr><td>iota</td><td><button><mat-icon>delete</mat-icon> Revoke <span class="material-symbols-outlined">warning</span></button></td></tr>
        <tr><td>kappa</td><td><button>Revoke<span style="border: 0px; clip: rect(0px, 0px, 0px, 0px); clip-path: inset(50%); height: 1px; margin: -1px; overflow: hidden; padding: 0px; position: absolute; width: 1px; white-space: nowrap;"> kappa</span></button></td></tr>
        <tr><td>lambda</td><td><button>Revoke<span style="border:0;clip:rect(0 0 0 0);height:1px;margin:-1px;overflow:hidden;padding:0;position:absolute;width:1px">the token lambda</span></button></td></tr>
        <tr><td>mu</td><td><button>Revoke<span style="position: absolute; clip-path: inset(50%); width: 1px; height: 1px; overflow: hidden"> mu</span></button></td></tr>
        <tr><td>nu</td><td><button>＋ Revoke ›<span class="sr-only"> the token nu</span></button></td></tr>
        <tr><td>xi</td><td><button><b aria-hidden="true">×</b> Revoke<span class="visually-hidden"> xi</span></button></td></tr>
        <tr><td>omicron</td><td><button>🗑\ufe0f Revoke</button></td></tr>
        <tr><td>pi</td><td><button>✖\ufe0f Revoke<span class="sr-only"> the token pi</span></button></td></tr>
        <tr><td>rho</td><td><details><summary>Revoked tokens (2)</summary></details></td></tr>
        <tr><td>eta</td><td><button>Revoke <b>all</b><span class="sr-only"> tokens</span></button> <button>Revoke all<span class="sr-only"> tokens</span></button>
          <button>Revoke<span style="font-weight: bold"> every token</span></button>
          <button>Revoke · all<span class="sr-only"> tokens</span></button></td></tr>
      </table>
      <style>.visually-hidden, .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }</style>
      <button>＋ New permanent token</button>
      <div role="button" tabindex="0">Create ›</div>
      <details><summary>Add</summary><input></details>
      <nav><a href="/tokens">Tokens <span class="badge">3</span></a> <a href="/sessions">Sessions</a></nav>`);
    const names = (label: string) =>
      everyControl(page, label).evaluateAll((elements) =>
        elements.map((element) => element.closest('tr')?.cells[0]?.textContent ?? element.textContent)
      );
    assert.deepEqual(
      await names('Revoke'),
      ['alpha', 'beta', 'gamma', 'epsilon', 'zeta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi'],
      'what shows as the label, where words set aside from it say more',
    );
    assert.deepEqual(await names('New permanent token'), ['＋ New permanent token']);
    assert.deepEqual(await names('Create'), ['Create ›']);
    assert.deepEqual(await names('Add'), ['Add'], "a collapsed part's summary, a button as the browser shows it");
    assert.deepEqual(await names('TOKENS'), ['Tokens 3'], 'a link whose badge counts the tokens');
  } finally {
    await page.close();
  }
});

test('a secret shown inside a web component (open shadow roots, nested) or split by elements is marked, so a failure screenshot masks it', async () => {
  const page = await browser.newPage();
  try {
    const secret = 'tok-Shadow-9f3b';
    await page.setContent(`
      <p>Your token: <code>${secret}</code></p>
      <p>Again: <code id="split">tok-Sha<wbr>dow-<span>9f</span>3b</code></p>
      <token-card></token-card>
      <input value="${secret}" hidden>
      <script>
        const card = document.querySelector('token-card').attachShadow({ mode: 'open' });
        card.innerHTML = '<div><span id="in-card">${secret}</span><token-value></token-value></div>';
        card.querySelector('token-value').attachShadow({ mode: 'open' }).innerHTML = '<input id="nested" readonly value="${secret}">';
      </script>`);
    assert.equal(
      await markSecrets(page, [secret]),
      4,
      'each code (the one split by elements whole, not its paragraph), the span in the card, the field of the component ' +
        'inside it; not the hidden field',
    );
    const marked = await page.locator(`[${SECRET_ATTRIBUTE}]`).evaluateAll((elements) => elements.map((e) => e.id || e.tagName));
    assert.deepEqual(marked, ['CODE', 'split', 'in-card', 'nested'], 'each is found by the locator that masks the screenshot');
  } finally {
    await page.close();
  }
});

test('a label said as a word is found in a text, an aria-label, a title or a value, in any case, never as the start of a longer word', async () => {
  const page = await browser.newPage();
  try {
    await page.setContent(`
      <button id="text">🗑 REVOKE token</button><a id="label" aria-label="Revoke it"></a><span id="title" title="revoke"></span>
      <input id="value" type="button" value="Revoke"><button id="longer">Revoked (3)</button><button id="none">Delete</button>
    `);
    const saying = await page.locator(`xpath=//*[@id][${saysWord('Revoke')}]`).evaluateAll((found) => found.map((one) => one.id));
    assert.deepEqual(saying, ['text', 'label', 'title', 'value']);
  } finally {
    await page.close();
  }
});
