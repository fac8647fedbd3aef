// How code inside islands asks the page shell to navigate, and learns that it did, without importing
// the shell: two window events. Without a shell listening (a page rendered wholly by React), a
// request falls back to a normal page load.

/** Dispatched by islands (react-router's navigator); the shell cancels it when it takes over. */
export const NAVIGATE_EVENT = 'site:navigate';
/** Dispatched by the shell after the address and the page changed. */
export const NAVIGATED_EVENT = 'site:navigated';

export type NavigateRequest = { href: string; replace: boolean };

export function requestNavigation(href: string, replace = false): void {
  const event = new CustomEvent<NavigateRequest>(NAVIGATE_EVENT, { detail: { href, replace }, cancelable: true });
  if (window.dispatchEvent(event)) {
    if (replace) window.location.replace(href);
    else window.location.assign(href);
  }
}
