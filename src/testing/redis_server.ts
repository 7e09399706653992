/**
 * A real `redis-server` (Debian's package) for tests: started on a free
 * loopback port with no persistence, and stopped, paused (SIGSTOP) or
 * restarted by the test. Imported by tests only.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import process from 'node:process';
import { freePort } from './processes.ts';

/** A running Redis server. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGTERM) and waits for the exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open, nothing answers. */
  pause(): void;
  /** Thaws it (SIGCONT). */
  resume(): void;
}

/** @returns whether `redis-server` is installed */
export function redisAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * How to launch the server: on Linux through `setpriv --pdeathsig KILL`, so
 * the server dies with the test process even when that process is killed
 * before its `after` runs (a timeout, a mutation run's bail).
 */
const launcher = (): string[] =>
  spawnSync('setpriv', ['--help'], { encoding: 'utf8' }).stdout?.includes('--pdeathsig') ? ['setpriv', '--pdeathsig', 'KILL'] : [];

/**
 * Starts a Redis server for a test.
 *
 * @returns the server; stop it in `after`
 */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const [command = 'redis-server', ...prefix] = [...launcher(), 'redis-server'];
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      child = spawn(command, [...prefix, '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += chunk;
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        if (!child || child.exitCode !== null) return resolve();
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
  };
}

/**
 * Whether the Redis tests can run: in CI a missing server is an error (.ci/run installs it), elsewhere they are skipped.
 *
 * @returns true when `redis-server` is installed
 * @throws in CI when it is not
 */
export function redisRequired(): boolean {
  if (redisAvailable()) return true;
  if (process.env.CI) throw new Error('redis-server is not installed (Debian: apt-get install -y redis-server); .ci/run installs it');
  return false;
}
