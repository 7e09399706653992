/** How a request's URL is read: relative paths go under a scope's base URL (ky's rules for slashes). */
import type { Input } from 'ky';

const ABSOLUTE_URL = /^[a-z][a-z\d+.-]*:/i;

/**
 * Whether a request input is a path to resolve against a base URL.
 *
 * @param input what the caller passed to authedFetch
 * @returns true for a string that is not an absolute URL
 */
export function isRelative(input: Input): input is string {
  return typeof input === 'string' && !ABSOLUTE_URL.test(input);
}

/** A relative path without its leading slashes (ky's rule for paths under a base URL). */
export function stripSlashes(path: string): string {
  return path.replace(/^\/+/, '');
}
