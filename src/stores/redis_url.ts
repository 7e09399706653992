/** How a Redis store is named in messages: its URL without credentials. */

/**
 * The URL without credentials, for messages.
 *
 * @param url the configured URL
 * @returns scheme, host, port and database only
 */
export function describeRedisUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}
