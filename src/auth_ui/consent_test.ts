import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Browser, chromium } from '@playwright/test';
import { sandboxUi } from '../testing/sandbox_ui.ts';
import { chromiumLaunchOptions } from './browser.ts';
import { answerCookieBanners } from './consent.ts';

// A consent overlay over the whole page until answered, as many portals show: without an answer, every click waits
// for the control it covers, until the test's deadline.
test(
  'a cookie banner covering the pages is answered with its Reject all, and the steps go on: a token is created and revoked',
  { timeout: 90_000 },
  async (t) => {
    const { sandbox, page, tokens, serviceId } = await sandboxUi(t, () => {
      document.addEventListener('DOMContentLoaded', () => {
        if (localStorage.getItem('consent')) return;
        const overlay = document.createElement('div');
        overlay.style.cssText = 'position:fixed;inset:0;z-index:9999;background:rgba(0,0,0,.5)';
        overlay.innerHTML = '<div role="dialog" aria-label="Privacy" style="background:#fff;margin:20vh auto;width:20em">' +
          '<p>We use <b>cookies</b> to improve your experience.</p><button>OK</button><button>Accept all</button>' +
          '<button>Reject all</button></div>';
        for (const button of overlay.querySelectorAll('button')) {
          button.addEventListener('click', () => {
            localStorage.setItem('consent', button.textContent ?? '');
            overlay.remove();
          });
        }
        document.body.append(overlay);
      });
    });

    await tokens.open();
    assert.equal(await page.evaluate(() => localStorage.getItem('consent')), 'Reject all', 'the banner was refused, never OK');
    const value = await tokens.create('past the banner', [serviceId]);
    assert.equal((sandbox.store.check(value) as { kind?: string }).kind, 'permanent', 'steps 4–8 created a live token');
    await tokens.revoke('past the banner');
    assert.equal(sandbox.store.check(value), 'revoked');
  },
);

/**
 * Which button of a page's banner is answered before a click elsewhere: the label clicked, or '' when none was.
 *
 * @param browser the browser
 * @param body the markup before the page's "Go" button
 */
async function answered(browser: Browser, body: string): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.setContent(`${body}<button onclick="this.dataset.went = 1">Go</button>`);
    await page.evaluate(() => {
      for (const button of document.querySelectorAll('button')) {
        button.addEventListener('click', () => document.body.dataset.answer ??= button.textContent ?? '');
      }
    });
    await answerCookieBanners(page);
    await page.getByRole('button', { name: 'Go', exact: true }).click({ timeout: 5_000 });
    const answer = (await page.evaluate(() => document.body.dataset.answer)) ?? '';
    return answer === 'Go' ? '' : answer;
  } finally {
    await page.close();
  }
}

