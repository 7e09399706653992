/**
 * The TOKENS view of the sandbox's UI: the permanent-token list and the
 * creation form, following contract 5.3 label by label.
 */
import { html } from 'hono/html';
import type { Store, TokenRecord } from './store.ts';
import { errorText, fieldLabel, type Html, revokeButton, says, table, topNav, when } from './ui_parts.ts';
import type { UiStyle } from './ui_variants.ts';

/** How many tokens a list split into pages shows on each, or loads at a time (`pages` other than `'one'`). */
const PAGE_SIZE = 5;

/** How many characters of a longer name a list that cuts names short (`names: 'cut'`) shows before its ellipsis. */
const CUT_AT = 24;

/** The choices of a filter offered as links (`revokedIn: 'filter-links'`), by their `?status=`; Active when none is asked for. */
const FILTERS = { active: 'Active', all: 'All', revoked: 'Revoked' } as const;

/** The services' ids, by short name. */
type ServiceIds = Store['serviceIds'];

/** How a Scope field that is a `<select>` shows each service's choice (its value is the id). */
const SERVICE_TITLES: Readonly<Record<keyof ServiceIds, string>> = { slicer: 'Slicing service', predict: 'Prediction service' };

/**
 * The permanent-token list and the creation form.
 *
 * @param all the user's permanent tokens, newest first (those of one time in the order made)
 * @param style the UI variant
 * @param serviceIds the services a scope may name, for a Scope field that offers them
 * @param requested the part of the list asked for (`?page=`, from 1), and the filter's choice (`?status=`)
 * @returns the page body
 */
