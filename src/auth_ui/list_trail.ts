/**
 * The way back through a token list whose pager offers no "First" or "Previous": many a pager over a cursor has "Next"
 * alone. Each address that "Next" led to is kept with the address it was chosen on, so a walk back to the first page
 * loads the address that began the trail. A list whose pages share one address (paged in place by a script, or by a
 * form posted to the same address) leaves no trail: its pager's "1" leads back, where it numbers its pages.
 */
import type { Locator, Page } from '@playwright/test';
import { everyControl } from './controls.ts';
import { CURRENT_MARK } from './list_marks.ts';

/** For each browser page: each address that "Next" led to, and the address it was chosen on. */
const trails = new WeakMap<Page, Map<string, string>>();

/**
 * Notes that "Next", chosen on one address, led to the address showing. The first way to an address is kept, and a
 * "Next" that leads back to where its trail began (a pager that turns from its last page to its first) adds nothing:
 * a trail never comes back on itself.
 *
 * @param page the browser page
 * @param from the address "Next" was chosen on
 */
export function turnedFrom(page: Page, from: string): void {
  const to = page.url();
  const trail = trails.get(page) ?? new Map<string, string>();
  trails.set(page, trail);
  if (!trail.has(to) && startOf(trail, from) !== to) trail.set(to, from);
}

/**
 * The address the trail to the address showing began on: the address itself when "Next" did not lead there.
 *
 * @param page the browser page
 * @returns the address of the list's first page, as far as the trail knows it
 */
export function trailStart(page: Page): string {
  return startOf(trails.get(page), page.url());
}

/**
 * @param trail each address that "Next" led to, and the address it was chosen on
 * @param address an address
 * @returns the address the trail to it began on
 */
function startOf(trail: ReadonlyMap<string, string> | undefined, address: string): string {
  let at = address;
  for (let from = trail?.get(at); from !== undefined; from = trail?.get(at)) at = from;
  return at;
}

/** A pager's control to its first page, by number: "1", "Page 1", "Go to page 1". */
const FIRST_NUMBER = /^\s*(?:(?:go to )?page\s*)?1\s*$/i;

/** How many elements up from a page's number its pager may hold the page showing (a link, its list item, the list). */
const PAGER_LEVELS = 3;

/**
 * The way back in a pager that numbers its pages and marks the one showing ("1 2 [3] Next", the page showing marked as
 * {@link CURRENT_MARK} marks it): its "1", while it marks another page as the one showing.
 *
 * @param page the browser page
 * @returns the control, or undefined on the first page or without such a pager
 */
export async function firstPageNumber(page: Page): Promise<Locator | undefined> {
  for (const one of await everyControl(page, FIRST_NUMBER).all()) {
    const showing = await one.evaluate((element, [current, levels]) => {
      let around = element.parentElement;
      for (let level = 0; around && level < levels; level++, around = around.parentElement) {
        // A number first, as a pager writes it: "3", "Page 3", "3 (current)".
        const numbers = [...around.querySelectorAll(current)].map((marked) =>
          /^\s*(?:page\s*)?(\d+)(?:\s|$)/i.exec(marked.textContent ?? '')
        );
        const shown = numbers.find((number) => number !== null);
        if (shown) return Number(shown[1]);
      }
      return undefined;
    }, [CURRENT_MARK, PAGER_LEVELS] as const).catch(() => undefined);
    if (showing !== undefined && showing !== 1) return one;
  }
  return undefined;
}
