/**
 * How the entries of a token list say what they are, as conditions on the
 * page's markup: shown as revoked (a word, an icon, a part of the page titled
 * "Revoked…"), a table's header row, a navigation's item.
 */

/** How an entry says its token is revoked. */
export const REVOKED = /revoked/i;

/** A mark that says only that: a status badge, not help text that mentions revoking. */
export const REVOKED_MARK = /^\s*revoked\s*$/i;

/** Headings of a part of the page: `<h1>`–`<h6>`, `role=heading`, a table's caption, a fieldset's legend, a `<details>`'s summary. */
const HEADING =
  'self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6 or @role="heading" or self::caption or self::legend or self::summary';

/** The XPath condition that an element is a table's header row: it holds column headers and no cell. */
export const HEADER_ROW = '(.//th or .//*[@role="columnheader"]) and not(.//td or .//*[@role="cell" or @role="gridcell"])';

/** The XPath condition that a text starts with "revoked", in any case, after spaces. */
const startsRevoked = (text: string) => `starts-with(translate(normalize-space(${text}), "REVOKED", "revoked"), "revoked")`;

/**
 * The XPath condition that an element stands in a part of the page titled "Revoked…" ("Revoked tokens", "Revoked
 * (3)"): a part labelled so (by `aria-label`, or by `aria-labelledby` as a tab labels its panel), that starts with a
 * heading that says so, or whose nearest heading before it among its siblings says so; or the whole page, while the
 * view it shows is one so titled (its chosen tab, or its link marked `aria-current`). A title that only mentions
 * revoking ("Tokens (revoked ones are kept)") does not count.
 */
export const IN_REVOKED_PART = `ancestor-or-self::*[${startsRevoked('@aria-label')} or id(@aria-labelledby)[${startsRevoked('.')}] or ` +
  `*[1][${HEADING}][${startsRevoked('.')}] or preceding-sibling::*[${HEADING}][1][${startsRevoked('.')}]] or ` +
  `//*[@role="tab" and @aria-selected="true" or self::a and @aria-current and @aria-current!="false"][${startsRevoked('.')}]`;

/**
 * The XPath condition that an element is part of a navigation: in a `<nav>`, a navigation, tab list or menu, or an
 * item of a list whose items lead to views, one of them "Revoked…" and one marked as the current one
 * (`<li><a aria-current>`). A list of tokens whose links lead to each token, the one shown marked current, is no
 * navigation.
 */
export const IN_NAVIGATION = 'ancestor::nav or ancestor::*[@role="navigation" or @role="tablist" or @role="menu" or @role="menubar"] or ' +
  `parent::*[*/a[@aria-current and @aria-current!="false"]][*/a[${startsRevoked('.')}]]`;

/**
 * An icon that says "revoked" by its `aria-label`, `title` or `alt` alone (a status shown as a symbol); never
 * a control, whose tooltip may tell what revoking does.
 */
export const REVOKED_ICON =
  ':is([aria-label*="revoked" i], [title*="revoked" i], img[alt*="revoked" i]):not(button, a, [role=button], [role=link])';
