/**
 * One behavioural table, two clients: `authedFetch` (ky) and `tokenFetch`
 * (the platform's fetch) share the token engine, so every row runs on both
 * against the sandbox and loopback servers. Where they differ by design (a
 * second 401 is ky's error but fetch's Response), the row says so.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Hono } from 'hono';
import type { AuthClient, AuthClientOptions } from './client.ts';
import { isAuthError } from './errors.ts';
import type { AuthEvent } from './events.ts';
import { listen, type Listening } from './sandbox/serve.ts';
import { type Harness, startHarness } from './testing/sandbox_harness.ts';

let h: Harness;
let relay: Listening;
const seen: { path: string; authorization: string | null }[] = [];
before(async () => {
  h = await startHarness();
  // A service of its own origin: redirects within it and away from it, and a record of what reached it.
  const app = new Hono();
  app.get('/svc/hop', (c) => c.redirect('/svc/land', 307));
  // Another origin (localhost is not 127.0.0.1) served by this same recording server: a followed redirect would show in `seen`.
  app.get('/svc/away', (c) => c.redirect(`${relay.origin.replace('127.0.0.1', 'localhost')}/stolen`, 302));
  app.get(
    '/svc/said',
    (c) => c.text(`referer ${c.req.header('referer') ?? 'none'}, authorization ${c.req.header('authorization') ?? 'none'}`),
  );
  app.all('*', (c) => {
    seen.push({ path: c.req.path, authorization: c.req.header('authorization') ?? null });
    return c.json({ path: c.req.path });
  });
  relay = await listen(app.fetch);
});
after(async () => {
  await relay.close();
  await h.close();
});
beforeEach(() => {
  h.sandbox.store.reset();
  seen.length = 0;
});

/** A request as a row states it. */
interface Call {
  readonly url: string;
  readonly method?: string;
  readonly body?: BodyInit;
  readonly headers?: Record<string, string>;
  readonly scope?: 'slicer' | 'predict';
}

/** What a client answered: a status and its JSON, or an error code. */
type Outcome = { status: number; json: Record<string, unknown> | undefined } | { error: string };

