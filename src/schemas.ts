/**
 * valibot schemas for what the authorization service sends (contract 4.1).
 * Every message is fixed text: valibot's default messages quote the input,
 * and the input here holds the token.
 */
import * as v from 'valibot';

const fixed = (text: string) => () => text;

/** The validity of a temporary token that contract part 8 documents, in seconds, as 4.1 writes it. */
export const DOCUMENTED_EXPIRES_IN = '3600';

/**
 * A successful token response (contract 4.1, response body), as the client
 * accepts it: `expires_in` is documented as a string holding seconds, a JSON
 * number is accepted too, and one left out (or null) is the documented validity
 * ({@link DOCUMENTED_EXPIRES_IN}; RFC 6749 §5.1 lets a server leave it out
 * when the default is documented); `scope` may be left out (RFC 6749 §5.1).
 * The contract suite checks the documented form on top of this shape.
 */
export const TokenResponseSchema = v.object(
  {
    token_type: v.pipe(
      v.string(fixed('must be the string "Bearer"')),
      v.check((value) => value.toLowerCase() === 'bearer', fixed('must be "Bearer"')),
    ),
    access_token: v.pipe(v.string(fixed('must be a string')), v.nonEmpty(fixed('must not be empty'))),
    // RFC 6749 §5.1: a server may leave out a scope identical to the requested one.
    scope: v.optional(v.string(fixed('must be a string'))),
    expires_in: v.nullish(
      v.pipe(
        v.union([v.string(), v.number()], fixed('must be a number of seconds (documented as a string)')),
        v.transform((value) => (typeof value === 'string' && value.trim() === '' ? Number.NaN : Number(value))),
        v.number(fixed('must be a number of seconds')),
        v.check((value) => Number.isFinite(value) && value > 0, fixed('must be a positive number of seconds')),
      ),
      DOCUMENTED_EXPIRES_IN,
    ),
  },
  // The object's message is also that of a required field left out, which has a path.
  (issue) => (issue.path ? 'is missing' : 'must be a JSON object'),
);

/** A validated token response, `expires_in` as a number of seconds. */
export type TokenResponse = v.InferOutput<typeof TokenResponseSchema>;

/** The OAuth error body of a refused grant (RFC 6749 §5.2); both fields optional. */
export const OAuthErrorSchema = v.object({
  error: v.optional(v.string()),
  error_description: v.optional(v.string()),
});
