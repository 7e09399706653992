/**
 * Pieces the sandbox's views share: labels as a UI variant writes them,
 * error text, tables, revoke buttons, times and the section's navigation. `hono/html` escapes every
 * interpolated value.
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { UiStyle } from './ui_variants.ts';

/** A piece of HTML. */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** A time as the UI shows it, e.g. `2026-11-23 01:15 UTC`. */
export const when = (at: number) => new Date(at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** The symbol a decorated label shows before it (`labels: 'decorated'`), as an icon written as text; "Create" shows one after it. */
const ICONS: Readonly<Record<string, string>> = {
  'Tokens and sessions': '🛡',
  TOKENS: '🔑',
  'New permanent token': '＋',
  Add: '＋',
  'Copy token value': '📋',
  Done: '✓',
  Revoke: '🗑',
  OK: '✔',
};

/**
 * A documented control label as the variant's markup writes it.
 *
 * @param style the UI variant
 * @param text the label as contract 5.3 writes it
 * @returns the label, the label upper-case (`labels: 'other-case'`), or the label beside a symbol (`labels: 'decorated'`)
 */
export function says(style: UiStyle, text: string): string {
  if (style.labels === 'other-case') return text.toUpperCase();
  if (style.labels === 'decorated') return text === 'Create' ? `${text} ›` : `${ICONS[text] ?? '•'} ${text}`;
  return text;
}

/**
 * A documented field label as the variant's markup writes it.
 *
 * @param style the UI variant
 * @param text the label as contract 5.3 writes it
 * @returns the label, with a required-field mark (`labels: 'other-case'`)
 */
export function fieldLabel(style: UiStyle, text: string): string {
  return style.labels === 'other-case' ? `${text} *` : text;
}

/**
 * An error message, as the variant shows errors.
 *
 * @param style the UI variant
 * @param text the message (may be empty: a placeholder for the script)
 * @param id the element's id, for the script
 * @returns the element
 */
export function errorText(style: UiStyle, text: string, id = ''): Html {
  return style.error === 'alert' ? html`<p role="alert" id="${id}">${text}</p>` : html`<p class="error-text" id="${id}">${text}</p>`;
}

/** A labelled table: its header cells, then its rows. */
export function table(label: string, headers: readonly (string | Html)[], rows: readonly Html[]): Html {
  return html`
    <table aria-label="${label}">
      <thead>
        <tr>${headers.map((h) => html`<th>${h}</th>`)}</tr>
      </thead>
      <tbody>${rows}</tbody>
    </table>
  `;
}

/**
 * A revoke button that asks for confirmation (`ui.js`).
 *
 * @param url where the revocation is posted
 * @param confirmText the question the confirmation asks
 * @param label the button's content
 * @param name the button's accessible name, when it says more than its text
 * @returns the button
 */
export function revokeButton(url: string, confirmText: string, label: string | Html, name?: string): Html {
  const named = name === undefined ? '' : html`aria-label="${name}"`;
  return html`<button class="danger" type="button" data-revoke="${url}" data-confirm="${confirmText}" ${named}>${label}</button>`;
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
    style.labels === 'other-case' ? html`<span class="caps">${label.charAt(0) + label.slice(1).toLowerCase()}</span>` : says(style, label);
  const entries = [['/security/tokens', shown('TOKENS'), 'tokens'], ['/security/sessions', shown('SESSIONS'), 'sessions']] as const;
  if (style.nav === 'buttons') {
    return html`<nav class="top" aria-label="Sections">${
      entries.map(([href, label]) => html`<form method="get" action="${href}"><button type="submit">${label}</button></form>`)
    }</nav>`;
  }
  if (style.nav === 'menu') {
    return html`<ul class="top" role="menubar" aria-label="Sections">${
      entries.map(([href, label]) => html`<li role="none"><a role="menuitem" href="${href}">${label}</a></li>`)
    }</ul>`;
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
