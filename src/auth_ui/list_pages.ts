/**
 * The pages of a long token list. Contract 5.3 says nothing of paging, and a list that every nightly run adds to
 * grows past one page on many services: it is walked through the controls such lists commonly have, "Next",
 * "Next page", "Older", "›", else the number after the page showing in a pager that numbers its pages (and back:
 * "First", "Previous", "Newer", "«", "‹", else the address the pages began on, else the pager's "1"), and each page
 * shown whole through "Load more", "Show more" or "Show all", and with its revoked tokens shown (see
 * {@link showRevoked}); each control found as 5.3's controls are (a button, a link, a tab or a menu item), visible and
 * enabled. A list without them is one page. A list that grows as it is scrolled is scrolled to its end (see
 * `list_scroll.ts`).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { within } from './alternatives.ts';
import { chooseAndWait, enabledControls, loaded, pressToggle } from './controls.ts';
import * as marks from './list_marks.ts';
import { type SeenPlaces, visitPage } from './list_parts.ts';
import { firstPageNumber, nextPageNumber, trailStart, turnedFrom } from './list_trail.ts';

/**
 * A control that turns to the next page, its word beside one or two arrows ("Next »", "Next >>", "Next ❯") or an
 * arrow alone. "»" and ">>" alone are left out: pagers use them for the last page.
 */
export const NEXT = /^\s*(?:(?:(?:go to )?next(?: page)?|older(?: tokens)?)\s*[›»>→❯▶▸]{0,2}|[›>→❯▶▸])\s*$/i;

/**
 * A control that turns back: to the first page, or to the previous one, its word beside one or two arrows
 * ("« Previous", "<< Previous", "❮ Previous") or an arrow alone. "«" or "<<" alone is either, depending on the pager;
 * chosen as long as one shows, either leads to the first page. The first in the page's order is chosen, which in a
 * pager that has both is "First".
 */
export const BACK = /^\s*(?:[«‹<←❮◀◂]{0,2}\s*(?:(?:go to )?(?:first|previous)(?: page)?|prev|newer(?: tokens)?)|[«‹<←❮◀◂]|<<)\s*$/i;

/**
 * A control that shows more of the list in place, its words alone or before an ellipsis or a downward arrow
 * ("Load more…", "Show more ▾").
 */
export const MORE = /^\s*(?:load|show) (?:more|all)(?: tokens)?\s*(?:…|\.\.\.|[▾▼↓⌄])?\s*$/i;

/** The most pages walked in one direction, or loads of more: a pager that never ends is a fault, not a list. */
const MAX_PAGES = 100;

/** How long a page may take to show after its control was chosen. */
export const TURN_MS = 15_000;

/**
 * The first usable control of a kind: one whose label matches, as {@link enabledControls} finds it.
 *
 * @param page the page
 * @param label the control's label
 * @returns the control, or undefined when the page has none
 */
async function pageControl(page: Page, label: RegExp): Promise<Locator | undefined> {
  const usable = enabledControls(page, label).first();
  return (await usable.count()) > 0 ? usable : undefined;
}

/**
 * What a page shows: its address and its text. It is empty while no document can be read (a navigation under way).
 *
 * @param page the page
 * @returns the address and text
 */
async function shown(page: Page): Promise<string> {
  return await page.evaluate(() => `${location.href}\n${document.body.innerText}`).catch(() => '');
}

/**
 * Chooses a pager control and waits until the page shows something else: another page, or more of this one.
 *
 * @param page the page
 * @param control the control
 * @throws Error when nothing changed within {@link TURN_MS}
 */
async function turn(page: Page, control: Locator): Promise<void> {
  const before = await shown(page);
  const label = (await control.textContent().catch(() => null))?.trim() || (await control.getAttribute('aria-label').catch(() => null));
  await control.click();
  await expect.poll(async () => {
    const now = await shown(page);
    return now !== '' && now !== before;
  }, { message: `choosing "${label}" in the token list changes what it shows`, timeout: TURN_MS }).toBe(true);
  await loaded(page);
}

/**
 * Turns to the next page: by "Next", else by the number after the page showing in a pager that numbers its pages.
 *
 * @param page the page
 * @returns false on the last page
 */
async function nextPage(page: Page): Promise<boolean> {
  const next = (await pageControl(page, NEXT)) ?? (await nextPageNumber(page));
  if (!next) return false;
  const from = page.url();
  await turn(page, next);
  turnedFrom(page, from);
  return true;
}

/**
 * Chooses a control as long as one shows: "First" or "Previous" back to the first page, "Load more" until the page is whole.
 *
 * @param page the page
 * @param label the control's label
 * @param shown the control as the error names it
 * @throws Error after {@link MAX_PAGES} choices
 */
