/**
 * HTML of the permanent-token UI, following contract 5.3 label by label.
 * `hono/html` escapes every interpolated value.
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Session, TokenRecord } from './store.ts';
import type { UiStyle } from './ui_variants.ts';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const when = (at: number) => new Date(at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/**
 * A documented control label as the variant's markup writes it.
 *
 * @param style the UI variant
 * @param text the label as contract 5.3 writes it
 * @returns the label, or the label upper-case (`labels: 'other-case'`)
 */
function says(style: UiStyle, text: string): string {
  return style.labels === 'other-case' ? text.toUpperCase() : text;
}

/**
 * A documented field label as the variant's markup writes it.
 *
 * @param style the UI variant
 * @param text the label as contract 5.3 writes it
 * @returns the label, with a required-field mark (`labels: 'other-case'`)
 */
function fieldLabel(style: UiStyle, text: string): string {
  return style.labels === 'other-case' ? `${text} *` : text;
}

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
 * An error message, as the variant shows errors.
 *
 * @param style the UI variant
 * @param text the message (may be empty: a placeholder for the script)
 * @param id the element's id, for the script
 * @returns the element
 */
function errorText(style: UiStyle, text: string, id = ''): Html {
  return style.error === 'alert' ? html`<p role="alert" id="${id}">${text}</p>` : html`<p class="error-text" id="${id}">${text}</p>`;
}

/**
 * The login form.
 *
 * @param next where to go after logging in
 * @param style the UI variant
 * @param error message to show, if any
 * @returns the page body
 */
