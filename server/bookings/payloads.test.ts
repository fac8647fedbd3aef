import { describe, expect, it } from 'vitest';
import { calendlyPayload, calPayload } from '../testing/booking-payloads.ts';
import { readCalendlyPayload, readCalPayload } from './payloads.ts';

// The providers' documented sample bodies read into one meeting shape, and what is ignored or refused.

const LEAD = '7f3c2a9e-1b4d-4c8e-9a6f-2d5e8b1c3f70';

describe('Cal.com payloads', () => {
  it('reads a booking with the lead id its page carried', () => {
    expect(readCalPayload(calPayload({ leadId: LEAD, email: ' John.Doe@Example.com ' }))).toEqual({
      kind: 'notice',
      notice: {
        provider: 'cal',
        change: 'created',
        uid: 'bFJeNb2uX8ANpT3JL5EfXw',
        previousUid: undefined,
        leadIdHint: LEAD,
        name: 'John Doe',
        email: 'john.doe@example.com',
        startsAt: Date.parse('2023-05-25T09:30:00Z'),
        endsAt: Date.parse('2023-05-25T10:30:00Z'),
      },
    });
  });

  it('reads a reschedule (with the old uid) and a cancellation; metadata that is not a lead id names no lead', () => {
    const moved = readCalPayload(calPayload({ trigger: 'BOOKING_RESCHEDULED', uid: 'new-uid', rescheduleUid: 'old-uid', leadId: 'abc' }));
    expect(moved).toMatchObject({
      kind: 'notice',
      notice: { change: 'rescheduled', uid: 'new-uid', previousUid: 'old-uid', leadIdHint: undefined },
    });
    expect(readCalPayload(calPayload({ trigger: 'BOOKING_CANCELLED' }))).toMatchObject({ notice: { change: 'cancelled' } });
  });

  it('ignores what is not about a meeting, and refuses a meeting it cannot record', () => {
    expect(readCalPayload(calPayload({ trigger: 'MEETING_ENDED' }))).toMatchObject({ kind: 'ignored', event: 'MEETING_ENDED' });
    expect(readCalPayload({ triggerEvent: 'PING', payload: {} })).toMatchObject({ kind: 'ignored' });
    expect(readCalPayload(calPayload({ email: 'not an address' }))).toMatchObject({ kind: 'invalid', field: 'payload.attendees[0].email' });
    expect(readCalPayload(calPayload({ startTime: 'tomorrow' }))).toMatchObject({ kind: 'invalid', field: 'payload.startTime' });
    expect(readCalPayload([])).toMatchObject({ kind: 'invalid', field: 'body' });
    expect(readCalPayload({ payload: {} })).toMatchObject({ kind: 'invalid', field: 'triggerEvent' });
  });
});

describe('Calendly payloads', () => {
  it('reads invitee.created with the lead id in tracking.salesforce_uuid', () => {
    expect(readCalendlyPayload(calendlyPayload({ leadId: LEAD }))).toEqual({
      kind: 'notice',
      notice: {
        provider: 'calendly',
        change: 'created',
        uid: 'https://api.calendly.com/scheduled_events/GBGBDCAADAEDCRZ2/invitees/AAAAAAAAAAAAAAAA',
        previousUid: undefined,
        leadIdHint: LEAD,
        name: 'John Doe',
        email: 'test@example.com',
        startsAt: Date.parse('2019-08-24T14:15:22.123456Z'),
        endsAt: Date.parse('2019-08-24T14:30:22.123456Z'),
      },
    });
  });

  it('reads the new half of a reschedule as a move, ignores its cancelled half, and reads a plain cancellation', () => {
    const moved = readCalendlyPayload(calendlyPayload({ invitee: 'new-invitee', oldInvitee: 'old-invitee' }));
    expect(moved).toMatchObject({ notice: { change: 'rescheduled', uid: 'new-invitee', previousUid: 'old-invitee' } });
    expect(readCalendlyPayload(calendlyPayload({ event: 'invitee.canceled', rescheduled: true, newInvitee: 'new-invitee' }))).toMatchObject(
      {
        kind: 'ignored',
      },
    );
    expect(readCalendlyPayload(calendlyPayload({ event: 'invitee.canceled' }))).toMatchObject({ notice: { change: 'cancelled' } });
  });

  it('ignores other events and refuses a meeting without its start', () => {
    expect(readCalendlyPayload(calendlyPayload({ event: 'routing_form_submission.created' }))).toMatchObject({ kind: 'ignored' });
    const body = calendlyPayload();
    const invitee = body.payload as Record<string, unknown>;
    expect(readCalendlyPayload({ ...body, payload: { ...invitee, scheduled_event: {} } })).toMatchObject({
      kind: 'invalid',
      field: 'payload.scheduled_event.start_time',
    });
    expect(readCalendlyPayload({ ...body, payload: { ...invitee, uri: '' } })).toMatchObject({ kind: 'invalid', field: 'payload.uri' });
  });
});
