/**
 * The authorization service's login form. Login is not part of the contract,
 * so the form is found by what every login form has: a password input, a
 * user-name input beside it, and a submit button.
 */
import type { Locator, Page } from '@playwright/test';

/** Page object of an unknown login form. */
export class LoginForm {
  /** The form holding a password input. */
  readonly form: Locator;
  /** Its password input. */
  readonly password: Locator;
  /** Its user-name input: the first visible text-like input. */
  readonly username: Locator;
  /** Its submit button. */
  readonly submit: Locator;

  /** @param page the page that may show the form */
  constructor(page: Page) {
    this.form = page.locator('form').filter({ has: page.locator('input[type=password]') }).first();
    this.password = this.form.locator('input[type=password]').first();
    this.username = this.form.locator('input:is([type=text],[type=email],:not([type])):visible').first();
    this.submit = this.form.locator('button[type=submit], input[type=submit], button:not([type])').first();
  }

  /** @returns whether the page asks to log in */
  async isShown(): Promise<boolean> {
    return await this.password.isVisible().catch(() => false);
  }

  /**
   * Logs in and waits for the form to go away.
   *
   * @param username user name
   * @param password password (set without a logged step value)
   * @throws Error when the form is still shown after submitting (wrong credentials)
   */
  async logIn(username: string, password: string): Promise<void> {
    await this.username.fill(username);
    // Not `fill`: its step title ("Fill \"<value>\"") would put the password into reports and logs.
    await this.password.evaluate((input, value) => {
      (input as HTMLInputElement).value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, password);
    await this.submit.click();
    await this.password.waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {
      throw new Error(`Logging in as "${username}" did not get past the login form: check SLICER_USERNAME and SLICER_PASSWORD`);
    });
  }
}
