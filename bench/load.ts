/** The bench's load generator, shared by its in-process and per-process rounds. */
import process from 'node:process';

/** What one load measured. */
export interface LoadFigures {
  /** The client process's CPU (user + system) per completed request, µs. */
  readonly cpuPerRequest: number;
  /** Completed requests per second. */
  readonly rate: number;
}

/**
 * Runs `total` calls, `concurrency` at a time.
 *
 * @param call makes one request and reads its answer
 * @param total how many calls in all
 * @param concurrency how many in flight
 * @returns client CPU per request and requests/s
 */
export async function load(call: () => Promise<unknown>, total: number, concurrency: number): Promise<LoadFigures> {
  let started = 0;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (started++ < total) await call();
  }));
  const seconds = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu);
  return { cpuPerRequest: (used.user + used.system) / total, rate: total / seconds };
}