/** The two clients, each made to answer a call the same way. */
const CLIENTS: Record<'authedFetch' | 'tokenFetch', (client: AuthClient, call: Call) => Promise<Outcome>> = {
  authedFetch: async (client, { url, ...init }) => {
    try {
      const response = await client.authedFetch(url, { ...init, throwHttpErrors: false, retry: 0 });
      return { status: response.status, json: await response.json<Record<string, unknown>>().catch(() => undefined) };
    } catch (error) {
      if (isAuthError(error)) return { error: error.code };
      throw error;
    }
  },
  tokenFetch: async (client, { url, ...init }) => {
    const response = await client.tokenFetch(url, init);
    return { status: response.status, json: (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined };
  },
};

const form = () => new URLSearchParams({ model: 'a.stl' });
const multipart = () => {
  const data = new FormData();
  data.set('model', new Blob(['solid a']), 'a.stl');
  return data;
};

/** One row: the client's options, what happens before, the call, and what each client must answer. */
interface Row {
  readonly name: string;
  readonly options?: () => AuthClientOptions;
  readonly before?: (client: AuthClient) => Promise<void>;
  readonly call: () => Call;
  readonly expect: (outcome: Outcome, client: 'authedFetch' | 'tokenFetch') => void;
}

const success = (fields: Record<string, unknown>) => (outcome: Outcome) => {
  assert.ok('status' in outcome, JSON.stringify(outcome));
  assert.equal(outcome.status, 200);
  for (const [key, value] of Object.entries(fields)) assert.equal(outcome.json?.[key], value, key);
};

const ROWS: Row[] = [
  {
    name: 'a GET to a relative path carries the token in the header',
    call: () => ({ url: 'jobs/1' }),
    expect: success({ path: '/slicer/jobs/1', token_via: 'header', service: 'slicer' }),
  },
  {
    name: 'the post transport puts it in a form body',
    options: () => ({ transport: 'post' }),
    call: () => ({ url: 'slice', method: 'POST', body: form() }),
    expect: success({ token_via: 'post' }),
  },
  {
    name: 'the post transport puts it in a multipart body',
    options: () => ({ transport: 'post' }),
    call: () => ({ url: 'slice', method: 'POST', body: multipart() }),
    expect: success({ token_via: 'post' }),
  },
  {
    name: 'the post transport puts it in a form body given as a Blob of the form type',
    options: () => ({ transport: 'post' }),
    call: () => ({ url: 'slice', method: 'POST', body: new Blob(['model=a.stl'], { type: 'application/x-www-form-urlencoded' }) }),
    expect: success({ token_via: 'post' }),
  },
  {
    name: 'the post transport puts it in a form body given as bytes with the form content type',
    options: () => ({ transport: 'post' }),
    call: () => ({
      url: 'slice',
      method: 'POST',
      body: new TextEncoder().encode('model=a.stl'),
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    }),
    expect: success({ token_via: 'post' }),
  },
  {
    name: 'a JSON body keeps the header with the post transport',
    options: () => ({ transport: 'post' }),
    call: () => ({ url: 'slice', method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } }),
    expect: success({ token_via: 'header' }),
  },
  {
    name: 'the predict scope, by option',
    call: () => ({ url: `${h.sandbox.env.SLICER_PREDICT_BASE_URL}/forecast`, scope: 'predict' }),
    expect: success({ service: 'predict', path: '/predict/forecast' }),
  },
  {
    name: "the predict scope, by the URL: an absolute URL without a scope gets its service's token",
    call: () => ({ url: `${h.sandbox.env.SLICER_PREDICT_BASE_URL}/forecast` }),
    expect: (outcome) => {
      success({ service: 'predict', path: '/predict/forecast', token_kind: 'temporary' })(outcome);
      assert.deepEqual([h.issued(), h.issued(h.sandbox.env.SLICER_PREDICT_SERVICE_ID)], [0, 1], 'no slicing token asked');
    },
  },
  {
    name: 'a 401 drops the token and the request goes once more with a fresh one, a form body included',
    options: () => ({ transport: 'post' }),
    before: async (client) => {
      await client.getToken();
      h.sandbox.store.reset(); // the service no longer knows the token
    },
    call: () => ({ url: 'slice', method: 'POST', body: form() }),
    expect: (outcome) => {
      success({ token_via: 'post' })(outcome);
      assert.equal(h.issued(), 1, 'one fresh token after the reset');
    },
  },
  {
    name: 'a second 401 ends it: ky throws UNAUTHORIZED, fetch returns the 401',
    call: () => ({ url: `${h.sandbox.env.SLICER_BASE_URL}/x`, scope: 'predict' }), // a predict token is refused by the slicing service
    expect: (outcome, client) => {
      if (client === 'authedFetch') assert.deepEqual(outcome, { error: 'UNAUTHORIZED' });
      else assert.equal('status' in outcome && outcome.status, 401);
      assert.equal(h.issued(h.sandbox.env.SLICER_PREDICT_SERVICE_ID), 2, 'one fresh token, then stop');
    },
  },
  {
    name: 'another origin gets the request without the token',
    call: () => ({ url: `${relay.origin}/upload` }),
    expect: (outcome) => {
      assert.ok('status' in outcome && outcome.status === 200);
      assert.deepEqual(seen, [{ path: '/upload', authorization: null }]);
    },
  },
  {
    name: 'a same-origin redirect is followed with the token; a cross-origin one is handed back',
    options: () => ({ baseUrl: `${relay.origin}/svc` }),
    before: async (client) => {
      await client.getToken();
    },
    call: () => ({ url: 'hop' }),
    expect: (outcome) => {
      assert.deepEqual(outcome, { status: 200, json: { path: '/svc/land' } });
      assert.match(seen[0]?.authorization ?? '', /^Bearer /);
    },
  },
  {
    name: 'a cross-origin redirect is handed back, never sent the token',
    options: () => ({ baseUrl: `${relay.origin}/svc` }),
    call: () => ({ url: 'away' }),
    expect: (outcome) => {
      assert.ok('status' in outcome);
      assert.equal(outcome.status, 302);
      assert.deepEqual(seen, [], 'nothing followed it');
    },
  },
];

test('every row reports the same events through authedFetch as through tokenFetch: one token request or hit per token sent', async () => {
  for (const row of ROWS) {
    const reported: Record<string, string[]> = {};
    for (const [name, send] of Object.entries(CLIENTS)) {
      h.sandbox.store.reset();
      seen.length = 0;
      const events: string[] = (reported[name] = []);
      // Each event without its measured times, which differ from run to run.
      const onEvent = (event: AuthEvent) =>
        events.push(JSON.stringify(event, (key, value) => (['durationMs', 'remainingMs', 'waitedMs'].includes(key) ? undefined : value)));
      const client = h.client({ ...row.options?.(), onEvent });
      await row.before?.(client);
      await send(client, row.call());
    }
    assert.deepEqual(reported.authedFetch, reported.tokenFetch, row.name);
  }
});

