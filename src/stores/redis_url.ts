/** How a Redis store is named in messages: its URL without credentials. */

/**
 * The URL without credentials, for messages.
 *
 * @param url the configured URL
 * @returns scheme, host, port and database only; a fixed text for a URL that does not parse (it may hold anything)
 */
export function describeRedisUrl(url: string): string {
  if (!URL.canParse(url)) return 'redis (a URL that does not parse)';
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}
