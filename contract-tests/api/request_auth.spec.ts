/**
 * Contract 5.1: every request authenticates on its own, with the token in the
 * Authorization header or as the `token` post argument.
 */
import { clause, covers, expect, type Presentation, refused, type Service, test } from '../fixtures.ts';

// 5.1 rule 2 holds for every request: both services, both ways, every body encoding a client posts.
for (const service of ['slicer', 'predict'] as const satisfies readonly Service[]) {
  for (
    const [way, present] of [
      ['the Authorization Bearer header', (token: string): Presentation => ({ header: token })],
      ['the token post argument (form-encoded body)', (token: string): Presentation => ({ post: token, encoding: 'form' })],
      ['the token post argument (multipart body)', (token: string): Presentation => ({ post: token, encoding: 'multipart' })],
    ] as const
  ) {
    test(`5.1 rule 2: ${way} is accepted by the ${service} service`, clause('5.1 rule 2'), async ({ api, target }) => {
      test.skip(service === 'predict' && (!target.predictServiceId || !target.predictBaseUrl), 'the prediction service is not configured');
      covers(`${service} service`, way);
      const answer = await api.call(service, present(await api.issue(service)));
      expect(refused(answer), `a valid token in ${way} was refused (${answer.status})`).toBe(false);
      expect(answer.status, 'no server error').toBeLessThan(500);
    });
  }
}

test('5.1 rule 2: a request without a token is refused', clause('5.1 rule 2'), async ({ api }) => {
  covers('no token');
  expect(refused(await api.call('slicer', undefined))).toBe(true);
});

for (
  const [what, value] of [
    ['Bearer with no token', 'Bearer'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['two words after Bearer', 'Bearer abc def'],
  ] as const
) {
  test(`5.1 rule 2: a malformed Authorization header (${what}) is refused`, clause('5.1 rule 2'), async ({ api }) => {
    covers(`malformed header: ${what}`);
    expect(refused(await api.call('slicer', { rawAuthorization: value }))).toBe(true);
  });
}

test('5.1 rule 2: an unknown token is refused, in the header and as post argument', clause('5.1 rule 2'), async ({ api }) => {
  covers('unknown token, header and post argument');
  const unknown = `unknown-${crypto.randomUUID()}`;
  expect(refused(await api.call('slicer', { header: unknown })), 'header').toBe(true);
  expect(refused(await api.call('slicer', { post: unknown })), 'post argument').toBe(true);
});

test('5.1 rule 1: no session is kept between requests', clause('5.1 rule 1'), async ({ api }) => {
  covers('a request after an accepted one, same connection and cookies');
  const good = await api.call('slicer', { header: await api.issue() });
  expect(refused(good)).toBe(false);
  // Same request context: any cookie the good request set is sent again.
  const after = await api.call('slicer', undefined);
  expect(refused(after), `a request without a token after a good one was accepted (${after.status}): a session was kept`).toBe(true);
});