for (const [name, send] of Object.entries(CLIENTS) as [keyof typeof CLIENTS, (typeof CLIENTS)[keyof typeof CLIENTS]][]) {
  describe(`${name}: the shared behaviour table`, () => {
    for (const row of ROWS) {
      test(row.name, async () => {
        const client = h.client(row.options?.());
        await row.before?.(client);
        row.expect(await send(client, row.call()), name);
      });
    }

    test('100 concurrent cold calls make one token request', async () => {
      const client = h.client();
      const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => send(client, { url: `jobs/${i}` })));
      assert.ok(outcomes.every((o) => 'status' in o && o.status === 200));
      assert.equal(h.issued(), 1);
    });
  });
}

describe("both: fetch's own options", () => {
  test("a Request's and the options' integrity and referrer are kept as fetch keeps them: the answer checked, the Referer sent", async () => {
    const url = `${relay.origin}/svc/said`;
    const referrer = { referrer: `${relay.origin}/page`, referrerPolicy: 'unsafe-url' } as const;
    const hash = (body: string) => `sha256-${createHash('sha256').update(body).digest('base64')}`;
    const client = h.client({ baseUrl: `${relay.origin}/svc`, staticToken: 'permanent-token', username: '', password: '' });
    const ways: Record<string, (init: RequestInit) => Promise<Response>> = {
      'plain fetch': (init) => fetch(new Request(url, init)),
      'tokenFetch, a Request': (init) => client.tokenFetch(new Request(url, init)),
      'tokenFetch, a URL and options': (init) => client.tokenFetch(url, init),
      'authedFetch, a URL and options': (init) => client.authedFetch(url, { ...init, retry: 0 }),
    };
    for (const [way, send] of Object.entries(ways)) {
      const said = `referer ${relay.origin}/page, authorization ${way === 'plain fetch' ? 'none' : 'Bearer permanent-token'}`;
      assert.equal(await (await send({ ...referrer, integrity: hash(said) })).text(), said, way);
      await assert.rejects(send({ ...referrer, integrity: hash('another answer') }), /fetch failed/, `${way}: an answer unlike its hash`);
    }
  });
});

describe('authedFetch only', () => {
  test("without a scope, a Request's URL, a URL object and an absolute prefixUrl tell the scope too", async () => {
    const client = h.client();
    const predict = h.sandbox.env.SLICER_PREDICT_BASE_URL;
    const fromRequest = await client.authedFetch(new Request(`${predict}/forecast`)).json<{ service: string }>();
    const fromPrefix = await client.authedFetch.extend({ prefixUrl: predict })('forecast').json<{ service: string }>();
    // A URL object, as ky takes it: its own, the prefixUrl left aside.
    const underSlicer = client.authedFetch.extend({ prefixUrl: h.sandbox.env.SLICER_BASE_URL });
    const fromUrl = await underSlicer(new URL(`${predict}/forecast`)).json<{ service: string; path: string }>();
    const relative = await client.authedFetch('jobs').json<{ service: string }>();
    assert.deepEqual([fromRequest.service, fromPrefix.service, fromUrl.service, relative.service], [
      'predict',
      'predict',
      'predict',
      'slicer',
    ]);
    assert.equal(fromUrl.path, '/predict/forecast');
    assert.deepEqual([h.issued(), h.issued(h.sandbox.env.SLICER_PREDICT_SERVICE_ID)], [1, 1]);
  });
});

describe('tokenFetch only', () => {
  test("the scope is the service whose base URL the URL is under; the platform's fetch signature and Response", async () => {
    const client = h.client();
    const predict = await client.tokenFetch(`${h.sandbox.env.SLICER_PREDICT_BASE_URL}/forecast`);
    const platform = await fetch(`${h.sandbox.env.SLICER_PREDICT_BASE_URL}/forecast`);
    assert.equal(Object.getPrototypeOf(predict), Object.getPrototypeOf(platform), "the platform fetch's own Response");
    assert.equal(((await predict.json()) as { service: string }).service, 'predict');
    const request = new Request(`${h.sandbox.env.SLICER_BASE_URL}/from-request`, { method: 'PUT', body: 'x' });
    assert.equal(((await (await client.tokenFetch(request)).json()) as { path: string }).path, '/slicer/from-request');
    const url = new URL(`${h.sandbox.env.SLICER_BASE_URL}/from-url`);
    assert.equal(((await (await client.tokenFetch(url)).json()) as { path: string }).path, '/slicer/from-url');
  });
});
