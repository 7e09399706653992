/**
 * The documented controls of contract 5.3, found by role and label only (a
 * button, a link, a tab or a menu item; the label whole, in any case, beside
 * symbols; in its accessible name, its text, or what it shows once words
 * hidden from sight and icons' words are set aside),
 * clicked until what they open shows, or in their own page what they open in a new one; toggles pressed by their labels;
 * the error a page shows;
 * and the marking of secrets on a page so that failure screenshots mask them.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { within } from './alternatives.ts';
import { labelled, seesOnly } from './label_match.ts';

/** Marks an element as holding a secret, so failure screenshots mask it. */
export const SECRET_ATTRIBUTE = 'data-slicer-secret';

/**
 * Marks every visible element that shows one of the values (as its text, whole in the innermost element that holds it,
 * whatever elements split it, such as `<wbr>` or one `<span>` per part; or as an input's value) with
 * {@link SECRET_ATTRIBUTE}, in the page and in the open shadow roots of its web components.
 *
 * @param page the page
 * @param values the secrets
 * @returns how many elements were marked
 */
export async function markSecrets(page: Page, values: readonly string[]): Promise<number> {
  if (values.length === 0) return 0;
  // No named functions inside the callback: a TypeScript loader may wrap them in helpers the page does not have.
  // The locator's CSS reaches into open shadow roots, nested ones included, as a web component shows a value.
  return await page.locator('body *').evaluateAll((elements, [secrets, attribute]) => {
    const marked = elements.filter((element) =>
      element.getClientRects().length > 0 &&
      secrets.some((secret) =>
        (element as HTMLInputElement).value === secret ||
        ((element.textContent ?? '').includes(secret) &&
          [...element.children].every((child) => !(child.textContent ?? '').includes(secret)))
      )
    );
    for (const element of marked) element.setAttribute(attribute, '');
    return marked.length;
  }, [values, SECRET_ATTRIBUTE] as const);
}

/**
 * Whether a created token may be on screen without being marked: "Copy token
 * value" is shown (steps 7–8) and no element was marked secret. A failure
 * screenshot must not be taken then: the token is in clear and not yet known.
 *
 * @param page the page
 * @returns true while such a token may be visible
 */
export async function showsUnmarkedToken(page: Page): Promise<boolean> {
  const copy = control(page, 'Copy token value');
  return (await visibleNow(copy)) && (await page.locator(`[${SECRET_ATTRIBUTE}]`).count()) === 0;
}

/**
 * Whether a locator's element is visible now, without waiting; false when the page is gone.
 *
 * @param locator the element
 * @returns true while it shows
 */
export async function visibleNow(locator: Locator): Promise<boolean> {
  return await locator.isVisible().catch(() => false);
}

/**
 * A documented control by its label (whole, in any case), whether a button, a link, a tab or a menu item; the first visible one.
 *
 * @param scope where to look
 * @param name its label as documented
 * @returns the locator
 */
export function control(scope: Page | Locator, name: string): Locator {
  return everyControl(scope, name).first();
}

/** The elements that are buttons, links, tabs or menu items, by their markup; a collapsed part's summary is a button too. */
const CONTROLS = 'button, a[href], [role=button], [role=link], [role=tab], [role=menuitem], summary';

/**
 * Every visible control of a label, as {@link control} finds one: by its accessible name, or by its text when its name
 * says more (a Revoke button that shows "Revoke" and is named "Revoke the token “nightly”" for screen readers), or,
 * for a documented label, by what it shows as its label when words set aside from it say more: words hidden from sight,
 * an icon font's word (see {@link seesOnly}).
 *
 * @param scope where to look
 * @param name its label as documented (matched as {@link labelled} matches it), or a pattern for labels the contract does not document
 * @returns the locator
 */
export function everyControl(scope: Page | Locator, name: string | RegExp): Locator {
  return shownOrNot(scope, name).filter({ visible: true });
}

