/**
 * The browser's launch options, and a permanent token created through a
 * plain-http authorization service on a host that is not loopback (the user
 * opted in): Chromium keeps the clipboard from such pages unless told that
 * the origin is secure. The host is a name Chromium maps to 127.0.0.1, where
 * a proxy forwards to the sandbox (which answers only its own loopback
 * names), so the page's origin is not a loopback one.
 */
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, beforeEach, test } from 'node:test';
import { chromium } from '@playwright/test';
import { startSandbox } from '../sandbox/mod.ts';
import { runProcess } from '../testing/processes.ts';
import { chromiumLaunchOptions, OFFLINE_FLAGS } from './browser.ts';
import { TokensPage } from './tokens_page.ts';

const SECURE = '--unsafely-treat-insecure-origin-as-secure';

const sandbox = await startSandbox({ testMode: true });
const proxy = await proxyTo(sandbox.env.SLICER_AUTH_URL);
beforeEach(() => sandbox.store.reset());
after(async () => {
  await proxy.close();
  await sandbox.close();
});

/**
 * A proxy on a free loopback port that forwards every request to a service as
 * if addressed to it (its host, and its origin for a form's CSRF check), as a
 * proxy in front of a staging service does.
 */
async function proxyTo(target: string): Promise<{ port: number; close(): Promise<void> }> {
  const to = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, host: to.host, ...(incoming.headers.origin ? { origin: to.origin } : {}) };
    const forward = request({ host: to.hostname, port: to.port, path: incoming.url, method: incoming.method, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

test('only a plain-http authorization service on a host that is not loopback is treated as a secure origin', () => {
  const args = (authUrl?: string) => chromiumLaunchOptions(process.env, authUrl).args;
  assert.deepEqual(args(), OFFLINE_FLAGS);
  assert.deepEqual(args('http://auth.internal:8080/sso'), [...OFFLINE_FLAGS, `${SECURE}=http://auth.internal:8080`]);
  assert.deepEqual(args('HTTP://Auth.Internal'), [...OFFLINE_FLAGS, `${SECURE}=http://auth.internal`]);
  for (const secure of ['https://auth.example', 'http://127.0.0.1:8787', 'http://localhost:3000', 'http://[::1]:8080']) {
    assert.deepEqual(args(secure), OFFLINE_FLAGS, secure);
  }
});

test("the contract suite's browser gets the flag for a live plain-http target that is not on loopback, and only then", async () => {
  const script = "const { default: c } = await import('./contract-tests/playwright.config.ts'); " +
    "console.log(JSON.stringify(c.projects.find((p) => p.name === 'ui').use.launchOptions.args))";
  const live = {
    SLICER_CONTRACT_TARGET: 'live',
    SLICER_AUTH_URL: 'http://auth.internal:8080',
    SLICER_BASE_URL: 'http://auth.internal:8080/slicer',
    SLICER_PREDICT_BASE_URL: 'http://auth.internal:8080/predict',
    SLICER_ALLOW_INSECURE_HTTP: '1',
    SLICER_USERNAME: 'nightly',
    SLICER_PASSWORD: 'not-sent-anywhere',
    SLICER_SERVICE_ID: 'slicer',
    SLICER_PREDICT_SERVICE_ID: 'predict',
  };
  const args = async (env: Record<string, string>) => {
    const run = await runProcess(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SLICER_ENV_FILE: '/dev/null',
      ...env,
    });
    assert.equal(run.code, 0, run.err);
    return JSON.parse(run.out) as string[];
  };
  assert.deepEqual(await args(live), [...OFFLINE_FLAGS, `${SECURE}=http://auth.internal:8080`]);
  assert.deepEqual(await args({ ...live, SLICER_AUTH_URL: 'https://auth.internal' }), OFFLINE_FLAGS);
  assert.deepEqual(await args({ ...live, SLICER_CONTRACT_TARGET: 'sandbox' }), OFFLINE_FLAGS, 'the sandbox is on loopback');
});

test(
  '"Copy token value" works on a plain-http service that is not on loopback, and failed without the flag',
  { timeout: 120_000 },
  async () => {
    const { SLICER_USERNAME: username, SLICER_PASSWORD: password, SLICER_SERVICE_ID: serviceId } = sandbox.env;
    const authUrl = `http://auth.test:${proxy.port}`;
    const create = async (options: ReturnType<typeof chromiumLaunchOptions>, name: string) => {
      const args = [...(options.args ?? []), '--host-resolver-rules=MAP auth.test 127.0.0.1'];
      const browser = await chromium.launch({ ...options, args });
      try {
        const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
        const tokens = new TokensPage(await context.newPage(), authUrl, { username, password });
        await tokens.open();
        return await tokens.create(name, [serviceId]);
      } finally {
        await browser.close();
      }
    };
    await assert.rejects(create(chromiumLaunchOptions(process.env), 'without'), /reading 'writeText'/);
    const value = await create(chromiumLaunchOptions(process.env, authUrl), 'with');
    assert.equal((sandbox.store.check(value) as { kind?: string }).kind, 'permanent', 'the value read is a live permanent token');
  },
);
