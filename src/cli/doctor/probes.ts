/**
 * The doctor's own network probes, below HTTP: name resolution, a TCP
 * connection and the TLS certificate of a URL's host. Each is bounded in time
 * and leaves nothing open.
 */
import { lookup } from 'node:dns/promises';
import { connect as tcpConnect, isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Clock } from '../../clock.ts';

/** How long one probe may take. */
export const PROBE_TIMEOUT_MS = 5_000;

/**
 * Sends a request that may take at most {@link PROBE_TIMEOUT_MS} on the clock, its end included.
 *
 * @param clock the clock
 * @param send sends the request, aborting it on the signal
 * @returns what `send` returned, or undefined when the time ran out first (the request is then aborted)
 * @throws what `send` threw for any other reason
 */
export async function withinProbeTime<T>(clock: Clock, send: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  const finished = new AbortController();
  const expired = new AbortController();
  void clock.sleep(PROBE_TIMEOUT_MS, finished.signal).then(() => expired.abort());
  try {
    return await send(expired.signal);
  } catch (error) {
    if (expired.signal.aborted) return undefined;
    throw error;
  } finally {
    finished.abort();
  }
}

/** Host and port of a URL (default ports filled in). */
export function endpointOf(url: string): { host: string; port: number; tls: boolean } {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'https:';
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || (tls ? 443 : 80)), tls };
}

/**
 * Resolves a host name.
 *
 * @param host the name
 * @returns the first address
 * @throws the resolver's error (`ENOTFOUND`, …)
 */
export async function resolve(host: string): Promise<string> {
  return (await lookup(host)).address;
}

/**
 * Opens and closes a TCP connection.
 *
 * @param host the host
 * @param port the port
 * @throws the socket's error (`ECONNREFUSED`, `ETIMEDOUT`, …)
 */
export function tcp(host: string, port: number): Promise<void> {
  return new Promise((done, fail) => {
    const socket = tcpConnect({ host, port, timeout: PROBE_TIMEOUT_MS });
    socket.once('connect', () => (socket.destroy(), done()));
    socket.once('timeout', () => (socket.destroy(), fail(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }))));
    socket.once('error', (error) => (socket.destroy(), fail(error)));
  });
}

/** What the TLS handshake showed of the certificate. */
export interface Certificate {
  /** Whether the chain and host name verified. */
  readonly valid: boolean;
  /** Why not, e.g. `CERT_HAS_EXPIRED`. */
  readonly problem: string | undefined;
  /** When it expires. */
  readonly validTo: Date;
}

/**
 * Performs a TLS handshake and reads the peer certificate.
 *
 * @param host the host (also the server name)
 * @param port the port
 * @returns the certificate's validity and expiry
 * @throws the socket's error when no handshake happens
 */
export function certificate(host: string, port: number): Promise<Certificate> {
  return new Promise((done, fail) => {
    // No server name for an address: TLS names hosts only (RFC 6066), and Node warns when given one.
    const servername = isIP(host) === 0 ? host : undefined;
    const socket = tlsConnect({ host, port, servername, rejectUnauthorized: false, timeout: PROBE_TIMEOUT_MS });
    socket.once('secureConnect', () => {
      const peer = socket.getPeerCertificate();
      const problem = socket.authorizationError ? String(socket.authorizationError) : undefined;
      socket.destroy();
      done({ valid: socket.authorized, problem, validTo: new Date(peer.valid_to) });
    });
    socket.once('timeout', () => (socket.destroy(), fail(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }))));
    socket.once('error', (error) => (socket.destroy(), fail(error)));
  });
}
