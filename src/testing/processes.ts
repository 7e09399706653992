/**
 * Runs a real child process to completion, for the tests that check CLI
 * behaviour, runtimes and process exit.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What a finished process did. */
export interface Finished {
  /** Exit code; null when it was killed at the time limit. */
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
  readonly seconds: number;
}

/**
 * Runs a command in the repository root.
 *
 * @param command executable
 * @param args its arguments
 * @param env its whole environment
 * @param timeoutMs killed after this long
 * @param cwd where it runs
 * @returns how it finished
 */
export function runProcess(
  command: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
  cwd = ROOT,
): Promise<Finished> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/**
 * Runs a TypeScript file of this repository under Node + tsx.
 *
 * @param args the file and its arguments
 * @param env its whole environment
 * @param timeoutMs killed after this long
 * @returns how it finished
 */
export function runTs(args: readonly string[], env: Record<string, string | undefined>, timeoutMs?: number): Promise<Finished> {
  return runProcess(process.execPath, ['--import', 'tsx', ...args], env, timeoutMs);
}

/**
 * A loopback port that was free a moment ago: for a server a test starts, or
 * (nothing listening there) for a refused connection.
 *
 * @returns the port number
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A child process driven one line at a time. */
export interface Conversation {
  /** Sends a line and resolves with the next line the process prints. */
  ask(line: string): Promise<string>;
  /** Ends stdin and waits for the exit code. */
  end(): Promise<number | null>;
}

/**
 * Starts a TypeScript file of this repository under Node + tsx, to talk to.
 *
 * @param file the file
 * @param env its whole environment
 * @param timeoutMs each answer's deadline; the process is killed after it
 * @returns the conversation
 */
export function converse(file: string, env: Record<string, string | undefined>, timeoutMs = 30_000): Conversation {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    ask(line) {
      child.stdin.write(`${line}\n`);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => (child.kill('SIGKILL'), reject(new Error(`no answer to "${line}" within ${timeoutMs} ms: ${err}`))),
          timeoutMs,
        );
        const answer = (text: string) => (clearTimeout(timer), resolve(text));
        const early = lines.shift();
        if (early !== undefined) answer(early);
        else waiting.push(answer);
      });
    },
    end() {
      child.stdin.end();
      return exited;
    },
  };
}
