/**
 * Making a folder and its missing parents, as `mkdir -p` does, without Node's
 * own `mkdirSync(…, { recursive: true })`: that one spins forever, using a
 * whole core, where a folder that exists answers that its child cannot be
 * found (under `/proc` or `/sys`, or in a mount whose folder was removed).
 */
import { existsSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Where a path meets what is there: the path itself, else the nearest of its parents that is there.
 *
 * @param path a file or folder, there or not
 * @returns that path (the root, or the working folder of a relative path, at the furthest)
 */
export function nearestThere(path: string): string {
  let at = path;
  // A missing name, or one under a file (ENOTDIR), is looked above.
  // Stryker disable next-line ConditionalExpression: the root, or the working folder of a relative path, is there, unless that folder was removed
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

/**
 * Makes `folder` and each of its missing parents, once each; a folder already there is left as it is.
 *
 * @param folder the folder to make
 * @param mode the mode of each folder made (the umask applies), e.g. `0o700`
 * @throws the file system's error for the first folder that cannot be made; `ENOTDIR` when a file holds the folder's
 *   name, `ENOENT` when a link to nothing does
 */
export function makeFolders(folder: string, mode?: number): void {
  const parent = dirname(folder);
  // A name that is there, a link to nothing included, is not made again (mkdir would refuse it); the root always is.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: making a folder that is there, or its parents, fails with EEXIST, which is let pass
  if (parent !== folder && !lstatSync(folder, { throwIfNoEntry: false })) {
    makeFolders(parent, mode);
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      // Stryker disable next-line ConditionalExpression,StringLiteral: true fails only when another process makes the folder meanwhile, a race no test can time
      if ((error as { code?: string }).code !== 'EEXIST') throw error; // made meanwhile by another process: looked at below
    }
  }
  const there = statSync(folder, { throwIfNoEntry: false });
  if (there?.isDirectory()) return;
  const [code, what] = there ? ['ENOTDIR', 'not a directory'] : ['ENOENT', 'no such file or directory']; // a file; a link to nothing
  throw Object.assign(new Error(`${code}: ${what}, mkdir '${folder}'`), { code });
}
