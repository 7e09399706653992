/**
 * The suite's saved browser login (a Playwright storage state), which the
 * `setup` project hands to the `ui` projects: a session that can create
 * permanent tokens. It lives for one run. The global setup makes a random key
 * for the run (`SLICER_CONTRACT_LOGIN_KEY`, in the environment its workers
 * inherit); the login is sealed with it (AES-256-GCM, as the shared token
 * stores seal their entries: `src/stores/seal.ts`), bound to the service and
 * user, in a file its owner alone may read (0600, in a 0700 folder); the
 * global teardown removes it, and its folder when that is left empty. A file
 * of another run, or sealed for another service or user, or altered, does not
 * open: the login is redone. So no session is left on disk, and the file
 * tells nothing while it is there.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import process from 'node:process';
import type { BrowserContextOptions } from '@playwright/test';
import { makeFolders } from '../src/folders.ts';
import { Secret } from '../src/redact.ts';
import { createSeal, type Seal } from '../src/stores/seal.ts';

/** A storage state as Playwright hands it over and takes it back: cookies and each origin's local storage. */
export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/** Whose login it is: the service's UI and the user. */
export interface LoginOwner {
  readonly authUrl: string;
  readonly username: string;
}

/** The suite's option: whether a project's browser starts with the saved login (the `ui` projects), or none (`setup`). */
export interface SuiteOptions {
  readonly savedLogin: boolean;
}

/** The variable that carries the run's key to the workers. */
const KEY_VARIABLE = 'SLICER_CONTRACT_LOGIN_KEY';

/** What a sealed login is bound to: opened for another service or user, it does not open. */
const boundTo = (owner: LoginOwner) => `slicer-auth ui login ${owner.authUrl} ${owner.username}`;

/** The seal of the key last used, derived once (scrypt) for every test of a worker. */
let derived: { readonly key: string; readonly seal: Promise<Seal> } | undefined;

/** The run's seal, when the global setup made its key. */
function runSeal(): Promise<Seal> | undefined {
  const key = process.env[KEY_VARIABLE];
  if (!key) return undefined;
  if (derived?.key !== key) derived = { key, seal: createSeal(new Secret(key)) };
  return derived.seal;
}

/** Makes this run's key (global setup): the workers it starts inherit it, and no other run has it. */
export function newLoginKey(): void {
  process.env[KEY_VARIABLE] = randomBytes(32).toString('base64url');
}

/**
 * Saves a login for the rest of the run, sealed with the run's key (nothing is saved without one).
 *
 * @param path the file
 * @param state the browser context's storage state
 * @param owner the service and user
 */
export async function saveLogin(path: string, state: StorageState, owner: LoginOwner): Promise<void> {
  const seal = await runSeal();
  if (!seal) return;
  makeFolders(dirname(path), 0o700);
  chmodSync(dirname(path), 0o700); // a folder an earlier version left open to others is closed
  writeFileSync(path, seal.seal(JSON.stringify(state), boundTo(owner)), { mode: 0o600 });
  chmodSync(path, 0o600); // an existing file keeps its mode on write
}

/**
 * The login saved in this run, for this owner.
 *
 * @param path the file
 * @param owner the service and user
 * @returns the storage state, or undefined (none saved, another run's, another owner's, altered) to log in again
 */
export async function openLogin(path: string, owner: LoginOwner): Promise<StorageState | undefined> {
  let sealed: string;
  try {
    sealed = readFileSync(path, 'utf8');
  } catch {
    return undefined; // none saved
  }
  const json = (await runSeal())?.open(sealed, boundTo(owner));
  return json === undefined ? undefined : JSON.parse(json) as StorageState;
}

/**
 * Removes the run's saved login at its end, and its folder when nothing else is in it (the suite made it).
 *
 * @param path the file
 */
export function forgetLogin(path: string): void {
  rmSync(path, { force: true });
  try {
    rmdirSync(dirname(path));
  } catch {
    // not empty (another run's login, files of the user's own), or not there
  }
}

/**
 * Removes the login an earlier version saved in clear, a session anyone who reads the file can use: the file and the
 * note of its owner beside it (`.meta.json`), only when that note is there, and never a storage state of the user's own.
 *
 * @param path where the earlier version saved it
 * @param own the user's own storage state (`SLICER_UI_STORAGE_STATE`), if set
 */
export function forgetEarlierLogin(path: string, own: string | undefined): void {
  if (!existsSync(`${path}.meta.json`) || (own !== undefined && resolve(own) === resolve(path))) return;
  rmSync(path, { force: true });
  rmSync(`${path}.meta.json`, { force: true });
}