export function tokensView(
  all: readonly TokenRecord[],
  style: UiStyle,
  serviceIds: ServiceIds,
  requested: { readonly page?: number; readonly status?: string | undefined } = {},
): Html {
  const filtered = style.revokedIn === 'filter-links';
  const choice = Object.keys(FILTERS).find((key) => key === requested.status) ?? 'active';
  const chosen = filtered && choice !== 'all' ? all.filter((t) => (t.revokedAt !== undefined) === (choice === 'revoked')) : all;
  // A list in parts shows the oldest first, so a new token lands in its last part; tokens of one time in the order made.
  const parted = style.pages !== 'one';
  const pages = parted ? Math.max(1, Math.ceil(chosen.length / PAGE_SIZE)) : 1;
  const number = Math.min(Math.max(1, Math.trunc(requested.page ?? 1) || 1), pages);
  const tokens = parted
    ? [...chosen].sort((a, b) => a.createdAt - b.createdAt).slice((number - 1) * PAGE_SIZE, number * PAGE_SIZE)
    : chosen;
  const pager = pagerOf(style, number, pages, (part) => filtered ? `?status=${choice}&page=${part}` : `?page=${part}`);
  const status = (t: TokenRecord) => {
    const [state, word, icon] = t.revokedAt === undefined ? ['active', 'Active', '●'] : ['revoked', 'Revoked', '⊘'];
    if (state === 'revoked' && (style.revokedIn === 'collapsed' || style.revokedIn === 'tabs')) return '';
    return style.status === 'word'
      ? html`<span class="badge ${state}">${word}</span>`
      : html`<span class="badge ${state}" role="img" aria-label="${word}" title="${word}">${icon}</span>`;
  };
  const revoke = (t: TokenRecord) =>
    t.revokedAt === undefined
      ? revokeButton(
        `/security/tokens/${t.id}/revoke`,
        `Revoke the token "${t.name}"? It stops working at once.`,
        style.labels === 'hidden-words' ? html`Revoke<span class="visually-hidden"> the token “${t.name}”</span>` : says(style, 'Revoke'),
        style.labels === 'decorated' ? `Revoke the token “${t.name}”` : undefined,
      )
      : '';
  // A long name cut short by the server, the whole name in the tooltip of the part that shows it.
  const nameOf = (t: TokenRecord) => {
    const characters = [...t.name];
    if (style.names === 'whole' || characters.length <= CUT_AT) return t.name;
    return html`<span title="${t.name}">${characters.slice(0, CUT_AT).join('')}…</span>`;
  };
  const about = (t: TokenRecord) => html`<span class="muted">for ${t.serviceIds.join(', ')}, since ${when(t.createdAt)}</span>`;
  // A table with the name first, or with the creation date first.
  const tableOf = (shown: readonly TokenRecord[], dateFirst: boolean) => {
    const order = <T>(name: T, date: T) => dateFirst ? [date, name] : [name, date];
    return table(
      'Permanent tokens',
      [...order('Name', 'Created'), 'Scopes', 'Status', html`<span class="muted">Actions</span>`],
      shown.map((t) =>
        html`<tr>${order(html`<td class="name">${nameOf(t)}</td>`, html`<td>${when(t.createdAt)}</td>`)}<td>${
          t.serviceIds.join(', ')
        }</td><td>${status(t)}</td><td>${revoke(t)}</td></tr>`
      ),
    );
  };
  const listOf = (shown: readonly TokenRecord[]) =>
    ({
      table: () => tableOf(shown, false),
      'dated-table': () => tableOf(shown, true),
      // The name is the item's own text, before the elements that follow it.
      list: () =>
        html`<ul class="token-list" aria-label="Permanent tokens">${
          shown.map((t) => html`<li>${nameOf(t)} ${about(t)} ${status(t)} ${revoke(t)}</li>`)
        }</ul>`,
      // Plain boxes with no list semantics: the name and status in one part, the Revoke control in another.
      cards: () =>
        html`<div class="token-cards">${
          shown.map((t) =>
            html`
              <div class="token-card">
                <div class="token-card-head"><h3>${nameOf(t)}</h3>${status(t)}</div>
                <div class="token-card-foot">${about(t)}${revoke(t)}</div>
              </div>
            `
          )
        }</div>`,
    }[style.list])();
  // The list; or the active tokens and then the revoked ones, collapsed in a part of their own, hidden until
  // "Show revoked tokens" is checked, or in the panel of a tab of their own.
  const revoked = tokens.filter((t) => t.revokedAt !== undefined);
  const actives = tokens.filter((t) => t.revokedAt === undefined);
  const active = () => listOf(actives);
  const tab = (id: string, word: string, shown: readonly TokenRecord[], chosen: boolean) => ({
    tab: html`
      <button type="button" role="tab" id="tab-${id}" aria-controls="panel-${id}"
        aria-selected="${String(chosen)}">${word} (${shown.length})</button>
    `,
    panel: html`
      <div role="tabpanel" id="panel-${id}" aria-labelledby="tab-${id}" ${chosen ? '' : 'hidden'}>${shown.length === 0
        ? html`<p class="empty">No ${word.toLowerCase()} tokens.</p>`
        : listOf(shown)}</div>
    `,
  });
  const list = () =>
    ({
      list: () => listOf(tokens),
      'filter-links': () => listOf(tokens),
      collapsed: () =>
        revoked.length === 0 ? listOf(tokens) : html`${active()}<details>
      <summary>Revoked tokens (${revoked.length})</summary>${listOf(revoked)}
    </details>`,
      hidden: () =>
        html`
          <label class="inline"><input type="checkbox" id="show-revoked"> Show revoked tokens</label>${active()}<div
            id="revoked-tokens" hidden>${listOf(revoked)}</div>
        `,
      tabs: () => {
        const views = [tab('active', 'Active', actives, true), tab('revoked', 'Revoked', revoked, false)];
        return html`<div role="tablist" class="status-tabs" aria-label="Token status">${views.map((view) => view.tab)}</div>${
          views.map((view) => view.panel)
        }`;
      },
    }[style.revokedIn])();
  // On a form of its own page, a plain link to it; otherwise the script opens the form.
  const newToken = style.form === 'page'
    ? html`<a class="button primary" href="/security/tokens/new">${says(style, 'New permanent token')}</a>`
    : style.entry === 'button'
    ? html`<button class="primary" type="button" id="new-token">${says(style, 'New permanent token')}</button>`
    : html`<a class="button primary" href="#new" id="new-token">${says(style, 'New permanent token')}</a>`;
  const form = style.form === 'page' ? '' : creationForm(style, serviceIds);
  // The filter's links, the current one marked by a class alone.
  const filters = filtered
    ? html`<ul class="filters" aria-label="Status">${
      Object.entries(FILTERS).map(([key, word]) =>
        html`<li><a href="?status=${key}" class="${key === choice ? 'selected' : ''}">${word}</a></li>`
      )
    }</ul>`
    : '';
  const shown = html`${tokens.length === 0 ? html`<p class="empty">No permanent tokens yet.</p>` : list()} ${pager}`;
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
        ${filters}${style.pages === 'scroll' ? html`<div class="scroll-box">${shown}</div>` : shown}
      </div>
      ${style.form === 'panel' ? form : ''}
    </main>
    ${style.form === 'panel' ? '' : form}
    ${confirmPanel}
  `;
}

/**
 * What leads to the other parts of a list in parts: pages with no "First"
 * nor "Previous" on the first (nor on any, when the pager offers only "Next") and a disabled "Next" on the last; a
 * "Load more" button, whose script adds the next part's entries; or a
 * "Loading…" line at the end of the list, whose script adds them when it
 * shows.
 *
 * @param style the UI variant
 * @param number the part showing, from 1
 * @param pages how many parts there are
 * @param href the address of a part
 * @returns the pager, or nothing for a list in one part
 */
function pagerOf(style: UiStyle, number: number, pages: number, href: (part: number) => string): Html | '' {
  if (pages === 1) return '';
  if (style.pages === 'more' || style.pages === 'scroll') {
    if (number === pages) return '';
    return style.pages === 'more'
      ? html`<button type="button" data-more="${href(number + 1)}">Load more</button>`
      : html`<p class="muted" data-more="${href(number + 1)}" data-on-sight>Loading…</p>`;
  }
  const back = number > 1 && style.pages === 'paged'
    ? html`<a href="${href(1)}">« First</a> <a href="${href(number - 1)}">‹ Previous</a>`
    : '';
  const next = number < pages ? html`<a href="${href(number + 1)}">Next ›</a>` : html`<button type="button" disabled>Next ›</button>`;
  return html`<nav class="pager" aria-label="Pages">${back} <span>Page ${number} of ${pages}</span> ${next}</nav>`;
}

/**
 * The creation form (steps 5–8), as the variant shows it: a `<dialog>`, a
 * `role=dialog` element or a panel, hidden until "New permanent token"; or
 * the content of a page of its own, shown at once.
 *
 * @param style the UI variant
 * @param serviceIds the services a scope may name
 * @returns the form
 */
function creationForm(style: UiStyle, serviceIds: ServiceIds): Html {
  const value = {
    labelled: html`<code class="value" id="token-value" aria-label="Token value"></code>`,
    // The script writes the value after this text, in the same text node.
    sentence: html`<p class="value" id="token-value" data-prefix="Your token: "></p>`,
    input: html`<input class="value" id="token-value" type="text" readonly>`,
    pre: html`<pre class="value" id="token-value"></pre>`,
  }[style.value];
  const choices = (Object.keys(SERVICE_TITLES) as (keyof ServiceIds)[]).map((service) =>
    html`<option value="${serviceIds[service]}">${SERVICE_TITLES[service]}</option>`
  );
  const scopeField = style.scopeField === 'select'
    ? html`<select id="token-scope"><option value="">Choose a service</option>${choices}</select>`
    : html`<input id="token-scope" type="text" autocomplete="off">`;
  // A field's label tied to it by `for`, or only written before it.
  const label = (id: string, text: string) =>
    style.fieldLabels === 'for'
      ? html`<label for="${id}">${fieldLabel(style, text)}</label>`
      : html`<label>${fieldLabel(style, text)}</label>`;
  const inner = html`
    <h2 id="new-token-title">New permanent token</h2>
    <div id="token-form">
      ${label('token-name', 'Name')}<input id="token-name" type="text" autocomplete="off">
      <div class="row"><div>${label('token-scope', 'Scope')}${scopeField}</div>
        <button type="button" id="add-scope">${says(style, 'Add')}</button></div>
      <ul class="scopes" id="scope-list" aria-label="Scopes" data-kind="${style.scopes}"></ul>
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
  return {
    dialog: html`<dialog id="new-token-dialog" aria-labelledby="new-token-title">${inner}</dialog>`,
    'role-dialog':
      html`<div class="card overlay" id="new-token-dialog" role="dialog" aria-modal="true" aria-labelledby="new-token-title" hidden>${inner}</div>`,
    panel: html`<section class="card" id="new-token-dialog" hidden>${inner}</section>`,
    page: html`<section class="card" id="new-token-dialog" data-page>${inner}</section>`,
  }[style.form];
}

/**
 * The creation form's own page (`form: 'page'`, at `/security/tokens/new`).
 *
 * @param style the UI variant
 * @param serviceIds the services a scope may name
 * @returns the page body
 */
export function tokenFormView(style: UiStyle, serviceIds: ServiceIds): Html {
  return html`${topNav('tokens', style)}<main>${creationForm(style, serviceIds)}</main>`;
}
