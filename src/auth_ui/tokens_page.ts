/**
 * Page objects of contract 5.3: "Tokens and sessions" → "TOKENS", the
 * creation steps and revoking. They rely only on what the contract documents
 * — the labels `Tokens and sessions`, `TOKENS`, `New permanent token`,
 * `Name`, `Scope`, `Add`, `Create`, `Copy token value`, `Done`, `Revoke`,
 * `OK` — and tolerate everything it leaves open: the case the markup writes
 * a label in (`Tokens` shown upper-case by a stylesheet) and a field's
 * required mark (`Name *`); a control may be a link, a button, a tab or a
 * menu item; the dialog a `<dialog>`, `role=dialog` or an in-page panel; the
 * value shown in any element, alone or in a sentence (found through what
 * "Copy token value" puts on the clipboard); the confirmation native or
 * in-page; a token's entry any element around its name that holds its
 * Revoke control or says "revoked"; the service may ask to log in again
 * at any step. No CSS class, id or data attribute of any implementation is
 * used.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { clickUntil, control, everyControl, loaded, showing, showsText } from './controls.ts';
import { LoginForm } from './login_form.ts';
import { NewTokenDialog } from './new_token_dialog.ts';

/** Credentials for "log in if asked"; absent when a saved storage state must do. */
export interface UiLogin {
  readonly username: string;
  readonly password: string;
}

/** The TOKENS page (steps 1–4 and revoking). */
export class TokensPage {
  readonly page: Page;
  readonly authUrl: string;
  readonly login: UiLogin | undefined;
  readonly newToken: Locator;
  readonly dialog: NewTokenDialog;
  /** Set once "Create" was chosen: from then on a token may exist, so a failure must name it. */
  createClicked = false;

  /**
   * @param page a browser page
   * @param authUrl the authorization service's base address
   * @param login credentials for "log in if asked"
   * @param onSecret told each created token's value as soon as it is read
   */
  constructor(page: Page, authUrl: string, login?: UiLogin, onSecret?: (value: string) => void) {
    this.page = page;
    this.authUrl = authUrl;
    this.login = login;
    this.newToken = control(page, 'New permanent token');
    this.dialog = new NewTokenDialog(page, onSecret);
  }

