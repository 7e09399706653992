/**
 * The doctor's own network probes, below HTTP: name resolution, a TCP
 * connection and the TLS certificate of a URL's host; and the time limit on
 * the doctor's clock that these and its HTTP requests run under. The probes leave
 * nothing open (name resolution has the resolver's own limits).
 */
import { lookup } from 'node:dns/promises';
import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { type Clock, timeLimit } from '../../clock.ts';

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
  const limit = timeLimit(clock, PROBE_TIMEOUT_MS);
  try {
    return await send(limit.signal);
  } catch (error) {
    if (limit.signal.aborted) return undefined;
    throw error;
  } finally {
    limit.cancel();
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
 * Opens and closes a TCP connection, for at most {@link PROBE_TIMEOUT_MS} on the clock.
 *
 * @param host the host
 * @param port the port
 * @param clock the clock
 * @throws the socket's error (`ECONNREFUSED`, …), or `ETIMEDOUT` when no connection came in time
 */
export async function tcp(host: string, port: number, clock: Clock): Promise<void> {
  const connected = await withinProbeTime(
    clock,
    (signal) => settled(signal, tcpConnect({ host, port }), 'connect', (socket) => socket.destroy()),
  );
  if (!connected) throw timedOut('no connection');
}

/**
 * Waits for a socket's event, the socket destroyed whatever happens.
 *
 * @param signal aborts the wait
 * @param socket the socket
 * @param event the event that ends the wait
 * @param read what to take from the socket then (before it is destroyed)
 * @returns a promise of what `read` returned; it rejects with the socket's error, or when the signal aborts
 */
function settled<S extends Socket, T>(signal: AbortSignal, socket: S, event: string, read: (socket: S) => T): Promise<T> {
  return new Promise((done, fail) => {
    signal.addEventListener('abort', () => (socket.destroy(), fail(signal.reason)), { once: true });
    socket.once(event, () => {
      const value = read(socket);
      socket.destroy();
      done(value);
    });
    socket.once('error', (error) => (socket.destroy(), fail(error)));
  });
}

/** The error of a probe whose time ran out, coded as a socket's own would be. */
function timedOut(what: string): Error {
  return Object.assign(new Error(`${what} within ${PROBE_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' });
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
 * Performs a TLS handshake and reads the peer certificate, for at most {@link PROBE_TIMEOUT_MS} on the clock.
 *
 * @param host the host (also the server name)
 * @param port the port
 * @param clock the clock
 * @returns the certificate's validity and expiry
 * @throws the socket's error when no handshake happens, or `ETIMEDOUT` when none came in time
 */
export async function certificate(host: string, port: number, clock: Clock): Promise<Certificate> {
  // No server name for an address: TLS names hosts only (RFC 6066), and Node warns when given one.
  const servername = isIP(host) === 0 ? host : undefined;
  const cert = await withinProbeTime(
    clock,
    (signal) =>
      settled(signal, tlsConnect({ host, port, servername, rejectUnauthorized: false }), 'secureConnect', (socket) => ({
        valid: socket.authorized,
        problem: socket.authorizationError ? String(socket.authorizationError) : undefined,
        validTo: new Date(socket.getPeerCertificate().valid_to),
      })),
  );
  if (!cert) throw timedOut('no TLS handshake');
  return cert;
}