test('a banner is answered by its refusal, else its acceptance, in the words banners use; never OK, and no page that only mentions cookies; in a shadow root too', async (t) => {
  const browser = await chromium.launch(chromiumLaunchOptions());
  t.after(() => browser.close());
  const banner = (...labels: string[]) =>
    `<div><p>This site uses Cookies.</p>${labels.map((label) => `<button>${label}</button>`).join('')}</div>`;
  const refusals = ['Reject', 'Reject all', 'Decline', 'Refuse all', 'Deny', 'Reject optional cookies', 'Reject all cookies'];
  const necessary = ['Necessary only', 'Only necessary cookies', 'Use necessary cookies only', 'Strictly necessary only'];
  const essential = ['Essential only', 'Only essential cookies', 'Accept only essential cookies', 'Accept essential cookies'];
  for (const label of [...refusals, ...necessary, ...essential]) {
    assert.equal(await answered(browser, banner('Accept all', label, 'OK')), label, `"${label}" refuses`);
  }
  assert.equal(
    await answered(browser, banner('Accept all', '\n   Reject   all\n ')),
    '\n   Reject   all\n ',
    'a label is read as its accessible name',
  );
  for (const label of ['Accept', 'Accept all cookies', 'Allow all', 'Agree', 'I agree', 'Got it!', 'Got it.']) {
    assert.equal(await answered(browser, banner('OK', 'Settings', label)), label, `"${label}" accepts`);
  }
  for (const label of ['OK', 'Do not accept', 'Accept and continue', 'Rejected', 'Unnecessary', 'Settings']) {
    assert.equal(await answered(browser, banner(label)), '', `"${label}" answers no banner`);
  }
  // Out of sight but in the accessibility tree (getByRole leaves out a `hidden` one by itself), as a collapsed panel's.
  const folded = 'style="width:0;height:0;padding:0;border:0;overflow:hidden"';
  const withHidden = (label: string, shown: string) => banner(shown).replace('<button>', `<button ${folded}>${label}</button><button>`);
  assert.equal(await answered(browser, withHidden('Reject all', 'Accept all')), 'Accept all', 'a hidden refusal is passed over');
  assert.equal(await answered(browser, withHidden('Accept', 'Got it')), 'Got it', 'a hidden acceptance is passed over');
  const hidden = `<div hidden><p>We use cookies.</p><button>Reject all</button></div>`;
  assert.equal(await answered(browser, hidden), '', 'a hidden banner is left alone');
  const long = `<section><p>Cookies keep you signed in.</p>${'<p><span>Session</span></p>'.repeat(40)}<button>Accept</button></section>`;
  assert.equal(await answered(browser, long), '', 'a page of more than 60 elements that mentions cookies is no banner');
  const inside = `<section>${'<p><span>Session</span></p>'.repeat(40)}${banner('Accept all', 'Reject all')}</section>`;
  assert.equal(await answered(browser, inside), 'Reject all', 'a small banner inside a large page is one');
  const script = `<script>const seen = document.cookie.includes('seen');</script><button>Accept</button>`;
  assert.equal(await answered(browser, script), '', "a script's source that says cookie is no text of a banner");
  // A consent manager's banner drawn in a web component's open shadow root, on a page of more than 60 elements.
  const drawn = (dialog: string) =>
    `${'<p><span>Session</span></p>'.repeat(40)}<div id="consent-root"></div><script>
      const tree = document.getElementById('consent-root').attachShadow({ mode: 'open' });
      tree.innerHTML = '${dialog}';
      for (const button of tree.querySelectorAll('button')) button.onclick = () => document.body.dataset.answer = button.textContent;
    </script>`;
  const cookies = '<p>We use cookies.</p><button>Accept all</button><button>Deny</button>';
  assert.equal(await answered(browser, drawn(`<div role="dialog">${cookies}</div>`)), 'Deny', 'a dialog in a shadow root');
  assert.equal(await answered(browser, drawn(`<div role="region" aria-label="Privacy">${cookies}</div>`)), 'Deny', 'a region there');
  const large = `<div role="dialog">${'<p><span>Session</span></p>'.repeat(40)}${cookies}</div>`;
  assert.equal(await answered(browser, drawn(large)), '', 'a dialog of more than 60 elements that mentions cookies is no banner');
});

test('a banner that shows again after every answer is answered five times in all, and the page is used with it showing', async (t) => {
  const browser = await chromium.launch(chromiumLaunchOptions());
  t.after(() => browser.close());
  const page = await browser.newPage();
  await page.setContent(`<div id="b"></div><button>Go</button><script>
    let answers = 0;
    const show = () => {
      document.getElementById('b').innerHTML = '<p>We use cookies.</p><button>Reject all</button>';
      document.querySelector('#b button').onclick = () => { answers++; document.body.dataset.answers = answers; show(); };
    };
    show();
  </script>`);
  await answerCookieBanners(page);
  await answerCookieBanners(page); // as each TokensPage.home does: the page's banners are answered once over
  for (let i = 0; i < 8; i++) await page.getByRole('button', { name: 'Go', exact: true }).click({ timeout: 5_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.answers), '5');
});

