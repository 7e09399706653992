/**
 * The elements of a page that show a given text, a token's name or a scope: in the page itself, and inside the open
 * shadow roots of web components (custom elements: Lit, Stencil, Lightning Web Components), where XPath does not go.
 */
import type { Locator, Page } from '@playwright/test';
import { cutShortIn } from './cut_names.ts';
import { showsText } from './label_match.ts';

/**
 * The web components of the page, found by XPath (an element whose name holds a hyphen): the scope of the lookups
 * that go into shadow roots, which cost more than XPath (Playwright's text engine over the whole page took twice the
 * XPath's time on a page of 3000 rows; over its components alone, what the XPath takes).
 */
const COMPONENTS = 'xpath=//body//*[contains(local-name(), "-")]';

/**
 * Elements that show a text ({@link showsText}), found by XPath in the page's body; and in web components, those whose
 * whole text it is, found by Playwright's text engine, or that show it cut short and give it whole in an attribute
 * ({@link cutShortIn}).
 *
 * @param page the page
 * @param text the text
 * @returns the locator
 */
export function showing(page: Page, text: string): Locator {
  const components = page.locator(COMPONENTS);
  const inComponents = components.getByText(text, { exact: true }).or(cutShortIn(components, text));
  return page.locator(`xpath=//body//*[not(self::script or self::style)][${showsText(text)}]`).or(inComponents);
}
