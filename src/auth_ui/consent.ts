/**
 * A cookie banner, answered whenever it shows so that it does not cover the
 * controls of contract 5.3 (a click on a covered control waits, then times
 * out): its "Reject all" (or "Decline", "Necessary only"), else its "Accept
 * all" (or "Accept", "Allow all", "Agree", "Got it"). A banner is the largest
 * element of at most {@link BANNER_ELEMENTS} elements around a text that says
 * "cookie" (a script's source is no text), or a dialog or region of at most as
 * many elements saying it (one in a web component's open shadow root, as some
 * consent managers draw theirs, too), holding such a button; "OK", which
 * answers the revoking confirmation, is never chosen.
 */
import type { Page } from '@playwright/test';

/** What a banner's button that refuses every cookie it may refuse says (an accessible name: its spaces collapsed, trimmed). */
const REJECT = /^((reject|decline|refuse|deny)( all)?( (optional )?cookies)?|(use )?(only )?(strictly )?necessary( cookies)?( only)?)$/i;

/** What a banner's button that accepts says. */
const ACCEPT = /^(accept|allow|agree|i agree|got it)( all)?( cookies)?[.!]?$/i;

/** How many elements a banner holds at most: a page that mentions cookies is no banner. */
const BANNER_ELEMENTS = 60;

/**
 * The elements that may be a banner whatever tree holds them: a text's ancestors are looked for by XPath, which does not
 * enter a shadow root; Playwright's CSS, which does, looks for these few (each costs a page of 15,000 elements about
 * 6 ms before each action, where any element saying "cookie" would cost about 270 ms).
 */
const DIALOGS = 'dialog, [role=dialog], [role=alertdialog], [role=region]';

/** How many banners a page answers: one that shows again after an answer is answered again, a few times. */
const ANSWERS = 5;

/** The pages whose banners are answered already. */
const watched = new WeakSet<Page>();

/**
 * Answers a page's cookie banners from now on, before each of its actions and checks (Playwright's locator handler).
 *
 * @param page the page
 */
export async function answerCookieBanners(page: Page): Promise<void> {
  if (watched.has(page)) return;
  watched.add(page);
  const answers = page.getByRole('button', { name: REJECT }).or(page.getByRole('button', { name: ACCEPT }));
  const cookieText =
    "//text()[not(parent::script or parent::style or parent::noscript)][contains(translate(., 'COKIE', 'cokie'), 'cookie')]";
  const dialog = page.locator(DIALOGS).filter({ hasText: /cookie/i, hasNot: page.locator('*').nth(BANNER_ELEMENTS) });
  const banner = page.locator(`xpath=${cookieText}/ancestor::*[count(.//*) <= ${BANNER_ELEMENTS}][last()]`).or(dialog)
    .filter({ has: answers, visible: true })
    .first();
  await page.addLocatorHandler(banner, async (shown) => {
    const reject = shown.getByRole('button', { name: REJECT }).filter({ visible: true });
    await ((await reject.count()) > 0 ? reject : shown.getByRole('button', { name: ACCEPT }).filter({ visible: true })).first()
      .click();
  }, { noWaitAfter: true, times: ANSWERS });
}
