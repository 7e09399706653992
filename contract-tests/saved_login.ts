/**
 * The suite's saved browser login (a Playwright storage state): a session that
 * can create permanent tokens. It is kept sealed (AES-256-GCM, as the shared
 * token stores seal their entries: `src/stores/seal.ts`) with a key derived
 * from the account's password and bound to the service and user it logged in
 * to, in a file its owner alone may read (0600, in a 0700 folder). The file
 * tells nothing of the session to whoever reads it without the password. A
 * file sealed for another service, user or password, altered, older than a
 * token's lifetime or left open to others is not used: the login is redone.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BrowserContextOptions } from '@playwright/test';
import { Secret } from '../src/redact.ts';
import { createSeal } from '../src/stores/seal.ts';

/** A storage state as Playwright hands it over and takes it back: cookies and each origin's local storage. */
export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/** Whose login it is: the service's UI, the user and the password that seals it. */
export interface LoginOwner {
  readonly authUrl: string;
  readonly username: string;
  readonly password: string;
}

/** The suite's option: whether a project's browser starts with the saved login (the `ui` projects), or none (`setup`). */
export interface SuiteOptions {
  readonly savedLogin: boolean;
}

/** A saved login older than a token's lifetime is redone. */
export const SAVED_LOGIN_MAX_AGE_MS = 3600_000;

/** What a sealed login is bound to: opened for another service or user, it does not open. */
const boundTo = (owner: LoginOwner) => `slicer-auth ui login ${owner.authUrl} ${owner.username}`;

/** Writes a file readable by its owner only, in a folder only its owner may enter, whatever the umask. */
function writePrivate(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  chmodSync(dirname(path), 0o700);
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600); // an existing file keeps its mode on write
}

/**
 * Saves a login, sealed for its owner. The note of the owner an earlier version kept beside it (`.meta.json`, the
 * owner now bound into the seal) is removed.
 *
 * @param path the file
 * @param state the browser context's storage state
 * @param owner the service, user and password
 */
export async function saveLogin(path: string, state: StorageState, owner: LoginOwner): Promise<void> {
  const seal = await createSeal(new Secret(owner.password));
  writePrivate(path, seal.seal(JSON.stringify(state), boundTo(owner)));
  rmSync(`${path}.meta.json`, { force: true });
}

/**
 * A saved login, when it can be used: sealed for this owner, unaltered, younger than
 * {@link SAVED_LOGIN_MAX_AGE_MS}, and its file and folder closed to others.
 *
 * @param path the file
 * @param owner the service, user and password
 * @param now the wall clock's time, in ms since the epoch
 * @returns the storage state, or undefined to log in again
 */
export async function openLogin(path: string, owner: LoginOwner, now: number): Promise<StorageState | undefined> {
  if (!existsSync(path)) return undefined;
  const file = statSync(path);
  const closed = (file.mode & 0o077) === 0 && (statSync(dirname(path)).mode & 0o077) === 0;
  if (!closed || now - file.mtimeMs >= SAVED_LOGIN_MAX_AGE_MS) return undefined;
  const json = (await createSeal(new Secret(owner.password))).open(readFileSync(path, 'utf8'), boundTo(owner));
  return json === undefined ? undefined : JSON.parse(json) as StorageState;
}
