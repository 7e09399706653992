/**
 * Alternatives of a locator resolved once. Playwright resolves each
 * alternative of `a.or(b)` (and the other side of `a.and(b)`) from the page,
 * its whole selector again: a scope or a set of elements written before the
 * `or` is found once per alternative, which on a list of thousands of
 * entries is a look over the whole list each. Written after the scope, as a
 * chained locator, the alternatives are looked for in each element found.
 */
import type { Locator, Page } from '@playwright/test';

/**
 * What some alternatives find in a scope, the scope resolved once.
 *
 * @param scope where to look: the page, or the elements of a locator
 * @param found the alternatives, joined with `or` and written on the page
 * @returns the locator
 */
export function within(scope: Page | Locator, found: (page: Page) => Locator): Locator {
  return 'page' in scope ? scope.locator(found(scope.page())) : found(scope);
}

/**
 * The elements of a locator that meet any of some conditions, the locator resolved once.
 *
 * @param elements the elements
 * @param conditions each a filter of an element, given the element itself as a locator
 * @returns the locator, in the order of the elements
 */
export function anyOf(elements: Locator, ...conditions: ((self: Locator) => Locator)[]): Locator {
  const self = elements.page().locator('xpath=self::*');
  return elements.locator(conditions.map((condition) => condition(self)).reduce((all, one) => all.or(one)));
}
