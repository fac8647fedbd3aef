// The sales side of GET /leads/:id (console/api-types.ts LeadSalesDetail): owner, status and clock,
// the phone and the call-back the visitor asked for, the later leads of the same person that joined
// this one, the lead's record in the CRM (CRM_LEAD_URL), and one timeline, oldest first, of what
// people, the system and the CRM did.
import type { LeadQueueState, LeadSalesDetail } from '../../console/api-types.ts';
import { RECENT_LEAD_MS, type LeadSales } from '../store/sales/sales-store.ts';
import type { LeadRecord } from '../store/inbox/inbox-store.ts';
import type { AttemptRecord } from '../store/outbox/outbox-store.ts';
import type { ConsoleContext } from './context.ts';
import { crmLeadUrl } from '../outbox/crm-lead-url.ts';
import { callbackOf } from './lead-view.ts';
import { attemptEntry, crmEventEntry, mergeTimeline, toSalesView, toTimelineEntry } from './sales-view.ts';

function payloadString(lead: LeadRecord, key: string): string | null {
  const value = Object.hasOwn(lead.payload, key) ? lead.payload[key] : undefined;
  return typeof value === 'string' && value !== '' ? value : null;
}

/** In the queue, about to be (the assigner places a recent lead within seconds), or outside it (RECENT_LEAD_MS). */
export function queueStateOf(lead: Pick<LeadRecord, 'receivedAt'>, sales: LeadSales | undefined, now: number): LeadQueueState {
  if (sales !== undefined) return 'placed';
  return lead.receivedAt >= now - RECENT_LEAD_MS ? 'placing' : 'outside';
}

export async function readLeadSalesDetail(
  context: Pick<ConsoleContext, 'store' | 'salesNow' | 'siteHours' | 'config'>,
  lead: LeadRecord,
  attempts: readonly AttemptRecord[],
): Promise<LeadSalesDetail> {
  const { store } = context;
  const [sales, activities, joinedIds, accounts, crmEvents] = await Promise.all([
    store.findLeadSales(lead.id),
    store.listActivities(lead.id),
    store.listJoined(lead.id),
    store.listAccounts(),
    store.listCrmEvents(lead.id),
  ]);
  const people = new Map(accounts.map((account) => [account.id, account.email]));
  const joinedLeads = await Promise.all(joinedIds.map((id) => store.getLead(id)));
  const now = context.salesNow();
  const queue = queueStateOf(lead, sales, now);
  const view = toSalesView(lead, sales, people, context.siteHours(), now);
  return {
    queue,
    // A lead outside the queue has no clock: nobody was timing it when the visitor wrote.
    sales: queue === 'outside' ? { ...view, clockMinutes: 0, clockRunning: false } : view,
    phone: payloadString(lead, 'phone') ?? '',
    callback: callbackOf(lead),
    timeline: mergeTimeline(
      activities.map((activity) => toTimelineEntry(activity, context.siteHours().timeZone)),
      attempts.map(attemptEntry),
      crmEvents.map(crmEventEntry),
    ),
    joined: joinedLeads.flatMap((joined) =>
      joined === undefined ? [] : [{ id: joined.id, receivedAt: new Date(joined.receivedAt).toISOString(), form: joined.source }],
    ),
    crmUrl: context.config.crmLeadUrl === undefined ? null : (crmLeadUrl(context.config.crmLeadUrl, lead) ?? null),
  };
}
