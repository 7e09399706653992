/**
 * How the entries of a token list say what they are, as conditions on the
 * page's markup: shown as revoked (a word, an icon, a part of the page titled
 * "Revoked…"), a table's header row and Name column, a state's badge, a
 * navigation's item.
 */

/** How an entry says its token is revoked. */
export const REVOKED = /revoked/i;

/** A view's or filter's choice that shows the revoked tokens ("Revoked", "Revoked (3)"). */
export const REVOKED_VIEW = /^\s*revoked\b/i;

/** A mark that says only that: a status badge, not help text that mentions revoking. */
export const REVOKED_MARK = /^\s*revoked\s*$/i;

/** Headings of a part of the page: `<h1>`–`<h6>`, `role=heading`, a table's caption, a fieldset's legend, a `<details>`'s summary. */
const HEADING =
  'self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6 or @role="heading" or self::caption or self::legend or self::summary';

/** The XPath condition that an element is a table's header row: it holds column headers and no cell. */
export const HEADER_ROW = '(.//th or .//*[@role="columnheader"]) and not(.//td or .//*[@role="cell" or @role="gridcell"])';

/** From inside a table or grid, its column header that says "Name" (in any case). */
const NAME_HEADER = 'ancestor::*[self::table or @role="table" or @role="grid"][1]//*[self::th or @role="columnheader"]' +
  '[translate(normalize-space(), "NAME", "name") = "name"][1]';

/**
 * The XPath condition that an element stands in no cell of another column than "Name", in a table that has one: a
 * token's name shows there, and the same text in another column (a scope, a date, a state, a control) is no name.
 */
export const NOT_IN_ANOTHER_COLUMN = 'not(ancestor-or-self::*[self::td or self::th or @role="cell" or @role="gridcell" or ' +
  `@role="rowheader"][1][${NAME_HEADER}][count(preceding-sibling::*) != count(${NAME_HEADER}/preceding-sibling::*)])`;

/** The XPath condition that an element's whole text is not a state ("Active", "Revoked"): a badge names no token. */
export const NOT_A_STATE = 'not(translate(normalize-space(), "ACTIVEROKD", "activerokd") = "active" or ' +
  'translate(normalize-space(), "ACTIVEROKD", "activerokd") = "revoked")';

/** The XPath condition that a text starts with "revoked", in any case, after spaces. */
const startsRevoked = (text: string) => `starts-with(translate(normalize-space(${text}), "REVOKED", "revoked"), "revoked")`;

/**
 * The XPath condition that an element stands in a part of the page titled "Revoked…" ("Revoked tokens", "Revoked
 * (3)"): a part labelled so (by `aria-label`, or by `aria-labelledby` as a tab labels its panel), that starts with a
 * heading that says so, or whose nearest heading before it among its siblings says so (a table row or list item has
 * no heading among its siblings: theirs are not read, thousands of rows each). A title that only mentions revoking
 * ("Tokens (revoked ones are kept)") does not count.
 */
export const IN_TITLED_PART = `ancestor-or-self::*[${startsRevoked('@aria-label')} or id(@aria-labelledby)[${startsRevoked('.')}] or ` +
  `*[1][${HEADING}][${startsRevoked('.')}] or ` +
  `not(self::tr or self::li) and preceding-sibling::*[${HEADING}][1][${startsRevoked('.')}]]`;

/**
 * Classes by which a stylesheet marks the current link or its list item, where no `aria-current` does: Bootstrap's
 * `active`, Bulma's `is-active`, and their like.
 */
const CURRENT_CLASSES = ['active', 'current', 'selected', 'is-active', 'is-current', 'is-selected'];

/** The CSS condition that an element has one of {@link CURRENT_CLASSES}. */
const CURRENT_CLASS = `:is(${CURRENT_CLASSES.map((name) => `.${name}`).join(', ')})`;

/**
 * A CSS selector of an element marked as the one showing among its like (a pager's page): by `aria-current`, a class (see
 * {@link CURRENT_CLASSES}), pressed, selected or disabled.
 */
export const CURRENT_MARK =
  `[aria-current]:not([aria-current="false"]), ${CURRENT_CLASS}, [aria-pressed="true"], [aria-selected="true"], ` +
  ':disabled, [aria-disabled="true"]';

/** A CSS selector of a link marked as the one to the page showing: by `aria-current`, or by a class on it or its list item. */
export const CURRENT_LINK = `a[aria-current]:not([aria-current="false"]), a${CURRENT_CLASS}, :is(li, [role=listitem])${CURRENT_CLASS} > a`;

/** From a link, the group of links it stands in: the nearest list or navigation around it. */
export const LINK_GROUP = 'xpath=ancestor::*[self::ul or self::ol or self::nav or @role="navigation" or @role="list"][1]';

/** The XPath condition that an element has one of {@link CURRENT_CLASSES}. */
const HAS_CURRENT_CLASS = CURRENT_CLASSES.map((name) => `contains(concat(" ", normalize-space(@class), " "), " ${name} ")`).join(' or ');

/** The XPath condition that an element is a link selected by {@link CURRENT_LINK}. */
const IS_CURRENT_LINK = `self::a[@aria-current and @aria-current!="false" or ${HAS_CURRENT_CLASS} or ` +
  `parent::*[self::li or @role="listitem"][${HAS_CURRENT_CLASS}]]`;

