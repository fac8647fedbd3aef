import { describe, expect, it } from 'vitest';
import {
  askServerForTime,
  CONFIRMATION_ATTEMPTS,
  bookedText,
  bookingPageOf,
  canFrameIn,
  confirmationPath,
  embedAddress,
  formatMeetingTime,
  newTabAddress,
  readBookedMessage,
  readConfirmation,
} from './booking-page.ts';

const LEAD = { leadId: '7d2c1e8a-0f3b-4c1d-9a55-3e6f2b8c4d10', name: 'Dana Whitfield', email: 'dana@whitfield-dental.com' };
const OWN_DOMAIN = bookingPageOf('https://booking.premieraiconsulting.com/discovery-call', 'cal')!;
const CAL = bookingPageOf('https://cal.com/premier-ai/discovery', undefined)!;
const CALENDLY = bookingPageOf('https://calendly.com/premier-ai/discovery-call', undefined)!;
const TEXTS = {
  booked: 'Your meeting is booked for {time}.',
  bookedNoTime: 'Your meeting is booked. The confirmation e-mail has the details.',
};

describe('the booking page', () => {
  it('takes its service from its address, else from the site settings', () => {
    expect(CAL.provider).toBe('cal');
    expect(CALENDLY.provider).toBe('calendly');
    expect(OWN_DOMAIN).toEqual({
      url: 'https://booking.premieraiconsulting.com/discovery-call',
      provider: 'cal',
      origin: 'https://booking.premieraiconsulting.com',
    });
    expect(bookingPageOf('https://booking.premieraiconsulting.com/discovery-call', undefined)?.provider).toBeUndefined();
  });
});

describe('inside our page', () => {
  it("Cal.com: its embeddable page, prefilled, the lead id in the booking's metadata", () => {
    const url = new URL(embedAddress(OWN_DOMAIN, LEAD, 'premieraiconsulting.com')!);
    expect(url.origin + url.pathname).toBe('https://booking.premieraiconsulting.com/discovery-call/embed');
    expect(url.searchParams.get('embed')).toBe('');
    expect(url.searchParams.get('embedType')).toBe('inline');
    expect(url.searchParams.get('name')).toBe('Dana Whitfield');
    expect(url.searchParams.get('email')).toBe('dana@whitfield-dental.com');
    expect(url.searchParams.get('metadata[leadId]')).toBe(LEAD.leadId);
  });

  it('Calendly: its inline embed for our host, prefilled, the lead id in its tracking field', () => {
    const url = new URL(embedAddress(CALENDLY, LEAD, 'premieraiconsulting.com')!);
    expect(url.origin + url.pathname).toBe('https://calendly.com/premier-ai/discovery-call');
    expect(url.searchParams.get('embed_domain')).toBe('premieraiconsulting.com');
    expect(url.searchParams.get('embed_type')).toBe('Inline');
    expect(url.searchParams.get('name')).toBe('Dana Whitfield');
    expect(url.searchParams.get('email')).toBe('dana@whitfield-dental.com');
    expect(url.searchParams.get('salesforce_uuid')).toBe(LEAD.leadId);
  });

  it('keeps what the address already asks for, and opens empty for a visitor we do not know', () => {
    const page = bookingPageOf('https://cal.com/premier-ai/discovery/?month=2026-12', undefined)!;
    const url = new URL(embedAddress(page, undefined, 'premieraiconsulting.com')!);
    expect(url.pathname).toBe('/premier-ai/discovery/embed');
    expect(url.searchParams.get('month')).toBe('2026-12');
    expect(url.searchParams.has('name')).toBe(false);
  });

  it('is not offered for a booking page whose service is unknown', () => {
    expect(embedAddress(bookingPageOf('https://booking.example.com/call', undefined)!, LEAD, 'example.com')).toBeUndefined();
  });
});

describe('in a new tab', () => {
  it('the booking page itself, with the same prefill', () => {
    const url = new URL(newTabAddress(OWN_DOMAIN, LEAD));
    expect(url.pathname).toBe('/discovery-call');
    expect(url.searchParams.has('embed')).toBe(false);
    expect(url.searchParams.get('name')).toBe('Dana Whitfield');
    expect(url.searchParams.get('metadata[leadId]')).toBe(LEAD.leadId);
  });

  it('without a lead, the plain address', () => {
    expect(newTabAddress(CALENDLY, undefined)).toBe('https://calendly.com/premier-ai/discovery-call');
  });
});

