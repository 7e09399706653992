/**
 * Test controls, mounted at `/__test` only when the sandbox is started in test
 * mode: advance the clock, reset state, read counters, inject faults of the
 * token endpoint and the UI's Revoke, shorten token lifetimes, add users, and
 * switch on deliberate contract violations.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import * as v from 'valibot';
import { randomBytes } from 'node:crypto';
import type { SandboxClock } from './clock.ts';
import { FAULT_PLACES, type Store, VIOLATIONS } from './store.ts';

const FaultSchema = v.strictObject({
  at: v.optional(v.picklist(FAULT_PLACES)),
  status: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(599))),
  delayMs: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(60_000))),
  body: v.optional(v.string()),
  contentType: v.optional(v.string()),
  headers: v.optional(v.record(v.string(), v.string())),
  times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
});

const SettingsSchema = v.strictObject({
  tokenLifetimeSeconds: v.optional(v.pipe(v.number(), v.minValue(1))),
  violations: v.optional(v.array(v.picklist(VIOLATIONS))),
});

const ClockSchema = v.strictObject({ advanceSeconds: v.pipe(v.number(), v.minValue(0)) });
const UserSchema = v.strictObject({
  username: v.optional(v.pipe(v.string(), v.nonEmpty())),
  password: v.optional(v.pipe(v.string(), v.nonEmpty())),
});

async function body<S extends v.GenericSchema>(request: Request, schema: S): Promise<v.InferOutput<S>> {
  // JSON only: a cross-site page cannot send it without a CORS preflight, which is never granted.
  if (request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() !== 'application/json') {
    throw new HTTPException(415, { message: 'Test controls take application/json bodies only' });
  }
  const json: unknown = await request.json().catch(() => undefined);
  const result = v.safeParse(schema, json ?? {});
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? 'body'}: ${issue.message}`).join('; ');
    throw new HTTPException(400, { message: `Bad test control: ${problems}` });
  }
  return result.output;
}

/**
 * Routes of the test controls.
 *
 * @param store the sandbox state
 * @param clock the advanceable clock
 * @returns a Hono app to mount at `/__test`
 */
export function testRoutes(store: Store, clock: SandboxClock): Hono {
  const app = new Hono();
  app.use(async (c, next) => {
    // Same-origin or non-browser callers only: a browser on another site sends its own Origin.
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== new URL(c.req.url).origin) {
      throw new HTTPException(403, { message: 'Cross-site requests to the test controls are refused' });
    }
    await next();
  });
  app.post('/clock', async (c) => {
    const { advanceSeconds } = await body(c.req.raw, ClockSchema);
    clock.advance(advanceSeconds * 1000);
    return c.json({ offsetSeconds: clock.offset() / 1000 });
  });
  app.post('/reset', async (c) => {
    if (c.req.header('content-type')) await body(c.req.raw, v.strictObject({}));
    store.reset();
    clock.reset();
    return c.json({ reset: true });
  });
  app.get('/stats', (c) => c.json(store.stats()));
  app.post('/faults', async (c) => {
    store.addFault(await body(c.req.raw, FaultSchema));
    return c.json({ queued: true });
  });
  app.post('/settings', async (c) => {
    const settings = await body(c.req.raw, SettingsSchema);
    if (settings.tokenLifetimeSeconds !== undefined) store.setLifetime(settings.tokenLifetimeSeconds);
    if (settings.violations !== undefined) store.setViolations(settings.violations);
    return c.json({ applied: true });
  });
  app.post('/users', async (c) => {
    const wanted = await body(c.req.raw, UserSchema);
    const username = wanted.username ?? `user-${randomBytes(4).toString('hex')}`;
    const password = wanted.password ?? randomBytes(12).toString('base64url');
    store.addUser(username, password);
    return c.json({ username, password }, 201);
  });
  return app;
}
