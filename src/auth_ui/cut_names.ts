/**
 * Names a list shows cut short (`contract-test run=2026…`, `contract…d ab12`) with the whole name in an attribute
 * (a tooltip's `title`, an `aria-label`): how the page objects find an entry by its whole name and read the whole
 * name back. A name cut by a stylesheet (`text-overflow: ellipsis`) is whole in the page's text and needs none of this.
 */
import type { JSHandle, Locator, Page } from '@playwright/test';

/**
 * The attributes that give an element's text whole when it shows it cut short: a tooltip's `title` (Bootstrap's
 * tooltips move it to `data-bs-original-title`, `data-original-title` before version 5) and an `aria-label`.
 */
const WHOLE_TEXT_ATTRIBUTES = ['title', 'aria-label', 'data-bs-original-title', 'data-original-title'];

/** The marks that stand for what was cut out of a text: an ellipsis, or three full stops. */
const ELLIPSIS = /…|\.\.\./;

/** The XPath condition that an element's text holds an ellipsis (or three full stops). */
const HOLDS_ELLIPSIS = 'contains(., "…") or contains(., "...")';

/** The XPath step, from an element, to its attributes that may give its text whole ({@link WHOLE_TEXT_ATTRIBUTES}). */
const WHOLE_TEXT = `@*[${WHOLE_TEXT_ATTRIBUTES.map((name) => `name()="${name}"`).join(' or ')}]`;

/**
 * The XPath condition that an element shows a text cut short and gives it whole in one of its attributes
 * ({@link WHOLE_TEXT_ATTRIBUTES}): its text holds an ellipsis, and the attribute, spaces collapsed, is the text.
 *
 * @param literal the whole text, as an XPath string literal with its spaces collapsed
 * @returns the condition
 */
export function givesWhole(literal: string): string {
  // The attribute first: XPath leaves the right side of `and` out when the left is false, and most elements have none.
  return `${WHOLE_TEXT}[normalize-space(.)=${literal}] and (${HOLDS_ELLIPSIS})`;
}

/**
 * Elements that show a text cut short and give it whole in an attribute, found by CSS, which Playwright takes into
 * open shadow roots (where XPath does not go): the attribute exactly the text.
 *
 * @param scope where to look
 * @param text the whole text; none, for every text given whole
 * @returns the locator
 */
export function cutShortIn(scope: Page | Locator, text?: string): Locator {
  const value = text === undefined ? '' : `="${text.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ')}"`;
  return scope.locator(WHOLE_TEXT_ATTRIBUTES.map((name) => `[${name}${value}]`).join(', ')).filter({ hasText: ELLIPSIS });
}

/**
 * The XPath expression, read as a string from an element or a text, of the whole text given for its first text that
 * holds an ellipsis, by the element around that text or the nearest one around it: the whole name of a cell, an
 * item or a text that shows it cut short. Empty when no text holds an ellipsis or no attribute gives a whole text.
 */
const WHOLE_OF_CUT_TEXT = `string(((descendant-or-self::text()[${HOLDS_ELLIPSIS}])[1]/ancestor::*/${WHOLE_TEXT})[last()])`;

/** A text read in the page, with the whole text an attribute gives for it ({@link WHOLE_OF_CUT_TEXT}; `''` when none). */
type ShownText = readonly [text: string, whole: string];

/** Nodes of the page whose names {@link namesShown} reads, each with the element it stays inside (its row), kept there. */
export interface ShownNodes {
  shown: (readonly [node: Node | null, within: Node | null])[];
}

/** A text the page shows, trimmed, and the name it shows ({@link nameIn}). */
export interface ShownName {
  readonly text: string;
  readonly name: string;
}

/**
 * The names some nodes of the page show, read there in one pass: each node's text, with the whole text an attribute
 * gives where it is cut short ({@link WHOLE_OF_CUT_TEXT}), and the same for the element around it that shows a name
 * cut short, its ellipsis an element of its own (`nightly build for t<span>…</span>`), where there is one: two levels
 * up at most and inside the element the node stays inside, one of whose attributes holds the text, spaces collapsed,
 * and whose text holds an ellipsis. The attribute is checked first: an element as high as the list
 * (`<ul aria-label="Tokens">`) holds every name's text, and reading it for each name took seconds on a list of 3000.
 *
 * @param nodes the nodes (none: no text)
 * @returns each node's text and name, in the nodes' order
 */
export async function namesShown(nodes: JSHandle<ShownNodes>): Promise<ShownName[]> {
  const read = await nodes.evaluate(
    ({ shown }, [wholeOf, attributes, ellipsis]) => {
      const cut = new RegExp(ellipsis);
      return shown.map(([node, within]) => {
        const text = (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
        let around: Element | null = null;
        for (let up = node?.parentElement, level = 0; text && up && up !== within && !around && level < 2; up = up.parentElement, level++) {
          const holds = attributes.some((name) => (up?.getAttribute(name) ?? '').replace(/\s+/g, ' ').includes(text));
          if (holds && cut.test(up.textContent ?? '')) around = up;
        }
        return [node, around].map((shown): ShownText | undefined =>
          shown
            ? [(shown.textContent ?? '').trim(), document.evaluate(wholeOf, shown, null, XPathResult.STRING_TYPE, null).stringValue]
            : undefined
        );
      });
    },
    [WHOLE_OF_CUT_TEXT, WHOLE_TEXT_ATTRIBUTES, ELLIPSIS.source] as const,
  );
  return read.map(([own = ['', ''], around]) => ({ text: own[0], name: nameIn(own, around) }));
}

/**
 * The name a text shows: the name the element around it shows ({@link namesShown}), when that is a name cut short
 * ({@link shownName}); else the text's own.
 *
 * @param own the text
 * @param around the text of the element around it, where there is one
 * @returns the name, as {@link shownName} gives it
 */
export function nameIn(own: ShownText, around?: ShownText): string {
  const name = around && shownName(...around);
  if (name !== undefined && name !== around?.[0]) return name;
  return shownName(...own);
}

/**
 * The name an element shows: the whole text an attribute gives, when the element's text is that text cut short (it
 * holds an ellipsis, and what stands before the first and after the last begins and ends the whole text, spaces
 * collapsed); else the text itself.
 *
 * @param shown the element's text
 * @param whole the whole text an attribute gives (`''` when none does)
 * @returns the attribute's text, trimmed, or the text as given
 */
export function shownName(shown: string, whole: string): string {
  const [text, full] = [shown, whole].map((value) => value.replace(/\s+/g, ' ').trim()) as [string, string];
  if (!ELLIPSIS.test(text)) return shown;
  const parts = text.split(ELLIPSIS).map((part) => part.trim());
  const [first, last] = [parts[0] ?? '', parts.at(-1) ?? ''];
  return full.length > parts.join('').length && full.startsWith(first) && full.endsWith(last) ? whole.trim() : shown;
}
