/**
 * The browser UI of contract 5.3: login, "Tokens and sessions", the TOKENS and
 * SESSIONS pages, and the JSON endpoints its script calls. Session cookie
 * HttpOnly + SameSite=Strict; CSRF checked by Hono's `csrf` (Origin /
 * Sec-Fetch-Site) on form posts, and the script's calls must be JSON (a
 * cross-site page cannot send that without a CORS preflight).
 */
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { csrf } from 'hono/csrf';
import { createMiddleware } from 'hono/factory';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type Session, SESSION_MAX_MS, type Store } from './store.ts';
import { UI_CSS, UI_JS } from './ui_assets.ts';
import { UI_VARIANTS, type UiStyle } from './ui_variants.ts';
import { LoginForm, NewTokenBody, validated } from './ui_forms.ts';
import { tokenFormView, tokensView } from './ui_tokens_view.ts';
import { homeView, landingView, loginView, page, securityView, sessionsView } from './ui_views.ts';

const COOKIE = 'sandbox_session';

type UiEnv = { Variables: { session: Session } };

/** A same-site path to return to after login; anything else goes home. */
function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/(?!\/)[\w\-./?=&%]*$/.test(value) ? value : '/';
}

/** The script's calls are JSON only: a cross-site page cannot send that without a CORS preflight. */
const jsonOnly = createMiddleware(async (c, next) => {
  if (!c.req.header('content-type')?.toLowerCase().startsWith('application/json')) {
    throw new HTTPException(415, { message: 'Send application/json' });
  }
  await next();
});

/**
 * Routes of the UI.
 *
 * @param store the sandbox state
 * @param style the UI variant (test mode); the sandbox's own UI by default
 * @returns a Hono app to mount at `/`
 */
