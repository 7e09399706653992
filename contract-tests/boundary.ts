/**
 * What a row of the contract suite's boundary table is (a value tried for a
 * documented input, and what the service must do with it), and the pieces
 * the tables share: the form content type, percent-encoding every byte, and
 * the near-misses of a secret.
 */
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

export const FORM = 'application/x-www-form-urlencoded';
/** Every byte of a value as `%XX`: a valid form encoding no encoder needs. */
export const percentAll = (value: string) =>
  [...new TextEncoder().encode(value)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

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
export function nearMissRows(clause: string, input: string, expect: string, notLive?: string) {
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
