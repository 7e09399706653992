/**
 * The rows of a token list read in one pass in the page and its web
 * components' open shadow roots: which table rows and list items are tokens
 * (a Revoke control, a menu that may mount one, a "revoked" mark, a part
 * titled "Revoked…"; no header row, no navigation's or banner's item), their
 * names and states.
 */
import type { JSHandle, Locator, Page } from '@playwright/test';
import { enabledControls } from './controls.ts';
import { namesShown, type ShownNodes } from './cut_names.ts';
import * as marks from './list_marks.ts';
import { placesOf, type SeenPlaces } from './list_parts.ts';
import { keptInMenu, mayMount } from './menus.ts';

/** A listed token: its name as shown, and whether it is shown as revoked. */
export interface ListedToken {
  readonly name: string;
  readonly revoked: boolean;
}

/**
 * The Revoke controls that make an entry active: those that can be chosen ({@link enabledControls}), as a revoked token's
 * entry may keep its Revoke, disabled.
 *
 * @param page the page
 * @returns the locator
 */
export function revokeControls(page: Page): Locator {
  return enabledControls(page, 'Revoke');
}

/**
 * The tokens listed on the page showing: the Revoke controls (a row's closed menu's too) and the closed menus that may
 * mount one ({@link mayMount}) found, then the rows holding one or saying "revoked" read ({@link tokensIn}).
 *
 * @param page the page
 * @param rows its table rows and list items
 * @param seen at a part of a page read in parts, the places seen at its parts before: the rows there are left out
 * @returns the tokens, in the page's order
 * @throws Error when entries show (a Revoke control, a "Revoked" mark) but no table row or list item holds them: such a list is read by name only
 */
export async function tokensHere(page: Page, rows: Locator, seen?: SeenPlaces): Promise<ListedToken[]> {
  // Kept in the page, not as a handle each: a handle per control of a list of thousands took seconds to make and pass.
  const found: Found = await page.evaluateHandle(() => ({ revokes: [], menus: [], shown: [] }));
  try {
    const revokes = await revokeControls(page).or(keptInMenu(page, 'Revoke'))
      .evaluateAll((elements, found) => (found.revokes = elements).length, found);
    // A page with a Revoke control has no menu that may mount one: the look over the page is spared.
    if (revokes === 0) await mayMount(page, 'Revoke').evaluateAll((elements, found) => void (found.menus = elements), found);
    const entries = await tokensIn(rows, found);
    const shown = page.getByText(marks.REVOKED_MARK).or(page.locator(marks.REVOKED_ICON));
    if (entries.length === 0 && (revokes > 0 || (await shown.count()) > 0)) {
      throw new Error(
        'The token list shows tokens (a Revoke control or a "Revoked" mark) but no table row or list item holds them, so its ' +
          'entries cannot be told apart without their names: listing needs a table or a list; creating, revoking by name and ' +
          "revoking a run's tokens work on any markup",
      );
    }
    if (!seen) return entries;
    const read = await found.evaluateHandle((found) => found.shown.map(([, row]) => row as Element));
    const fresh = await placesOf(read).then((places) => seen.fresh(places)).finally(() => read.dispose());
    return entries.filter((_, index) => fresh[index]);
  } finally {
    await found.dispose();
  }
}

/**
 * The page's Revoke controls (a row's closed menu's too) and, where it has none, its closed menus that may mount one;
 * then the node that shows each token's name, in its row.
 */
type Found = JSHandle<{ revokes: Element[]; menus: Element[] } & ShownNodes>;

/**
 * The tokens among rows: a table's name in the column headed "Name" (the first column when none is), a list item's its
 * first text; a name shown cut short, whole as an attribute gives it ({@link namesShown}). One pass over the page, as a
 * locator per row would resolve the whole list again for each row.
 *
 * A row holding a closed menu that may mount a Revoke control is active unless it shows its token as revoked; such a row
 * in a banner (`<header>`, `role=banner`: an account menu) is none.
 *
 * @param rows the table rows and list items of the page
 * @param found the page's Revoke controls and closed menus that may mount one (see `mayMount`)
 * @returns the tokens, in the page's order
 */
