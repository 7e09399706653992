import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ignoredProxy } from './runtime_check.ts';

const IGNORED = (version: string, name = 'HTTPS_PROXY') =>
  `Node ${version}; ${name} is set, but Node's fetch does not use it: requests go direct`;
const UPGRADE = 'if they must go through the proxy, use Node 24 (or 22.21+) with NODE_USE_ENV_PROXY=1, or give createAuthClient a fetch ' +
  "that does (undici's EnvHttpProxyAgent)";

test("a proxy Node's fetch ignores is a warning saying what to do on that version; one it uses, or none, is no finding", () => {
  const proxy = { HTTPS_PROXY: 'http://proxy.example:3128' };
  assert.deepEqual(ignoredProxy('v20.20.2', proxy), { status: 'warn', reason: IGNORED('v20.20.2'), fix: UPGRADE });
  assert.deepEqual(ignoredProxy('v20.20.2', { ...proxy, NODE_USE_ENV_PROXY: '1' }), {
    status: 'warn',
    reason: IGNORED('v20.20.2'),
    fix: UPGRADE,
  }, 'Node 20 has no NODE_USE_ENV_PROXY');
  assert.deepEqual(ignoredProxy('v22.20.0', { ...proxy, NODE_USE_ENV_PROXY: '1' })?.fix, UPGRADE, 'nor 22.20');
  assert.deepEqual(ignoredProxy('v22.21.0', { http_proxy: 'http://proxy.example:3128' }), {
    status: 'warn',
    reason: IGNORED('v22.21.0', 'http_proxy'),
    fix: 'set NODE_USE_ENV_PROXY=1 if they must go through the proxy',
  });
  assert.equal(ignoredProxy('v22.21.0', { ...proxy, NODE_USE_ENV_PROXY: '1' }), undefined);
  assert.equal(ignoredProxy('v24.1.0', { ...proxy, NODE_OPTIONS: '--max-old-space-size=4096 --use-env-proxy' }), undefined);
  assert.equal(ignoredProxy('v24.1.0', { ...proxy, NODE_USE_ENV_PROXY: '0' })?.status, 'warn');
  assert.equal(ignoredProxy('v20.20.2', { HTTPS_PROXY: '', NO_PROXY: '*' }), undefined, 'no proxy named');
});
