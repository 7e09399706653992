/**
 * Page objects of contract 5.3: "Tokens and sessions" → "TOKENS", the
 * creation steps and revoking. They rely only on what the contract documents
 * — the labels `Tokens and sessions`, `TOKENS`, `New permanent token`,
 * `Name`, `Scope`, `Add`, `Create`, `Copy token value`, `Done`, `Revoke`,
 * `OK` — and tolerate everything it leaves open: the case the markup writes
 * a label in (`Tokens` shown upper-case by a stylesheet) and a field's
 * required mark (`Name *`); a control may be a link, a button, a tab or a
 * menu item; the dialog a `<dialog>`, `role=dialog` or an in-page panel; the
 * Scope a text field or a `<select>`; the value shown in any element, alone
 * or in a sentence (found through what "Copy token value" puts on the
 * clipboard); the confirmation native or in-page; a token's entry any element
 * around its name that holds its Revoke control or says "revoked" (in its
 * text or by an icon's label), or that stands in a part titled "Revoked…";
 * the service may ask to log in again at any step, keep "Tokens and sessions", "TOKENS" or a Revoke in a closed menu
 * (one that mounts its items only once opened too), open its page in a new tab; the list may be split into pages or
 * grow by "Load more". No CSS class, id or data attribute of any implementation is used.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { answerCookieBanners } from './consent.ts';
import { clickUntil, control, hiddenControl, loaded, visibleNow } from './controls.ts';
import { LoginForm } from './login_form.ts';
import { chooseInEntry, chooseInPlace } from './menus.ts';
import { NewTokenDialog } from './new_token_dialog.ts';
import { TokenList } from './token_list.ts';
import { openWebPage } from './web_page.ts';

/** Credentials for "log in if asked"; absent when a saved storage state must do. */
export interface UiLogin {
  readonly username: string;
  readonly password: string;
}

