/**
 * The way back through a token list whose pager offers no "First" or "Previous": many a pager over a cursor has "Next"
 * alone. Each address that "Next" led to is kept with the address it was chosen on, so a walk back to the first page
 * loads the address that began the trail. A list whose pages share one address (paged in place by a script, or by a
 * form posted to the same address) leaves no trail: its pager's "1" leads back, where it numbers its pages. Such a
 * pager without "Next" is walked on by its numbers too.
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

/** A pager's control to a page by its number: "2", "Page 2", "Go to page 2". */
const PAGE_NUMBER = /^\s*(?:(?:go to )?page\s*)?(\d+)\s*$/i;

/** How many elements up from a page's number its pager may hold the page showing (a link, its list item, the list). */
const PAGER_LEVELS = 3;

/**
 * A control in a pager that numbers its pages and marks the one showing ("1 2 [3] 4", the page showing marked as
 * {@link CURRENT_MARK} marks it): the one to the page of a number, given the number of the page showing.
 *
 * @param page the browser page
 * @param wanted the number of the page wanted, from the number of the page showing
 * @returns the control, or undefined when no such pager offers that page, or it is the page showing
 */
async function pageNumbered(page: Page, wanted: (showing: number) => number): Promise<Locator | undefined> {
  const controls = everyControl(page, PAGE_NUMBER);
  // Each control's number and the number its pager marks as showing, read in one pass.
  const read = await controls.evaluateAll((elements, [label, current, levels]) =>
    elements.map((element) => {
      // Its number from its text, else from its name ("Go to page 2" around a "2").
      const number = new RegExp(label.source, label.flags);
      const own = number.exec(element.textContent ?? '') ?? number.exec(element.getAttribute('aria-label') ?? '');
      let around = element.parentElement;
      for (let level = 0; around && level < levels; level++, around = around.parentElement) {
        // A number first, as a pager writes it: "3", "Page 3", "3 (current)".
        const numbers = [...around.querySelectorAll(current)].map((marked) =>
          /^\s*(?:page\s*)?(\d+)(?:\s|$)/i.exec(marked.textContent ?? '')
        );
        const shown = numbers.find((found) => found !== null);
        if (shown) return [Number(own?.[1]), Number(shown[1])];
      }
      return [Number(own?.[1]), undefined];
    }), [{ source: PAGE_NUMBER.source, flags: PAGE_NUMBER.flags }, CURRENT_MARK, PAGER_LEVELS] as const).catch(() => []);
  const index = read.findIndex(([number, showing]) => showing !== undefined && number !== showing && number === wanted(showing));
  return index < 0 ? undefined : controls.nth(index);
}

/**
 * The way back in a pager that numbers its pages and marks the one showing: its "1", while it marks another page as
 * the one showing.
 *
 * @param page the browser page
 * @returns the control, or undefined on the first page or without such a pager
 */
export async function firstPageNumber(page: Page): Promise<Locator | undefined> {
  return await pageNumbered(page, () => 1);
}

/**
 * The way on in a pager that numbers its pages and marks the one showing, where it offers no "Next" ("1 [2] 3"): the
 * number after the page showing.
 *
 * @param page the browser page
 * @returns the control, or undefined on the last page or without such a pager
 */
export async function nextPageNumber(page: Page): Promise<Locator | undefined> {
  return await pageNumbered(page, (showing) => showing + 1);
}
