/**
 * Creation steps 5–8 of contract 5.3 (Name, Scope, Add, Create, "Copy token
 * value", Done), wherever the UI shows them: a `<dialog>`, `role=dialog` or
 * an in-page panel. The Scope is typed into a text field or chosen in a
 * `<select>` of the services. The value is read through what "Copy token
 * value" puts on the clipboard and checked against what the page displays: an
 * element's value or text, or a word of an element's text (`Your token: <value>`, `Your token is “<value>”.`), in
 * the page or in a web component's open shadow root.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { CLICK_MS, control, errorSaid, markSecrets, shownAs, shownError, visibleNow } from './controls.ts';
import { escapeRegExp, labelled } from './label_match.ts';
import { showing } from './shown_text.ts';

/** One choice of a `<select>`: its value, and its text with spaces collapsed. */
interface Choice {
  readonly value: string;
  readonly shows: string;
}

/** Thrown when the Scope field is a `<select>` that offers no choice for a scope: the UI does not let it be entered. */
export class ScopeNotOffered extends Error {
  /**
   * @param scope the scope looked for
   * @param offered what the field's choices show
   */
  constructor(scope: string, offered: readonly string[]) {
    super(`step 5: the Scope field offers no choice for "${scope}" (it offers: ${offered.map((o) => `"${o}"`).join(', ') || 'nothing'})`);
    this.name = 'ScopeNotOffered';
  }
}

/** The creation steps 5–8, wherever the UI shows them. */
export class NewTokenDialog {
  readonly page: Page;
  readonly name: Locator;
  readonly scope: Locator;
  readonly add: Locator;
  readonly create: Locator;
  readonly copy: Locator;
  readonly done: Locator;
  /** The error the page shows (see {@link shownError}). */
  readonly error: Locator;

  /** The form's Cancel, which the contract does not document: {@link leave} clicks it when it shows. */
  readonly #cancel: Locator;
  /** Told each token value as soon as it is read, before anything could report it. */
  readonly #onSecret: (value: string) => void;
  /** What the choice last made in a `<select>` Scope field shows, when that is not the scope itself. */
  #chosen: string | undefined;

  /**
   * @param page the tokens page
   * @param onSecret told each token value as soon as it is read
   */
  constructor(page: Page, onSecret: (value: string) => void = () => {}) {
    this.page = page;
    this.#onSecret = onSecret;
    // A field by its label, its placeholder, or (a label not tied to it) the input that follows its label; never
    // from a column header, whose next cell may hold the list's filter. A `<label>` that says more than the label in
    // words set aside (a help icon, words hidden from sight) leads to its field as the browser's focus would.
    const inputs = 'descendant-or-self::*[self::input or self::textarea or self::select]';
    const next = `following-sibling::*[1]/${inputs}`;
    const field = (label: string) => {
      const text = labelled(label);
      const after = page.getByText(text).locator(`xpath=(self::*[not(self::th) and not(@role="columnheader")]/${next})[1]`);
      const aside = shownAs(page, 'label', label).locator(
        `xpath=(id(@for) | self::*[not(@for)]/${inputs} | self::*[not(@for)]/${next})[1]`,
      );
      return page.getByLabel(text).or(page.getByPlaceholder(text)).or(after).or(aside).filter({ visible: true }).first();
    };
    this.name = field('Name');
    this.scope = field('Scope');
    this.add = control(page, 'Add');
    this.create = control(page, 'Create');
    this.copy = control(page, 'Copy token value');
    this.done = control(page, 'Done');
    this.#cancel = control(page, 'Cancel');
    this.error = shownError(page);
  }