export function loginView(next: string, style: UiStyle, error?: string): Html {
  const fields = html`
    <label for="username">${style.login.user}</label><input id="username" name="username" type="text" autocomplete="username" required>
    <label for="password">${style.login
      .password}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
    ${errorText(style, error ?? '')}
  `;
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
 * The top navigation panel of the "Tokens and sessions" section.
 *
 * @param current the page shown
 * @param style the UI variant
 * @returns the panel
 */
export function topNav(current: 'overview' | 'tokens' | 'sessions', style: UiStyle): Html {
  // The other-case markup writes "Tokens", shown as TOKENS by the stylesheet (class "caps").
  const shown = (label: string) =>
    style.labels === 'other-case' ? html`<span class="caps">${label.charAt(0) + label.slice(1).toLowerCase()}</span>` : label;
  const entries = [['/security/tokens', shown('TOKENS'), 'tokens'], ['/security/sessions', shown('SESSIONS'), 'sessions']] as const;
  if (style.nav === 'buttons') {
    return html`<nav class="top" aria-label="Sections">${
      entries.map(([href, label]) => html`<form method="get" action="${href}"><button type="submit">${label}</button></form>`)
    }</nav>`;
  }
  if (style.nav === 'tabs') {
    return html`<div class="top" role="tablist">${
      entries.map(([href, label, key]) => html`<a role="tab" aria-selected="${current === key}" href="${href}">${label}</a>`)
    }</div>`;
  }
  return html`<nav class="top" aria-label="Top navigation">${
    entries.map(([href, label, key]) => html`<a href="${href}" ${current === key ? html`aria-current="page"` : ''}>${label}</a>`)
  }</nav>`;
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

/** A labelled table: its header cells, then its rows. */
function table(label: string, headers: readonly (string | Html)[], rows: readonly Html[]): Html {
  return html`
    <table aria-label="${label}">
      <thead>
        <tr>${headers.map((h) => html`<th>${h}</th>`)}</tr>
      </thead>
      <tbody>${rows}</tbody>
    </table>
  `;
}

function revokeButton(url: string, confirmText: string, label: string): Html {
  return html`<button class="danger" type="button" data-revoke="${url}" data-confirm="${confirmText}">${label}</button>`;
}

/**
 * The permanent-token list and the creation form.
 *
 * @param tokens the user's permanent tokens
 * @param style the UI variant
 * @returns the page body
 */
export function tokensView(tokens: readonly TokenRecord[], style: UiStyle): Html {
  const status = (t: TokenRecord) =>
    t.revokedAt === undefined ? html`<span class="badge active">Active</span>` : html`<span class="badge revoked">Revoked</span>`;
  const revoke = (t: TokenRecord) =>
    t.revokedAt === undefined
      ? revokeButton(`/security/tokens/${t.id}/revoke`, `Revoke the token "${t.name}"? It stops working at once.`, says(style, 'Revoke'))
      : '';
  const list = style.list === 'table'
    ? table(
      'Permanent tokens',
      ['Name', 'Scopes', 'Created', 'Status', html`<span class="muted">Actions</span>`],
      tokens.map((t) =>
        html`
          <tr>
            <td class="name">${t.name}</td>
            <td>${t.serviceIds.join(', ')}</td>
            <td>${when(t.createdAt)}</td>
            <td>${status(t)}</td>
            <td>${revoke(t)}</td>
          </tr>
        `
      ),
    )
    : html`<ul class="token-list" aria-label="Permanent tokens">${
      tokens.map((t) =>
        html`<li><strong>${t.name}</strong> <span class="muted">for ${t.serviceIds.join(', ')}, since ${when(t.createdAt)}</span> ${
          status(t)
        } ${revoke(t)}</li>`
      )
    }</ul>`;
  const newToken = style.entry === 'button'
    ? html`<button class="primary" type="button" id="new-token">${says(style, 'New permanent token')}</button>`
    : html`<a class="button primary" href="#new" id="new-token">${says(style, 'New permanent token')}</a>`;
  const value = {
    labelled: html`<code class="value" id="token-value" aria-label="Token value"></code>`,
    code: html`<code class="value" id="token-value"></code>`,
    input: html`<input class="value" id="token-value" type="text" readonly>`,
    pre: html`<pre class="value" id="token-value"></pre>`,
  }[style.value];
  const inner = html`
    <h2 id="new-token-title">New permanent token</h2>
    <div id="token-form">
      <label for="token-name">${fieldLabel(style, 'Name')}</label><input id="token-name" type="text" autocomplete="off">
      <div class="row"><div><label for="token-scope">${fieldLabel(
        style,
        'Scope',
      )}</label><input id="token-scope" type="text" autocomplete="off"></div>
        <button type="button" id="add-scope">${says(style, 'Add')}</button></div>
      <ul class="scopes" id="scope-list" aria-label="Scopes"></ul>
      ${errorText(style, '', 'token-error')}
      <div class="actions"><button type="button" id="token-cancel">${says(
        style,
        'Cancel',
      )}</button><button class="primary" type="button" id="token-create">${says(style, 'Create')}</button></div>
    </div>
    <div id="token-created" hidden>
      <p>Your new token. Copy it now: it is not shown again.</p>
      ${value}
      <p class="muted" id="copy-status" role="status"></p>
      <div class="actions"><button type="button" id="copy-token">${says(
        style,
        'Copy token value',
      )}</button><button class="primary" type="button" id="token-done">${says(style, 'Done')}</button></div>
    </div>
  `;
  const form = {
    dialog: html`<dialog id="new-token-dialog" aria-labelledby="new-token-title">${inner}</dialog>`,
    'role-dialog':
      html`<div class="card overlay" id="new-token-dialog" role="dialog" aria-modal="true" aria-labelledby="new-token-title" hidden>${inner}</div>`,
    panel: html`<section class="card" id="new-token-dialog" hidden>${inner}</section>`,
  }[style.form];
  const confirmPanel = style.confirm === 'inline'
    ? html`
      <div class="card overlay" id="confirm-panel" role="alertdialog" aria-labelledby="confirm-text" hidden>
        <p id="confirm-text"></p>
        <div
          class="actions"><button type="button" id="confirm-cancel">${says(
            style,
            'Cancel',
          )}</button><button class="danger" type="button" id="confirm-ok">${says(style, 'OK')}</button></div>
      </div>
    `
    : '';
  return html`
    ${topNav('tokens', style)}<main>
      <div class="card">
        <div class="toolbar"><h1>Permanent tokens</h1>${newToken}</div>
        ${tokens.length === 0 ? html`<p class="empty">No permanent tokens yet.</p>` : list}
      </div>
      ${style.form === 'panel' ? form : ''}
    </main>
    ${style.form === 'panel' ? '' : form}
    ${confirmPanel}
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