export function uiRoutes(store: Store, style: UiStyle = UI_VARIANTS[0] as UiStyle): Hono<UiEnv> {
  const app = new Hono<UiEnv>();
  /** Users already asked to log in again mid-way (variants with `reloginMidway`): once each. */
  const reasked = new Set<string>();
  // Scoped to the UI's paths: the token endpoint and the services take form posts from scripts.
  for (const path of ['/login', '/logout', '/security/*']) app.use(path, csrf());

  app.get('/static/ui.css', (c) => c.body(UI_CSS, 200, { 'content-type': 'text/css; charset=utf-8' }));
  app.get('/static/ui.js', (c) => c.body(UI_JS, 200, { 'content-type': 'text/javascript; charset=utf-8' }));

  app.get('/', (c) => {
    const session = store.session(getCookie(c, COOKIE));
    const next = safeNext(c.req.query('next'));
    if (!session) return c.html(page('Sign in', undefined, style.loginStart === 'landing' ? landingView(next) : loginView(next, style)));
    return c.html(page('Account', session.username, homeView(session.username, style)));
  });
  app.get('/login', (c) => c.html(page('Sign in', undefined, loginView(safeNext(c.req.query('next')), style))));

  app.post('/login', validated('form', LoginForm), (c) => {
    const { username, password, step, next: asked } = c.req.valid('form');
    const next = safeNext(asked);
    // A 'user-first' login's first page posts the user name alone; its answer is the page that asks for the password.
    const userFirst = style.loginSteps === 'user-first';
    if (userFirst && step === 'user') {
      const view = username === '' ? loginView(next, style, 'Enter your user name.') : loginView(next, style, undefined, username);
      return c.html(page('Sign in', undefined, view));
    }
    const result = store.login(username, password);
    if (result !== 'ok') {
      const message = result === 'locked' ? 'Too many failed attempts. Try again in a few minutes.' : 'Invalid username or password.';
      const view = loginView(next, style, message, userFirst ? username : undefined);
      return c.html(page('Sign in', undefined, view), result === 'locked' ? 429 : 401);
    }
    const value = store.openSession(username, c.req.header('user-agent') ?? '');
    setCookie(c, COOKIE, value, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      secure: new URL(c.req.url).protocol === 'https:',
      maxAge: SESSION_MAX_MS / 1000,
    });
    return c.redirect(next, 303);
  });

  app.post('/logout', (c) => {
    const session = store.session(getCookie(c, COOKIE));
    if (session) store.closeSession(session.username, session.id);
    deleteCookie(c, COOKIE, { path: '/' });
    return c.redirect('/', 303);
  });

  app.use('/security/*', async (c, next) => {
    const session = store.session(getCookie(c, COOKIE));
    if (!session) {
      if (c.req.method !== 'GET') throw new HTTPException(401, { message: 'Log in first' });
      return c.redirect(`/?next=${encodeURIComponent(c.req.path)}`, 303);
    }
    c.set('session', session);
    await next();
  });
  app.get('/security', (c) => c.redirect('/security/', 301));
  app.get('/security/', (c) => {
    const { username, id } = c.var.session;
    if (style.reloginMidway && !reasked.has(username)) {
      // This variant ends the session once here: the next step finds the login form again.
      reasked.add(username);
      store.closeSession(username, id);
    }
    return c.html(page('Tokens and sessions', username, securityView(style)));
  });
  app.get('/security/tokens', (c) => {
    const user = c.var.session.username;
    const tokens = store.list(user, 'permanent');
    // The 'name-mangled' violation shows every non-ASCII character of a name as "?".
    const shown = store.violates('name-mangled') ? tokens.map((t) => ({ ...t, name: t.name.replace(/[^ -~]/gu, '?') })) : tokens;
    return c.html(page(
      'Tokens',
      user,
      tokensView(shown, style, store.serviceIds, {
        page: Number(c.req.query('page') ?? 1),
        status: c.req.query('status'),
      }),
    ));
  });
  // The creation form's own page, on a variant that has one.
  app.get(
    '/security/tokens/new',
    (c) =>
      style.form === 'page'
        ? c.html(page('New permanent token', c.var.session.username, tokenFormView(style, store.serviceIds)))
        : c.redirect('/security/tokens'),
  );
  app.get('/security/sessions', (c) => {
    const { username, id } = c.var.session;
    return c.html(page('Sessions', username, sessionsView(store.sessionsOf(username), id, store.list(username, 'temporary'), style)));
  });

  app.post('/security/tokens', jsonOnly, validated('json', NewTokenBody), (c) => {
    const { name, scopes: entered } = c.req.valid('json');
    const known = Object.values(store.serviceIds);
    // The 'scope-near-miss-accepted' violation takes an id wrong only in its last character for the service's.
    const near = (s: string) => known.find((id) => id.slice(0, -1) === s.slice(0, -1) && id.length === s.length);
    const read = store.violates('scope-near-miss-accepted') ? entered.map((s) => near(s) ?? s) : entered;
    const scopes = store.violates('multi-scope-first-only') ? read.slice(0, 1) : read;
    const wrong = scopes.find((s) => !known.includes(s));
    if (wrong !== undefined) {
      return c.json({ error: `Incorrect scope "${wrong}": enter a service identifier (${known.join(' or ')}).` }, 400);
    }
    const { value, record } = store.issuePermanent(c.var.session.username, name, scopes);
    // The 'copy-mismatch' violation: "Copy token value" is given the value shown, less its last character.
    const copy = store.violates('copy-mismatch') ? value.slice(0, -1) : value;
    return c.json({ id: record.id, name: record.name, token: value, copy }, 201, { 'cache-control': 'no-store' });
  });

  app.post('/security/tokens/:id/revoke', jsonOnly, (c) => {
    // A fault queued for the Revoke (test mode) answers instead: the token stays active, as when a service fails.
    const fault = store.takeFault('revoke');
    if (fault) throw new HTTPException((fault.status ?? 503) as ContentfulStatusCode, { message: fault.body ?? 'Revoking failed' });
    const user = c.var.session.username;
    // The 'revoke-newest' violation revokes the newest active token, whichever was chosen.
    const newest = store.list(user, 'permanent').find((t) => t.revokedAt === undefined);
    const id = store.violates('revoke-newest') && newest ? newest.id : c.req.param('id');
    if (!store.revoke(user, id)) throw new HTTPException(404, { message: 'No such token' });
    return c.json({ revoked: true });
  });
  app.post('/security/sessions/:id/revoke', jsonOnly, (c) => {
    if (!store.closeSession(c.var.session.username, c.req.param('id'))) throw new HTTPException(404, { message: 'No such session' });
    return c.json({ closed: true });
  });
  return app;
}
