/**
 * The UI's stylesheet and script, served from `/static/` so the page's
 * Content-Security-Policy can forbid inline code.
 */

/** `/static/ui.css`: a plain, modern admin look. */
export const UI_CSS = `
:root { --bg:#f5f7fb; --card:#fff; --ink:#1c2433; --muted:#5b6678; --line:#e3e8f0; --brand:#2f5bea; --brand-ink:#fff; --danger:#c62f3b; --ok:#1d8a55; }
* { box-sizing: border-box; }
body { margin:0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--ink); }
header.app { display:flex; align-items:center; justify-content:space-between; padding: 12px 28px; background: #16213a; color:#fff; }
header.app .brand { font-weight: 650; letter-spacing: .2px; }
header.app form { margin:0; }
nav.top { display:flex; gap: 4px; padding: 0 28px; background:#fff; border-bottom:1px solid var(--line); }
nav.top a { padding: 12px 14px; color: var(--muted); text-decoration:none; font-weight:600; font-size: 13px; letter-spacing:.6px; border-bottom: 2px solid transparent; }
nav.top a[aria-current="page"] { color: var(--brand); border-bottom-color: var(--brand); }
main { max-width: 960px; margin: 28px auto; padding: 0 28px; }
.card { background: var(--card); border:1px solid var(--line); border-radius: 12px; padding: 24px; box-shadow: 0 1px 2px rgba(16,24,40,.04); }
h1 { font-size: 22px; margin: 0 0 6px; } h2 { font-size: 17px; margin: 0 0 12px; }
p.muted, .muted { color: var(--muted); }
button, .button { font: inherit; border-radius: 8px; border:1px solid var(--line); background:#fff; color: var(--ink); padding: 8px 14px; cursor:pointer; font-weight: 600; }
button.primary { background: var(--brand); color: var(--brand-ink); border-color: var(--brand); }
button.danger { color: var(--danger); border-color: #f0c4c8; }
button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #9db4ff; outline-offset: 1px; }
label { display:block; font-weight:600; margin: 12px 0 4px; }
input[type=text], input[type=password] { width:100%; padding: 9px 11px; border:1px solid var(--line); border-radius: 8px; font: inherit; }
table { width:100%; border-collapse: collapse; }
th, td { text-align:left; padding: 10px 8px; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .5px; color: var(--muted); }
.badge { display:inline-block; padding: 2px 8px; border-radius: 999px; font-size: 12px; font-weight: 650; }
.badge.active { background:#e3f6ec; color: var(--ok); } .badge.revoked { background:#fde8ea; color: var(--danger); }
.toolbar { display:flex; justify-content: space-between; align-items:center; margin-bottom: 16px; }
.empty { padding: 28px; text-align:center; color: var(--muted); border: 1px dashed var(--line); border-radius: 10px; }
dialog { border:none; border-radius: 14px; padding: 24px; width: min(520px, 92vw); box-shadow: 0 20px 50px rgba(16,24,40,.25); }
dialog::backdrop { background: rgba(15,23,42,.45); }
.row { display:flex; gap: 8px; align-items:flex-end; } .row > div { flex:1; }
ul.scopes { list-style:none; padding:0; margin: 10px 0; display:flex; gap:6px; flex-wrap: wrap; }
ul.scopes li { background:#eef2ff; color:#2a3fa0; padding: 3px 10px; border-radius: 999px; font-size: 13px; font-weight:600; }
[role=alert] { color: var(--danger); font-weight: 600; min-height: 1.5em; margin: 8px 0 0; }
.value { display:block; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; background:#0f172a; color:#e2e8f0; padding: 12px; border-radius: 8px; word-break: break-all; margin: 8px 0 12px; }
.actions { display:flex; gap: 8px; justify-content:flex-end; margin-top: 18px; }
.login { max-width: 400px; margin: 10vh auto; }
.overlay { position: fixed; top: 12vh; left: 50%; transform: translateX(-50%); width: min(520px, 92vw); box-shadow: 0 20px 50px rgba(16,24,40,.25); z-index: 10; }
.overlay[hidden], section[hidden] { display: none; }
ul.token-list { list-style: none; padding: 0; } ul.token-list li { padding: 10px 0; border-bottom: 1px solid var(--line); }
.scroll-box { max-height: 150px; overflow-y: auto; }
ul.filters { list-style: none; padding: 0; display: flex; gap: 12px; } ul.filters a.selected { font-weight: 700; }
.token-cards { display: grid; gap: 12px; margin-top: 16px; } .token-card { border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; }
.token-card-head, .token-card-foot { display: flex; justify-content: space-between; align-items: center; gap: 12px; } .token-card h3 { margin: 0 0 6px; font-size: 15px; }
.error-text { color: var(--danger); min-height: 1.5em; }
a.button { display: inline-block; text-decoration: none; }
div.top[role=tablist], ul.top[role=menubar] { display:flex; gap: 4px; padding: 0 28px; margin: 0; list-style: none; background:#fff; border-bottom:1px solid var(--line); }
div.top[role=tablist] a, ul.top[role=menubar] a { padding: 12px 14px; color: var(--muted); text-decoration:none; font-weight:600; font-size: 13px; }
nav.top form { margin: 8px 0; }
.caps { text-transform: uppercase; }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }
label.inline { display: flex; gap: 6px; align-items: center; font-weight: 500; }
`;

