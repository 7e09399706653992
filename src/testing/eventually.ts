/**
 * Test helper: polls a condition on real time with a deadline, for work that
 * happens in another process or on the network (a fake clock cannot move it).
 */

/**
 * Resolves once `check` returns true; rejects with `what` after the deadline.
 *
 * @param check the condition, polled every 10 ms
 * @param what what is awaited, for the failure message
 * @param timeoutMs the deadline
 */
export async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
