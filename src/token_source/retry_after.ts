/**
 * Leaf: reads a `Retry-After` header (RFC 9110 §10.2.3), the wait an answer
 * asks for before the next request.
 */

/**
 * The wait a `Retry-After` value asks for.
 *
 * @param value the header: seconds (a fraction read as ky reads it), or an HTTP date
 * @param wallNow the wall clock, ms since the epoch, for a date
 * @returns the wait in ms (0 for a date already past), or undefined when the value is missing, negative or unreadable
 */
export function retryAfterMs(value: string | null | undefined, wallNow: number): number | undefined {
  const given = value?.trim();
  if (!given) return undefined;
  const seconds = Number(given);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(given);
  return Number.isNaN(date) ? undefined : Math.max(0, date - wallNow);
}
