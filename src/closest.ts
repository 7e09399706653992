/**
 * Leaf: "did you mean" for a mistyped name (a command, a CLI option, a client option).
 */

/**
 * The closest of some names to a word mistyped, for "did you mean".
 *
 * @param word what was typed
 * @param names what it could have been
 * @returns the closest name within two edits (or one that starts with the word), else undefined
 */
export function closest(word: string, names: readonly string[]): string | undefined {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) {
        next[j] = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
      row = next;
    }
    return row[b.length] as number;
  };
  const ranked = names.map((name) => ({ name, d: name.startsWith(word) && word.length >= 2 ? 0.5 : distance(word, name) }))
    .sort((a, b) => a.d - b.d);
  return ranked[0] && ranked[0].d <= 2 ? ranked[0].name : undefined;
}
