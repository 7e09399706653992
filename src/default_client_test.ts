/**
 * The free `getToken`, `getTokenInfo`, `tokenFetch` and `authedFetch`, against
 * a sandbox named by the environment: they share one client, built on first
 * use, and each call's scope and URL pick the service. This file is one process
 * (node:test runs each file in its own), so the client is built from the
 * environment set in `before`, whichever test runs first.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { authedFetch, getToken, getTokenInfo, tokenFetch } from './default_client.ts';
import { type Sandbox, startSandbox } from './sandbox/mod.ts';
import { bareEnvironment } from './testing/bare_environment.ts';

/** What the sandbox's services answer. */
interface Echo {
  readonly method: string;
  readonly path: string;
  readonly service: string;
}

let sandbox: Sandbox;
before(async () => {
  sandbox = await startSandbox({ testMode: true });
  bareEnvironment();
  Object.assign(process.env, sandbox.env);
});
after(() => sandbox.close());
// Every test starts from a fresh sandbox; a token the client kept from another test is refused, then replaced.
beforeEach(() => sandbox.store.reset());

/** Tokens the sandbox issued for a service, by its id. */
const issued = (serviceId: string) => sandbox.store.stats().issued[serviceId] ?? 0;

test('getToken and getTokenInfo share one client: one token per scope, however often they are called', async () => {
  const first = await getToken('slicer', { forceRefresh: true });
  assert.equal(await getToken('slicer'), first);
  const info = await getTokenInfo();
  assert.equal(info.token, first);
  assert.equal(info.scope, `service_id=${sandbox.env.SLICER_SERVICE_ID}`);
  const predict = await getTokenInfo('predict', { forceRefresh: true });
  assert.equal(predict.scope, `service_id=${sandbox.env.SLICER_PREDICT_SERVICE_ID}`);
  assert.equal(await getToken('predict'), predict.token);
  assert.notEqual(predict.token, first);
  assert.equal(issued(sandbox.env.SLICER_SERVICE_ID), 1);
  assert.equal(issued(sandbox.env.SLICER_PREDICT_SERVICE_ID), 1);
});

test("tokenFetch sends a relative path to its scope's service, and an absolute URL where it points", async () => {
  const sent = async (response: Promise<Response>) => {
    const answer = await response;
    assert.equal(answer.status, 200);
    const { service, path } = await answer.json() as Echo;
    return `${service} ${path}`;
  };
  assert.equal(await sent(tokenFetch('jobs/7')), 'slicer /slicer/jobs/7');
  assert.equal(await sent(tokenFetch('jobs/7', { scope: 'predict' })), 'predict /predict/jobs/7');
  assert.equal(await sent(tokenFetch(new URL(`${sandbox.env.SLICER_PREDICT_BASE_URL}/models`))), 'predict /predict/models');
});

test("authedFetch sends to the call's scope, to its extension's, and to the client's default otherwise", async () => {
  const sent = async (response: Promise<Echo>) => {
    const { method, service, path } = await response;
    return `${method} ${service} ${path}`;
  };
  assert.equal(await sent(authedFetch('jobs').json()), 'GET slicer /slicer/jobs');
  assert.equal(await sent(authedFetch.get('jobs', { scope: 'predict' }).json()), 'GET predict /predict/jobs');
  const predict = authedFetch.extend({ scope: 'predict' });
  assert.equal(await sent(predict.post('models').json()), 'POST predict /predict/models');
  assert.equal(await sent(predict('models', { scope: 'slicer' }).json()), 'GET slicer /slicer/models');
  assert.equal(await sent(predict.extend({ method: 'put' })('models').json()), 'PUT predict /predict/models');
});
