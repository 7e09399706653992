/**
 * How the page objects match a documented label or a shown text: a label as a
 * pattern (whole, in any case, beside symbols and a count), and as XPath
 * conditions, an element that shows a text and what an element shows as its
 * label once words set aside (hidden from sight, icons' words) are left out.
 */
import { givesWhole } from './cut_names.ts';

/**
 * What may stand around a label: spaces, punctuation and symbols (an icon written as text, "＋", "›", a required mark
 * "*", a colon), and the marks that join emoji: variation selectors (`🗑️` is 🗑 and U+FE0F), the zero-width joiner
 * (`👩‍💻`), the keycap (`#️⃣`) and tags (subdivision flags).
 */
const AROUND = '[\\s\\p{P}\\p{S}\\u200d\\ufe0e\\ufe0f\\u20e3\\u{e0020}-\\u{e007f}]*';

/**
 * A documented label as a pattern: the whole text, in any case, with
 * spaces, punctuation and symbols around it (`＋ New permanent token`,
 * `Create ›`, `Name *`, `Scope:`) and a count after it, as a badge shows one
 * (`Tokens 3`, `Tokens (3)`); never with another word.
 *
 * @param text the label as contract 5.3 writes it
 * @returns the pattern
 */
export function labelled(text: string): RegExp {
  const escaped = escapeRegExp(text).replace(/ /g, '\\s+');
  return new RegExp(`^${AROUND}${escaped}${AROUND}(?:\\d+${AROUND})?$`, 'iu');
}

/**
 * A text as a pattern that matches it literally.
 *
 * @param text the text
 * @returns the pattern's source
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Classes whose words are not what a control shows as its label: those that hide an element from sight and not from
 * screen readers (Bootstrap's `visually-hidden`, Tailwind's `sr-only`, GOV.UK's `govuk-visually-hidden`, WordPress's
 * `screen-reader-text`, Salesforce's `slds-assistive-text`, PrimeFaces' `p-hidden-accessible`, and their like), and
 * icon fonts that draw a word as a symbol (Google's Material Icons and Symbols, `<span class="material-icons">delete</span>`).
 * (A stylesheet's effect is no attribute: XPath reads the class, and an inline style.)
 */
const ASIDE_CLASSES = [
  'visually-hidden',
  'visuallyhidden',
  'sr-only',
  'screen-reader',
  'assistive-text',
  'hidden-accessible',
  'material-icons',
  'material-symbols',
];

/**
 * Inline styles that hide an element from sight and not from screen readers, spaces left out: a clipped rectangle or
 * a clip path inset by half, as React Aria's and Reach UI's `VisuallyHidden` write them on the element.
 */
const ASIDE_STYLES = ['clip:rect(', 'clip-path:inset(50%)'];

/**
 * The XPath condition that an element's words are not what a control shows as its label: it has a class of
 * {@link ASIDE_CLASSES} or a style of {@link ASIDE_STYLES}, or is a drawing (an `<svg>`, whose `<title>` is text) or
 * Angular Material's `<mat-icon>`.
 */
const ASIDE = `${ASIDE_CLASSES.map((part) => `contains(@class, "${part}")`).join(' or ')} or ` +
  `${ASIDE_STYLES.map((part) => `contains(translate(@style, " ", ""), "${part}")`).join(' or ')} or ` +
  'local-name()="svg" or local-name()="mat-icon"';

/**
 * Symbols a shown label may stand beside, as {@link AROUND} allows (XPath 1.0 knows no classes of characters), with
 * the variation selectors and joiner that emoji carry (`✖️` is ✖ and U+FE0F).
 */
const SYMBOLS = '+＋›»→←‹«*:•·…|–—×✕✖✓✔✚➕⊕⊖<>\u200d\ufe0e\ufe0f';

/** The letters XPath 1.0 lowers (`translate`), in capitals and in small letters. */
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/**
 * The XPath condition that what an element shows as its label is a label, in any case, where words set aside from it
 * ({@link ASIDE}) say more: to screen readers (`Revoke<span class="visually-hidden"> the token nightly</span>`, as
 * GOV.UK's design system names each row's action) or as an icon's name (`<span class="material-icons">delete</span>Revoke`).
 * It holds such words, and one text outside them, the label, beside {@link SYMBOLS} (`＋ Revoke`, `<b>×</b> Revoke`).
 *
 * @param label the label as contract 5.3 writes it
 * @returns the condition
 */
export function seesOnly(label: string): string {
  // A text of symbols alone, or a field's own text (a `<select>`'s choices, in a `<label>` around it), is no word of it.
  const words = `normalize-space(translate(., "${SYMBOLS}", "${' '.repeat([...SYMBOLS].length)}"))`;
  const seen = `.//text()[${words}][not(ancestor::*[${ASIDE}] or ancestor::select or ancestor::textarea)]`;
  return `.//*[${ASIDE}] and count(${seen}) = 1 and ` +
    `${seen}[translate(${words}, "${UPPER}", "${LOWER}") = ${xpathText(label.toLowerCase())}]`;
}

/**
 * The XPath condition that an element says a label as a word, in any case, in its text or by its `aria-label`, `title`
 * or `value`: the label followed by no letter ("Revoke token", not "Revoked"). Looser and cheaper than
 * {@link labelled}, for a look over the whole page.
 *
 * @param label the label as contract 5.3 writes it
 * @returns the condition
 */
export function saysWord(label: string): string {
  const said = `translate(concat(normalize-space(.), " ", @aria-label, " ", @title, " ", @value, " "), "${UPPER}", "${LOWER}")`;
  const word = xpathText(label.toLowerCase());
  // What follows the label is never empty: the text ends with a space.
  return `contains(${said}, ${word}) and not(contains("${LOWER}", substring(substring-after(${said}, ${word}), 1, 1)))`;
}

/**
 * The XPath condition that an element shows a text: as its whole text, as one of its own texts beside other
 * elements (`<li>name <button>×</button></li>`), or cut short with the whole text in an attribute ({@link givesWhole});
 * spaces compared collapsed, case as given.
 *
 * @param text the text
 * @returns the condition
 */
export function showsText(text: string): string {
  const literal = xpathText(text);
  return `normalize-space(.)=${literal} or text()[normalize-space(.)=${literal}] or (${givesWhole(literal)})`;
}

/**
 * A text as an XPath 1.0 string literal, whatever quotes it holds, with its
 * spaces collapsed as `normalize-space()` collapses them.
 *
 * @param text the text
 * @returns the literal
 */
function xpathText(text: string): string {
  const normal = text.replace(/[ \t\r\n]+/g, ' ').trim();
  if (!normal.includes("'")) return `'${normal}'`;
  if (!normal.includes('"')) return `"${normal}"`;
  return `concat(${normal.split("'").map((part) => `'${part}'`).join(`, "'", `)})`;
}
