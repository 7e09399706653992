/**
 * The authorization service's login form. Login is not part of the contract,
 * so the form is found by what every login form has: a password input, a
 * user-name input before it, and a way to submit. It may be a `<form>` or a
 * script's inputs without one (a single-page app), it may ask for the
 * user name alone first, then for the password on the page that step leads
 * to (an identifier-first login, as many single sign-on services have), and
 * it may be behind a landing page's "Sign in". The password is typed only
 * into a page of the authorization service's own origin, in a form that sends
 * it there.
 */
import type { Locator, Page } from '@playwright/test';
import { systemClock } from '../clock.ts';
import { redact } from '../redact.ts';
import { within } from './alternatives.ts';
import { control, errorSaid, loaded, shownError, visibleNow } from './controls.ts';

/** Words a login button says, for a login without a `<form>` or submit button. */
const SUBMIT_WORDS = /^\s*(log\s*in|login|sign\s*in|continue|next|submit|enter|ok)\b/i;

/** What a control leading to the login form says, on a landing page. */
const SIGN_IN_WORDS = /^\s*(log\s*in|login|sign\s*in)\s*$/i;

/** Words a user-name field's label says, for a page that asks for the user name alone. */
const USER_WORDS = /user|login|e-?mail|account|identifier/i;

/** Controls of contract 5.3's first steps: a page that shows one is past the login, whatever fields it has. */
const PAST_LOGIN = ['Tokens and sessions', 'TOKENS', 'New permanent token'] as const;

/** How long a login step may take to show its next page, by default. */
const STEP_MS = 10_000;

/** The pause between two checks of a login step's outcome. */
const CHECK_EVERY_MS = 100;

/** An input a user can type into. */
const EDITABLE = ':not([readonly]):not([disabled])';

/** Page object of an unknown login form. */
export class LoginForm {
  readonly page: Page;
  /** A visible password input anywhere on the page. */
  readonly password: Locator;
  /** A visible user-name field, known as one by its autofill hint, its type or its label (an identifier-first page). */
  readonly userName: Locator;
  /** A visible control leading to the login form ("Sign in", "Log in"), as a landing page shows. */
  readonly signIn: Locator;
  /** The error the page shows (see {@link shownError}). */
  readonly error: Locator;
  /** A visible field the page marks invalid (`aria-invalid`), as an accessible form tells an error without words. */
  readonly invalid: Locator;
  /** How long a login step may take to show its next page. */
  readonly #stepMs: number;

  /**
   * @param page the page that may show the form
   * @param stepMs how long a login step may take to show its next page
   */
  constructor(page: Page, stepMs = STEP_MS) {
    this.page = page;
    this.#stepMs = stepMs;
    this.error = shownError(page);
    this.invalid = page.locator('input[aria-invalid=true i]').filter({ visible: true }).first();
    this.password = page.locator('input[type=password]').filter({ visible: true }).first();
    this.userName = page.locator('input:is([autocomplete~=username i],[autocomplete~=email i],[type=email])')
      .or(page.getByRole('textbox', { name: USER_WORDS })).and(page.locator(EDITABLE)).filter({ visible: true }).first();
    this.signIn = page.getByRole('link', { name: SIGN_IN_WORDS }).or(page.getByRole('button', { name: SIGN_IN_WORDS }))
      .filter({ visible: true }).first();
  }

  /**
   * @returns whether the page asks to log in: for a password, or, on a page
   *   not past the login, for the user name alone or to choose "Sign in"
   */
  async isShown(): Promise<boolean> {
    if (await visibleNow(this.password)) return true;
    if (!(await visibleNow(this.userName)) && !(await visibleNow(this.signIn))) return false;
    // A page's script may still be putting the account's controls where a "Sign in" was.
    await loaded(this.page);
    for (const label of PAST_LOGIN) if (await visibleNow(control(this.page, label))) return false;
    return true;
  }