  /**
   * Leaves the creation form without creating anything, by its Cancel when it offers one: the contract documents no
   * way out of the form, and a form of a page of its own may offer none. The step after opens the TOKENS page again.
   *
   * @returns true when a Cancel closed the form, false when the form is left as it is
   */
  async leave(): Promise<boolean> {
    if (!(await visibleNow(this.#cancel))) return false;
    await this.#cancel.click({ timeout: CLICK_MS });
    return true;
  }

  /**
   * Step 5's Name, entered and kept whole before anything is created: a field that cuts it short (its `maxlength`, or
   * a script) would create a token whose name neither the list lookup nor a run's cleanup knows, left active.
   *
   * @param name the name
   * @throws Error saying how much of it the field keeps, and its maxlength when it has one
   */
  async enterName(name: string): Promise<void> {
    await this.name.fill(name);
    const kept = await this.name.inputValue();
    if (kept === name) return;
    const limit = await this.name.getAttribute('maxlength');
    throw new Error(
      `step 5: the Name field keeps ${[...kept].length} of the name's ${[...name].length} characters` +
        `${limit === null ? '' : ` (its maxlength is ${limit})`}; the contract allows any name, so nothing was created`,
    );
  }

  /**
   * Step 5's Scope: typed into a text field; or, in a `<select>`, the choice
   * whose value is the scope, else the one that shows it whole, else the one
   * that shows it as a word (`Slicing service (slicer-id)`).
   * @param scope the scope (a service id)
   * @throws ScopeNotOffered when the field is a `<select>` with no such choice
   */
  async enterScope(scope: string): Promise<void> {
    this.#chosen = undefined;
    // No named functions inside the callback: a TypeScript loader may wrap them in helpers the page does not have.
    const choices = await this.scope.evaluate((field): Choice[] | undefined =>
      field instanceof HTMLSelectElement
        ? [...field.options].map((option) => ({ value: option.value, shows: option.text.replace(/\s+/g, ' ').trim() }))
        : undefined
    );
    if (!choices) return await this.scope.fill(scope);
    const services = choices.filter((choice) => choice.value !== ''); // a choice of no value is a prompt ("Choose a service")
    // Preferred in this order: the value, the whole shown text, a word of it (not a longer id that starts alike).
    const word = new RegExp(`(^|[^\\w.:-])${escapeRegExp(scope)}($|[^\\w.:-])`);
    const matches: ((choice: Choice) => boolean)[] = [(c) => c.value === scope, (c) => c.shows === scope, (c) => word.test(c.shows)];
    const choice = matches.map((match) => services.find(match)).find((found) => found !== undefined);
    if (!choice) throw new ScopeNotOffered(scope, services.map((c) => c.shows));
    await this.scope.selectOption({ index: choices.indexOf(choice) });
    if (choice.shows !== scope) this.#chosen = choice.shows;
  }

  /**
   * The entered scope as shown in the list of scopes (step 6), alone or beside
   * a control that removes it; chosen in a `<select>`, it may show as its choice does.
   * @param scope the scope entered
   * @returns its visible entry
   */
  added(scope: string): Locator {
    const shown = this.#chosen === undefined ? showing(this.page, scope) : showing(this.page, scope).or(showing(this.page, this.#chosen));
    return shown.filter({ visible: true }).first();
  }

  /**
   * Step 7's failure, said with the error the page shows instead of the token ("Unknown service"), where there is one:
   * what went wrong, in the service's words, not only the control that never showed.
   *
   * @param error the failed wait for "Copy token value"
   * @returns an error quoting the page's message (at most 200 characters), else `error` itself
   */
  async #withShownError(error: unknown): Promise<unknown> {
    const said = await errorSaid(this.error);
    return said ? new Error(`step 7: Create showed no "Copy token value"; the page shows an error: "${said}"`, { cause: error }) : error;
  }

  /**
   * Steps 7–8: reads the created token through "Copy token value", checks that
   * exactly that value is displayed, and marks the element secret.
   *
   * @returns the value
   * @throws when the copied value is not what the page displays
   */
  async readValue(): Promise<string> {
    await expect(this.copy, 'step 7: Create shows the token with "Copy token value"').toBeVisible().catch(async (error: unknown) => {
      throw await this.#withShownError(error);
    });
    // An empty clipboard first: a value left by an earlier test must not pass for this one.
    await this.page.evaluate(() => navigator.clipboard.writeText(''));
    await this.copy.click();
    let value = '';
    // Polled as a boolean: a failing poll prints what it received, and that is a token.
    await expect.poll(async () => (value = (await this.page.evaluate(() => navigator.clipboard.readText())).trim()) !== '', {
      message: '"Copy token value" puts the value on the clipboard',
    }).toBe(true);
    this.#onSecret(value);
    // A whole word, not a part of one: a copy that lost or changed a character must not pass. A sentence's quotes,
    // brackets and closing punctuation around the word are not part of it. The word is read in the innermost element
    // that holds the value, whatever elements split it (`<wbr>`, a `<span>` per part). The locator's CSS reaches into
    // open shadow roots, as a web component shows the value.
    const shown = await this.page.locator('body *').evaluateAll(
      (elements, expected) =>
        elements.some((element) =>
          element.getClientRects().length > 0 &&
          ((element as HTMLInputElement).value === expected ||
            ([...element.children].every((child) => !(child.textContent ?? '').includes(expected)) &&
              (element.textContent ?? '').split(/\s+/).some((word) =>
                word === expected || word.replace(/^[\p{Pi}\p{Ps}"']+|[\p{Pf}\p{Pe}"'.,;:!?]+$/gu, '') === expected
              )))
        ),
      value,
    );
    if (!shown) {
      throw new Error(
        'Step 7/8: the value "Copy token value" copied is not the value the page displays (it must show whole, as a text or ' +
          "a field's value, a password field's too: a value shown masked or cut short cannot be checked against the copy)",
      );
    }
    await markSecrets(this.page, [value]);
    return value;
  }
}
