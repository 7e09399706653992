/**
 * Page objects of contract 5.3: the "Tokens and sessions" → "TOKENS" page,
 * its creation dialog and its rows, found by role and label.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { LoginForm } from './login_form.ts';

/** Credentials for "log in if asked"; absent when a saved storage state must do. */
export interface UiLogin {
  readonly username: string;
  readonly password: string;
}

/** Marks an element as holding a secret, so failure screenshots mask it. */
export const SECRET_ATTRIBUTE = 'data-slicer-secret';

/** The creation dialog (steps 5–8). */
export class NewTokenDialog {
  readonly dialog: Locator;
  readonly name: Locator;
  readonly scope: Locator;
  readonly add: Locator;
  /** The visible list of added scopes. */
  readonly scopes: Locator;
  readonly create: Locator;
  /** The displayed token value. */
  readonly value: Locator;
  readonly copy: Locator;
  readonly done: Locator;
  readonly cancel: Locator;
  /** A visible error message. */
  readonly error: Locator;

  /** @param page the tokens page */
  constructor(page: Page) {
    this.dialog = page.getByRole('dialog');
    this.name = this.dialog.getByLabel('Name', { exact: true });
    this.scope = this.dialog.getByLabel('Scope', { exact: true });
    this.add = this.dialog.getByRole('button', { name: 'Add', exact: true });
    this.scopes = this.dialog.getByRole('list');
    this.create = this.dialog.getByRole('button', { name: 'Create', exact: true });
    this.value = this.dialog.getByLabel('Token value');
    this.copy = this.dialog.getByRole('button', { name: 'Copy token value' });
    this.done = this.dialog.getByRole('button', { name: 'Done', exact: true });
    this.cancel = this.dialog.getByRole('button', { name: 'Cancel', exact: true });
    this.error = this.dialog.getByRole('alert');
  }

  /**
   * Reads the displayed token value and marks it secret.
   * @returns the value
   */
  async readValue(): Promise<string> {
    await expect(this.value).not.toBeEmpty();
    await this.value.evaluate((element, attribute) => element.setAttribute(attribute, ''), SECRET_ATTRIBUTE);
    return (await this.value.textContent())?.trim() ?? '';
  }
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
   */
  constructor(page: Page, authUrl: string, login?: UiLogin) {
    this.page = page;
    this.authUrl = authUrl;
    this.login = login;
    this.newToken = page.getByRole('button', { name: 'New permanent token' });
    this.dialog = new NewTokenDialog(page);
  }

  /**
   * Steps 1–3: open `{auth_url}/`, log in if asked, choose "Tokens and sessions", then "TOKENS".
   * @param progress called with each step's description
   */
  async open(progress: (step: string) => void = () => {}): Promise<void> {
    progress(`Opening ${this.authUrl}/`);
    await this.page.goto(`${this.authUrl}/`);
    const form = new LoginForm(this.page);
    if (await form.isShown()) {
      if (!this.login) {
        throw new Error(
          'The service asks to log in, but no credentials are set (SLICER_USERNAME/SLICER_PASSWORD) and the saved storage state did not do',
        );
      }
      progress(`Logging in as ${this.login.username}`);
      await form.logIn(this.login.username, this.login.password);
    }
    progress('Choosing "Tokens and sessions"');
    await this.page.getByRole('button', { name: 'Tokens and sessions' }).click();
    progress('Choosing "TOKENS"');
    await this.page.getByRole('navigation').getByRole('link', { name: 'TOKENS', exact: true }).click();
    await expect(this.newToken).toBeVisible();
  }

  /**
   * The list row of a token, by its exact name.
   * @param name the token's name
   * @returns the row locator
   */
  row(name: string): Locator {
    return this.page.getByRole('row').filter({ has: this.page.getByRole('cell', { name, exact: true }) });
  }

  /** @returns the token list's rows with a name (header excluded) */
  tokenRows(): Locator {
    return this.page.getByRole('row').filter({ has: this.page.getByRole('cell') });
  }

  /**
   * Steps 4–7: opens the dialog, enters the name, adds each scope, creates.
   * Leaves the dialog showing the value (or the error).
   * @param name the token name
   * @param scopes the scopes (service ids) to add
   * @param progress called with each step's description
   */
  async startCreating(name: string, scopes: readonly string[], progress: (step: string) => void = () => {}): Promise<void> {
    progress('Choosing "New permanent token"');
    await this.newToken.click();
    await expect(this.dialog.dialog).toBeVisible();
    progress(`Entering the name "${name}"`);
    await this.dialog.name.fill(name);
    for (const scope of scopes) {
      progress(`Adding the scope "${scope}"`);
      await this.dialog.scope.fill(scope);
      await this.dialog.add.click();
      await expect(this.dialog.scopes.getByText(scope, { exact: true })).toBeVisible();
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
    const value = await this.dialog.readValue();
    progress('Choosing "Copy token value"');
    await this.dialog.copy.click();
    progress('Choosing "Done"');
    await this.dialog.done.click();
    await expect(this.row(name).first()).toBeVisible();
    return value;
  }

  /**
   * Revoking, steps 2–3: chooses "Revoke" on an active row and answers the confirmation.
   * @param name the token's name (with several active tokens of that name, the first)
   * @param confirm OK (true) or Cancel (false)
   */
  async revoke(name: string, confirm = true): Promise<void> {
    const active = this.row(name).filter({ has: this.page.getByRole('button', { name: 'Revoke' }) });
    const before = await active.count();
    this.page.once('dialog', (dialog) => void (confirm ? dialog.accept() : dialog.dismiss()));
    await active.first().getByRole('button', { name: 'Revoke' }).click();
    if (confirm) {
      await expect(active).toHaveCount(before - 1);
      await expect(this.row(name).getByText('Revoked', { exact: true }).first()).toBeVisible();
    }
  }

  /**
   * Whether a row shows its token as revoked.
   * @param name the token's name
   */
  async isRevoked(name: string): Promise<boolean> {
    return await this.row(name).first().getByText('Revoked', { exact: true }).isVisible();
  }

  /**
   * The names of all listed tokens with their state.
   * @returns name and revoked flag of each row
   */
  async list(): Promise<{ name: string; revoked: boolean }[]> {
    const rows = await this.tokenRows().all();
    return Promise.all(
      rows.map(async (row) => ({
        name: ((await row.getByRole('cell').first().textContent()) ?? '').trim(),
        revoked: await row.getByText('Revoked', { exact: true }).isVisible(),
      })),
    );
  }
}
