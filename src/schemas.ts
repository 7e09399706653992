/**
 * valibot schemas for what the authorization service sends (contract 4.1).
 * Every message is fixed text: valibot's default messages quote the input,
 * and the input here holds the token.
 */
import * as v from 'valibot';

const fixed = (text: string) => () => text;

/**
 * A token as an HTTP header carries it (RFC 9110 §5.5, a field value): visible ASCII and Latin-1 bytes, with spaces
 * and tabs only inside. A line break or another control character would end or break the header and a character past
 * U+00FF has no byte, so `fetch` refuses them with an error that quotes the header; a space at either end is dropped
 * on the way, so another token arrives. (Empty passes: whether one may be is the schema's to say.)
 */
export const HEADER_SAFE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/** The validity of a temporary token that contract part 8 documents, in seconds, as 4.1 writes it. */
export const DOCUMENTED_EXPIRES_IN = '3600';

/**
 * A successful token response (contract 4.1, response body), as the client
 * accepts it: `expires_in` is documented as a string holding seconds, a JSON
 * number is accepted too, and one left out (or null) is the documented validity
 * ({@link DOCUMENTED_EXPIRES_IN}; RFC 6749 §5.1 lets a server leave it out
 * when the default is documented); `scope` may be left out or null (RFC 6749
 * §5.1); `access_token` must be {@link HEADER_SAFE}.
 * The contract suite checks the documented form on top of this shape.
 */
export const TokenResponseSchema = v.object(
  {
    token_type: v.pipe(
      v.string(fixed('must be the string "Bearer"')),
      v.check((value) => value.toLowerCase() === 'bearer', fixed('must be "Bearer"')),
    ),
    access_token: v.pipe(
      v.string(fixed('must be a string')),
      v.nonEmpty(fixed('must not be empty')),
      v.regex(
        HEADER_SAFE,
        fixed(
          'must be a token an HTTP header can carry (no line break or other control character, no character past U+00FF, no space at either end)',
        ),
      ),
    ),
    // RFC 6749 §5.1: a server may leave out a scope identical to the requested one (null as some serialisers write it).
    scope: v.nullish(v.string(fixed('must be a string'))),
    expires_in: v.nullish(
      v.pipe(
        v.union([v.string(), v.number()], fixed('must be a number of seconds (documented as a string)')),
        v.transform((value) => (typeof value === 'string' && value.trim() === '' ? Number.NaN : Number(value))),
        v.number(fixed('must be a number of seconds')),
        // A shorter token would be fetched again for nearly every call: the token endpoint flooded, for nothing.
        v.check((value) => Number.isFinite(value) && value >= 1, fixed('must be at least 1 second')),
      ),
      DOCUMENTED_EXPIRES_IN,
    ),
  },
  // The object's message is also that of a required field left out, which has a path.
  // Stryker disable next-line StringLiteral: processGrantResponse refuses a body that is no object before this schema
  (issue) => (issue.path ? 'is missing' : 'must be a JSON object'),
);

/**
 * An entry as a shared store hands it back (a `StoredGrant`), checked because a store may be the user's own code:
 * a token an HTTP header can carry, a finite expiry and a lifetime of at least 1 s (what {@link TokenResponseSchema}
 * lets in).
 */
export const StoredGrantSchema = v.object(
  {
    token: v.pipe(
      v.string(fixed('must be a string')),
      v.nonEmpty(fixed('must not be empty')),
      v.regex(HEADER_SAFE, fixed('must be a token an HTTP header can carry')),
    ),
    expiresAt: v.pipe(v.number(fixed('must be a number')), v.finite(fixed('must be finite'))),
    lifetime: v.pipe(
      v.number(fixed('must be a number')),
      v.finite(fixed('must be finite')),
      v.minValue(1000, fixed('must be at least 1000 ms')),
    ),
  },
  (issue) => (issue.path ? 'is missing' : 'must be an object'),
);

/** A validated token response, `expires_in` as a number of seconds. */
export type TokenResponse = v.InferOutput<typeof TokenResponseSchema>;

/** The OAuth error body of a refused grant (RFC 6749 §5.2); both fields optional. */
export const OAuthErrorSchema = v.object({
  error: v.optional(v.string()),
  error_description: v.optional(v.string()),
});