/**
 * `/static/ui.js`: the creation form, copy to clipboard and the revoke
 * confirmation, for every UI variant (a `<dialog>`, a hidden element or a
 * page of its own; a value element or input; `confirm()` or the in-page
 * confirmation).
 */
export const UI_JS = `
const json = (url, body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
const $ = (id) => document.getElementById(id);
const show = (element) => (element.showModal ? element.showModal() : (element.hidden = false));
const hide = (element) => (element.close ? element.close() : (element.hidden = true));
const dialog = $('new-token-dialog');
if (dialog) {
  // A form on a page of its own is left for the list; one on the list's page is closed (Done: the list reloaded).
  const own = dialog.dataset.page !== undefined;
  const toList = () => location.assign('/security/tokens');
  let scopes = [];
  let value = '';
  let copied = '';
  const error = $('token-error');
  const shown = $('token-value');
  // The control that removes a scope, shown beside the scope's text when the list shows chips.
  const remover = (s) => {
    const remove = Object.assign(document.createElement('button'), { type: 'button', textContent: '×' });
    remove.setAttribute('aria-label', 'Remove ' + s);
    remove.addEventListener('click', () => { scopes = scopes.filter((other) => other !== s); render(); });
    return remove;
  };
  const render = () => {
    const chips = $('scope-list').dataset.kind === 'chips';
    $('scope-list').replaceChildren(...scopes.map((s) => {
      const item = Object.assign(document.createElement('li'), { textContent: s });
      if (chips) item.append(' ', remover(s));
      return item;
    }));
  };
  const addScope = () => {
    const scope = $('token-scope').value.trim();
    if (!scope) { error.textContent = 'Enter a scope first.'; return false; }
    if (!scopes.includes(scope)) scopes.push(scope);
    $('token-scope').value = '';
    error.textContent = '';
    render();
    return true;
  };
  $('new-token')?.addEventListener('click', (event) => {
    event.preventDefault();
    scopes = []; value = ''; render(); error.textContent = '';
    $('token-name').value = ''; $('token-scope').value = '';
    $('token-form').hidden = false; $('token-created').hidden = true;
    show(dialog);
    $('token-name').focus();
  });
  $('add-scope').addEventListener('click', addScope);
  $('token-cancel').addEventListener('click', () => (own ? toList() : hide(dialog)));
  $('token-create').addEventListener('click', async () => {
    if ($('token-scope').value.trim() && !addScope()) return;
    const response = await json('/security/tokens', { name: $('token-name').value, scopes });
    const body = await response.json();
    if (!response.ok) { error.textContent = body.error; return; }
    value = body.token;
    copied = body.copy;
    if (shown.tagName === 'INPUT') shown.value = value; else shown.textContent = (shown.dataset.prefix ?? '') + value;
    $('token-form').hidden = true; $('token-created').hidden = false;
    $('copy-token').focus();
  });
  $('copy-token').addEventListener('click', async () => {
    await navigator.clipboard.writeText(copied);
    $('copy-status').textContent = 'Copied to the clipboard.';
  });
  $('token-done').addEventListener('click', () => { if (own) toList(); else { hide(dialog); location.reload(); } });
}
const panel = $('confirm-panel');
const ask = (text) => {
  if (!panel) return Promise.resolve(confirm(text));
  $('confirm-text').textContent = text;
  show(panel);
  return new Promise((resolve) => {
    $('confirm-ok').onclick = () => { hide(panel); resolve(true); };
    $('confirm-cancel').onclick = () => { hide(panel); resolve(false); };
  });
};
const loginApp = $('login-app');
if (loginApp) {
  // Controlled inputs as React keeps them: the state changes only through an input event that brings a value
  // other than the one last written through the element's own value property.
  const state = { username: '', password: '' };
  const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  for (const name of Object.keys(state)) {
    const input = $(name);
    let known = '';
    Object.defineProperty(input, 'value', {
      configurable: true,
      get() { return native.get.call(this); },
      set(text) { known = String(text); native.set.call(this, text); },
    });
    input.addEventListener('input', () => {
      const text = native.get.call(input);
      if (text !== known) { known = text; state[name] = text; }
    });
  }
  const submit = () => {
    const form = Object.assign(document.createElement('form'), { method: 'post', action: '/login', hidden: true });
    for (const [name, text] of Object.entries({ ...state, next: loginApp.dataset.next ?? '/' })) {
      form.append(Object.assign(document.createElement('input'), { type: 'hidden', name, value: text }));
    }
    document.body.append(form);
    form.submit();
  };
  $('login-submit').addEventListener('click', submit);
  loginApp.addEventListener('keydown', (event) => { if (event.key === 'Enter') submit(); });
}
// Revoke buttons, those that "Load more" adds included, and those a web component shows (where the click's target
// is the component: the element clicked is the first of its path).
document.addEventListener('click', async (event) => {
  const button = event.composedPath()[0].closest?.('button[data-revoke]');
  if (!button) return;
  if (!(await ask(button.dataset.confirm))) return;
  const response = await json(button.dataset.revoke);
  if (response.ok) location.reload();
});
// "Show revoked tokens": shows or hides the revoked tokens listed after the active ones.
$('show-revoked')?.addEventListener('change', (event) => { $('revoked-tokens').hidden = !event.target.checked; });
// Status tabs: the chosen tab's panel shows, the others' are hidden.
for (const tab of document.querySelectorAll('.status-tabs [role=tab]')) {
  tab.addEventListener('click', () => {
    for (const other of tab.parentElement.children) {
      other.setAttribute('aria-selected', String(other === tab));
      $(other.getAttribute('aria-controls')).hidden = other !== tab;
    }
  });
}
// "Load more", or the "Loading…" line that ends a list that grows as it is scrolled: the next part's entries are added
// to the list, and the control then loads the part after it, if any.
const more = document.querySelector('[data-more]');
const addPart = async () => {
  const next = new DOMParser().parseFromString(await (await fetch(more.dataset.more)).text(), 'text/html');
  const entries = (doc) => doc.querySelector('.token-list, .token-cards, table[aria-label="Permanent tokens"] tbody');
  entries(document).append(...entries(next).children);
  const after = next.querySelector('[data-more]');
  if (after) more.dataset.more = after.dataset.more; else more.remove();
  return after !== null;
};
if (more && 'onSight' in more.dataset) {
  // Each time the line comes into sight in its box; looked at again after each part, which may leave it in sight.
  const sight = new IntersectionObserver(async (seen) => {
    if (!seen.some((one) => one.isIntersecting)) return;
    sight.unobserve(more);
    if (await addPart()) sight.observe(more);
  }, { root: more.closest('.scroll-box') });
  sight.observe(more);
} else more?.addEventListener('click', addPart);
`;
