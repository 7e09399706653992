/**
 * The clients of one process with the same credentials and clock, with no store configured, share their tokens and
 * the pause after a failed token request: a script that makes a client per call does not send a token request per
 * call. Each test uses a user of its own, so that none finds what another left.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AuthClientOptions, createAuthClient } from '../client.ts';
import { ErrorCode } from '../errors.ts';
import type { TokenOrigin } from '../grant.ts';
import { createFakeClock } from '../testing/fake_clock.ts';
import { harnessForFile } from '../testing/sandbox_harness.ts';

const h = harnessForFile();

/** A user of the sandbox's, added for one test. */
function newUser(username: string): { username: string; password: string } {
  const password = `${username}-password`;
  h.sandbox.store.addUser(username, password);
  return { username, password };
}

/** Options of a client of the sandbox (on the system clock unless they give another), and a count of its token requests. */
function counted(options: AuthClientOptions): { options: AuthClientOptions; requests: () => number } {
  let requests = 0;
  return {
    options: {
      env: h.sandbox.env,
      envFile: false,
      logger: { warn: (message) => h.warnings.push(message) },
      fetch: (input, init) => {
        if ((input instanceof Request ? input.url : String(input)).endsWith('/oauth2/token/')) requests++;
        return fetch(input, init);
      },
      ...options,
    },
    requests: () => requests,
  };
}

test('clients made one after another with the same credentials send one token request per scope', async () => {
  const user = newUser('share-one-request');
  const { options, requests } = counted(user);
  const sources: TokenOrigin[] = [];
  for (let call = 0; call < 4; call++) {
    const client = createAuthClient(options);
    try {
      sources.push((await client.getTokenInfo()).source);
      assert.equal((await client.tokenFetch('jobs')).status, 200);
      assert.equal((await client.tokenFetch('forecast', { scope: 'predict' })).status, 200);
    } finally {
      await client.close();
    }
  }
  assert.deepEqual(sources, ['request', 'memory', 'memory', 'memory']);
  assert.equal(requests(), 2, 'one token request for each scope');
});

test('clients that ask at once with the same credentials share one token request: one asks, the others wait for it', async () => {
  const user = newUser('share-at-once');
  const { options, requests } = counted(user);
  const clients = Array.from({ length: 3 }, () => createAuthClient(options));
  try {
    const tokens = await Promise.all(clients.map((client) => client.getToken()));
    assert.equal(new Set(tokens).size, 1);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
  assert.equal(requests(), 1);
});

test('clients of other credentials, or on a clock of their own, request their own tokens', async () => {
  const user = newUser('share-by-credentials');
  const other = newUser('share-by-credentials-other');
  const { options, requests } = counted(user);
  const tokens = new Set<string>();
  const clients = [
    createAuthClient(options),
    createAuthClient({ ...options, ...other }),
    createAuthClient({ ...options, now: () => 0 }),
    createAuthClient(options),
  ];
  try {
    for (const client of clients) tokens.add(await client.getToken());
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
  assert.equal(requests(), 3, "the user, the other user, the clock of its own; the last client shares the first one's token");
  assert.equal(tokens.size, 3);
  const wrong = createAuthClient({ ...options, password: 'not-the-password' });
  await assert.rejects(wrong.getToken(), { code: ErrorCode.TOKEN_REQUEST_REJECTED }, 'another password never gets the token');
  await wrong.close();
  assert.equal(requests(), 4);
});

test('a wrong password: clients made one after another get the first failure again, without a request, while it pauses', async () => {
  const user = newUser('share-pause');
  const clock = createFakeClock();
  const { options, requests } = counted({ ...user, password: 'wrong', clock });
  const call = async () => {
    const client = createAuthClient(options);
    await assert.rejects(client.getToken(), { code: ErrorCode.TOKEN_REQUEST_REJECTED });
    await client.close();
  };
  for (let client = 0; client < 5; client++) await call();
  assert.equal(requests(), 1, 'the pause after the first failure holds for the next clients');
  assert.deepEqual(h.warnings, [
    `The last token request for scope "service_id=${h.sandbox.env.SLICER_SERVICE_ID}" failed (TOKEN_REQUEST_REJECTED); ` +
    'giving that failure again for 900 s without a new request ' +
    '(the credentials were refused: sent again sooner, they could lock the account)',
  ]);
  clock.advance(899_999);
  await call();
  assert.equal(requests(), 1, 'a refused password is not sent again within 15 minutes');
  clock.advance(1);
  await call();
  assert.equal(requests(), 2, 'the pause over, the next client asks again');
});
