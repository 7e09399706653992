/**
 * The views of a token list that shows its active and its revoked tokens apart
 * and never together ("Active | Revoked" tabs, links or a `<select>`): each
 * view is walked as {@link everyPage} walks a list, the view showing first.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { loaded, pressToggle } from './controls.ts';
import { ALL, everyPage, linkGroups, namedToggles, toggleGroups, TURN_MS } from './list_pages.ts';
import type { SeenPlaces } from './list_parts.ts';
import { CURRENT_LINK, MAX_VIEW_LINKS, REVOKED_VIEW, TEXT_VIEW_LISTS, TOGGLE, TOGGLED } from './list_marks.ts';

/** How to show each view of a list that shows its tokens apart by state, and tell which one shows. */
interface Views {
  /** How many views there are. */
  readonly count: number;
  /** The view showing when the views were found. */
  readonly start: number;
  /** Chooses a view. */
  choose(index: number): Promise<void>;
  /** Whether a view is the one showing. */
  chosen(index: number): Promise<boolean>;
}

/**
 * The views of a list that shows its active and its revoked tokens apart and never together: the tabs of a tablist,
 * else the links of a list or navigation (a handful at most, as a server renders tabs), else the items of a list of
 * links whose one plain text is the view showing, else a group of toggles (see {@link toggledViews}), else the choices
 * of a visible `<select>`, that offer "Revoked" and no "All" ("Active | Revoked"). Tabs, links and toggles count as
 * views only when they tell which one is chosen (a tab's `aria-selected`, a link's `aria-current` or class, the item
 * with no link, a toggle pressed or checked), so that no view is walked twice.
 *
 * @param page the page
 * @returns the views, or undefined for a list shown in one view
 */
async function viewsOf(page: Page): Promise<Views | undefined> {
  // A page with no tab, current link, toggle, select nor list of views (a long list of Revoke buttons) is told by one
  // query, not role queries.
  if ((await page.locator(`[role=tab], ${CURRENT_LINK}, ${TOGGLE}, select`).or(page.locator(TEXT_VIEW_LISTS)).count()) === 0) {
    return undefined;
  }
  const tab = (name: RegExp) => page.getByRole('tab', { name });
  const tabs = page.getByRole('tablist').filter({ has: tab(REVOKED_VIEW) }).filter({ hasNot: tab(ALL) }).first().getByRole('tab');
  const tabViews = await clickedViews(tabs, '[aria-selected="true"]');
  if (tabViews) return tabViews;
  const links = linkGroups(page).filter({ hasNot: page.getByRole('link', { name: ALL }) }).first().getByRole('link');
  const linkViews = await clickedViews(links, CURRENT_LINK);
  if (linkViews && linkViews.count <= MAX_VIEW_LINKS) return linkViews;
  const items = page.locator(TEXT_VIEW_LISTS).filter({ hasNot: page.locator('xpath=./*').filter({ hasText: ALL }) }).first()
    .locator('xpath=./*');
  const textViews = await clickedViews(items, ':not(:has(a))', (item) => item.locator('a'));
  if (textViews) return textViews;
  const toggleViews = await toggledViews(page);
  if (toggleViews) return toggleViews;
  const option = (hasText: RegExp) => page.locator('option').filter({ hasText });
  const select = page.locator('select').filter({ has: option(REVOKED_VIEW), hasNot: option(ALL), visible: true }).first();
  if ((await select.count()) === 0) return undefined;
  const selected = () => select.evaluate((element) => (element as HTMLSelectElement).selectedIndex);
  return {
    count: await select.locator('option').count(),
    start: await selected(),
    choose: async (index) => void (await select.selectOption({ index })),
    chosen: async (index) => (await selected().catch(() => -1)) === index,
  };
}

/**
 * The views of a group of toggles (see {@link toggleGroups}) that offers no "All" and has one chosen: a segmented
 * control's buttons, radio buttons, or chips that filter together, pressed and released one at a time. Choosing a
 * view presses its toggle (see {@link pressToggle}) and releases the others that stay pressed, so that each view shows
 * alone.
 *
 * @param page the page
 * @returns the views, or undefined when no such group has one toggle chosen
 */
async function toggledViews(page: Page): Promise<Views | undefined> {
  const toggles = toggleGroups(page).filter({ hasNot: namedToggles(page, ALL) }).first().locator(TOGGLE);
  if ((await toggles.and(page.locator(TOGGLED)).count()) !== 1) return undefined;
  const views = await clickedViews(toggles, TOGGLED);
  return views && {
    ...views,
    choose: async (index) => {
      await pressToggle(toggles.nth(index));
      const message = `the token list's toggle ${index + 1} is chosen once pressed`;
      await expect.poll(() => views.chosen(index), { message, timeout: TURN_MS }).toBe(true);
      for (let other = 0; other < views.count; other++) {
        if (other !== index && (await views.chosen(other))) await pressToggle(toggles.nth(other));
      }
    },
  };
}

/**
 * Views chosen by clicking one of some controls (tabs, links, the link in a list item, toggles), the chosen one telling
 * so.
 *
 * @param controls the controls, one per view
 * @param chosen a CSS selector that the chosen control matches, and no other
 * @param target what to click in a control: the control itself, or the link in a list item
 * @returns the views, or undefined when no control says it is chosen
 */
async function clickedViews(
  controls: Locator,
  chosen: string,
  target = (control: Locator) => control,
): Promise<Views | undefined> {
  const start = await controls.evaluateAll((all, chosen) => all.findIndex((one) => one.matches(chosen)), chosen);
  if (start < 0) return undefined;
  return {
    count: await controls.count(),
    start,
    choose: (index) => target(controls.nth(index)).click(),
    chosen: (index) => controls.nth(index).evaluate((one, chosen) => one.matches(chosen), chosen).catch(() => false),
  };
}

/**
 * Visits every page of every view of the list, as {@link everyPage} does in each: the view showing first, then each
 * other view in its order (see {@link viewsOf}), until the visit says to stop. Leaves the view and page where it
 * stopped, or the last.
 *
 * @param page the page
 * @param visit called on each page, or at each part of one read in parts (see `visitPage`); true stops the walk there
 * @param walked true when every page of the view showing was visited already: only the other views are then
 * @returns true when a visit stopped it
 * @throws Error when a view does not show within {@link TURN_MS} of being chosen
 */
export async function everyView(page: Page, visit: (seen?: SeenPlaces) => Promise<boolean>, walked = false): Promise<boolean> {
  if (!walked && (await everyPage(page, visit))) return true;
  const views = await viewsOf(page);
  for (let index = 0; views && index < views.count; index++) {
    if (index === views.start) continue;
    await views.choose(index);
    await expect.poll(() => views.chosen(index), { message: `the token list's view ${index + 1} shows once chosen`, timeout: TURN_MS })
      .toBe(true);
    await loaded(page);
    if (await everyPage(page, visit)) return true;
  }
  return false;
}
