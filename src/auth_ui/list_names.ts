/**
 * The names a token list shows, read in the page in any markup: as the text gives them, or whole from an attribute
 * where the text cuts them short ({@link shownName}).
 */
import type { Locator, Page } from '@playwright/test';
import { AROUND_CUT_TEXT, cutShortIn, nameIn, shownName, type ShownText, WHOLE_OF_CUT_TEXT } from './cut_names.ts';

/**
 * What some elements show: each element's whole text and each of its own texts beside other elements, with the whole
 * text an attribute gives where it is cut short ({@link WHOLE_OF_CUT_TEXT}), and the same for the element around it
 * where that shows a text cut short, its ellipsis an element of its own ({@link AROUND_CUT_TEXT}).
 *
 * @param elements the elements
 * @returns each text, with the element's around it where there is one
 */
async function textsOf(elements: Locator): Promise<[own: ShownText, around?: ShownText][]> {
  return await elements.evaluateAll(
    (elements, [wholeOf, cut]) =>
      elements.flatMap((element) => [element, ...[...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)])
        .map((node) => {
          const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
          let around: Element | null = null;
          for (let up = node.parentElement, level = 0; text && up && !around && level < cut.levels; up = up.parentElement, level++) {
            const holds = cut.attributes.some((name) => (up?.getAttribute(name) ?? '').replace(/\s+/g, ' ').includes(text));
            if (holds && new RegExp(cut.ellipsis).test(up.textContent ?? '')) around = up;
          }
          return [node, around].flatMap((shown): ShownText[] =>
            shown ? [[shown.textContent ?? '', document.evaluate(wholeOf, shown, null, XPathResult.STRING_TYPE, null).stringValue]] : []
          ) as [ShownText, ShownText?];
        }),
    [WHOLE_OF_CUT_TEXT, AROUND_CUT_TEXT] as const,
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
    .filter(([[text, whole]]) => shownName(text, whole) !== text);
  return [...texts, ...wholes].map(([own, around]) => nameIn(own, around).replace(/\s+/g, ' ').trim())
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
  return texts.some(([[text, whole], around]) => nameIn([text.trim(), whole], around) === name);
}
