/**
 * Alternative UIs of the sandbox (test mode), for showing that the contract
 * suite relies only on what contract 5.3 documents. Every variant keeps the
 * documented labels and steps; everything the contract leaves open differs:
 * markup of controls, dialogs, the Scope field, lists and their pages, long
 * names (whole or cut short), the displayed value, the confirmation, the case
 * the markup writes the labels in, the login form's wording, kind, pages and
 * way in, and whether the service asks to log in again.
 */

/** How one UI renders what the contract leaves open. */
export interface UiStyle {
  /** Login form wording: user field, password field, submit button. */
  readonly login: { readonly user: string; readonly password: string; readonly submit: string };
  /** "Tokens and sessions" and "New permanent token" as buttons or links. */
  readonly entry: 'button' | 'link';
  /** The top navigation: links in `<nav>`, buttons in `<nav>`, ARIA tabs without `<nav>`, or an ARIA menu bar without `<nav>`. */
  readonly nav: 'links' | 'buttons' | 'tabs' | 'menu';
  /**
   * The creation form: a `<dialog>`, a `role=dialog` element, an in-page
   * panel, or a page of its own that "New permanent token" links to, and
   * that Done and Cancel leave for the list.
   */
  readonly form: 'dialog' | 'role-dialog' | 'panel' | 'page';
  /** The created value: a labelled `<code>`, a read-only input, a `<pre>`, or in a sentence (`Your token: <value>`, one text). */
  readonly value: 'labelled' | 'input' | 'pre' | 'sentence';
  /**
   * The token list: a table with the name first, a table with the creation
   * date first, a list whose items start with the name as their own text, or
   * plain boxes without list semantics (the name in a heading).
   */
  readonly list: 'table' | 'dated-table' | 'list' | 'cards';
  /**
   * How the list shows a long name: whole, or cut short by the server to its first characters and an ellipsis, the
   * whole name in the tooltip (`title`) of the part that shows it.
   */
  readonly names: 'whole' | 'cut';
  /** How an entry shows its token's state: a word ("Active", "Revoked"), or an icon named only by its `aria-label` and `title`. */
  readonly status: 'word' | 'icon';
  /**
   * Where revoked tokens show: in the list, marked; unmarked, after the active ones, in a collapsed `<details>`
   * whose summary says "Revoked tokens (N)"; marked, after the active ones, hidden until a "Show revoked tokens"
   * checkbox is checked; or unmarked, in the panel of a "Revoked (N)" tab beside an "Active (N)" one (ARIA tabs,
   * no "All"), the Active tab chosen on each visit; or marked, shown by a filter offered as links "All | Active |
   * Revoked" that marks the current one by a class alone (`?status=`, Active when none is asked for).
   */
  readonly revokedIn: 'list' | 'collapsed' | 'hidden' | 'tabs' | 'filter-links';
  /**
   * The token list's pages: all tokens on one page, newest first; or five to
   * a page, oldest first, with "« First", "‹ Previous" and "Next ›" in a
   * `<nav>`; or the oldest five first, and a "Load more" button that adds the
   * next five; or the oldest five first in a box that scrolls, whose script fetches the next five when the box is
   * scrolled to its end ("infinite scrolling"); or five to a page, oldest first, with only "Next ›", as a pager over
   * a cursor offers: no way back but the list's first address.
   */
  readonly pages: 'one' | 'paged' | 'more' | 'scroll' | 'next-only';
  /** The creation form's field labels: tied to their inputs by `for`, or only written before them. */
  readonly fieldLabels: 'for' | 'beside';
  /** The Scope field: a text input, or a `<select>` of the services, each choice showing the service's name with its id as value. */
  readonly scopeField: 'text' | 'select';
  /** The list of added scopes: each scope alone, or as a chip with a control that removes it. */
  readonly scopes: 'plain' | 'chips';
  /** The revocation confirmation: the browser's `confirm()` or an in-page dialog with OK / Cancel. */
  readonly confirm: 'native' | 'inline';
  /** Errors as `role=alert` or as plain visible text. */
  readonly error: 'alert' | 'text';
  /** Ask to log in again once, right after "Tokens and sessions". */
  readonly reloginMidway: boolean;
  /**
   * How the markup writes the documented labels: as documented, or in another
   * case (the navigation in title case shown upper-case by CSS, the other
   * controls upper-case) with required-field marks (`Name *`), or beside a
   * symbol written as text, as an icon (`＋ New permanent token`, `Create ›`),
   * each token's Revoke button named for its token by `aria-label`; or as documented, each token's Revoke button
   * saying more in words hidden from sight (`Revoke<span class="visually-hidden"> the token “nightly”</span>`).
   */
  readonly labels: 'documented' | 'other-case' | 'decorated' | 'hidden-words';
  /**
   * The login form: a `<form>` posted by the browser, or a script's inputs
   * without a form, below a search field, kept as a React app keeps
   * controlled inputs (its state changes only through input events), posted
   * by the script.
   */
  readonly loginForm: 'form' | 'script';
  /**
   * The login's pages (of a `<form>` login): user name and password on one
   * page, or the user name first and the password on the page it leads to
   * (an identifier-first login, as many single sign-on services have).
   */
  readonly loginSteps: 'one-page' | 'user-first';
  /** What `{auth_url}/` shows without a session: the login form, or a landing page whose "Sign in" link leads to it. */
  readonly loginStart: 'form' | 'landing';
}

