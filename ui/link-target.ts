// Decides how a content href behaves: in-app navigation, full page load, new tab, or mail/phone.
export type LinkTarget =
  | { kind: 'internal'; to: string }
  | { kind: 'document'; href: string }
  | { kind: 'new-tab'; href: string; booking?: true }
  | { kind: 'plain'; href: string };

export const BOOKING_HREF = 'booking';

export function resolveLinkTarget(href: string, bookingUrl: string, fullPageLoad = false): LinkTarget {
  if (href === BOOKING_HREF) return { kind: 'new-tab', href: bookingUrl, booking: true };
  if (/^https?:\/\//.test(href)) return { kind: 'new-tab', href };
  if (/^(mailto|tel):/.test(href)) return { kind: 'plain', href };
  return fullPageLoad ? { kind: 'document', href } : { kind: 'internal', to: href };
}