async function chooseWhileShown(page: Page, label: RegExp, shown: string): Promise<void> {
  for (let chosen = 0; chosen < MAX_PAGES; chosen++) {
    const control = await pageControl(page, label);
    if (!control) return;
    await turn(page, control);
  }
  throw new Error(`The token list still offers "${shown}" after ${MAX_PAGES} times`);
}

/** A switch that shows revoked tokens ("Show revoked tokens", "Include revoked"). */
export const SHOW_REVOKED = /^\s*(?:show|include|display)\b.*\brevoked\b/i;

/** A switch that hides them ("Hide revoked tokens"). */
export const HIDE_REVOKED = /^\s*hide\b.*\brevoked\b/i;

/** A filter's choice that shows every token ("All", "All tokens", "Any status"). */
export const ALL = /^\s*(?:all|any)\b/i;

/**
 * Shows the revoked tokens that the page keeps out of sight: it opens the collapsed parts whose summary says
 * "revoked" ("Revoked tokens (3)"), checks a checkbox or switch that shows them and is off, unchecks one that hides
 * them and is on, presses a toggle button (one with `aria-pressed`) that shows them, chooses "All" in a filter that
 * offers it beside "Revoked" (tabs, a `<select>`, toggles, or links that mark the current one or show it as plain
 * text) when it is not chosen, and follows a link that shows them (see {@link followShowLink}). Only controls whose
 * state can be read are chosen, so a second visit never hides them again. Other collapsed parts (menus, help),
 * switches, filters and links are left as they are.
 *
 * @param page the page
 * @throws Error when such a control is still off after it was chosen {@link MAX_PAGES} times
 */
async function showRevoked(page: Page): Promise<void> {
  const switches = (name: RegExp, checked: boolean) =>
    page.getByRole('checkbox', { name, checked }).or(page.getByRole('switch', { name, checked }));
  const allTab = page.getByRole('tablist').filter({ has: page.getByRole('tab', { name: /revoked/i }) })
    .getByRole('tab', { name: ALL, selected: false });
  const toggles = toggleGroups(page);
  const allToggle = namedToggles(toggles, ALL).and(toggles.locator(`:not(${marks.TOGGLED})`));
  const off = page.locator('details:not([open]) > summary').filter({ hasText: /revoked/i })
    .or(switches(SHOW_REVOKED, false))
    .or(switches(HIDE_REVOKED, true))
    .or(page.getByRole('button', { name: SHOW_REVOKED, pressed: false }).and(page.locator('[aria-pressed]')))
    .or(allTab)
    .filter({ visible: true });
  const filters = page.locator('select').filter({ has: page.locator('option').filter({ hasText: /revoked/i }), visible: true });
  const allLink = linkGroups(page).or(page.locator(marks.TEXT_VIEW_LISTS)).getByRole('link', { name: ALL })
    .and(page.locator(`a:not(${marks.CURRENT_LINK})`))
    .filter({ visible: true });
  // A page with no switch, filter, current link, list of views nor such link (a long list of Revoke buttons) is told by
  // one query, not a role query per kind.
  const any = page.locator(
    `details:not([open]) > summary, input[type=checkbox], [role=checkbox], [role=switch], ${marks.TOGGLE}, [role=tab], select, ${marks.CURRENT_LINK}`,
  ).or(page.locator('a[href]', { hasText: SHOW_REVOKED })).or(page.locator(marks.TEXT_VIEW_LISTS));
  for (let chosen = 0; chosen < MAX_PAGES; chosen++) {
    if ((await any.count()) === 0) return;
    if ((await off.count()) > 0) await chooseAndWait(off);
    else if ((await allLink.count()) > 0) await turn(page, allLink.first());
    else if (!(await pressToggle(allToggle)) && !(await chooseAll(filters)) && !(await followShowLink(page))) return;
    await loaded(page);
  }
  throw new Error(
    `The token list still keeps revoked tokens out of sight after ${MAX_PAGES} choices: a collapsed part, switch or filter that shows them stays closed or off`,
  );
}

/**
 * The groups of links around a "Revoked…" link that mark their current one (see {@link marks.CURRENT_LINK}): views or a
 * filter offered as links, as a server renders tabs.
 *
 * @param page the page
 * @returns the groups, in the page's order
 */
export function linkGroups(page: Page): Locator {
  return page.getByRole('link', { name: marks.REVOKED_VIEW }).locator(marks.LINK_GROUP).filter({ has: page.locator(marks.CURRENT_LINK) });
}

/**
 * The visible groups of toggles around a "Revoked…" one that show their chosen one (see {@link marks.TOGGLED}): views
 * or a filter offered as buttons pressed or not ("Active | Revoked" as a segmented control), or as radio buttons.
 *
 * @param page the page
 * @returns the groups, in the page's order
 */