/** The controls of {@link everyControl} that can be chosen: none disabled, natively (a `<fieldset>`'s too) or by `aria-disabled`. */
export function enabledControls(page: Page, name: string | RegExp): Locator {
  return everyControl(page, name).locator(':scope:not(:disabled, [aria-disabled="true"])');
}

/**
 * The controls of a label that are in the page but do not show (in a closed menu, say), found by their text as
 * {@link everyControl} finds one.
 *
 * @param scope where to look
 * @param name its label as documented
 * @returns the locator
 */
export function hiddenControl(scope: Page | Locator, name: string): Locator {
  return shownOrNot(scope, name).filter({ visible: false });
}

/** The controls of a label, as {@link everyControl} finds them, whether they show or not. */
function shownOrNot(scope: Page | Locator, name: string | RegExp): Locator {
  const options = { name: typeof name === 'string' ? labelled(name) : name };
  return within(scope, (page) => {
    const found = page.getByRole('button', options).or(page.getByRole('link', options)).or(page.getByRole('tab', options))
      .or(page.getByRole('menuitem', options))
      .or(textControls(page, options.name));
    return typeof name === 'string' ? found.or(shownAs(page, CONTROLS, name)) : found;
  });
}

/**
 * The controls of a label by their markup and text alone, whether they show or not: a cheap query, for a control in a
 * closed menu (a hidden element has no role to find it by).
 *
 * @param scope where to look
 * @param name the label, matched as {@link labelled} makes it
 * @returns the locator
 */
export function textControls(scope: Page | Locator, name: RegExp): Locator {
  return scope.locator(CONTROLS).filter({ hasText: name });
}

/**
 * Elements that show a documented label once their other words are set aside (see {@link seesOnly}): a control whose
 * text or name says more than what it shows as its label, a field label with a help icon.
 *
 * @param scope where to look
 * @param selector a CSS selector of the kind of element
 * @param label the label as contract 5.3 writes it
 * @returns the locator
 */
export function shownAs(scope: Page | Locator, selector: string, label: string): Locator {
  return scope.locator(selector).locator(`xpath=self::*[${seesOnly(label)}]`);
}

/** Words an error message uses, for a UI that shows its error as plain text. */
const ERROR_WORDS = /incorrect|invalid|unknown|not (a )?valid|error|wrong|not found|failed|bad credentials|too many|denied/i;

/**
 * The error a page shows: `role=alert` with text, an element of an error's
 * class (a class naming an error, as Django's `errorlist`; Bootstrap's and
 * Bulma's danger classes) that holds no control, or text that reads as an
 * error; the first visible one.
 *
 * @param page the page
 * @returns the locator
 */
export function shownError(page: Page): Locator {
  const classed = page.locator(
    ':is([class*=error i],.alert-danger,.text-danger,.is-danger):not(:has(input, select, textarea, button))',
  );
  return page.getByRole('alert').or(classed).filter({ hasText: /\S/ }).or(page.getByText(ERROR_WORDS)).filter({ visible: true })
    .first();
}

/**
 * What a page's error says, spaces collapsed, at most 200 characters.
 *
 * @param error the error, as {@link shownError} finds it
 * @returns its text, or '' when none shows
 */
