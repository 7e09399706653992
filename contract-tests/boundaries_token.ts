/**
 * The boundary rows of the two ways a token travels (contract 5.1 rule 2):
 * near-misses of a valid token, the forms real clients send, and degenerate
 * and hostile values, in the header and as the posted argument.
 */
import { type Boundary, FORM, nearMissRows, percentAll } from './boundary.ts';

/** How a row presents a token to a service (contract 5.1 rule 2). */
export type Presenting =
  | { readonly header: string }
  | { readonly rawAuthorization: string }
  | { readonly postBody: string; readonly contentType: string };

/** Rows of the two ways a token travels (5.1 rule 2), each presenting a valid token, changed or not. */
export const TOKEN_WAYS: readonly (Boundary & { readonly present: (token: string) => Presenting })[] = [
  ...(['header', 'post argument'] as const).flatMap((way) =>
    nearMissRows('5.1 rule 2', `token (${way})`, 'refused').map((row) => ({
      ...row,
      present: (token: string): Presenting =>
        way === 'header'
          ? { header: row.apply(token) }
          : { postBody: new URLSearchParams({ token: row.apply(token) }).toString(), contentType: FORM },
    }))
  ),
  {
    clause: '5.1 rule 2',
    input: 'token (post argument)',
    value: 'the content type with "; charset=UTF-8"',
    kind: 'client form',
    expect: 'accepted',
    rule: true,
    present: (token) => ({ postBody: new URLSearchParams({ token }).toString(), contentType: `${FORM}; charset=UTF-8` }),
  },
  {
    clause: '5.1 rule 2',
    input: 'token (post argument)',
    value: 'among other fields, before and after it',
    kind: 'client form',
    expect: 'accepted',
    rule: true,
    present: (token) => ({ postBody: new URLSearchParams({ model: 'part.stl', token, quality: 'high' }).toString(), contentType: FORM }),
  },
  {
    clause: '5.1 rule 2',
    input: 'token (post argument)',
    value: 'every byte percent-encoded',
    kind: 'client form',
    expect: 'accepted',
    rule: true,
    present: (token) => ({ postBody: `token=${percentAll(token)}`, contentType: FORM }),
  },
  {
    clause: '5.1 rule 2',
    input: 'token (header)',
    value: 'the scheme written "bearer" (auth schemes are case-insensitive, RFC 9110 §11.1)',
    kind: 'client form',
    expect: 'accepted',
    rule: false,
    present: (token) => ({ rawAuthorization: `bearer ${token}` }),
  },
  ...(['header', 'post argument'] as const).flatMap((way) =>
    ([
      ['a single space', () => ' '],
      ['10,000 characters', (t: string) => t.repeat(Math.ceil(10_000 / t.length)).slice(0, 10_000)],
      ['HTML-special ("<script>&amp;")', () => '<script>&amp;'],
      ...(way === 'post argument' ? [['non-ASCII ("żeton-令牌")', () => 'żeton-令牌'] as const] : []),
    ] as const).map(([value, make]) => ({
      clause: '5.1 rule 2',
      input: `token (${way})`,
      value,
      kind: value.startsWith('HTML') ? 'hostile' as const : 'degenerate' as const,
      expect: 'refused, without a server error',
      rule: true,
      present: (token: string): Presenting =>
        way === 'header'
          ? { rawAuthorization: `Bearer ${make(token)}` }
          : { postBody: new URLSearchParams({ token: make(token) }).toString(), contentType: FORM },
    }))
  ),
];