export function toggleGroups(page: Page): Locator {
  // The role query runs around each toggle, not over the whole page: there it takes a second on thousands of Revoke buttons.
  const around = page.locator(marks.TOGGLE).locator('xpath=..');
  return namedToggles(around, marks.REVOKED_VIEW).locator(marks.TOGGLE_GROUP).filter({ has: page.locator(marks.TOGGLED), visible: true });
}

/**
 * The toggles of a label (see {@link marks.TOGGLE}) in a part of the page.
 *
 * @param scope where to look
 * @param name the label
 * @returns the toggles
 */
export function namedToggles(scope: Page | Locator, name: RegExp): Locator {
  return within(scope, (page) => page.getByRole('button', { name }).or(page.getByRole('radio', { name })).and(page.locator(marks.TOGGLE)));
}

/**
 * Follows the first visible link that says it shows revoked tokens ("Show revoked tokens") and adds to the page's
 * query, on the page's own path (`?revoked=1`, keeping what the query has): the page it loads says by its own links
 * whether they show ("Hide revoked tokens"). A link to another path (a page of revoked tokens only), one that takes
 * from the query or changes it (a link that toggles back and keeps its label), and one to a part of the page (`#`, a
 * script's toggle, whose state cannot be read) are left alone.
 *
 * @param page the page
 * @returns whether a link was followed
 */
async function followShowLink(page: Page): Promise<boolean> {
  for (const link of await page.getByRole('link', { name: SHOW_REVOKED }).filter({ visible: true }).all()) {
    const adds = await link.evaluate((anchor) => {
      const to = new URL((anchor as HTMLAnchorElement).href);
      const here = [...new URLSearchParams(location.search)];
      return to.origin === location.origin && to.pathname === location.pathname && [...to.searchParams].length > here.length &&
        here.every(([key, value]) => to.searchParams.getAll(key).includes(value));
    }).catch(() => false);
    if (adds) {
      await turn(page, link);
      return true;
    }
  }
  return false;
}

/**
 * Chooses "All" in the first `<select>` filter that offers it and has another choice.
 *
 * @param filters the filters
 * @returns false when every filter already shows all
 */
async function chooseAll(filters: Locator): Promise<boolean> {
  for (const filter of await filters.all()) {
    const index = await filter.evaluate((select, all) => {
      const pattern = new RegExp(all, 'i');
      const at = [...(select as HTMLSelectElement).options].findIndex((option) => pattern.test(option.text));
      return at === (select as HTMLSelectElement).selectedIndex ? -1 : at;
    }, ALL.source);
    if (index >= 0) {
      await filter.selectOption({ index });
      return true;
    }
  }
  return false;
}

/**
 * Visits the page showing and every page after it, each shown whole, until the visit says to stop.
 *
 * @param page the page
 * @param visit called on each page, or at each part of one read in parts (see `visitPage`); true stops the walk there
 * @returns true when a visit stopped it
 * @throws Error after {@link MAX_PAGES} pages
 */
export async function fromHere(page: Page, visit: (seen?: SeenPlaces) => Promise<boolean>): Promise<boolean> {
  for (let visited = 0; visited < MAX_PAGES; visited++) {
    await chooseWhileShown(page, MORE, 'Load more');
    await showRevoked(page);
    if (await visitPage(page, visit)) return true;
    if (!(await nextPage(page))) return false;
  }
  throw new Error(`The token list still offers "Next" after ${MAX_PAGES} pages`);
}

/**
 * Whether the page showing is the first of its list: "Next" did not lead to it, and it offers no usable "First" or
 * "Previous", nor a pager's "1" while another page shows (see `list_trail.ts`).
 *
 * @param page the page
 */
export async function atFirstPage(page: Page): Promise<boolean> {
  return trailStart(page) === page.url() && (await pageControl(page, BACK)) === undefined && (await firstPageNumber(page)) === undefined;
}

/**
 * Visits every page of the list from the first, as {@link fromHere} does.
 *
 * @param page the page
 * @param visit called on each page, or at each part of one read in parts (see `visitPage`); true stops the walk there
 * @returns true when a visit stopped it
 * @throws Error after {@link MAX_PAGES} pages in one direction
 */
export async function everyPage(page: Page, visit: (seen?: SeenPlaces) => Promise<boolean>): Promise<boolean> {
  await chooseWhileShown(page, BACK, 'Previous');
  // A pager with "Next" alone is walked back by loading the address its trail began on (see `list_trail.ts`).
  const start = trailStart(page);
  if (start !== page.url()) await page.goto(start);
  const first = await firstPageNumber(page); // a pager numbering its pages in place leaves no trail
  if (first) await turn(page, first);
  return await fromHere(page, visit);
}
