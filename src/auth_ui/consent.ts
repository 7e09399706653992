/**
 * A cookie banner, answered whenever it shows so that it does not cover the
 * controls of contract 5.3 (a click on a covered control waits, then times
 * out): its "Reject all" (or "Decline", "Necessary only", "Essential only",
 * "Accept only essential cookies", "Required only"), else its "Accept all"
 * (or "Accept", "Allow all", "Agree", "Got it"). A banner is the largest
 * element of at most {@link BANNER_ELEMENTS} elements around a text that says
 * "cookie" (a script's source is no text), or a dialog or region of at most as
 * many elements saying it (one in a web component's open shadow root, as some
 * consent managers draw theirs, too), holding such a button; or such a button
 * in a frame that a consent manager draws (see {@link BANNER_FRAMES}). "OK",
 * which answers the revoking confirmation, is never chosen.
 */
import type { FrameLocator, Locator, Page } from '@playwright/test';

/** What a banner's button that refuses every cookie it may refuse says (an accessible name: its spaces collapsed, trimmed). */
const REJECT =
  /^((reject|decline|refuse|deny)( all)?( (optional )?cookies)?|(use |accept )?(only )?(strictly )?(necessary|required|essential)( cookies)?( only)?)$/i;

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

/**
 * The frames a consent manager draws its banner in, over the page (TrustArc's "Cookie Consent Manager", Sourcepoint's
 * "SP Consent Message"): an iframe whose title, id, name or address says "cookie" or "consent", in any case. Only these
 * are entered: a locator that enters a frame must find one frame, and one that found a captcha's or a video's too would
 * fail each action of the page. Looked for by XPath (about 2 ms before each action on a page of 6,000 elements, where
 * Playwright's CSS, which enters shadow roots, took 30 ms for these attribute tests): such a frame is in the page itself.
 */
const BANNER_FRAMES = `xpath=//iframe[${
  ['@title', '@id', '@name', '@src']
    .flatMap((attribute) =>
      ['cookie', 'consent'].map((word) => `contains(translate(${attribute}, '${word.toUpperCase()}', '${word}'), '${word}')`)
    )
    .join(' or ')
}]`;

/** How many banners a page answers: one that shows again after an answer is answered again, a few times. */
const ANSWERS = 5;

/** The pages whose banners are answered already. */
const watched = new WeakSet<Page>();

/** The buttons that answer a banner, in a page or a frame. */
const answersIn = (scope: Page | FrameLocator) =>
  scope.getByRole('button', { name: REJECT }).or(scope.getByRole('button', { name: ACCEPT }));

/**
 * Answers a banner: its refusal when it shows one, else its acceptance.
 *
 * @param banner the banner, or the frame it is drawn in
 */
async function answer(banner: Locator | FrameLocator): Promise<void> {
  const reject = banner.getByRole('button', { name: REJECT }).filter({ visible: true });
  await ((await reject.count()) > 0 ? reject : banner.getByRole('button', { name: ACCEPT }).filter({ visible: true })).first()
    .click();
}

/**
 * Answers a page's cookie banners from now on, before each of its actions and checks (Playwright's locator handler).
 *
 * @param page the page
 */
export async function answerCookieBanners(page: Page): Promise<void> {
  if (watched.has(page)) return;
  watched.add(page);
  const cookieText =
    "//text()[not(parent::script or parent::style or parent::noscript)][contains(translate(., 'COKIE', 'cokie'), 'cookie')]";
  const dialog = page.locator(DIALOGS).filter({ hasText: /cookie/i, hasNot: page.locator('*').nth(BANNER_ELEMENTS) });
  const banner = page.locator(`xpath=${cookieText}/ancestor::*[count(.//*) <= ${BANNER_ELEMENTS}][last()]`).or(dialog)
    .filter({ has: answersIn(page), visible: true })
    .first();
  await page.addLocatorHandler(banner, answer, { noWaitAfter: true, times: ANSWERS });
  const frame = page.locator(BANNER_FRAMES).filter({ visible: true }).first().contentFrame();
  await page.addLocatorHandler(answersIn(frame).filter({ visible: true }).first(), () => answer(frame), {
    noWaitAfter: true,
    times: ANSWERS,
  });
}
