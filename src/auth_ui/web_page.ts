/**
 * The first page of the authorization service's web UI, opened: a web page,
 * else an error that names the cause (a certificate the browser does not
 * trust, a server error, an answer that is no web page) and the fix.
 */
import type { Page, Response } from '@playwright/test';

/**
 * Opens an address that must answer with a web page ({@link assertWebPage}).
 *
 * @param page the browser page
 * @param url the address
 * @throws Error naming the fix when the browser does not trust the certificate ({@link untrustedByBrowser}) or the answer is no web page
 */
export async function openWebPage(page: Page, url: string): Promise<void> {
  assertWebPage(await page.goto(url).catch((error: Error) => Promise.reject(untrustedByBrowser(error, url))), url);
}

/**
 * A page that did not open because the browser does not trust its certificate's issuer, said with the fix: Chromium
 * reads neither NODE_EXTRA_CA_CERTS nor DENO_CERT, but on Linux it trusts the CAs of the user's NSS database.
 *
 * @param error what the navigation threw
 * @param url the address opened
 * @returns an error naming the fix, or `error` itself for any other failure
 */
function untrustedByBrowser(error: Error, url: string): Error {
  if (!error.message.includes('net::ERR_CERT_AUTHORITY_INVALID')) return error;
  return new Error(
    `${url}: the browser does not trust the certificate's issuer (net::ERR_CERT_AUTHORITY_INVALID): if your organisation's own ` +
      'CA issues it, add that CA to the NSS database Chromium reads on Linux: certutil -d sql:$HOME/.pki/nssdb -A -t C,, ' +
      "-n my-ca -i ca.pem (certutil: Debian's libnss3-tools; a new database first: certutil -d sql:$HOME/.pki/nssdb -N --empty-password)",
    { cause: error },
  );
}

/**
 * Checks that `{auth_url}/` answered with a web page, and not with a server error. An answer of another type (an
 * API's JSON, as a service's base address given for the authorization service's gets) or a proxy's error page would
 * otherwise show as a control not found, at the end of the wait for it. An answer without a content type is taken as
 * a page: the browser reads it as one.
 *
 * @param answer what the navigation answered (null when it stayed in the document)
 * @param url the address opened
 * @throws Error naming the status, the content type and SLICER_AUTH_URL
 */
function assertWebPage(answer: Response | null, url: string): void {
  if (answer === null) return;
  const type = answer.headers()['content-type'];
  if (answer.status() >= 500) {
    throw new Error(`${url} answered ${answer.status()}: the authorization service's web UI is down or failing; run again later`);
  }
  if (type === undefined || /html/i.test(type)) return;
  throw new Error(
    `${url} answered ${answer.status()} with ${type}, not a web page: check SLICER_AUTH_URL, the base address of the ` +
      'authorization service, whose web UI opens there',
  );
}
