/** Leaf: ending one caller's wait with its abort signal, without cancelling the work others share. */

/**
 * A promise that settles as `work` does, or rejects with the signal's reason
 * as soon as it aborts; `work` itself goes on.
 *
 * @param work what the caller waits for (possibly shared with other callers)
 * @param signal the caller's signal, if any
 * @returns the caller's own promise
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined); // settles later, unobserved by this caller
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}
