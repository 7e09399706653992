/**
 * Reading the token endpoint's answer whole, within a time limit and a size limit, before it is processed: a stalled
 * body is a timeout, and a body larger than any token answer (an address that serves some file) is refused after
 * its first mebibyte, not held in memory. Sending is `token_source.ts`; processing is `grant_response.ts`.
 */
import type { Clock } from '../clock.ts';

/** The most a token answer may hold: a token with many claims is a few KiB, and an error page well under this. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** The body of an answer did not arrive in time (reported as a timeout, like ky's own). */
export class BodyTimeoutError extends Error {}

/** The body of an answer is over {@link MAX_ANSWER_BYTES}: no token answer. */
export class BodyTooLargeError extends Error {
  /** The answer's status. */
  readonly status: number;
  /** @param status the answer's status */
  constructor(status: number) {
    super(); // never shown: the token source words the error
    this.status = status;
  }
}

/**
 * Reads a whole body within a time limit and a size limit, and returns an equivalent buffered response.
 *
 * @param response an answer whose headers arrived
 * @param timeoutMs how long the body may take
 * @param clock waits out the time limit
 * @returns the same answer, fully read, with its URL (where the token endpoint's path is read, and a relative redirect resolved)
 * @throws {BodyTimeoutError} on a stall; {@link BodyTooLargeError} past the size limit; the stream's error when the
 * connection drops
 */
export async function buffered(response: Response, timeoutMs: number, clock: Clock): Promise<Response> {
  const reader = response.body?.getReader();
  const done = new AbortController();
  const stalled = clock.sleep(timeoutMs, done.signal).then(() => {
    // Stryker disable next-line OptionalChaining: a stalled answer has a body (a null one is read at once)
    void reader?.cancel().catch(() => undefined);
    throw new BodyTimeoutError();
  });
  try {
    // Stryker disable next-line StringLiteral: only a 204 or 304 has no body, and its copy has none whatever this is
    const text = await Promise.race([reader ? readText(reader, response.status) : '', stalled]);
    // A text body gives its Response a text content type; given as bytes, an answer that had none keeps none.
    const body = response.headers.has('content-type') ? text : new TextEncoder().encode(text);
    const copy = new Response(response.status === 204 || response.status === 304 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    return Object.defineProperty(copy, 'url', { value: response.url });
  } finally {
    done.abort();
  }
}

/** A body's text (UTF-8, as `Response.text()` reads it), cancelled and refused once it is over the size limit. */
async function readText(reader: ReadableStreamDefaultReader<Uint8Array>, status: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      void reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(status);
    }
    text += decoder.decode(read.value, { stream: true });
  }
  return text + decoder.decode();
}