export async function errorSaid(error: Locator): Promise<string> {
  if (!(await visibleNow(error))) return '';
  return (await error.innerText().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * How long a page may take to load before it is used anyway (a resource that
 * never finishes loading delays a step, it does not stop it).
 */
const LOAD_MS = 10_000;

/**
 * Waits until the page has loaded, up to {@link LOAD_MS}: its scripts have
 * run and all of its markup is there (a long list arrives over a while).
 *
 * @param page the page
 */
export async function loaded(page: Page): Promise<void> {
  await page.waitForLoadState('load', { timeout: LOAD_MS }).catch(() => undefined);
}

/** How long one click may take to become possible: finding a control in a list of thousands takes seconds on a loaded machine. */
export const CLICK_MS = 5_000;

/** How long a click's effect may take to show before the control is clicked again. */
const EFFECT_MS = 1_000;

/** How long a control may take to open what it opens, over every try (a slow UI, a loaded machine). */
const OPEN_MS = 15_000;

/** The address of a window opened without one, before a script gives it its own. */
const BLANK = 'about:blank';

/**
 * Presses the first of some toggles as a user does: a native radio button or checkbox by its label where it has one,
 * as a stylesheet may hide the button itself and show its label in its place (Bootstrap's `btn-check`); any other
 * toggle itself.
 *
 * @param toggles the toggles
 * @returns false when there is none
 */
export async function pressToggle(toggles: Locator): Promise<boolean> {
  if ((await toggles.count()) === 0) return false;
  const target = await toggles.first().evaluateHandle((element) => (element as HTMLInputElement).labels?.[0] ?? element);
  try {
    await target.asElement()?.click({ timeout: CLICK_MS });
  } finally {
    await target.dispose();
  }
  return true;
}

/**
 * Clicks a control and follows, in its own page, a page it opens in a new tab or window (a link's `target=_blank`, a
 * script's `window.open`): the new page is closed and its address opened in the first, in the same browser context and
 * so with the same session. Whether one opens is known once one does, or once `next` shows in the first page (a
 * control's usual effect), at most {@link OPEN_MS} after the click; past that the next step finds what it finds. A page
 * opened blank is given as long again to get an address of its own (a script that fetched it first).
 *
 * @param target the control
 * @param next what the control's page has once it opened (visible-filtered where it must show)
 */
export async function clickInPlace(target: Locator, next: Locator): Promise<void> {
  const page = target.page();
  let popped: (popup: Page) => void = () => {};
  const popup = new Promise<Page>((resolve) => (popped = resolve));
  page.on('popup', popped);
  try {
    await target.click();
    // Stryker disable next-line ObjectLiteral: a bound on the wait; a test would wait it out to see another
    const shown = next.first().waitFor({ state: 'attached', timeout: OPEN_MS }).then(() => undefined, () => undefined);
    const opened = await Promise.race([popup, shown]);
    if (!opened) return;
    // A script may open a blank window and give it its address later.
    await opened.waitForURL((url) => url.href !== BLANK, { waitUntil: 'commit', timeout: OPEN_MS }).catch(() => undefined);
    const url = opened.url();
    await opened.close();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a window left blank leaves the first page as it was; a test would wait out OPEN_MS
    if (url !== BLANK) await page.goto(url);
  } finally {
    page.off('popup', popped);
  }
}

/**
 * Clicks a control until what it opens shows. A page shows its controls
 * before its script has attached their handlers (a deferred script still
 * loading, a page not yet hydrated), and a click then does nothing: the click
 * is repeated while the effect does not show, never once it does.
 *
 * @param target the control
 * @param opened whether its effect shows
 * @param message what the effect is, for the error when it never shows
 */
export async function clickUntil(target: Locator, opened: () => Promise<boolean>, message: string): Promise<void> {
  await expect(async () => {
    if (!(await opened())) await target.click({ timeout: CLICK_MS });
    await expect.poll(opened, { timeout: EFFECT_MS }).toBe(true);
  }, message).toPass({ timeout: OPEN_MS });
}

/**
 * Clicks the first of some controls, and waits until fewer of them show, up to {@link OPEN_MS}: a switch or a collapsed
 * part that its script redraws a while later (once the list is fetched again) is not clicked again meanwhile, which
 * would turn it back. Past that, the caller may click again: one clicked before its page's script ran did nothing.
 *
 * @param controls the controls, each of which leaves them once chosen (turned on, opened)
 */
export async function chooseAndWait(controls: Locator): Promise<void> {
  const before = await controls.count();
  await controls.first().click({ timeout: CLICK_MS });
  await expect.poll(() => controls.count(), { timeout: OPEN_MS }).toBeLessThan(before).catch(() => undefined);
}
