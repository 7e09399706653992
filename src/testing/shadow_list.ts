/**
 * A script that moves the sandbox's token list (its table) into a web component's open shadow root, where a look over
 * the page by XPath does not reach, for tests of a UI whose list a component shows: the page objects' tests run it in
 * the page, the contract suite's self-test adds it to the pages a proxy serves. The sandbox's Revoke buttons still work
 * there: its script reads the element clicked from the event's path.
 */
export const SHADOW_LIST = `document.addEventListener('DOMContentLoaded', () => {
  const list = document.querySelector('table');
  if (!list) return;
  const host = document.createElement('token-table');
  list.replaceWith(host);
  host.attachShadow({ mode: 'open' }).append(list);
});`;
