import type { SalesStatus } from '../../lead/sales.ts';
import { ownerChangedEvent, statusChangedEvent } from '../outbox/crm-events.ts';
import type { NewCrmEvent } from '../store/sales/sales-store.ts';

// What the CRM hears of the sales queue's changes: the one place the assigner, the ladder and the
// console's routes build their follow-up events, so an owner change reads the same whoever made it.

/** The lead now has another owner (undefined: nobody, it waits for the next available person). */
export function ownerFollowUp(change: {
  leadId: string;
  at: number;
  ownerEmail: string | undefined;
  previousOwnerEmail: string | undefined;
}): NewCrmEvent {
  return ownerChangedEvent(change);
}

/** The lead's sales status changed. */
export function statusFollowUp(change: {
  leadId: string;
  at: number;
  status: SalesStatus;
  previousStatus: SalesStatus;
  lostReason: string | undefined;
}): NewCrmEvent {
  return statusChangedEvent(change);
}
