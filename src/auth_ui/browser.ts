/**
 * Which Chromium to drive: Playwright's own when installed, else
 * `SLICER_CHROMIUM_PATH`, else `chromium` on PATH (Debian's package). Always
 * launched with flags that keep it off the network.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import process from 'node:process';
import { chromium, type LaunchOptions } from '@playwright/test';
import { readToolSettings } from '../tool_settings.ts';

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
 * Launch options for Chromium, kept off the network.
 *
 * @param env the environment
 * @returns options for `chromium.launch` or Playwright's `launchOptions`
 */
export function chromiumLaunchOptions(env: Readonly<Record<string, string | undefined>> = process.env): LaunchOptions {
  const executablePath = chromiumPath(env);
  return { ...(executablePath ? { executablePath } : {}), args: OFFLINE_FLAGS };
}
