/**
 * The authorization service's login form. Login is not part of the contract,
 * so the form is found by what every login form has: a password input, a
 * user-name input before it, and a way to submit. It may be a `<form>` or a
 * script's inputs without one (a single-page app).
 */
import type { Locator, Page } from '@playwright/test';
import { loaded } from './controls.ts';

/** Words a login button says, for a login without a `<form>` or submit button. */
const SUBMIT_WORDS = /^\s*(log\s*in|login|sign\s*in|continue|next|submit|enter|ok)\b/i;

/** Page object of an unknown login form. */
export class LoginForm {
  readonly page: Page;
  /** A visible password input anywhere on the page. */
  readonly password: Locator;

  /** @param page the page that may show the form */
  constructor(page: Page) {
    this.page = page;
    this.password = page.locator('input[type=password]').filter({ visible: true }).first();
  }

  /** @returns whether the page asks to log in */
  async isShown(): Promise<boolean> {
    return await this.password.isVisible().catch(() => false);
  }

  /** The `<form>` holding the password input, or the page when there is none. */
  async #container(): Promise<Locator> {
    const form = this.page.locator('form').filter({ has: this.password }).first();
    return (await form.count()) > 0 ? form : this.page.locator('body');
  }

  /**
   * Logs in and waits for the form to go away.
   *
   * @param username user name
   * @param password password (set without a logged step value)
   * @throws Error when the form is still shown after submitting (wrong credentials)
   */
  async logIn(username: string, password: string): Promise<void> {
    // A page reached by a click may show the form before its scripts have run: a script's form would lose what is typed
    // before, and its button would do nothing. Its scripts have run once the page has loaded.
    await loaded(this.page);
    const container = await this.#container();
    // The user's input: the nearest visible text-like input before the password (not a search box further up the
    // page), else the form's first one.
    const before = this.password.locator('xpath=preceding::input[not(@type) or @type="text" or @type="email"]').filter({ visible: true })
      .last();
    const first = container.locator('input:is([type=text],[type=email],:not([type])):visible').first();
    await ((await before.count()) > 0 ? before : first).fill(username);
    // Not `fill`: its step title ("Fill \"<value>\"") would put the password into reports and logs. The value is
    // set through the prototype's setter, then announced: an app that keeps controlled inputs (React) takes the
    // value from the input event only when it differs from what the element's own setter last wrote.
    await this.password.evaluate((input, value) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, password);
    const submit = container.locator('button[type=submit], input[type=submit]').or(container.getByRole('button', { name: SUBMIT_WORDS }))
      .filter({ visible: true }).first();
    if ((await submit.count()) > 0) await submit.click();
    else await this.password.press('Enter');
    await this.password.waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {
      throw new Error(`Logging in as "${username}" did not get past the login form: check SLICER_USERNAME and SLICER_PASSWORD`);
    });
  }
}