/**
 * A page's markup with a consent manager's frame from another origin (a data URL), whose buttons tell the page their
 * label; the page then notes the answer and removes its frames.
 *
 * @param attributes the frame's attributes that name it, or its address's fragment (`#...`)
 * @param labels its buttons
 * @param cover whether it covers the page, as an overlay: then the page's own button cannot be clicked before it is answered
 */
function framed(attributes: string, labels: string[], cover = true): string {
  const buttons = labels.map((label) => `<button onclick="parent.postMessage(this.textContent, '*')">${label}</button>`);
  const inside = `<p>We value your privacy.</p>${buttons.join('')}`;
  const [named, fragment] = attributes.startsWith('#') ? ['', attributes] : [attributes, ''];
  const place = cover ? 'position:fixed;inset:0;width:100%;height:100%' : 'width:300px;height:120px';
  return `<iframe ${named} style="${place};border:0;background:#fff" src="data:text/html,${encodeURIComponent(inside)}${fragment}"></iframe>
    <script>addEventListener('message', (event) => {
      document.body.dataset.answer = event.data;
      for (const frame of document.querySelectorAll('iframe')) frame.remove();
    });</script>`;
}

test("a consent manager's banner in a frame over the page (its title, id, name or address says cookie or consent) is answered the same way; no other frame is entered", async (t) => {
  const browser = await chromium.launch(chromiumLaunchOptions());
  t.after(() => browser.close());
  const trustArc = 'title="TrustArc Cookie Consent Manager"';
  assert.equal(await answered(browser, framed(trustArc, ['Accept all', 'Required only'])), 'Required only', 'its refusal');
  for (const named of ['title="SP Consent Message"', 'id="cookie-frame"', 'name="CONSENT"', '#consent']) {
    assert.equal(await answered(browser, framed(named, ['Settings', 'Accept'])), 'Accept', `a frame named by ${named}`);
  }
  const captcha = '<iframe title="reCAPTCHA" style="width:300px;height:80px" src="data:text/html,<button>Accept</button>"></iframe>';
  assert.equal(
    await answered(browser, `${captcha}${framed(trustArc, ['Accept all', 'Reject all'])}`),
    'Reject all',
    "beside another site's frame, which is neither entered nor makes the page's actions fail",
  );
  const hidden = framed('title="Cookie consent (closed)"', ['Accept'], false).replace('style="', 'style="display:none;');
  assert.equal(await answered(browser, `${hidden}${framed(trustArc, ['Decline'])}`), 'Decline', 'after a hidden one');
  assert.equal(await answered(browser, framed('title="Video player"', ['Accept'], false)), '', 'a frame of no consent manager');
  assert.equal(await answered(browser, framed(trustArc, ['OK', 'More options'], false)), '', 'a banner without an answer');
  const folded = framed(trustArc, ['Reject all', 'Accept']).replace(
    encodeURIComponent('<button onclick'),
    encodeURIComponent('<button style="width:0;height:0;padding:0;border:0;overflow:hidden" onclick'),
  );
  assert.equal(await answered(browser, folded), 'Accept', 'a refusal out of sight (in a folded second layer) is passed over');
});

test("a consent manager's frame whose banner stays after every answer is answered five times in all, and the page is used with it showing", async (t) => {
  const browser = await chromium.launch(chromiumLaunchOptions());
  t.after(() => browser.close());
  const page = await browser.newPage();
  // A frame of the page's origin (srcdoc), so that its click counts in the page at once.
  const count = 'parent.document.body.dataset.answers = Number(parent.document.body.dataset.answers ?? 0) + 1';
  await page.setContent(
    `<iframe title="Cookie consent" style="width:300px;height:120px" srcdoc="<p>We use cookies.</p><button onclick='${count}'>Reject all</button>"></iframe><button>Go</button>`,
  );
  await answerCookieBanners(page);
  for (let i = 0; i < 8; i++) await page.getByRole('button', { name: 'Go', exact: true }).click({ timeout: 5_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.answers), '5');
});