describe("the service's message that a meeting was booked", () => {
  const CAL_V2 = {
    originator: 'CAL',
    type: 'bookingSuccessfulV2',
    namespace: '',
    fullType: 'CAL::bookingSuccessfulV2',
    data: {
      uid: 'bk_1',
      title: 'Discovery call',
      startTime: '2026-12-01T20:00:00.000Z',
      endTime: '2026-12-01T20:30:00.000Z',
      status: 'ACCEPTED',
    },
  };

  it('Cal.com: bookingSuccessfulV2 carries the start time', () => {
    expect(readBookedMessage(OWN_DOMAIN, { origin: OWN_DOMAIN.origin, data: CAL_V2 })).toEqual({ startsAt: '2026-12-01T20:00:00.000Z' });
  });

  it('Cal.com: the older bookingSuccessful, with the time in its booking', () => {
    const data = {
      originator: 'CAL',
      type: 'bookingSuccessful',
      data: { booking: { startTime: '2026-12-01T20:00:00.000Z' }, confirmed: true },
    };
    expect(readBookedMessage(OWN_DOMAIN, { origin: OWN_DOMAIN.origin, data })).toEqual({ startsAt: '2026-12-01T20:00:00.000Z' });
  });

  it('Calendly: event_scheduled, which has no time', () => {
    const data = {
      event: 'calendly.event_scheduled',
      payload: { event: { uri: 'https://api.calendly.com/scheduled_events/A' }, invitee: { uri: 'x' } },
    };
    expect(readBookedMessage(CALENDLY, { origin: 'https://calendly.com', data })).toEqual({ startsAt: undefined });
  });

  it('counts only when it comes from the booking page’s own origin', () => {
    expect(readBookedMessage(OWN_DOMAIN, { origin: 'https://evil.example', data: CAL_V2 })).toBeUndefined();
    expect(readBookedMessage(OWN_DOMAIN, { origin: 'https://booking.premieraiconsulting.com.evil.example', data: CAL_V2 })).toBeUndefined();
    expect(readBookedMessage(CAL, { origin: OWN_DOMAIN.origin, data: CAL_V2 })).toBeUndefined();
  });

  it('ignores every other message', () => {
    const at = (data: unknown) => readBookedMessage(OWN_DOMAIN, { origin: OWN_DOMAIN.origin, data });
    expect(at({ originator: 'CAL', type: '__dimensionChanged', data: { iframeHeight: 900 } })).toBeUndefined();
    expect(at({ ...CAL_V2, originator: 'OTHER' })).toBeUndefined();
    expect(at('bookingSuccessfulV2')).toBeUndefined();
    expect(at(null)).toBeUndefined();
    expect(
      readBookedMessage(CALENDLY, { origin: 'https://calendly.com', data: { event: 'calendly.date_and_time_selected' } }),
    ).toBeUndefined();
  });
});

describe('the confirmation the visitor reads', () => {
  it('names the day and time: "Tue 1 Dec at 3:00 PM"', () => {
    expect(formatMeetingTime('2026-12-01T20:00:00.000Z', 'America/New_York')).toBe('Tue 1 Dec at 3:00 PM');
    expect(bookedText(TEXTS, '2026-12-01T20:00:00.000Z', 'America/New_York')).toBe('Your meeting is booked for Tue 1 Dec at 3:00 PM.');
  });

  it('says the meeting is booked when the time is not known', () => {
    expect(bookedText(TEXTS, undefined)).toBe('Your meeting is booked. The confirmation e-mail has the details.');
  });

  it("reads the server's confirmation, and nothing else", () => {
    expect(readConfirmation({ startsAt: '2026-12-01T20:00:00.000Z', status: 'booked' })).toEqual({
      startsAt: '2026-12-01T20:00:00.000Z',
      status: 'booked',
    });
    expect(readConfirmation({ startsAt: 'soon', status: 'booked' })).toBeUndefined();
    expect(readConfirmation({ error: 'Not Found' })).toBeUndefined();
    expect(confirmationPath('a b/c')).toBe('/api/bookings/lead/a%20b%2Fc');
  });
});

describe('whether this document may frame the booking page', () => {
  const ROUTES = ['/', '/calculator', '/contact', '/thankyou'];
  it('only when it was first loaded on a route that allows it', () => {
    expect(canFrameIn('/calculator', ROUTES)).toBe(true);
    expect(canFrameIn('/calculator/', ROUTES)).toBe(true);
    expect(canFrameIn('/', ROUTES)).toBe(true);
    // Loaded on /about, then navigated to /contact in the page: the document keeps /about's policy.
    expect(canFrameIn('/about', ROUTES)).toBe(false);
    expect(canFrameIn('/contact', undefined)).toBe(false);
  });
});

describe('asking our server for the time of a meeting Calendly booked', () => {
  const answers = (...bodies: (object | number)[]) => {
    const asked: string[] = [];
    const fetch = async (url: string) => {
      asked.push(url);
      const body = bodies[Math.min(asked.length - 1, bodies.length - 1)]!;
      return typeof body === 'number' ? { ok: false, json: async () => ({}) } : { ok: true, json: async () => body };
    };
    return { asked, fetch };
  };
  const sleep = async () => {};

  it('waits for the webhook: asks again after a 404 until the time is known', async () => {
    const { asked, fetch } = answers(404, 404, { startsAt: '2026-12-01T20:00:00.000Z', status: 'booked' });
    await expect(askServerForTime(LEAD.leadId, { signal: new AbortController().signal, fetch, sleep })).resolves.toBe(
      '2026-12-01T20:00:00.000Z',
    );
    expect(asked).toEqual(Array(3).fill(`/api/bookings/lead/${LEAD.leadId}`));
  });

  it(`gives up after ${CONFIRMATION_ATTEMPTS} attempts, and a cancelled meeting is no confirmation`, async () => {
    const { asked, fetch } = answers({ startsAt: '2026-12-01T20:00:00.000Z', status: 'cancelled' });
    await expect(askServerForTime(LEAD.leadId, { signal: new AbortController().signal, fetch, sleep })).resolves.toBeUndefined();
    expect(asked).toHaveLength(CONFIRMATION_ATTEMPTS);
  });

  it('stops asking once the panel is gone', async () => {
    const controller = new AbortController();
    controller.abort();
    const { asked, fetch } = answers(404);
    await expect(askServerForTime(LEAD.leadId, { signal: controller.signal, fetch, sleep })).resolves.toBeUndefined();
    expect(asked).toEqual([]);
  });
});
