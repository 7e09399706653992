/**
 * Where secrets may go: the plain-http policy (contract 3: https, except on
 * this machine's loopback).
 */
import { InsecureAuthUrlError } from './errors.ts';

/**
 * Tells whether a host name is on this machine (127.0.0.0/8, ::1, localhost).
 *
 * @param hostname a URL's `hostname`
 * @returns true for a loopback host
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Refuses a plain-http URL on a non-loopback host: secrets would cross the network in clear.
 *
 * @param url the URL a secret is about to be sent to
 * @param variable the setting that names it, for the message
 * @throws {InsecureAuthUrlError} `INSECURE_AUTH_URL`
 */
export function assertSafeUrl(url: string | URL, variable: string): void {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) throw new InsecureAuthUrlError(parsed.host, variable);
}
