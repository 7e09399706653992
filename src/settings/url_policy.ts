/**
 * Where secrets may go: the plain-http policy (contract 3: https, except on
 * this machine's loopback).
 */
import { InsecureUrlError } from '../errors.ts';

/**
 * Tells whether a host name is on this machine (127.0.0.0/8, ::1, localhost).
 *
 * @param hostname a URL's `hostname`
 * @returns true for a loopback host
 */
export function isLoopbackHost(hostname: string): boolean {
  // Stryker disable next-line Regex: a URL's hostname holds brackets only around an IPv6 address, so the anchors change nothing
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Refuses a plain-http URL on a non-loopback host: secrets would cross the network in clear.
 *
 * @param url the URL a secret is about to be sent to
 * @param variable the setting that names it, for the message
 * @throws {InsecureUrlError} `INSECURE_AUTH_URL`
 */
export function assertSafeUrl(url: string | URL, variable: string): void {
  const parsed = new URL(url);
  if (!isSafeUrl(parsed)) throw new InsecureUrlError(parsed.host, variable);
}

/**
 * Whether a URL may carry a secret without the user's opt-in: https anywhere, plain http to a loopback host only.
 *
 * @param url the parsed URL
 * @returns true when it is safe
 */
export function isSafeUrl(url: URL): boolean {
  return url.protocol !== 'http:' || isLoopbackHost(url.hostname);
}

/**
 * The origins that may receive a scope's token: its service's origin (from
 * its base URL) and the origins the caller listed explicitly.
 *
 * @param baseUrl the scope's service base URL, if configured
 * @param allowed the `allowedOrigins` setting, already normalised
 * @returns the set of origins, as `URL#origin` writes them
 */
export function tokenOrigins(baseUrl: string | undefined, allowed: readonly string[] = []): ReadonlySet<string> {
  return new Set([...(baseUrl ? [new URL(baseUrl).origin] : []), ...allowed]);
}

/**
 * Whether a request URL may carry a token: its origin (scheme, host and port
 * as the URL standard normalises them, so user-info tricks, other ports and
 * look-alike host names all differ) is one of `origins`.
 *
 * @param url the URL a request is about to go to
 * @param origins the origins of {@link tokenOrigins}
 * @returns true only for a listed origin
 */
export function mayReceiveToken(url: string, origins: ReadonlySet<string>): boolean {
  return URL.canParse(url) && origins.has(new URL(url).origin);
}
