/**
 * The token list of contract 5.3 as the TOKENS page shows it: a token's
 * entries by its exact name, in a table, a list or boxes of any markup, on
 * one page or across pages and views; the entries shown as revoked; the names
 * of all, or those like a pattern.
 */
import type { Locator, Page } from '@playwright/test';
import { systemClock } from '../clock.ts';
import { anyOf } from './alternatives.ts';
import { everyControl, loaded, visibleNow } from './controls.ts';
import { showsText } from './label_match.ts';
import * as marks from './list_marks.ts';
import { namesHere, showsName } from './list_names.ts';
import { type ListedToken, revokeControls, tokensHere } from './list_rows.ts';
import { atFirstPage, fromHere } from './list_pages.ts';
import { countFresh } from './list_parts.ts';
import { everyView } from './list_views.ts';
import { keptInMenu, mayMount, withoutControl } from './menus.ts';
import { showing } from './shown_text.ts';

/** The token list of the page showing. */
export class TokenList {
  readonly page: Page;

  /** @param page a browser page on the TOKENS page */
  constructor(page: Page) {
    this.page = page;
  }

  /**
   * The list entries of a token, by its exact name: for each visible element that shows the name (as its whole text, or as its own text
   * before other elements; in a table with a Name column, only in that column, as the same text in another, a scope or a state, is no
   * name; nor is a badge whose whole text is a state, "Active" or "Revoked"), the innermost element around it that holds a Revoke
   * control (shown, or kept in its closed menu) or, on a page with no Revoke control at all, a closed menu that may mount one
   * ({@link mayMount}), says "revoked" (in its text or by an icon's label) or stands in a part of the page titled "Revoked…".
   * That is a table row, a list item or a box of any markup (in a part titled so, the element that shows the name).
   * An entry holds one token: an element that holds a list or table with a Revoke control, or two Revoke controls, is a list around
   * other tokens' entries (the name shown beside it, as in "Token <b>name</b> created"), never the name's entry.
   *
   * @param name the token's name
   * @returns the entries' locator
   */
  row(name: string): Locator {
    // One pass for the marks: a Revoke control, a menu that may mount one, an icon that says "revoked", or the element
    // itself in a part titled so.
    const mark = this.#anyRevoke().or(this.#mayMount()).or(this.#revokedMark());
    const marked = (elements: Locator) => anyOf(elements, (self) => self.filter({ has: mark }), saysRevoked);
    // Innermost: none of its children both shows the name and holds a mark (a deeper entry would then exist).
    const inner = marked(this.page.locator(`xpath=./*[descendant-or-self::*[${showsText(name)}]]`));
    // An entry is around a name that shows (not one in a hidden view), and small: larger elements (the list, the
    // page) are passed over before their marks are looked for.
    const names = showing(this.page, name).locator(`xpath=self::*[${marks.NOT_IN_ANOTHER_COLUMN}][${marks.NOT_A_STATE}]`);
    const around = names.filter({ visible: true }).locator(`xpath=ancestor-or-self::*[count(.//*) <= ${ENTRY_ELEMENTS}]`);
    const lists = this.page.locator('table, ul, ol, [role=table], [role=grid], [role=list]').filter({ has: this.#revoke() });
    return marked(around.filter({ hasNot: inner }).filter({ hasNot: lists }).filter({ hasNot: everyControl(this.page, 'Revoke').nth(1) }));
  }

  /**
   * The entries of a token that are still active: those with a Revoke control, shown or kept in their closed menu, and
   * those with a closed menu that may mount one ({@link mayMount}) that do not say "revoked" (in their text or by an
   * icon's label).
   * @param name the token's name
   * @returns the entries' locator
   */
  active(name: string): Locator {
    // In one look for entries (each costs a look over the page): an entry with a menu that shows its token as revoked,
    // by its text or an icon's label (a part titled "Revoked…" is not looked for: a look over the page per entry),
    // holds no control that says Revoke.
    const bare = withoutControl(this.page, 'Revoke');
    const shownRevoked = anyOf(bare, saysRevoked, (self) => self.filter({ has: this.page.locator(marks.REVOKED_ICON) }));
    return this.row(name).filter({ has: this.#anyRevoke().or(this.#mayMount()) }).filter({ hasNot: shownRevoked });
  }

  #revoke(): Locator {
    return revokeControls(this.page).first();
  }

  /** A Revoke control that shows, or one kept in a closed menu ({@link keptInMenu}). */
  #anyRevoke(): Locator {
    return this.#revoke().or(keptInMenu(this.page, 'Revoke'));
  }

  /** A closed menu that may mount a Revoke control, on a page with none ({@link mayMount}). */
  #mayMount(): Locator {
    return mayMount(this.page, 'Revoke');
  }

  /**
   * Of some elements, those that show their token as revoked, a table's header row never ("Revoked at"): they say
   * "revoked" in their text; or they hold no Revoke control, and hold an icon that says "revoked" (by its label,
   * title or alternative text) or stand in a part titled "Revoked…".
   */
  #sayRevoked(elements: Locator): Locator {
    const entries = elements.filter({ hasNot: this.page.locator(`xpath=self::*[${marks.HEADER_ROW}]`) });
    return anyOf(entries, saysRevoked, (self) => self.filter({ hasNot: this.#revoke() }).filter({ has: this.#revokedMark() }));
  }

  /**
   * @returns an icon that says "revoked", or the element itself when it stands in a part titled "Revoked…" (for
   * `has`, which takes the element itself too)
   */
  #revokedMark(): Locator {
    return this.page.locator(marks.REVOKED_ICON).or(this.page.locator(`xpath=self::*[${marks.IN_REVOKED_PART}]`));
  }

  /**
   * @returns the table rows and list items of the token list: those with a Revoke control or shown as revoked, a
   * navigation's never
   */
  tokenRows(): Locator {
    const rows = this.#rows().filter({ hasNot: this.page.locator(`xpath=self::*[${marks.IN_NAVIGATION}]`) });
    return anyOf(rows, (self) => self.filter({ has: this.#anyRevoke() }), (self) => this.#sayRevoked(self));
  }

  /** @returns the table rows and list items of the page, those of a navigation (links to views, menus) among them */
  #rows(): Locator {
    return this.page.getByRole('row').or(this.page.getByRole('listitem'));
  }

  /**
   * The entries of a token that are shown as revoked.
   * @param name the token's name
   * @returns the entries' locator
   */
  revoked(name: string): Locator {
    return this.#sayRevoked(this.row(name));
  }

  /**
   * Finds entries on any page of the list: on the page showing and those
   * after it, else on every page from the first (unless the walk began
   * there), in each view of a list shown in views (see {@link everyView}).
   * Leaves the view and page that show them.
   *
   * @param entries the entries, as {@link row} or {@link active} finds them
   * @returns whether one shows
   */
  async seek(entries: Locator): Promise<boolean> {
    const found = () => visibleNow(entries.first());
    if (await found()) return true;
    // From the first page, the walk from here is the walk of the whole view showing: only the other views are left.
    const first = await atFirstPage(this.page);
    return (await fromHere(this.page, found)) || (await everyView(this.page, found, first));
  }

  /**
   * Waits until entries show on some page of the list, as {@link seek} finds them.
   *
   * @param entries the entries
   * @param message what it means when they never show
   */
  async shows(entries: Locator, message: string): Promise<void> {
    await this.#eventually(() => this.seek(entries), message);
  }

  /**
   * Waits until entries show on some page of the list, and counts them on all pages together: one walk of the list
   * when they show at once.
   *
   * @param entries the entries
   * @param message what it means when none ever shows
   * @returns their number, at least 1
   */
  async countShown(entries: Locator, message: string): Promise<number> {
    let count = 0;
    await this.#eventually(async () => (count = await this.countAll(entries)) > 0, message);
    return count;
  }

  /**
   * Waits until entries number so many on all pages of the list together, as {@link countAll} counts them.
   *
   * @param entries the entries
   * @param count how many
   * @param message what it means when they never do
   */
  async counts(entries: Locator, count: number, message: string): Promise<void> {
    await this.#eventually(async () => (await this.countAll(entries)) === count, message);
  }

  /**
   * Waits until fewer entries than so many show on the page showing: a revocation's effect where it was chosen (the
   * entry loses its Revoke control, or the page that Revoke leaves no longer shows it).
   *
   * @param entries the entries
   * @param than how many showed before
   * @param message what it means when as many still show
   */
  async fewerHere(entries: Locator, than: number, message: string): Promise<void> {
    // A page being replaced cannot be counted: it counts as unchanged until the next page can be.
    await this.#eventually(async () => (await entries.count().catch(() => than)) < than, message);
    await loaded(this.page);
  }

  /**
   * Checks until a check holds, for up to {@link SHOW_MS}. Each check runs to its end before the next decision: a
   * walk through the pages never goes on behind the caller's back.
   *
   * @param check the check
   * @param message what it means when it never holds
   * @throws Error naming the message when the time is up
   */
  async #eventually(check: () => Promise<boolean>, message: string): Promise<void> {
    const end = systemClock.now() + SHOW_MS;
    while (!(await check())) {
      if (systemClock.now() >= end) throw new Error(`${message}: still not so after ${SHOW_MS / 1000} s`);
      await systemClock.sleep(CHECK_EVERY_MS);
    }
  }

  /**
   * How many entries there are on all pages and views of the list together. Leaves the last page showing.
   *
   * @param entries the entries
   * @returns their number
   */
  async countAll(entries: Locator): Promise<number> {
    let count = 0;
    await everyView(this.page, async (seen) => {
      count += seen ? await countFresh(entries, seen) : await entries.count();
      return false;
    });
    return count;
  }

  /** Whether an entry shows the token of a name as revoked, on any page of the list. */
  async isRevoked(name: string): Promise<boolean> {
    return await this.seek(this.revoked(name));
  }

  /**
   * Whether an entry shows the name exactly as given ({@link showsName}): an element's whole text or one of its own
   * texts, not only equal once spaces are collapsed, or cut short with the whole name in an attribute. The entries
   * looked at are those of the first page that shows the name.
   * @param name the token's name
   */
  async showsExactly(name: string): Promise<boolean> {
    await this.seek(this.row(name));
    return await showsName(this.row(name), name);
  }

  /**
   * The names shown on every page and view of the list that a pattern matches, read by their text in any markup
   * (unlike {@link list}, which needs a table or a list), as {@link row} finds a name ({@link namesHere}).
   *
   * @param pattern the pattern, anchored at the start
   * @returns each name once, spaces collapsed
   */
  async namesLike(pattern: RegExp): Promise<string[]> {
    const names = new Set<string>();
    await everyView(this.page, async () => {
      for (const name of await namesHere(this.page, pattern)) names.add(name);
      return false;
    });
    return [...names];
  }

  /**
   * The names of all listed tokens with their state, from a table or a list,
   * page by page and view by view. A table's name is in the column headed
   * "Name" (the first column when none is); a list item's is its first text.
   * @returns name and revoked flag of each entry
   * @throws Error when entries show (a Revoke control, a "Revoked" mark) but no table row or list item holds them: such a list is read by name only
   */
  async list(): Promise<ListedToken[]> {
    const listed: ListedToken[] = [];
    await everyView(this.page, async (seen) => {
      listed.push(...(await tokensHere(this.page, this.#rows(), seen)));
      return false;
    });
    return listed;
  }
}

/** Of some elements, those that say "revoked" in their text. */
const saysRevoked = (elements: Locator) => elements.filter({ hasText: marks.REVOKED });

/** How long an entry may take to show on some page of the list (after Done, after a revocation). */
const SHOW_MS = 15_000;

/** The pause between two checks of the list. */
const CHECK_EVERY_MS = 250;

/** The most elements one list entry holds: a row, an item or a box, not the list around them. */
const ENTRY_ELEMENTS = 200;
