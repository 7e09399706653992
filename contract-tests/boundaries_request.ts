/**
 * The boundary rows of the token request (contract 4.1): the content type and
 * body in the forms real clients send, and degenerate, hostile and near-miss
 * credentials.
 */
import { type Boundary, FORM, type GoodGrant, nearMissRows, percentAll, type RawGrant } from './boundary.ts';

const fields = (
  good: GoodGrant,
) => [['grant_type', 'password'], ['username', good.username], ['password', good.password], ['scope', good.scope]];

/** The request rows of the token endpoint's content type and body (4.1 rule 2), each with its request. */
export const REQUEST_FORMS: readonly (Boundary & { readonly send: (good: GoodGrant) => RawGrant })[] = [
  {
    clause: '4.1 rule 2',
    input: 'content type and body',
    value: 'form-encoded, the content type set explicitly, the fields in the documented order',
    kind: 'documented',
    expect: 'a token',
    rule: true,
    send: (good) => ({ body: new URLSearchParams(fields(good)).toString(), contentType: FORM }),
  },
  {
    clause: '4.1 rule 2',
    input: 'content type',
    value: 'with a charset parameter ("; charset=UTF-8", as browsers and many clients send it)',
    kind: 'client form',
    expect: 'a token',
    rule: true,
    send: (good) => ({ body: new URLSearchParams(fields(good)).toString(), contentType: `${FORM}; charset=UTF-8` }),
  },
  {
    clause: '4.1 rule 2',
    input: 'field order',
    value: 'the fields in reverse order',
    kind: 'client form',
    expect: 'a token',
    rule: true,
    send: (good) => ({ body: new URLSearchParams(fields(good).reverse()).toString(), contentType: FORM }),
  },
  {
    clause: '4.1 rule 2',
    input: 'encoding of the values',
    value: 'every byte of every value percent-encoded',
    kind: 'client form',
    expect: 'a token',
    rule: true,
    send: (good) => ({ body: fields(good).map(([k, v]) => `${k}=${percentAll(v as string)}`).join('&'), contentType: FORM }),
  },
  {
    clause: '4.1 rule 2',
    input: 'encoding of the values',
    value: 'the "=" inside the scope value left unencoded (scope=service_id=<id>, as curl -d sends it)',
    kind: 'client form',
    expect: 'a token',
    rule: true,
    send: (good) => ({
      body: `${new URLSearchParams(fields(good).slice(0, 3)).toString()}&scope=${good.scope}`,
      contentType: FORM,
    }),
  },
  {
    clause: '4.1 rule 2',
    input: 'content type',
    value: 'the media type in upper case (media types are case-insensitive, RFC 9110 §8.3.1)',
    kind: 'client form',
    expect: 'a token',
    rule: false,
    send: (good) => ({ body: new URLSearchParams(fields(good)).toString(), contentType: FORM.toUpperCase() }),
  },
  {
    clause: '4.1 rule 2',
    input: 'body',
    value: 'empty',
    kind: 'degenerate',
    expect: 'no token (a 4xx)',
    rule: false,
    send: () => ({ body: '', contentType: FORM }),
  },
  {
    clause: '4.1 rule 2',
    input: 'body',
    value: 'the fields followed by 100,000 characters of padding',
    kind: 'hostile',
    expect: 'no server error',
    rule: false,
    send: (good) => ({ body: `${new URLSearchParams(fields(good)).toString()}&pad=${'x'.repeat(100_000)}`, contentType: FORM }),
  },
  {
    clause: '4.1 rule 2',
    input: 'content type',
    value: 'text/plain with the form-encoded fields',
    kind: 'degenerate',
    expect: 'no token (a 4xx)',
    rule: false,
    send: (good) => ({ body: new URLSearchParams(fields(good)).toString(), contentType: 'text/plain' }),
  },
];

/** Why a wrong password is not tried on a live service: each one counts toward locking its test account. */
const LOCKOUT = 'each wrong password counts toward locking the service\'s test account (one per run is tried: "a wrong password"); ' +
  'the sandbox checks it with a user of its own';

/** Degenerate and hostile values of a credential field, from a letter its long value repeats and a non-ASCII sample. */
function degenerateRows(input: 'username' | 'password', letter: string, nonAscii: string, notLive?: string) {
  return ([
    ['empty', ''],
    ['a single space', ' '],
    ['1,000 characters', letter.repeat(1000)],
    [`non-ASCII ("${nonAscii}")`, nonAscii],
    ['HTML-special ("<b>&amp;\'"")', '<b>&amp;\'"'],
  ] as const).map(([value, sent]) => ({
    clause: '4.1 request fields',
    input,
    value,
    kind: value.startsWith('HTML') ? 'hostile' as const : 'degenerate' as const,
    expect: 'no token',
    rule: true,
    ...(notLive ? { notLive } : {}),
    change: () => ({ [input]: sent }),
  }));
}

/** Degenerate, hostile and near-miss credentials (4.1 request fields), each a change of the good ones; none yields a token. */
export const CREDENTIALS: readonly (Boundary & { readonly change: (good: GoodGrant) => Partial<GoodGrant> })[] = [
  ...degenerateRows('username', 'u', 'użytkownik-名前'),
  ...degenerateRows('password', 'p', 'hasło-密码', LOCKOUT),
  ...nearMissRows('4.1 request fields', 'password', 'no token', LOCKOUT).map((row) => ({
    ...row,
    change: (good: GoodGrant) => ({ password: row.apply(good.password) }),
  })),
];
