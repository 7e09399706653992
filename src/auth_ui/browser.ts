/**
 * Which Chromium to drive: Playwright's own when installed, else
 * `SLICER_CHROMIUM_PATH`, else `chromium` on PATH (Debian's package). Always
 * launched with flags that keep it off the network, and with the clipboard
 * on a plain-http authorization service.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import process from 'node:process';
import { chromium, type LaunchOptions } from '@playwright/test';
import { readToolSettings } from '../settings/tool_settings.ts';
import { isLoopbackHost } from '../settings/url_policy.ts';

/** Chromium flags that stop background traffic to the vendor's servers. */
export const OFFLINE_FLAGS = ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds a Chromium to launch.
 *
 * @param env the environment (for `PATH` and `SLICER_CHROMIUM_PATH`, which `.env` may also set)
 * @returns the executable path, or undefined for Playwright's own
 * @throws Error naming what to install when none is found
 */
export function chromiumPath(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  if (executable(chromium.executablePath())) return undefined;
  const configured = readToolSettings({ env }).chromiumPath; // the environment, then .env
  if (configured) {
    if (!executable(configured)) throw new Error(`SLICER_CHROMIUM_PATH="${configured}" is not an executable file`);
    return configured;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const candidate = join(dir, name);
      if (dir && executable(candidate)) return candidate;
    }
  }
  throw new Error(
    'No Chromium found: run "npx playwright install chromium", or install one (Debian: apt-get install -y chromium), ' +
      'or set SLICER_CHROMIUM_PATH',
  );
}

/**
 * Launch options for Chromium, kept off the network. An authorization service
 * on plain http to a non-loopback host (which the settings allow only with
 * SLICER_ALLOW_INSECURE_HTTP) is treated as a secure origin: Chromium keeps
 * the clipboard from insecure pages, and "Copy token value" (5.3 creating
 * step 8) needs it, on the page and to read what it copied.
 *
 * @param env the environment
 * @param authUrl the authorization service's address, whose pages the browser opens
 * @returns options for `chromium.launch` or Playwright's `launchOptions`
 */
export function chromiumLaunchOptions(env: Readonly<Record<string, string | undefined>> = process.env, authUrl?: string): LaunchOptions {
  const executablePath = chromiumPath(env);
  const auth = authUrl === undefined ? undefined : new URL(authUrl);
  const insecure = auth?.protocol === 'http:' && !isLoopbackHost(auth.hostname);
  const args = insecure ? [...OFFLINE_FLAGS, `--unsafely-treat-insecure-origin-as-secure=${auth.origin}`] : OFFLINE_FLAGS;
  return { ...(executablePath ? { executablePath } : {}), args };
}
