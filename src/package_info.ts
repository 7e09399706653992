/**
 * This package's own root folder and version, found from wherever the code
 * runs: the sources of a clone, or the built `dist/` of an installed package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The folder holding this package's `package.json`.
 *
 * @returns its absolute path
 * @throws Error when no `package.json` named slicer-auth is above this file
 */
export function packageRoot(): string {
  if (root) return root;
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'slicer-auth') return (root = dir);
  }
  throw new Error('Cannot find the slicer-auth package.json above this file');
}

/** @returns this package's version, e.g. `0.3.0` */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Where this package's `.env.example` (every setting with its meaning) is, from the working folder:
 * `node_modules/slicer-auth/.env.example` in a project that installed it, `.env.example` in a clone.
 *
 * @returns the path
 */
export function envExampleFile(): string {
  return relative(process.cwd(), join(packageRoot(), '.env.example'));
}

/** Whether a file exists and its text matches, without throwing (a user's file may be anything, or unreadable). */
function holds(file: string, pattern: RegExp): boolean {
  try {
    return pattern.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Whether a script in `dir` can import this package by name: it is installed there or above (`node_modules`), named
 * in a Deno config there or above (`deno add npm:slicer-auth`), or the folder is in this package's own clone.
 *
 * @param dir the script's folder
 * @returns true when one of these holds
 */
export function importableFrom(dir: string): boolean {
  for (let at = resolve(dir);; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules', 'slicer-auth', 'package.json')) || at === packageRoot()) return true;
    if (holds(join(at, 'deno.json'), /npm:slicer-auth\b/) || holds(join(at, 'deno.jsonc'), /npm:slicer-auth\b/)) return true;
    if (dirname(at) === at) return false;
  }
}
