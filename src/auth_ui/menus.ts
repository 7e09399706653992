/**
 * A documented control kept in a closed menu ("Tokens and sessions" in an
 * account menu, TOKENS in a collapsed navigation, an entry's Revoke in its
 * "⋮" menu), shown as a user shows it:
 * the menu around it is opened, or hovered when it opens on hover only; a
 * menu that mounts its items only once opened is found by trying the page's
 * (or the entry's) closed menus one at a time, each closed again when it does
 * not hold it.
 */
import type { ElementHandle, Locator, Page } from '@playwright/test';
import { CLICK_MS, clickInPlace, control, hiddenControl, textControls } from './controls.ts';
import { labelled, saysWord } from './label_match.ts';

/**
 * A closed menu's button: one that says it opens a menu or a part (`aria-haspopup`, `aria-expanded`) and is closed, or
 * a closed `<details>`'s summary; a button or a link within the page, never one that loads another.
 */
const CLOSED_MENU =
  ':is(button, [role=button], a[href^="#"], a:not([href])):is([aria-haspopup]:not([aria-haspopup=false]):not([aria-expanded=true]), [aria-expanded=false]), details:not([open]) > summary';

/** How long a page may take to show the control, or to have it in a closed menu, before its menus are tried. */
const APPEAR_MS = 5_000;

/** How long an opened menu may take to show the control. */
const SHOW_MS = 1_000;

/** How many closed menus are tried at most. */
const MAX_MENUS = 6;

/**
 * Shows a control that the page keeps in a closed menu; a control that shows is left as it is. The menu is the one
 * around the control when the page has it already: opened by its closed-menu button, else hovered (a menu that opens
 * on hover). Otherwise the page's closed menus are opened one at a time, at most {@link MAX_MENUS}, until one shows
 * the control, each closed again when it does not. When none does, the step that uses the control finds what it finds.
 *
 * @param scope where the control is
 * @param name its label as documented
 */
export async function showFromMenu(scope: Page | Locator, name: string): Promise<void> {
  const wanted = control(scope, name);
  const hidden = hiddenControl(scope, name).first();
  await wanted.or(hidden).first().waitFor({ state: 'attached', timeout: APPEAR_MS }).catch(() => undefined);
  if (await wanted.isVisible()) return;
  const page = 'page' in scope ? scope.page() : scope;
  if ((await hidden.count()) > 0) {
    const around = await shownAncestor(await hidden.elementHandle());
    if (await opensOne(page, wanted, await closedMenus(around))) return;
    await around.hover({ timeout: CLICK_MS }).catch(() => undefined);
    if (await shows(wanted)) return;
  }
  const body = await page.locator('body').elementHandle();
  await opensOne(page, wanted, await closedMenus(body));
}

/**
 * Chooses a documented control: shown from a closed menu first when the page keeps it in one ({@link showFromMenu}),
 * then clicked, a page it opens in a new tab or window followed in this one ({@link clickInPlace}).
 *
 * @param scope where the control is
 * @param name its label as documented
 * @param next what the control's page has once it opened
 */
export async function chooseInPlace(scope: Page | Locator, name: string, next: Locator): Promise<void> {
  await showFromMenu(scope, name);
  await clickInPlace(control(scope, name), next);
}

/**
 * A control kept in a closed menu (an entry's "⋮" menu), found as a mark within an element: the control in the element
 * that holds a closed menu's button that shows (the menu's holder), whether it shows yet or not. A control merely hidden
 * (as a page may hide Revoke on a revoked token), with no such button beside it, is not kept so.
 *
 * @param page the page
 * @param name the control's label as documented
 * @returns the locator, to query within elements (`has`)
 */
export function keptInMenu(page: Page, name: string): Locator {
  // By its markup and text: a query by role, evaluated within every element a list looks at, costs seconds a step.
  return page.locator(CLOSED_MENU).filter({ visible: true }).locator('xpath=..').locator(textControls(page, labelled(name)));
}

/**
 * The closed menus' buttons that show within a part of a page that has no control of a label in it at all, shown or
 * not: such a menu may mount the control only once opened (a component library's menu, its items in a part of their own
 * at the end of the page). On a page with the control somewhere, none: its menus hold other choices.
 *
 * @param scope the part (within elements, `has`: the page)
 * @param name the control's label as documented (looked for over the page as {@link saysWord} finds it)
 * @returns the locator
 */
export function mayMount(scope: Page | Locator, name: string): Locator {
  return scope.locator(CLOSED_MENU).filter({ visible: true }).locator(`xpath=self::*[${noneSays(name, '//')}]`);
}

/**
 * The elements (within others, `has`: the element itself) that hold no control of a label, as {@link mayMount} looks
 * for one over the page.
 *
 * @param page the page
 * @param name the control's label as documented
 * @returns the locator
 */
export function withoutControl(page: Page, name: string): Locator {
  return page.locator(`xpath=self::*[${noneSays(name, './/')}]`);
}

/**
 * The XPath condition that no control (by its markup or role) says a label, as {@link saysWord} finds it.
 *
 * @param name the label as documented
 * @param where `//` for the whole page, `.//` within an element
 * @returns the condition
 */
function noneSays(name: string, where: '//' | './/'): string {
  const controls = `${where}*[self::button or self::a or self::input or @role="button" or @role="link" or @role="menuitem" or @role="tab"]`;
  return `not(${controls}[${saysWord(name)}])`;
}