async function tokensIn(rows: Locator, found: Found): Promise<ListedToken[]> {
  const read = await rows.evaluateAll(
    (rows, [found, revoked, icon, part, view, header, nav, banner, views]) => {
      // (No named helpers: a TypeScript loader may wrap them in names the page does not have.)
      const [holders, menuHolders] = [found.revokes, found.menus].map((elements) => {
        const holders = new Set<Node>();
        for (const element of elements) for (let node: Node | null = element; node; node = node.parentNode) holders.add(node);
        return holders;
      }) as [Set<Node>, Set<Node>];
      // Whether a view titled "Revoked…" shows, whether a list's items lead to views and which column of a table is
      // headed "Name": one look at the page and at each shadow root holding rows, one per list and one per table, not
      // one per row (a list of thousands of rows). A row in a web component's shadow root is in a revoked view when
      // its root or one its component stands in shows one (XPath's "//" does not leave the root it starts in).
      const revokedViews = new Map<Node, boolean>();
      const viewLists = new Map<Node, boolean>();
      const nameColumns = new Map<Element | null, number>();
      return rows.flatMap((row) => {
        const list = row.parentNode as Node;
        if (!viewLists.has(list)) {
          viewLists.set(list, document.evaluate(`boolean(self::*[${views}])`, list, null, XPathResult.BOOLEAN_TYPE, null).booleanValue);
        }
        // Not a navigation's; then a row with a Revoke control, or, not a header row, one that says "revoked" or stands
        // in a part titled so, or one with a menu that may mount a Revoke control, out of a banner.
        if (viewLists.get(list) || document.evaluate(`boolean(${nav})`, row, null, XPathResult.BOOLEAN_TYPE, null).booleanValue) return [];
        let active = holders.has(row);
        if (!active) {
          if (document.evaluate(`boolean(self::*[${header}])`, row, null, XPathResult.BOOLEAN_TYPE, null).booleanValue) return [];
          let inRevokedView = false;
          // From the row, then from each component's element around it: a shadow root is no context node for XPath.
          for (let at: Element | undefined = row; at && !inRevokedView; at = (at.getRootNode() as Partial<ShadowRoot>).host) {
            const root = at.getRootNode();
            if (!revokedViews.has(root)) {
              revokedViews.set(root, document.evaluate(`boolean(${view})`, at, null, XPathResult.BOOLEAN_TYPE, null).booleanValue);
            }
            inRevokedView = revokedViews.get(root) as boolean;
          }
          const says = revoked.test(row.textContent ?? '') || row.querySelector(icon) !== null || inRevokedView ||
            document.evaluate(`boolean(self::*[${part}])`, row, null, XPathResult.BOOLEAN_TYPE, null).booleanValue;
          active = menuHolders.has(row) && !says &&
            !document.evaluate(`boolean(${banner})`, row, null, XPathResult.BOOLEAN_TYPE, null).booleanValue;
          if (!says && !active) return [];
        }
        const cells = [...row.querySelectorAll('td, th, [role=cell], [role=gridcell]')];
        const table = row.closest('table, [role=table], [role=grid]');
        if (!nameColumns.has(table)) {
          const headers = [...(table?.querySelectorAll('th, [role=columnheader]') ?? [])];
          nameColumns.set(table, headers.findIndex((header) => /^\s*name\s*$/i.test(header.textContent ?? '')));
        }
        const cell = cells.length > 0 ? cells[Math.max(nameColumns.get(table) as number, 0)] : undefined;
        const first = document.evaluate('.//text()[normalize-space()]', row, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null);
        found.shown.push([cell ?? first.singleNodeValue, row]);
        return [!active];
      });
    },
    [
      found,
      marks.REVOKED,
      marks.REVOKED_ICON,
      marks.IN_TITLED_PART,
      marks.REVOKED_VIEW_SHOWN,
      marks.HEADER_ROW,
      marks.IN_NAV,
      marks.IN_BANNER,
      marks.VIEW_LINKS,
    ] as const,
  );
  const names = await namesShown(found);
  return read.map((revoked, index) => ({ name: names[index]?.name ?? '', revoked }));
}
