/**
 * Keeping secrets out of logs and errors: a {@link Secret} box that hides its
 * value from `util.inspect`, `JSON.stringify` and string conversion, and
 * {@link redact}, which removes known secret values from free text (server
 * messages, network error messages) before it reaches an error or a log line.
 */

const HIDDEN = '[redacted]';

/**
 * A secret value (password, token) that prints as `[redacted]`.
 *
 * @example
 * ```ts
 * const password = new Secret('hunter2');
 * String(password); // "[redacted]"
 * password.reveal(); // "hunter2"
 * ```
 */
export class Secret {
  readonly #value: string;

  /** @param value the secret value */
  constructor(value: string) {
    this.#value = value;
  }

  /** @returns the secret value itself; call only where it is sent. */
  reveal(): string {
    return this.#value;
  }

  /** @returns `[redacted]` */
  toString(): string {
    return HIDDEN;
  }

  /** @returns `[redacted]` */
  toJSON(): string {
    return HIDDEN;
  }

  /** Hides the value from Node's, Deno's and Bun's `util.inspect`. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return HIDDEN;
  }
}

/**
 * An object that holds a token in its `token` field, printed without it: `util.inspect` (so `console.log`) and
 * `JSON.stringify` show `token: '[redacted]'`, in Node, Deno and Bun. Reading `info.token`, or spreading the object,
 * gives the value.
 *
 * @param fields the object's fields, the token among them
 * @returns a copy of them that prints its token as `[redacted]`
 */
export function printedWithoutToken<T extends { readonly token: string }>(fields: T): T {
  const shown = () => ({ ...fields, token: HIDDEN });
  return Object.defineProperties({ ...fields }, {
    toJSON: { value: shown },
    [Symbol.for('nodejs.util.inspect.custom')]: { value: shown },
  });
}

/** The forms a secret can take in free text: as is, URL-encoded (both ways), base64 and base64url. */
function forms(value: string): Set<string> {
  const base64 = btoa(String.fromCharCode(...new TextEncoder().encode(value)));
  const base64url = base64.replace(/\+/g, '-').replace(/\//g, '_');
  return new Set([
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    base64,
    // Stryker disable next-line Regex: "=" appears in base64 only as its final padding
    base64.replace(/=+$/, ''),
    // Stryker disable next-line Regex: as above
    base64url.replace(/=+$/, ''),
  ]);
}

/**
 * Replaces every occurrence of each secret (as is, URL-encoded, base64) in a text.
 *
 * @param text free text that may contain secrets
 * @param secrets the known secret values; empty ones are ignored
 * @returns the text with each secret replaced by `[redacted]`
 * @example
 * ```ts
 * redact('bad password hunter2', ['hunter2']); // "bad password [redacted]"
 * ```
 */
export function redact(text: string, secrets: Iterable<string | Secret | undefined>): string {
  let result = text;
  for (const secret of secrets) {
    const value = secret instanceof Secret ? secret.reveal() : secret;
    if (!value) continue;
    // Longest first, so a form that contains another is replaced whole.
    for (const form of [...forms(value)].sort((a, b) => b.length - a.length)) result = result.split(form).join(HIDDEN);
  }
  return result;
}

/** Removes known secret values from a text: one per client (or tool), made by {@link redactor} from all it knows. */
export type Redactor = (text: string) => string;

/**
 * The redactor of a set of secrets: every message and event text of a client goes through it.
 *
 * @param secrets the known secret values; empty ones are ignored
 * @returns a function that {@link redact}s a text by them
 */
export function redactor(secrets: Iterable<string | Secret | undefined>): Redactor {
  const known = [...secrets];
  return (text) => redact(text, known);
}
