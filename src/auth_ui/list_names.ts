/**
 * The names a token list shows, read in the page in any markup: as the text gives them, or whole from an attribute
 * where the text cuts them short ({@link namesShown}).
 */
import type { JSHandle, Locator, Page } from '@playwright/test';
import { cutShortIn, namesShown, type ShownName, type ShownNodes } from './cut_names.ts';

/**
 * What some elements show ({@link namesShown}): each element's whole text and each of its own texts beside other
 * elements.
 *
 * @param elements the elements
 * @returns each text and the name it shows, in the page's order
 */
async function textsOf(elements: Locator): Promise<ShownName[]> {
  const nodes: JSHandle<ShownNodes> = await elements.page().evaluateHandle(() => ({ shown: [] }));
  try {
    await elements.evaluateAll((elements, nodes) => {
      nodes.shown = elements.flatMap((element) => [element, ...[...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)])
        .map((node) => [node, null] as const);
    }, nodes);
    return await namesShown(nodes);
  } finally {
    await nodes.dispose();
  }
}

/**
 * The names the page showing shows that a pattern matches: an element's whole text, or one of its own texts beside
 * other elements, or a name cut short given whole by an attribute, in the page or in its web components' shadow roots.
 *
 * @param page the page
 * @param pattern the pattern
 * @returns the names, spaces collapsed: those the text gives, in the page's order, then those given whole, a name as
 *   often as it shows
 */
export async function namesHere(page: Page, pattern: RegExp): Promise<string[]> {
  const texts = await textsOf(page.getByText(pattern).filter({ visible: true }));
  // An element that gives a whole text and holds more than that text cut short (the list around some names) gives none.
  const wholes = (await textsOf(cutShortIn(page).filter({ visible: true }))).filter(({ text, name }) => name !== text);
  return [...texts, ...wholes].map(({ name }) => name.replace(/\s+/g, ' ').trim()).filter((name) => pattern.test(name));
}

/**
 * Whether some entries show a name exactly as given: as an element's whole text or one of its own texts, trimmed but
 * not only equal once spaces are collapsed; or cut short, whole as an attribute gives it, trimmed.
 *
 * @param entries the entries
 * @param name the name
 * @returns whether one shows it so
 */
export async function showsName(entries: Locator, name: string): Promise<boolean> {
  return (await textsOf(entries.locator('xpath=descendant-or-self::*'))).some((shown) => shown.name === name);
}