/** The TOKENS page: the steps of creating and revoking, over the token list it shows. */
export class TokensPage extends TokenList {
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
    super(page);
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
    await form.logIn(this.login.username, this.login.password, new URL(this.authUrl).origin);
    return true;
  }

  /**
   * Step 1: opens `{auth_url}/`, which must answer with a web page (see {@link openWebPage}), and logs in if asked;
   * from then on the page's cookie banners are answered (see {@link answerCookieBanners}).
   *
   * @param progress called with each step's description
   */
  async home(progress: (step: string) => void = () => {}): Promise<void> {
    progress(`Opening ${this.authUrl}/`);
    await answerCookieBanners(this.page);
    await openWebPage(this.page, `${this.authUrl}/`);
    await this.#logInIfAsked(progress);
  }

  /**
   * Steps 1–3: open `{auth_url}/`, log in if asked, choose "Tokens and
   * sessions", then "TOKENS", each shown from a closed menu that holds it and followed in this page when it opens a new
   * tab or window. A service that asks to log in again mid-way is answered, and the steps start over from step 1.
   *
   * @param progress called with each step's description
   */
  async open(progress: (step: string) => void = () => {}): Promise<void> {
    for (let attempt = 1;; attempt++) {
      await this.home(progress);
      progress('Choosing "Tokens and sessions"');
      const form = new LoginForm(this.page);
      const loginAsked = form.password.or(form.userName).or(form.signIn);
      // TOKENS may be in a closed menu of the page step 2 opens: that page has it, shown or not.
      const tokensThere = control(this.page, 'TOKENS').or(hiddenControl(this.page, 'TOKENS'));
      await chooseInPlace(this.page, 'Tokens and sessions', tokensThere.or(loginAsked));
      if ((await this.#logInIfAsked(progress)) && attempt < 3) continue;
      progress('Choosing "TOKENS"');
      // The top navigation panel: the navigation landmarks that hold TOKENS (a page may have others, a breadcrumb's or
      // a footer's), else the whole page (tabs that are no landmark, a navigation that mounts its links once opened).
      const navigation = this.page.getByRole('navigation').filter({ has: tokensThere });
      await chooseInPlace((await navigation.count()) > 0 ? navigation : this.page, 'TOKENS', this.newToken.or(loginAsked));
      if ((await this.#logInIfAsked(progress)) && attempt < 3) continue;
      await expect(this.newToken).toBeVisible();
      // The TOKENS page is showing; a long list may still be arriving, and counting or listing would miss its end.
      await loaded(this.page);
      return;
    }
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
   * @throws ScopeNotOffered when the Scope field is a `<select>` offering no choice for a scope
   */
  async startCreating(name: string, scopes: readonly string[], progress: (step: string) => void = () => {}): Promise<void> {
    progress('Choosing "New permanent token"');
    await this.openCreationForm();
    progress(`Entering the name "${name}"`);
    await this.dialog.enterName(name);
    for (const scope of scopes) {
      progress(`Adding the scope "${scope}"`);
      await this.dialog.enterScope(scope);
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
    await this.shows(this.row(name), 'step 8: after Done the token appears in the list');
    return value;
  }

  /**
   * Revoking, steps 2–3: chooses "Revoke" on an active entry and answers the
   * confirmation, native (`confirm()`) or in-page (OK / Cancel), on the page
   * of the list that shows the entry. Confirmed, the list (all of its pages)
   * then shows one active entry of that name fewer, and one shown as revoked.
   * @param name the token's name (with several active tokens of that name, the first)
   * @param confirm OK (true) or Cancel (false)
   */
  async revoke(name: string, confirm = true): Promise<void> {
    const active = this.active(name);
    const before = await this.countShown(active, `revoking: an active token named "${name}" is listed`);
    await this.seek(active);
    await this.#chooseRevoke(active.first(), confirm);
    if (confirm) {
      // The page of the list that Revoke leaves shows the revoked entry: it is looked for there before every page is counted.
      await this.shows(this.revoked(name), 'step 3: shown as revoked');
      await this.counts(active, before - 1, 'step 3: one active entry fewer');
    }
  }

  /**
   * Revoking, steps 2–3 on an entry that shows: chooses its "Revoke" and answers the confirmation, native
   * (`confirm()`) or in-page (OK / Cancel, which leaves the entry as it was).
   *
   * @param entry the entry
   * @param confirm OK (true) or Cancel (false)
   */
  async #chooseRevoke(entry: Locator, confirm: boolean): Promise<void> {
    let native = false;
    const answer = (dialog: { accept(): Promise<void>; dismiss(): Promise<void> }) => {
      native = true;
      void (confirm ? dialog.accept() : dialog.dismiss());
    };
    this.page.once('dialog', answer);
    const ok = control(this.page, 'OK');
    const asked = async () => native || (await ok.isVisible());
    try {
      await chooseInEntry(entry, 'Revoke', async (revoke) => {
        await clickUntil(revoke, asked, 'a confirmation is asked');
        if (!native) await (confirm ? ok : control(this.page, 'Cancel')).click();
        return !confirm;
      });
    } finally {
      this.page.off('dialog', answer);
    }
  }

  /**
   * Revokes the active tokens of some names (Revoke, then OK) as a cleanup does, walking the list once to revoke
   * and once more to see none left: each entry is revoked on the page that shows it, and waited for only there (it
   * loses its Revoke control, or the page Revoke leaves no longer shows it); the walk goes on from that page, and
   * ends when no page shows an active entry of those names. Unlike {@link revoke}, it neither counts the list nor
   * looks for the entry shown as revoked.
   *
   * @param names the names, each as many times as it has tokens to revoke (the most revoked of it)
   * @param revoked told each name as one of its tokens is revoked
   * @returns how many were revoked: fewer than asked when fewer are active
   * @throws Error when an entry stays active after Revoke, then OK, or more of a name show than were given
   */
  async revokeEvery(names: readonly string[], revoked: (name: string) => void = () => {}): Promise<number> {
    if (names.length === 0) return 0;
    const left = new Map<string, number>();
    for (const name of names) left.set(name, (left.get(name) ?? 0) + 1);
    const tokens = [...left.keys()].map((name) => ({ name, active: this.active(name) }));
    const any = tokens.map((token) => token.active).reduce((all, one) => all.or(one));
    let count = 0;
    let missed = 0;
    while (await this.seek(any)) {
      const token = await firstShown(tokens);
      if (!token) {
        if (++missed > MISSED_TURNS) throw new Error('revoking: the token list kept changing while it was read');
        continue;
      }
      const { name, active } = token;
      if (left.get(name) === 0) {
        const asked = names.filter((given) => given === name).length;
        throw new Error(
          `revoking "${name}": an active entry of that name still shows after Revoke, then OK on ${asked} (as many as were to be ` +
            'revoked): one did not take, or another was created meanwhile',
        );
      }
      const before = await active.count();
      await this.#chooseRevoke(active.first(), true);
      await this.fewerHere(active, before, `revoking "${name}": Revoke, then OK leaves its entry active`);
      left.set(name, (left.get(name) as number) - 1);
      count++;
      revoked(name);
    }
    return count;
  }
}

/** How many times {@link TokensPage.revokeEvery} may find no entry where the list showed one a moment before. */
const MISSED_TURNS = 3;

/**
 * The first token whose first active entry shows on the page.
 *
 * @param tokens names and their active entries
 * @returns the token, or undefined when none shows
 */
async function firstShown<T extends { active: Locator }>(tokens: readonly T[]): Promise<T | undefined> {
  for (const token of tokens) if (await visibleNow(token.active.first())) return token;
  return undefined;
}
