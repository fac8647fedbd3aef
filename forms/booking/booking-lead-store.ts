// The landing form's visitor, carried to the thank-you page so its calendar opens prefilled. Kept in
// sessionStorage: it survives the move to /thankyou whether the shell navigates in the page or loads
// a new document, and a reload there, yet it lives only as long as the tab and is never sent
// anywhere. (History state would be lost by a full page load, which a page without the shell does.)
import type { StorageLike } from '../rate-limit.ts';
import type { BookingLead } from './booking-page.ts';

export const BOOKING_LEAD_KEY = 'premier-ai.booking-lead';

export function keepBookingLead(storage: StorageLike, lead: BookingLead): void {
  try {
    storage.setItem(BOOKING_LEAD_KEY, JSON.stringify({ leadId: lead.leadId, name: lead.name, email: lead.email }));
  } catch {
    // Storage full or refused: the thank-you page then offers an empty calendar, which still works.
  }
}

export function readBookingLead(storage: StorageLike): BookingLead | undefined {
  let value: unknown;
  try {
    value = JSON.parse(storage.getItem(BOOKING_LEAD_KEY) ?? 'null');
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { leadId, name, email } = value as Record<string, unknown>;
  if (typeof name !== 'string' || typeof email !== 'string') return undefined;
  return { name, email, ...(typeof leadId === 'string' && leadId !== '' ? { leadId } : {}) };
}
