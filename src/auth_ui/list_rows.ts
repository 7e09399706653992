/**
 * The rows of a token list read in one pass in the page: which table rows and
 * list items are tokens (a Revoke control, a "revoked" mark, a part titled
 * "Revoked…"; no header row, no navigation's item), their names and states.
 */
import type { ElementHandle, Locator } from '@playwright/test';
import * as marks from './list_marks.ts';

/** A listed token: its name as shown, and whether it is shown as revoked. */
export interface ListedToken {
  readonly name: string;
  readonly revoked: boolean;
}

/**
 * The tokens among rows: a table's name in the column headed "Name" (the first column when none is), a list item's its
 * first text. One pass over the page, as a locator per row would resolve the whole list again for each row.
 *
 * @param rows the table rows and list items of the page
 * @param revokes the page's Revoke controls
 * @returns the tokens, in the page's order
 */
export async function tokensIn(rows: Locator, revokes: ElementHandle[]): Promise<ListedToken[]> {
  return await rows.evaluateAll(
    (rows, [revokes, revoked, icon, part, view, header, nav, views]) => {
      const holders = new Set<Node>();
      for (const revoke of revokes) for (let node: Node | null = revoke; node; node = node.parentNode) holders.add(node);
      // Whether the page shows a view titled "Revoked…", and whether a list's items lead to views: one look at the
      // page and one per list, not one per row (a list of thousands of rows).
      const revokedView = document.evaluate(`boolean(${view})`, document, null, XPathResult.BOOLEAN_TYPE, null).booleanValue;
      const viewLists = new Map<Node, boolean>();
      return rows.filter((row) => {
        const list = row.parentNode as Node;
        if (!viewLists.has(list)) {
          viewLists.set(list, document.evaluate(`boolean(self::*[${views}])`, list, null, XPathResult.BOOLEAN_TYPE, null).booleanValue);
        }
        // Not a navigation's; then a row with a Revoke control, or, not a header row, one that says "revoked" or
        // stands in a part titled so.
        if (
          viewLists.get(list) || document.evaluate(`boolean(${nav})`, row, null, XPathResult.BOOLEAN_TYPE, null).booleanValue
        ) return false;
        return holders.has(row) ||
          !document.evaluate(`boolean(self::*[${header}])`, row, null, XPathResult.BOOLEAN_TYPE, null).booleanValue &&
            (revoked.test(row.textContent ?? '') || row.querySelector(icon) !== null || revokedView ||
              document.evaluate(`boolean(self::*[${part}])`, row, null, XPathResult.BOOLEAN_TYPE, null).booleanValue);
      }).map(
        (row) => {
          const cells = [...row.querySelectorAll('td, th, [role=cell], [role=gridcell]')];
          const headers = [...(row.closest('table, [role=table], [role=grid]')?.querySelectorAll('th, [role=columnheader]') ?? [])];
          const column = headers.findIndex((header) => /^\s*name\s*$/i.test(header.textContent ?? ''));
          const cell = cells.length > 0 ? cells[Math.max(column, 0)] : undefined;
          const first = document.evaluate('.//text()[normalize-space()]', row, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null);
          const name = cell ? cell.textContent : first.singleNodeValue?.textContent;
          return { name: name?.trim() ?? '', revoked: !holders.has(row) };
        },
      );
    },
    [
      revokes,
      marks.REVOKED,
      marks.REVOKED_ICON,
      marks.IN_TITLED_PART,
      marks.REVOKED_VIEW_SHOWN,
      marks.HEADER_ROW,
      marks.IN_NAV,
      marks.VIEW_LINKS,
    ] as const,
  );
}
