/**
 * HTML of the permanent-token UI, following contract 5.3 label by label.
 * `hono/html` escapes every interpolated value.
 */
import { html } from 'hono/html';
import type { Session, TokenRecord } from './store.ts';
import { errorText, type Html, revokeButton, says, table, topNav, when } from './ui_parts.ts';
import type { UiStyle } from './ui_variants.ts';

/**
 * The page frame.
 *
 * @param title document title
 * @param user signed-in user, if any
 * @param body page content
 * @returns the page
 */
export function page(title: string, user: string | undefined, body: Html): Html {
  return html`
    <!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>${title} · Sandbox authorization service</title>
        <link rel="stylesheet" href="/static/ui.css">
      </head>
      <body>
    <header class="app"><span class="brand">Sandbox authorization service</span>
    ${user
      ? html`<form method="post" action="/logout"><span class="muted">${user}</span> <button type="submit">Log out</button></form>`
      : ''}
    </header>
    ${body}
    <script src="/static/ui.js" defer></script>
      </body>
    </html>
  `;
}

/**
 * The login form. A 'user-first' login asks for the user name alone (a
 * password input for password managers hidden beside it), then, on the
 * page that step leads to, for the password of the user it names.
 *
 * @param next where to go after logging in
 * @param style the UI variant
 * @param error message to show, if any
 * @param user the user of a 'user-first' login's password page
 * @returns the page body
 */
export function loginView(next: string, style: UiStyle, error?: string, user?: string): Html {
  const username =
    html`<label for="username">${style.login.user}</label><input id="username" name="username" type="text" autocomplete="username" required>`;
  const password =
    html`<label for="password">${style.login.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required>`;
  const steps = style.loginSteps === 'one-page'
    ? html`${username}${password}`
    : user === undefined
    ? html`${username}<input type="hidden" name="step" value="user"><input type="password" autocomplete="current-password" hidden>`
    : html`<p>Signing in as <strong>${user}</strong> · <a href="/?next=${encodeURIComponent(next)}">Not you?</a></p>
      <input type="hidden" name="username" value="${user}">${password}`;
  const fields = html`${steps}${errorText(style, error ?? '')}`;
  // A script's login (ui.js) has no form: its button posts what the inputs' events reported. A search field
  // above it is the first text input of the page, and not the user's.
  const form = style.loginForm === 'script'
    ? html`
      <input type="text" aria-label="Search the help" placeholder="Search the help"><div id="login-app"
        data-next="${next}">${fields}<button class="primary" type="button" id="login-submit">${style.login.submit}</button></div>
    `
    : html`
      <form method="post"
        action="/login"><input type="hidden" name="next" value="${next}">${fields}<button class="primary" type="submit">${style
          .login.submit}</button></form>
    `;
  return html`
    <main>
      <div class="card login">
        <h1>Sign in</h1>
        <p class="muted">Use your account to manage tokens.</p>
        ${form}
      </div>
    </main>
  `;
}

/**
 * What `{auth_url}/` shows without a session in a 'landing' variant: a
 * welcome and a "Sign in" link to the login form.
 *
 * @param next where to go after logging in
 * @returns the page body
 */
export function landingView(next: string): Html {
  return html`
    <main>
      <div class="card">
        <h1>Welcome</h1>
        <p class="muted">Manage the tokens of your account.</p>
        <p><a class="button primary" href="/login?next=${encodeURIComponent(next)}">Sign in</a></p>
      </div>
    </main>
  `;
}

/**
 * The start page with the "Tokens and sessions" control.
 *
 * @param user signed-in user
 * @param style the UI variant
 * @returns the page body
 */
export function homeView(user: string, style: UiStyle): Html {
  return html`
    <main>
      <div class="card">
        <h1>Account</h1>
        <p class="muted">Signed in as ${user}.</p>
        ${style.entry === 'button'
          ? html`<form method="get" action="/security"><button class="primary" type="submit">${
            says(style, 'Tokens and sessions')
          }</button></form>`
          : html`<p><a class="button primary" href="/security/">${says(style, 'Tokens and sessions')}</a></p>`}
      </div>
    </main>
  `;
}

/**
 * @param style the UI variant
 * @returns the section's overview body
 */
export function securityView(style: UiStyle): Html {
  return html`
    ${topNav('overview', style)}<main>
      <div class="card">
        <h1>Tokens and sessions</h1>
        <p class="muted">Choose TOKENS to manage permanent tokens, or SESSIONS for your browser sessions and temporary tokens.</p>
      </div>
    </main>
  `;
}

/**
 * Browser sessions and active temporary tokens, each revocable.
 *
 * @param sessions the user's sessions
 * @param current id of this browser's session
 * @param temporary the user's active temporary tokens
 * @param style the UI variant
 * @returns the page body
 */
export function sessionsView(sessions: readonly Session[], current: string, temporary: readonly TokenRecord[], style: UiStyle): Html {
  return html`
    ${topNav('sessions', style)}<main>
      <div class="card">
        <h1>Browser sessions</h1>
        ${table(
          'Browser sessions',
          ['Browser', 'Since', ''],
          sessions.map((s) =>
            html`
              <tr>
                <td>${s.userAgent || 'unknown'}${s.id === current
                  ? html`
                    <span class="badge active">This browser</span>
                  `
                  : ''}</td>
                <td>${when(s.createdAt)}</td>
                <td>${revokeButton(`/security/sessions/${s.id}/revoke`, 'End this session?', says(style, 'Revoke'))}</td>
              </tr>
            `
          ),
        )}
      </div>
      <div class="card" style="margin-top:20px"><h2>Active temporary tokens</h2>
    ${temporary.length === 0 ? html`<p class="empty">No active temporary tokens.</p>` : table(
      'Temporary tokens',
      ['Scope', 'Issued', 'Expires', ''],
      temporary.map(
        (t) =>
          html`
            <tr>
              <td>service_id=${t.serviceIds.join(', ')}</td>
              <td>${when(t.createdAt)}</td>
              <td>${when(t.expiresAt ?? 0)}</td>
              <td>${revokeButton(`/security/tokens/${t.id}/revoke`, 'Revoke this temporary token?', says(style, 'Revoke'))}</td>
            </tr>
          `,
      ),
    )}
      </div>
    </main>
  `;
}