/** Set on the entry whose control {@link chooseInEntry} chooses, while it does. */
const CHOSEN_ATTRIBUTE = 'data-slicer-chosen';

/**
 * Chooses a control of one entry of a list (a token's Revoke), shown first from the entry's closed menu when the entry
 * keeps it in one, or from the entry's closed menus, opened one at a time, when the page has no such control at all
 * ({@link mayMount}): the control they mount may show anywhere in the page. The entry is then marked while its control
 * is chosen, so that it stays the element found while its menu is open, whatever the open menu changes around it; the
 * mark is taken off after. A menu that mounted the control is closed again when the choice leaves the entry as it was
 * (a choice cancelled): while the control is in the page, other entries' menus are no marks.
 *
 * @param entry the entry
 * @param name the control's label as documented
 * @param choose clicks the control; resolves whether the entry is left as it was
 * @throws Error when the page has no such control and none of the entry's closed menus mounts it
 */
export async function chooseInEntry(entry: Locator, name: string, choose: (control: Locator) => Promise<boolean>): Promise<void> {
  // A control that shows is chosen after one look for the entry (each look resolves the entry again).
  if (await control(entry, name).isVisible()) {
    await choose(control(entry, name));
    return;
  }
  const kept = (await hiddenControl(entry, name).count()) > 0;
  if (!kept && (await mayMount(entry, name).count()) === 0) {
    await choose(control(entry, name));
    return;
  }
  const page = entry.page();
  const chosen = page.locator(`[${CHOSEN_ATTRIBUTE}]`);
  try {
    await entry.evaluate((element, attribute) => element.setAttribute(attribute, ''), CHOSEN_ATTRIBUTE);
    if (kept) {
      await showFromMenu(chosen, name);
      await choose(control(chosen, name));
      return;
    }
    const mounted = control(page, name);
    const opened = await opensOne(page, mounted, await closedMenus(await chosen.elementHandle()));
    if (!opened) throw new Error(`"${name}" shows neither in the entry nor once one of its closed menus is opened`);
    if (await choose(mounted)) await closeAgain(page, opened);
  } finally {
    await chosen.evaluateAll((elements, attribute) => elements.forEach((element) => element.removeAttribute(attribute)), CHOSEN_ATTRIBUTE)
      .catch(() => undefined); // the page the control led to has no mark
  }
}

/** Whether a control shows within {@link SHOW_MS}. */
async function shows(wanted: Locator): Promise<boolean> {
  return await wanted.waitFor({ timeout: SHOW_MS }).then(() => true, () => false);
}

/**
 * The nearest ancestor of an element that shows: the menu's holder, where its button is.
 *
 * @param element an element that does not show
 * @returns the ancestor (the body, at the most)
 */
async function shownAncestor(element: ElementHandle<Element>): Promise<ElementHandle> {
  const handle = await element.evaluateHandle((start) => {
    let up = start.parentElement ?? start;
    while (up.parentElement && up.getClientRects().length === 0) up = up.parentElement;
    return up;
  });
  return handle as ElementHandle;
}

/**
 * The closed menus' buttons that show in a part of the page, in the page's order.
 *
 * @param within the part
 * @returns at most {@link MAX_MENUS} of them
 */
async function closedMenus(within: ElementHandle): Promise<ElementHandle<Element>[]> {
  const shown: ElementHandle<Element>[] = [];
  for (const button of await within.$$(CLOSED_MENU)) if (shown.length < MAX_MENUS && (await button.isVisible())) shown.push(button);
  return shown;
}

/**
 * Opens closed menus one at a time until one shows the control; each that does not is closed again
 * ({@link closeAgain}). Stops when a button loads another page.
 *
 * @param page the page
 * @param wanted the control
 * @param buttons the menus' buttons
 * @returns the button of the menu that shows the control, if one does
 */
async function opensOne(
  page: Page,
  wanted: Locator,
  buttons: readonly ElementHandle<Element>[],
): Promise<ElementHandle<Element> | undefined> {
  for (const button of buttons) {
    const address = page.url();
    await button.click({ timeout: CLICK_MS }).catch(() => undefined);
    if (await shows(wanted)) return button;
    if (page.url() !== address) return undefined;
    await closeAgain(page, button);
  }
  return undefined;
}

/**
 * Closes a menu that its button says is open (or whose `<details>` is), as a user does: by Escape, which closes the
 * menus of component libraries, even one whose backdrop covers its button (MUI's); else, when it does not close within
 * {@link SHOW_MS}, by its button again. A menu that closed itself, or a page left, is left as it is.
 *
 * @param page the page
 * @param button the menu's button
 */
async function closeAgain(page: Page, button: ElementHandle<Element>): Promise<void> {
  const closed = (element: Element) =>
    element.getAttribute('aria-expanded') !== 'true' && (element.parentElement as HTMLDetailsElement | null)?.open !== true;
  if (await button.evaluate(closed).catch(() => true)) return;
  await page.keyboard.press('Escape');
  const shut = await page.waitForFunction(closed, button, { timeout: SHOW_MS }).then(() => true, () => false);
  if (!shut) await button.click({ timeout: CLICK_MS }).catch(() => undefined);
}
