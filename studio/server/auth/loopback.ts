// Which names and addresses are this computer. Without sign-in the studio listens only on one of them
// (studio-settings.ts) and answers only requests addressed to one (plugins/local-only.ts): one rule
// for both, so the address it listens on is always one it answers.

/** Where the studio listens by default, and the address it names when it refuses another. */
export const LOOPBACK_ADDRESS = '127.0.0.1';

/** Whether a host name or address is this computer: localhost, 127.x.x.x or ::1 (bracketed or not). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Whether a Host header names this computer, with any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return isLoopback(name);
}