  /** The `<form>` holding an input, or the page when there is none. */
  async #container(input: Locator): Promise<Locator> {
    const form = this.page.locator('form').filter({ has: input }).first();
    return (await form.count()) > 0 ? form : this.page.locator('body');
  }

  /** Submits the form holding an input: its submit button, a button saying so, or Enter in the input. */
  async #submit(input: Locator): Promise<void> {
    const container = await this.#container(input);
    const submit = within(
      container,
      (page) => page.locator('button[type=submit], input[type=submit]').or(page.getByRole('button', { name: SUBMIT_WORDS })),
    ).filter({ visible: true }).first();
    if ((await submit.count()) > 0) await submit.click();
    else await input.press('Enter');
  }

  /**
   * Logs in and waits for the form to go away. A landing page's "Sign in" is
   * chosen first; a page asking for the user name alone gets it, and the
   * password goes to the page that follows.
   *
   * @param username user name
   * @param password password (set without a logged step value)
   * @param origin the authorization service's origin, the only one the password may be typed into and sent to
   * @throws Error when "Sign in" leads to no login form (single sign-on), when no password field follows the user
   *   name (an unknown user), when the password would be typed into or sent to another origin (single sign-on), or
   *   when the form is still shown after submitting (wrong credentials)
   */
  async logIn(username: string, password: string, origin: string): Promise<void> {
    // A page reached by a click may show the form before its scripts have run: a script's form would lose what is typed
    // before, and its button would do nothing. Its scripts have run once the page has loaded.
    await loaded(this.page);
    if (!(await visibleNow(this.password)) && !(await visibleNow(this.userName))) {
      const way = (await this.signIn.innerText()).trim();
      await this.signIn.click();
      await this.password.or(this.userName).first().waitFor({ state: 'visible', timeout: this.#stepMs }).catch(() => {
        throw new Error(
          `Choosing "${way}" showed no login form (no password or user-name field): behind single sign-on, save a browser login and set SLICER_UI_STORAGE_STATE`,
        );
      });
      await loaded(this.page);
    }
    if (!(await visibleNow(this.password))) {
      await this.userName.fill(username);
      await this.#submitStep(
        this.userName,
        () => visibleNow(this.password),
        (shows) =>
          `Logging in as "${username}": the service asked for the user name, then showed no password field${shows}: check SLICER_USERNAME`,
      );
      await loaded(this.page);
    }
    // The user's input: the nearest visible text-like input before the password (not a search box further up the
    // page), else the form's first one; none on a password page that follows a page that asked for the user name.
    const container = await this.#container(this.password);
    const before = this.password.locator(
      'xpath=preceding::input[(not(@type) or @type="text" or @type="email") and not(@readonly) and not(@disabled)]',
    ).filter({ visible: true }).last();
    const first = container.locator(`input:is([type=text],[type=email],:not([type]))${EDITABLE}:visible`).first();
    const user = (await before.count()) > 0 ? before : first;
    if ((await user.count()) > 0) await user.fill(username);
    await this.#assertOrigin(username, origin);
    // Not `fill`: its step title ("Fill \"<value>\"") would put the password into reports and logs. The value is
    // set through the prototype's setter, then announced: an app that keeps controlled inputs (React) takes the
    // value from the input event only when it differs from what the element's own setter last wrote.
    await this.password.evaluate((input, value) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, password);
    await this.#submitStep(
      this.password,
      async () => (await this.password.count().catch(() => 1)) === 0,
      (shows) => `Logging in as "${username}" did not get past the login form${shows}: check SLICER_USERNAME and SLICER_PASSWORD`,
      password,
    );
  }

  /**
   * Refuses a password field on a page of another origin (a login that went on to single sign-on, or a redirect
   * elsewhere), and a form that would send the password to another origin (its `action`, or a control's `formaction`).
   * Only origins are named: a single sign-on address may carry its request's state.
   *
   * @param username the user name, for the message
   * @param origin the authorization service's origin
   * @throws Error naming the other origin and the fix, before the password is typed
   */
  async #assertOrigin(username: string, origin: string): Promise<void> {
    const at = new URL(this.page.url()).origin;
    const form = this.page.locator('form').filter({ has: this.password }).first();
    // Read from the attributes (an input named "action" hides the form's own `action` property); none, or one that is
    // no URL, sends to the page itself.
    const targets = (await form.count()) === 0
      ? []
      : await form.evaluate((element) =>
        [element, ...element.querySelectorAll('[formaction]')].map((sender) => {
          const target = sender.getAttribute(sender === element ? 'action' : 'formaction') ?? '';
          return target !== '' && URL.canParse(target, document.baseURI) ? new URL(target, document.baseURI).origin : location.origin;
        })
      );
    const elsewhere = targets.find((target) => target !== origin);
    const where = at !== origin
      ? `is at ${at}, not at`
      : elsewhere !== undefined
      ? `sends the password to ${elsewhere}, not to`
      : undefined;
    if (where === undefined) return;
    throw new Error(
      `Logging in as "${username}": the login form ${where} the authorization service's origin (${origin}); the ` +
        `password is typed only into its own pages: behind single sign-on, save a browser login and set SLICER_UI_STORAGE_STATE`,
    );
  }

  /**
   * Submits a login step and waits for the page it leads to. An error the
   * page shows once submitted (and did not show before), or a field it marks
   * invalid once submitted, while the step's field is still there, fails the
   * step at once: a wrong password is told in a second, not after the step's
   * whole wait. So does a new page that shows the step's field again, empty:
   * a form served again after a wrong password, with no word of why. The
   * failure quotes such an error, or says what the page did. All are checked
   * in turn until one holds, so that no wait goes on in the page once the
   * step is decided.
   *
   * @param input the step's field
   * @param led whether the page shows what the step leads to
   * @param failure the failure's message, given `(the page shows an error: "…")` or ''
   * @param secret a value the quote must not show (the password), should a page repeat it
   */
  async #submitStep(input: Locator, led: () => Promise<boolean>, failure: (shows: string) => string, secret?: string): Promise<void> {
    const erredBefore = await visibleNow(this.error);
    const invalidBefore = await visibleNow(this.invalid);
    // Each document has its own time origin: another one is a new page. (None can be read while a page is replaced.)
    const timeOrigin = () => this.page.evaluate(() => performance.timeOrigin).catch(() => undefined);
    const submittedFrom = await timeOrigin();
    await this.#submit(input);
    // What was shown before submitting says nothing of this step.
    const marked = async () => !invalidBefore && (await visibleNow(this.invalid));
    // Whether the field is empty is read in the page: its value never leaves it (a trace records what a call returns).
    const empty = () =>
      input.evaluate((field) => (field as HTMLInputElement).value === '', undefined, { timeout: 1_000 }).catch(() => false);
    const cameBack = async () => {
      const now = await timeOrigin();
      return now !== undefined && now !== submittedFrom && (await visibleNow(input)) && (await empty());
    };
    const failed = async () => {
      const quoted = redact(erredBefore ? '' : await errorSaid(this.error), [secret]);
      if (quoted) return new Error(failure(` (the page shows an error: "${quoted}")`));
      if (await marked()) return new Error(failure(' (the page marks a field invalid)'));
      return new Error(failure((await cameBack()) ? ' (the form came back, empty)' : ''));
    };
    // An error that came with the next page (the field gone) does not fail the step: what the step leads to decides.
    // A new page with the step's field again, empty, does.
    const erred = async () =>
      (((!erredBefore && (await visibleNow(this.error))) || (await marked())) && (await visibleNow(input))) || (await cameBack());
    const end = systemClock.now() + this.#stepMs;
    while (!(await led())) {
      if ((await erred()) || systemClock.now() >= end) throw await failed();
      await systemClock.sleep(CHECK_EVERY_MS);
    }
  }
}
