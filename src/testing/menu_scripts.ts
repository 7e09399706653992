/**
 * Scripts that put the sandbox's controls in menus, for tests of a UI that keeps a documented control in a closed menu:
 * the page objects' tests run them in the page, the contract suite's self-test adds them to the pages a proxy serves.
 * They are text, as a TypeScript loader may wrap a function's inner helpers in names the page does not have.
 */

/**
 * `menu(label, items, mountOnOpen, portal, modal)` makes a closed menu button, before its items (or, in a portal, with
 * its items in a part of their own at the end of the page); a modal one, once open, covers the page with a backdrop, as
 * MUI's menus do, and closes on Escape or a click on the backdrop; the others, only by their button. Each opening and
 * closing is logged to the console, which a test may read. `help()` makes a link that is no documented control.
 */
export const MENU = `
const menu = (label, items, mountOnOpen, portal, modal) => {
  const holder = document.createElement('div');
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = label;
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');
  const list = document.createElement('div');
  list.hidden = true;
  if (!mountOnOpen) list.append(...items);
  const backdrop = document.createElement('div');
  backdrop.style.cssText = 'position: fixed; inset: 0; z-index: 10';
  if (modal) list.style.cssText = 'position: fixed; top: 0; right: 0; z-index: 11; background: white';
  const toggle = () => {
    const opening = list.hidden;
    list.hidden = !opening;
    if (mountOnOpen) list.replaceChildren(...(opening ? items : []));
    if (modal) opening ? document.body.append(backdrop) : backdrop.remove();
    button.setAttribute('aria-expanded', String(opening));
    console.log((opening ? 'open ' : 'close ') + label);
  };
  button.addEventListener('click', toggle);
  backdrop.addEventListener('click', toggle);
  document.addEventListener('keydown', (event) => modal && event.key === 'Escape' && !list.hidden && toggle());
  holder.append(button);
  (portal ? document.body : holder).append(list);
  return holder;
};
const help = () => { const link = document.createElement('a'); link.href = '#help'; link.textContent = 'Help pages'; return link; };
`;

/** A script that moves "Tokens and sessions" into an Account menu placed after a Help menu. */
export const accountMenu = (mountOnOpen: boolean) =>
  `${MENU}
document.addEventListener('DOMContentLoaded', () => {
  const form = document.querySelector('form[action="/security"]');
  if (!form) return;
  const place = document.createElement('span');
  form.before(place);
  form.remove();
  place.replaceWith(menu('Help', [help()], ${mountOnOpen}), menu('Account', [form], ${mountOnOpen}));
});`;
