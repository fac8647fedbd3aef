import { describe, expect, it } from 'vitest';
import { crmEventTimelineText, ownerChangedEvent, statusChangedEvent } from './crm-events.ts';

// The follow-up events' bodies, as whoever maps the CRM reads them, and their timeline wording.

const AT = Date.UTC(2026, 10, 28, 10, 4, 0);

describe('event bodies', () => {
  it('tells the CRM of a new owner, and of a lead going back to the queue', () => {
    expect(ownerChangedEvent({ leadId: 'lead-1', at: AT, ownerEmail: 'bo@example.com', previousOwnerEmail: 'ana@example.com' })).toEqual({
      leadId: 'lead-1',
      kind: 'owner',
      at: AT,
      body: {
        event: 'owner_changed',
        lead_id: 'lead-1',
        at: '2026-11-28T10:04:00.000Z',
        owner_email: 'bo@example.com',
        previous_owner_email: 'ana@example.com',
      },
    });
    expect(ownerChangedEvent({ leadId: 'lead-1', at: AT, ownerEmail: undefined, previousOwnerEmail: 'bo@example.com' }).body).toMatchObject(
      {
        owner_email: null,
      },
    );
  });

  it('sends a lost reason with a lost status only', () => {
    expect(statusChangedEvent({ leadId: 'lead-1', at: AT, status: 'lost', previousStatus: 'contacted', lostReason: 'Price' }).body).toEqual(
      {
        event: 'status_changed',
        lead_id: 'lead-1',
        at: '2026-11-28T10:04:00.000Z',
        status: 'lost',
        previous_status: 'contacted',
        lost_reason: 'Price',
      },
    );
    expect(
      statusChangedEvent({ leadId: 'lead-1', at: AT, status: 'qualified', previousStatus: 'lost', lostReason: 'Price' }).body.lost_reason,
    ).toBeNull();
  });
});

describe('crmEventTimelineText', () => {
  const base = { kind: 'status', attempts: 0, lastStatus: undefined, lastError: undefined } as const;

  it('names the CRM delivery, never a sale', () => {
    expect(crmEventTimelineText({ ...base, state: 'held' })).toBe("Status change: waiting until the CRM's address is set up");
    expect(crmEventTimelineText({ ...base, state: 'pending' })).toBe('Status change: waiting to be sent to the CRM');
    expect(crmEventTimelineText({ ...base, state: 'pending', attempts: 2, lastStatus: 503 })).toBe(
      'Status change: still trying to send it to the CRM (2 tries; the CRM last answered with code 503)',
    );
    expect(crmEventTimelineText({ ...base, kind: 'owner', state: 'sent', attempts: 1, lastStatus: 200 })).toBe(
      'Owner change sent to the CRM',
    );
    expect(crmEventTimelineText({ ...base, state: 'failed', attempts: 10, lastError: 'timeout after 10000 ms' })).toBe(
      'Status change: gave up sending it to the CRM after 10 tries (the CRM did not answer the last try)',
    );
    expect(crmEventTimelineText({ ...base, kind: 'booking', state: 'failed', attempts: 1, lastStatus: 410 })).toBe(
      'Booked meeting: gave up, the CRM said its address no longer exists',
    );
  });
});
