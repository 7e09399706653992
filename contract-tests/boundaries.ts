/**
 * The boundary table of the contract suite: for each documented input, the
 * values the suite tries — the documented one, the forms real clients send,
 * degenerate and hostile values, and near-misses of every secret — with what
 * each must give. One row is one test; a row that cannot be checked on a
 * live service says why, and the compliance report shows that reason.
 * `docs/contract.md` lists the rows (`npm run docs:boundaries`).
 */
import { readToolSettings } from '../src/tool_settings.ts';

/** What a row is, among the values of its input. */
export type Kind = 'documented' | 'client form' | 'degenerate' | 'hostile' | 'near-miss';

/** One row: a value tried for an input, and what the service must do with it. */
export interface Boundary {
  /** The clause of `docs/contract.md` the row checks. */
  readonly clause: string;
  /** The documented input. */
  readonly input: string;
  /** The value tried, in words. */
  readonly value: string;
  readonly kind: Kind;
  /** What it must give. */
  readonly expect: string;
  /** A rule fails the run; a probe (behaviour the contract implies but does not state) only warns. */
  readonly rule: boolean;
  /** Why it is not checked on a live service, when it is not. */
  readonly notLive?: string;
}

/** The documented values of a valid token request (contract 4.1). */
export interface GoodGrant {
  readonly username: string;
  readonly password: string;
  readonly scope: string;
}

/** A token request as sent: the body and its content type. */
export interface RawGrant {
  readonly body: string;
  readonly contentType: string;
}

const FORM = 'application/x-www-form-urlencoded';
/** Every byte of a value as `%XX`: a valid form encoding no encoder needs. */
const percentAll = (value: string) =>
  [...new TextEncoder().encode(value)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
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

/** Degenerate, hostile and near-miss credentials (4.1 request fields), each a change of the good ones; none yields a token. */
export const CREDENTIALS: readonly (Boundary & { readonly change: (good: GoodGrant) => Partial<GoodGrant> })[] = [
  ...([
    ['empty', () => ''],
    ['a single space', () => ' '],
    ['1,000 characters', () => 'u'.repeat(1000)],
    ['non-ASCII ("użytkownik-名前")', () => 'użytkownik-名前'],
    ['HTML-special ("<b>&amp;\'"")', () => '<b>&amp;\'"'],
  ] as const).map(([value, make]) => ({
    clause: '4.1 request fields',
    input: 'username',
    value,
    kind: value.startsWith('HTML') ? 'hostile' as const : 'degenerate' as const,
    expect: 'no token',
    rule: true,
    change: () => ({ username: make() }),
  })),
  ...([
    ['empty', () => ''],
    ['a single space', () => ' '],
    ['1,000 characters', () => 'p'.repeat(1000)],
    ['non-ASCII ("hasło-密码")', () => 'hasło-密码'],
    ['HTML-special ("<b>&amp;\'"")', () => '<b>&amp;\'"'],
  ] as const).map(([value, make]) => ({
    clause: '4.1 request fields',
    input: 'password',
    value,
    kind: value.startsWith('HTML') ? 'hostile' as const : 'degenerate' as const,
    expect: 'no token',
    rule: true,
    notLive: LOCKOUT,
    change: () => ({ password: make() }),
  })),
  ...nearMissRows('4.1 request fields', 'password', 'no token', LOCKOUT).map((row) => ({
    ...row,
    change: (good: GoodGrant) => ({ password: row.apply(good.password) }),
  })),
];

/** A secret changed slightly: at its first, middle and last character, cut short, cut to half, extended. */
export function nearMisses(): readonly { readonly value: string; readonly apply: (s: string) => string }[] {
  const other = (c: string | undefined) => (c === 'A' ? 'B' : 'A');
  const at = (s: string, i: number) => s.slice(0, i) + other(s[i]) + s.slice(i + 1);
  return [
    { value: 'changed at its first character', apply: (s) => at(s, 0) },
    { value: 'changed at its middle character', apply: (s) => at(s, Math.floor(s.length / 2)) },
    { value: 'changed at its last character', apply: (s) => at(s, s.length - 1) },
    { value: 'cut short by one character', apply: (s) => s.slice(0, -1) },
    { value: 'cut to its first half', apply: (s) => s.slice(0, Math.ceil(s.length / 2)) },
    { value: 'extended by one character', apply: (s) => s + other(s.at(-1)) },
  ];
}

/** The near-miss rows of a secret input. */
function nearMissRows(clause: string, input: string, expect: string, notLive?: string) {
  return nearMisses().map(({ value, apply }) => ({
    clause,
    input,
    value,
    kind: 'near-miss' as const,
    expect,
    rule: true,
    apply,
    ...(notLive ? { notLive } : {}),
  }));
}

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

/** Rows of the permanent-token UI (5.3) that have no request of their own: what the UI specs try. */
export const UI_ROWS: readonly Boundary[] = [
  {
    clause: '5.3 creating step 5',
    input: 'name',
    value: 'generated names (seeded): non-ASCII, emoji, inner spaces, HTML-special characters',
    kind: 'hostile',
    expect: 'listed exactly as entered',
    rule: true,
  },
  {
    clause: '5.3 creating step 5',
    input: 'name',
    value: "200 characters (or the field's maxlength)",
    kind: 'degenerate',
    expect: 'listed exactly as entered',
    rule: false,
  },
  {
    clause: '5.3 creating step 6',
    input: 'scopes',
    value: 'each single scope, and both',
    kind: 'documented',
    expect: 'the token works exactly where its scopes say',
    rule: true,
  },
  {
    clause: '5.3 creating step 7',
    input: 'scope',
    value: 'a service id changed at its last character',
    kind: 'near-miss',
    expect: 'no token created',
    rule: true,
  },
  {
    clause: '5.3 revoking steps 1-3',
    input: 'the token revoked',
    value: 'two tokens alive, revoked in either order',
    kind: 'documented',
    expect: 'each refused once revoked, the other still accepted',
    rule: true,
  },
  {
    clause: '5.1 rule 2',
    input: 'permanent token (header and post argument)',
    value: 'near-misses, as for a temporary token',
    kind: 'near-miss',
    expect: 'refused',
    rule: true,
  },
];

/**
 * The seed of a run's generated values: `SLICER_CONTRACT_SEED`, else one drawn (the global setup draws it once and
 * publishes it to every worker).
 *
 * @returns the seed
 */
export function runSeed(): number {
  return readToolSettings().contractSeed ?? Math.floor(Math.random() * 2 ** 31);
}

/** Pieces of generated names: what "any name" must survive. */
const NAME_PIECES = [
  'Ünïcödé',
  'żółć',
  '名前',
  'トークン',
  '🚀',
  '👩‍🔬',
  '<b>bold</b>',
  '&amp;',
  '"quoted"',
  "it's",
  'a<script>x</script>',
  'plain',
];

/**
 * Names for permanent tokens, drawn from a seed: two to four words of
 * non-ASCII text, emoji, HTML-special characters and quotes, joined by single
 * spaces. The same seed gives the same names (mulberry32: a few lines, where
 * a property-testing library would be one more dependency of the shipped suite).
 *
 * @param seed the run's seed
 * @param count how many
 * @returns the names
 */
export function generatedNames(seed: number, count: number): string[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  return Array.from({ length: count }, () => Array.from({ length: 2 + Math.floor(next() * 3) }, () => pick(NAME_PIECES)).join(' '));
}

/** Every row, for the documents and the report. */
export const BOUNDARIES: readonly Boundary[] = [...REQUEST_FORMS, ...CREDENTIALS, ...TOKEN_WAYS, ...UI_ROWS];
