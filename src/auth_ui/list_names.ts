/**
 * The names a token list shows, read in the page in any markup: as the text gives them, or whole from an attribute
 * where the text cuts them short ({@link shownName}).
 */
import type { Locator, Page } from '@playwright/test';
import { cutShortIn, shownName, WHOLE_OF_CUT_TEXT } from './cut_names.ts';

/**
 * What some elements show: each element's whole text and each of its own texts beside other elements, with the whole
 * text an attribute gives where it is cut short ({@link WHOLE_OF_CUT_TEXT}).
 *
 * @param elements the elements
 * @returns each text with its whole text (`''` when no attribute gives one)
 */
async function textsOf(elements: Locator): Promise<[text: string, whole: string][]> {
  return await elements.evaluateAll(
    (elements, wholeOf) =>
      elements.flatMap((element) => [element, ...[...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)])
        .map((node): [string, string] => [
          node.textContent ?? '',
          document.evaluate(wholeOf, node, null, XPathResult.STRING_TYPE, null).stringValue,
        ]),
    WHOLE_OF_CUT_TEXT,
  );
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
  const wholes = (await textsOf(cutShortIn(page).filter({ visible: true })))
    .filter(([text, whole]) => shownName(text, whole) !== text);
  return [...texts, ...wholes].map(([text, whole]) => shownName(text, whole).replace(/\s+/g, ' ').trim())
    .filter((name) => pattern.test(name));
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
  const texts = await textsOf(entries.locator('xpath=descendant-or-self::*'));
  return texts.some(([text, whole]) => shownName(text.trim(), whole) === name);
}