/** The most links that a group of links to views holds: a navigation bar around a "Revoked" link is no such group. */
export const MAX_VIEW_LINKS = 6;

/** The XPath condition that an element is in a page's banner (`<header>`, `role=banner`), where an account menu is. */
export const IN_BANNER = 'ancestor::header or ancestor::*[@role="banner"]';

/**
 * The XPath condition that a list's items lead to views, the one showing as plain text where the others are links, as a
 * server renders tabs without marking them (`<li><b>Active</b></li><li><a>Revoked (1)</a></li>`): two to
 * {@link MAX_VIEW_LINKS} items, each one link and nothing more or a text with no link, one of them such a text, one of
 * them starting "Revoked…", and no control among them (a list of tokens has Revoke controls).
 */
const TEXT_VIEWS = `*[2] and not(*[${MAX_VIEW_LINKS + 1}]) and not(*[not(self::li or @role="listitem")]) and ` +
  `count(*[not(.//a)]) = 1 and *[not(.//a)][normalize-space()] and ` +
  `not(*[count(.//a) > 1 or .//a and normalize-space(.) != normalize-space(.//a)]) and ` +
  `*[${startsRevoked('.')}] and not(.//button or .//input or .//select or .//textarea or .//*[@role="button"])`;

/** A locator selector of the lists of {@link TEXT_VIEWS}, in the page's order. */
export const TEXT_VIEW_LISTS = `xpath=//*[${TEXT_VIEWS}]`;

/**
 * A CSS selector of a toggle that chooses one view or filter among others: a button pressed or not, a radio button.
 * A native radio button hidden from assistive technology is none: it follows an ARIA one's state for a form (Radix UI).
 */
export const TOGGLE = '[aria-pressed], [role=radio], input[type=radio]:not([aria-hidden="true"])';

/** A CSS selector of a chosen {@link TOGGLE}: pressed, or checked. */
export const TOGGLED = '[aria-pressed="true"], [role=radio][aria-checked="true"], input[type=radio]:checked';

/** From a toggle, the group of toggles it stands in: the nearest element around it that holds another. */
export const TOGGLE_GROUP = 'xpath=ancestor::*[count(.//*[@aria-pressed or @role="radio" or ' +
  'self::input[@type="radio" and not(@aria-hidden="true")]]) > 1][1]';

/**
 * The XPath condition that no sibling of an element is a button pressed or an ARIA radio button checked, as chips that
 * filter together are when two are pressed and show more than one view. (A native radio button's checked state is no
 * attribute, so XPath cannot read it.)
 */
const NONE_BESIDE = 'not(../*[@aria-pressed="true" or @role="radio" and @aria-checked="true"][2])';

/** The XPath condition that a list item says "Revoked…" as the plain text among links to views (see {@link TEXT_VIEWS}). */
const TEXT_VIEW_ITEM = `${startsRevoked('.')} and not(.//a) and parent::*[${TEXT_VIEWS}]`;

/**
 * The XPath condition, of the page, that the view it shows is titled "Revoked…": its chosen tab, its current link
 * (see {@link CURRENT_LINK}), the plain text among links to views (see {@link TEXT_VIEWS}), or its button pressed or
 * ARIA radio button checked, the only one among its siblings. The conditions on `role` are read only where it is set:
 * each attribute read costs a scan of the whole page, thousands of elements, and the scan runs for each entry looked at.
 */
export const REVOKED_VIEW_SHOWN = '//*[@role and (@role="tab" and @aria-selected="true" or ' +
  `@role="radio" and @aria-checked="true" and ${NONE_BESIDE} or @role="listitem" and ${TEXT_VIEW_ITEM}) or ` +
  `${IS_CURRENT_LINK} or @aria-pressed="true" and ${NONE_BESIDE} or self::li and ${TEXT_VIEW_ITEM}][${startsRevoked('.')}]`;

/** The XPath condition that an element stands in a part titled "Revoked…", the whole page while such a view shows. */
export const IN_REVOKED_PART = `${IN_TITLED_PART} or ${REVOKED_VIEW_SHOWN}`;

/** The XPath condition that an element is in a navigation: a `<nav>`, a navigation, tab list or menu. */
export const IN_NAV = 'ancestor::nav or ancestor::*[@role="navigation" or @role="tablist" or @role="menu" or @role="menubar"]';

/**
 * The XPath condition that a list's items lead to views: one of their links "Revoked…" and one marked as the current
 * one (see {@link CURRENT_LINK}), or the one showing as plain text (see {@link TEXT_VIEWS}). A list of tokens whose
 * links lead to each token, the one shown marked current, is no such list.
 */
export const VIEW_LINKS = `*/a[${IS_CURRENT_LINK}] and */a[${startsRevoked('.')}] or ${TEXT_VIEWS}`;

/** The XPath condition that an element is part of a navigation: in one, or an item of a list of links to views. */
export const IN_NAVIGATION = `${IN_NAV} or parent::*[${VIEW_LINKS}]`;

/**
 * An icon that says "revoked" by its `aria-label`, `title` or `alt` alone (a status shown as a symbol); never
 * a control, whose tooltip may tell what revoking does.
 */
export const REVOKED_ICON =
  ':is([aria-label*="revoked" i], [title*="revoked" i], img[alt*="revoked" i]):not(button, a, [role=button], [role=link])';
