/**
 * The boundary rows of the permanent-token UI (contract 5.3), and the seeded
 * generator of the names it tries.
 */
import type { Boundary } from './boundary.ts';
import { readToolSettings } from '../src/settings/tool_settings.ts';

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

/** Pieces of generated names that are not ASCII: accented and non-Latin text, emoji (one of them joined). */
const NON_ASCII = ['Ünïcödé', 'żółć', '名前', 'トークン', '🚀', '👩‍🔬'];

/** Pieces of generated names with HTML-special characters or quotes. */
const MARKUP = ['<b>bold</b>', '&amp;', '"quoted"', "it's", 'a<script>x</script>'];

/** Any piece, a plain word among them. */
const ANY = [...NON_ASCII, ...MARKUP, 'plain'];

/**
 * Names for permanent tokens, drawn from a seed: two to four words joined by
 * single spaces, each name holding a non-ASCII word and a word with
 * HTML-special characters or quotes, in any order (a name of plain ASCII
 * would let a service that mangles other characters pass). The same seed
 * gives the same names (mulberry32: a few lines, where a property-testing
 * library would be one more dependency of the shipped suite).
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
  const pick = (items: readonly string[]) => items[Math.floor(next() * items.length)] as string;
  return Array.from({ length: count }, () => {
    const words = [pick(NON_ASCII), pick(MARKUP), ...Array.from({ length: Math.floor(next() * 3) }, () => pick(ANY))];
    // Shuffled on the same draws (Fisher–Yates), so that neither kind always comes first.
    for (let i = words.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [words[i], words[j]] = [words[j] as string, words[i] as string];
    }
    return words.join(' ');
  });
}
