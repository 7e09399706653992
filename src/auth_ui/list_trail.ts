/**
 * The way back through a token list whose pager offers none: many a pager over a cursor has "Next" alone. Each address
 * that "Next" led to is kept with the address it was chosen on, so a walk back to the first page loads the address that
 * began the trail. A list whose pages share one address (paged in place by a script, or by a form posted to the same
 * address) leaves no trail.
 */
import type { Page } from '@playwright/test';

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
