import { describe, expect, it } from 'vitest';
import { bookingFrameOf, originOf } from './booking-frame.ts';

const page = (path: string, ...types: string[]) => ({ page: { path, blocks: types.map((type) => ({ type })) } });
const PAGES = [
  page('/', 'hero', 'form'),
  page('/about', 'hero', 'team'),
  page('/calculator', 'roi-calculator'),
  page('/thankyou', 'callout', 'booking'),
  page('/blog/:slug', 'article'),
  page('*', 'not-found'),
];
const TEXTS = {
  heading: 'h',
  text: 't',
  pickTime: 'p',
  newTab: 'n',
  calendarTitle: 'c',
  booked: '{time}',
  bookedNoTime: 'b',
  roiSent: 'r',
};

describe('the pages that may show the booking page inside them', () => {
  it('are those with a lead form or the booking block, for the booking page’s origin', () => {
    const site = { bookingUrl: 'https://booking.premieraiconsulting.com/discovery-call', booking: { ...TEXTS, provider: 'cal' as const } };
    expect(bookingFrameOf(site, site.bookingUrl, PAGES)).toEqual({
      origin: 'https://booking.premieraiconsulting.com',
      routes: ['/', '/calculator', '/thankyou'],
    });
  });

  it('follow the address that overrides the settings (BOOKING_URL)', () => {
    const site = { bookingUrl: 'https://booking.premieraiconsulting.com/discovery-call', booking: TEXTS };
    expect(bookingFrameOf(site, 'https://calendly.com/premier-ai/call', PAGES)?.origin).toBe('https://calendly.com');
  });

  it('are none when the service is unknown or the site offers no booking in the page', () => {
    expect(
      bookingFrameOf({ bookingUrl: 'https://booking.example.com/x', booking: TEXTS }, 'https://booking.example.com/x', PAGES),
    ).toBeNull();
    expect(bookingFrameOf({ bookingUrl: 'https://cal.com/x' }, 'https://cal.com/x', PAGES)).toBeNull();
  });
});

describe('originOf', () => {
  it('writes the origin as browsers do', () => {
    expect(originOf('https://Cal.COM:443/premier/call?x=1')).toBe('https://cal.com');
    expect(originOf('https://booking.example.com:8443/call')).toBe('https://booking.example.com:8443');
    expect(originOf('booking.example.com/call')).toBeUndefined();
  });
});
