/**
 * The rows of a token list read in one pass in the page: which table rows and
 * list items are tokens (a Revoke control, a menu that may mount one, a
 * "revoked" mark, a part titled "Revoked…"; no header row, no navigation's
 * or banner's item), their names and states.
 */
import type { ElementHandle, Locator, Page } from '@playwright/test';
import { enabledControls } from './controls.ts';
import { AROUND_CUT_TEXT, nameIn, type ShownText, WHOLE_OF_CUT_TEXT } from './cut_names.ts';
import * as marks from './list_marks.ts';
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
 * @returns the tokens, in the page's order
 * @throws Error when entries show (a Revoke control, a "Revoked" mark) but no table row or list item holds them: such a list is read by name only
 */
export async function tokensHere(page: Page, rows: Locator): Promise<ListedToken[]> {
  const revokes = await revokeControls(page).or(keptInMenu(page, 'Revoke')).elementHandles();
  // A page with a Revoke control has no menu that may mount one: the look over the page is spared.
  const menus = revokes.length > 0 ? [] : await mayMount(page, 'Revoke').elementHandles();
  try {
    const entries = await tokensIn(rows, revokes, menus);
    const shown = page.getByText(marks.REVOKED_MARK).or(page.locator(marks.REVOKED_ICON));
    if (entries.length === 0 && (revokes.length > 0 || (await shown.count()) > 0)) {
      throw new Error(
        'The token list shows tokens (a Revoke control or a "Revoked" mark) but no table row or list item holds them, so its ' +
          'entries cannot be told apart without their names: listing needs a table or a list; creating, revoking by name and ' +
          "revoking a run's tokens work on any markup",
      );
    }
    return entries;
  } finally {
    await Promise.all([...revokes, ...menus].map((handle) => handle.dispose()));
  }
}

/**
 * The tokens among rows: a table's name in the column headed "Name" (the first column when none is), a list item's its
 * first text; a name shown cut short, whole as an attribute gives it ({@link nameIn}). One pass over the page, as a
 * locator per row would resolve the whole list again for each row.
 *
 * A row holding a closed menu that may mount a Revoke control is active unless it shows its token as revoked; such a row
 * in a banner (`<header>`, `role=banner`: an account menu) is none.
 *
 * @param rows the table rows and list items of the page
 * @param revokes the page's Revoke controls
 * @param menus the page's closed menus that may mount one (see `mayMount`)
 * @returns the tokens, in the page's order
 */
async function tokensIn(rows: Locator, revokes: ElementHandle[], menus: ElementHandle[]): Promise<ListedToken[]> {
  const read = await rows.evaluateAll(
    (rows, [wholeOf, aroundOf, revokes, menus, revoked, icon, part, view, header, nav, banner, views]) => {
      // (No named helpers: a TypeScript loader may wrap them in names the page does not have.)
      const [holders, menuHolders] = [revokes, menus].map((elements) => {
        const holders = new Set<Node>();
        for (const element of elements) for (let node: Node | null = element; node; node = node.parentNode) holders.add(node);
        return holders;
      }) as [Set<Node>, Set<Node>];
      // Whether the page shows a view titled "Revoked…", and whether a list's items lead to views: one look at the
      // page and one per list, not one per row (a list of thousands of rows).
      const revokedView = document.evaluate(`boolean(${view})`, document, null, XPathResult.BOOLEAN_TYPE, null).booleanValue;
      const viewLists = new Map<Node, boolean>();
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
          const says = revoked.test(row.textContent ?? '') || row.querySelector(icon) !== null || revokedView ||
            document.evaluate(`boolean(self::*[${part}])`, row, null, XPathResult.BOOLEAN_TYPE, null).booleanValue;
          active = menuHolders.has(row) && !says &&
            !document.evaluate(`boolean(${banner})`, row, null, XPathResult.BOOLEAN_TYPE, null).booleanValue;
          if (!says && !active) return [];
        }
        const cells = [...row.querySelectorAll('td, th, [role=cell], [role=gridcell]')];
        const headers = [...(row.closest('table, [role=table], [role=grid]')?.querySelectorAll('th, [role=columnheader]') ?? [])];
        const column = headers.findIndex((header) => /^\s*name\s*$/i.test(header.textContent ?? ''));
        const cell = cells.length > 0 ? cells[Math.max(column, 0)] : undefined;
        const first = document.evaluate('.//text()[normalize-space()]', row, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null);
        const shown = cell ?? first.singleNodeValue;
        // The element around it in the row that shows a name cut short, its ellipsis an element of its own.
        const around = shown && document.evaluate(aroundOf, shown, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
        // The text of each, with the whole name an attribute gives where it is cut short.
        const [own, cut] = [shown, around && row.contains(around) ? around : null].map((node): ShownText | undefined =>
          node
            ? [node.textContent?.trim() ?? '', document.evaluate(wholeOf, node, null, XPathResult.STRING_TYPE, null).stringValue]
            : undefined
        );
        return [{ own: own ?? ['', ''], around: cut, revoked: !active }];
      });
    },
    [
      WHOLE_OF_CUT_TEXT,
      AROUND_CUT_TEXT,
      revokes,
      menus,
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
  return read.map(({ own, around, revoked }) => ({ name: nameIn(own, around), revoked }));
}
