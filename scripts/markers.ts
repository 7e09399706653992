/**
 * A generated section of a document: everything between its start and end
 * markers (both included) replaced by a new rendering that carries them.
 */

/**
 * The text with the section between its two markers replaced.
 *
 * @param text the document's text
 * @param file the document's name, for the error
 * @param markers the start and end markers
 * @param section the new section, markers included
 * @returns the new text
 * @throws when the markers are missing
 */
export function replaceSection(text: string, file: string, markers: readonly [string, string], section: string): string {
  const [startMarker, endMarker] = markers;
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start < 0 || end < start) throw new Error(`${file} lacks the markers ${startMarker} … ${endMarker}`);
  return text.slice(0, start) + section + text.slice(end + endMarker.length);
}
