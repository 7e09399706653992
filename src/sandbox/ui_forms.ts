/**
 * What the UI's forms and script send, as valibot schemas, and a Hono
 * validator that applies one and answers the first issue's message.
 */
import type { Context, Env, ValidationTargets } from 'hono';
import { validator } from 'hono/validator';
import * as v from 'valibot';

const fixed = (text: string) => () => text;

/**
 * The login form (`/login`): missing fields read as empty, so they fail as a
 * wrong password does; `step` is `user` on a 'user-first' login's first page.
 */
export const LoginForm = v.object({
  username: v.optional(v.string(), ''),
  password: v.optional(v.string(), ''),
  step: v.optional(v.unknown()),
  next: v.optional(v.unknown()),
});

/** The script's "new token" call (`POST /security/tokens`, JSON). */
export const NewTokenBody = v.object(
  {
    name: v.pipe(
      v.string(fixed('Enter a name (up to 200 characters).')),
      v.check((name) => name.trim() !== '', fixed('Enter a name (up to 200 characters).')),
      v.maxLength(200, fixed('Enter a name (up to 200 characters).')),
      v.trim(),
    ),
    scopes: v.pipe(
      v.array(v.string(), fixed('Add at least one scope.')),
      v.minLength(1, fixed('Add at least one scope.')),
      v.transform((scopes) => [...new Set(scopes)]),
    ),
  },
  fixed('Enter a name (up to 200 characters).'),
);

/**
 * A Hono validator for a valibot schema: the parsed output for the handler,
 * or a 400 with the first issue's message (as JSON for JSON bodies, else text).
 *
 * @param target where the value comes from (`form`, `json`, …)
 * @param schema its schema
 * @returns the middleware
 */
export function validated<T extends keyof ValidationTargets, S extends v.GenericSchema>(target: T, schema: S) {
  return validator(target, (value, c: Context<Env>) => {
    const result = v.safeParse(schema, value);
    if (result.success) return result.output as v.InferOutput<S>;
    const message = result.issues[0].message;
    return target === 'json' ? c.json({ error: message }, 400) : c.text(message, 400);
  });
}