  /** Logs in when the page asks; true when it did. */
  async #logInIfAsked(progress: (step: string) => void): Promise<boolean> {
    const form = new LoginForm(this.page);
    if (!(await form.isShown())) return false;
    if (!this.login) {
      throw new Error(
        'The service asks to log in, but no credentials are set (SLICER_USERNAME/SLICER_PASSWORD) and the saved storage state did not do',
      );
    }
    progress(`Logging in as ${this.login.username}`);
    await form.logIn(this.login.username, this.login.password);
    return true;
  }

  /**
   * Steps 1–3: open `{auth_url}/`, log in if asked, choose "Tokens and
   * sessions", then "TOKENS". A service that asks to log in again mid-way is
   * answered, and the steps start over from step 1.
   *
   * @param progress called with each step's description
   */
  async open(progress: (step: string) => void = () => {}): Promise<void> {
    for (let attempt = 1;; attempt++) {
      progress(`Opening ${this.authUrl}/`);
      await this.page.goto(`${this.authUrl}/`);
      await this.#logInIfAsked(progress);
      progress('Choosing "Tokens and sessions"');
      await control(this.page, 'Tokens and sessions').click();
      if ((await this.#logInIfAsked(progress)) && attempt < 3) continue;
      progress('Choosing "TOKENS"');
      const navigation = this.page.getByRole('navigation');
      const tokens = (await navigation.count()) > 0 ? control(navigation, 'TOKENS') : control(this.page, 'TOKENS');
      await tokens.click();
      if ((await this.#logInIfAsked(progress)) && attempt < 3) continue;
      await expect(this.newToken).toBeVisible();
      // The TOKENS page is showing; a long list may still be arriving, and counting or listing would miss its end.
      await loaded(this.page);
      return;
    }
  }

  /**
   * The list entries of a token, by its exact name: for each element that
   * shows the name (as its whole text, or as its own text before other
   * elements), the innermost element around it that holds a Revoke control or
   * says "revoked". That is a table row, a list item or a box of any markup.
   *
   * @param name the token's name
   * @returns the entries' locator
   */
  row(name: string): Locator {
    const marked = (elements: Locator) => elements.filter({ has: this.#revoke() }).or(elements.filter({ hasText: REVOKED }));
    // Innermost: none of its children both shows the name and holds a mark (a deeper entry would then exist).
    const inner = marked(this.page.locator(`xpath=./*[descendant-or-self::*[${showsText(name)}]]`));
    // An entry is small: larger elements (the list, the page) are passed over before their marks are looked for.
    const around = showing(this.page, name).locator(`xpath=ancestor-or-self::*[count(.//*) <= ${ENTRY_ELEMENTS}]`);
    return marked(around.filter({ hasNot: inner }));
  }

  /**
   * The entries of a token that are still active: those with a Revoke control.
   * @param name the token's name
   * @returns the entries' locator
   */
  active(name: string): Locator {
    return this.row(name).filter({ has: this.#revoke() });
  }

  #revoke(): Locator {
    return control(this.page, 'Revoke');
  }

  /** @returns the table rows and list items of the token list: those with a Revoke control or shown as revoked */
  tokenRows(): Locator {
    return this.#rows().filter({ has: this.#revoke() }).or(this.#rows().filter({ hasText: REVOKED }));
  }

  #rows(): Locator {
    return this.page.getByRole('row').or(this.page.getByRole('listitem'));
  }

  /** Step 4: chooses "New permanent token", again while its click is ignored, until the creation form shows. */
  async openCreationForm(): Promise<void> {
    await clickUntil(this.newToken, () => this.dialog.name.isVisible(), 'step 4 opens the creation form');
  }

  /**
   * Steps 4–7: opens the creation form, enters the name, adds each scope,
   * creates. Leaves the value (or the error) showing.
   * @param name the token name
   * @param scopes the scopes (service ids) to add
   * @param progress called with each step's description
   */
  async startCreating(name: string, scopes: readonly string[], progress: (step: string) => void = () => {}): Promise<void> {
    progress('Choosing "New permanent token"');
    await this.openCreationForm();
    progress(`Entering the name "${name}"`);
    await this.dialog.name.fill(name);
    for (const scope of scopes) {
      progress(`Adding the scope "${scope}"`);
      await this.dialog.scope.fill(scope);
      await this.dialog.add.click();
      await expect(this.dialog.added(scope), 'step 6: Add puts the scope in the list of scopes').toBeVisible();
    }
    progress('Choosing "Create"');
    this.createClicked = true;
    await this.dialog.create.click();
  }

  /**
   * Steps 4–8 in full: creates a token, copies it, chooses Done.
   * @param name the token name
   * @param scopes the scopes to add
   * @param progress called with each step's description
   * @returns the token value
   */
  async create(name: string, scopes: readonly string[], progress: (step: string) => void = () => {}): Promise<string> {
    await this.startCreating(name, scopes, progress);
    progress('Choosing "Copy token value"');
    const value = await this.dialog.readValue();
    progress('Choosing "Done"');
    await this.dialog.done.click();
    await expect(this.row(name).first(), 'step 8: after Done the token appears in the list').toBeVisible();
    return value;
  }

  /**
   * Revoking, steps 2–3: chooses "Revoke" on an active entry and answers the
   * confirmation, native (`confirm()`) or in-page (OK / Cancel).
   * @param name the token's name (with several active tokens of that name, the first)
   * @param confirm OK (true) or Cancel (false)
   */
  async revoke(name: string, confirm = true): Promise<void> {
    const active = this.active(name);
    const before = await active.count();
    let native = false;
    const answer = (dialog: { accept(): Promise<void>; dismiss(): Promise<void> }) => {
      native = true;
      void (confirm ? dialog.accept() : dialog.dismiss());
    };
    this.page.once('dialog', answer);
    const ok = control(this.page, 'OK');
    try {
      await clickUntil(control(active.first(), 'Revoke'), async () => native || (await ok.isVisible()), 'a confirmation is asked');
      if (!native) await (confirm ? ok : control(this.page, 'Cancel')).click();
    } finally {
      this.page.off('dialog', answer);
    }
    if (confirm) {
      await expect(active).toHaveCount(before - 1);
      await expect(this.row(name).filter({ hasText: REVOKED }).first(), 'step 3: shown as revoked').toBeVisible();
    }
  }

  /**
   * Whether an entry shows its token as revoked.
   * @param name the token's name
   */
  async isRevoked(name: string): Promise<boolean> {
    return await this.row(name).filter({ hasText: REVOKED }).first().isVisible();
  }

  /**
   * Revokes every active token of a name (Revoke, then OK, one at a time).
   * @param name the tokens' name
   * @returns how many were revoked
   */
  async revokeAll(name: string): Promise<number> {
    const count = await this.active(name).count();
    for (let i = 0; i < count; i++) await this.revoke(name, true);
    return count;
  }

  /**
   * Whether an entry shows the name exactly as given: an element's whole text
   * or one of its own texts, not only equal once spaces are collapsed.
   * @param name the token's name
   */
  async showsExactly(name: string): Promise<boolean> {
    return await this.row(name).evaluateAll(
      (entries, name) =>
        entries.some((entry) =>
          [entry, ...entry.querySelectorAll('*')].some((element) =>
            element.textContent?.trim() === name ||
            [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim() === name)
          )
        ),
      name,
    );
  }

  /**
   * The names of all listed tokens with their state, from a table or a list.
   * A table's name is in the column headed "Name" (the first column when
   * none is); a list item's is its first text.
   * @returns name and revoked flag of each entry
   * @throws Error when entries show (a Revoke control, a "Revoked" mark) but no table row or list item holds them: such a list is read by name only
   */
  async list(): Promise<{ name: string; revoked: boolean }[]> {
    // One pass over the page, as a locator per row would resolve the whole list again for each row: the Revoke
    // controls, then the rows and list items that hold one or say "revoked".
    const revokes = await everyControl(this.page, 'Revoke').elementHandles();
    try {
      const entries = await this.#rows().evaluateAll((rows, [revokes, revoked]) => {
        const holders = new Set<Node>();
        for (const revoke of revokes) for (let node: Node | null = revoke; node; node = node.parentNode) holders.add(node);
        return rows.filter((row) => holders.has(row) || revoked.test(row.textContent ?? '')).map((row) => {
          const cells = [...row.querySelectorAll('td, th, [role=cell], [role=gridcell]')];
          const headers = [...(row.closest('table, [role=table], [role=grid]')?.querySelectorAll('th, [role=columnheader]') ?? [])];
          const column = headers.findIndex((header) => /^\s*name\s*$/i.test(header.textContent ?? ''));
          const cell = cells.length > 0 ? cells[Math.max(column, 0)] : undefined;
          const first = document.evaluate('.//text()[normalize-space()]', row, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null);
          const name = cell ? cell.textContent : first.singleNodeValue?.textContent;
          return { name: name?.trim() ?? '', revoked: !holders.has(row) };
        });
      }, [revokes, REVOKED] as const);
      if (entries.length === 0 && (revokes.length > 0 || (await this.page.getByText(REVOKED_MARK).count()) > 0)) {
        throw new Error(
          'The token list shows tokens (a Revoke control or a "Revoked" mark) but no table row or list item holds them, so its ' +
            'entries cannot be told apart without their names: listing needs a table or a list; creating and revoking by name work ' +
            'on any markup',
        );
      }
      return entries;
    } finally {
      await Promise.all(revokes.map((handle) => handle.dispose()));
    }
  }
}

/** The most elements one list entry holds: a row, an item or a box, not the list around them. */
const ENTRY_ELEMENTS = 200;

/** How an entry says its token is revoked. */
const REVOKED = /revoked/i;

/** A mark that says only that: a status badge, not help text that mentions revoking. */
const REVOKED_MARK = /^\s*revoked\s*$/i;