/** The sandbox's own UI, variant 0. */
const OWN_UI: UiStyle = {
  login: { user: 'Username', password: 'Password', submit: 'Log in' },
  entry: 'button',
  nav: 'links',
  form: 'dialog',
  value: 'labelled',
  list: 'table',
  names: 'whole',
  status: 'word',
  revokedIn: 'list',
  pages: 'one',
  scopes: 'plain',
  scopeField: 'text',
  fieldLabels: 'for',
  confirm: 'native',
  error: 'alert',
  reloginMidway: false,
  labels: 'documented',
  loginForm: 'form',
  loginSteps: 'one-page',
  loginStart: 'form',
};

/**
 * Variant 0 is the sandbox's own UI; 1–3 differ from it in everything the contract leaves open; 4 is variant 0 with
 * its revoked tokens in a tab of their own, the value, confirmation and list of other variants, and words hidden from
 * sight in its Revoke buttons; 5 is variant 0 with a filter of links and a list in items that grows as it is
 * scrolled; 6 is variant 0 with pages that offer only "Next", and its labels beside symbols.
 */
export const UI_VARIANTS: readonly UiStyle[] = [
  OWN_UI,
  {
    login: { user: 'E-mail or login', password: 'Your password', submit: 'Sign in' },
    entry: 'link',
    nav: 'buttons',
    form: 'page',
    value: 'sentence',
    list: 'list',
    names: 'whole',
    status: 'word',
    revokedIn: 'collapsed',
    pages: 'paged',
    scopes: 'chips',
    scopeField: 'text',
    fieldLabels: 'for',
    confirm: 'inline',
    error: 'text',
    reloginMidway: false,
    labels: 'documented',
    loginForm: 'form',
    loginSteps: 'one-page',
    loginStart: 'landing',
  },
  {
    login: { user: 'Login', password: 'Pass phrase', submit: 'Continue' },
    entry: 'link',
    nav: 'menu',
    form: 'panel',
    value: 'input',
    list: 'dated-table',
    names: 'cut',
    status: 'icon',
    revokedIn: 'list',
    pages: 'more',
    scopes: 'plain',
    scopeField: 'text',
    fieldLabels: 'beside',
    confirm: 'native',
    error: 'text',
    reloginMidway: true,
    labels: 'other-case',
    loginForm: 'form',
    loginSteps: 'user-first',
    loginStart: 'form',
  },
  {
    login: { user: 'User name', password: 'Password', submit: 'Enter' },
    entry: 'button',
    nav: 'tabs',
    form: 'role-dialog',
    value: 'pre',
    list: 'cards',
    names: 'whole',
    status: 'word',
    revokedIn: 'hidden',
    pages: 'one',
    scopes: 'plain',
    scopeField: 'select',
    fieldLabels: 'for',
    confirm: 'inline',
    error: 'alert',
    reloginMidway: true,
    labels: 'documented',
    loginForm: 'script',
    loginSteps: 'one-page',
    loginStart: 'form',
  },
  { ...OWN_UI, value: 'pre', list: 'dated-table', revokedIn: 'tabs', confirm: 'inline', labels: 'hidden-words' },
  { ...OWN_UI, list: 'list', revokedIn: 'filter-links', pages: 'scroll' },
  { ...OWN_UI, pages: 'next-only', labels: 'decorated' },
];

/** A variant number, 0 (the default UI) to 6. */
export type UiVariant = 0 | 1 | 2 | 3 | 4 | 5 | 6;
