// The thank-you page's booking offer as prerendered: what a visitor sees before (or without) JavaScript.
import { ThemeProvider } from '@emotion/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SiteProvider, type SiteData } from '../../ui/page/site-context.tsx';
import { createTheme } from '../../ui/theme.ts';
import Booking from './Block.tsx';

const BOOKING = {
  provider: 'cal' as const,
  heading: 'Prefer to pick a time yourself?',
  text: 'Choose a slot in our calendar now, or wait for our call within 24 hours.',
  pickTime: 'Pick a time now',
  newTab: 'Open the calendar in a new tab',
  calendarTitle: 'Our booking calendar',
  booked: 'Your meeting is booked for {time}.',
  bookedNoTime: 'Your meeting is booked. The confirmation e-mail has the details.',
  roiSent: 'Our team will call you within 24 hours — or pick a time now.',
};

function render(extra: Partial<SiteData>) {
  const site = { bookingUrl: 'https://booking.premieraiconsulting.com/discovery-call', leadEndpoint: '/api/leads', ...extra } as SiteData;
  return renderToStaticMarkup(
    <ThemeProvider theme={createTheme()}>
      <SiteProvider site={site}>
        <Booking type="booking" id="pick-a-time" />
      </SiteProvider>
    </ThemeProvider>,
  ).replace(/<style[^>]*>.*?<\/style>/g, '');
}

describe('the booking block, prerendered', () => {
  it('shows the heading, the text and the plain link to the booking page; the calendar waits for the page to run', () => {
    const html = render({ booking: BOOKING, bookingFrameRoutes: ['/thankyou'] });
    expect(html).toMatch(/<h2 id="[^"]+"[^>]*>Prefer to pick a time yourself\?<\/h2>/);
    expect(html).toContain('Choose a slot in our calendar now, or wait for our call within 24 hours.');
    expect(html).toMatch(
      /<a href="https:\/\/booking\.premieraiconsulting\.com\/discovery-call" target="_blank" rel="noopener noreferrer"[^>]*data-booking=""[^>]*>Open the calendar in a new tab/,
    );
    // The button is in the page (so its styles are prerendered) but hidden until the page runs and
    // knows it may show the calendar.
    expect(html).toMatch(/<button type="button" data-not-frameable="" class="[^"]+">Pick a time now<\/button>/);
    expect(html).not.toContain('<iframe');
  });

  it('shows nothing when the site settings offer no booking in the page', () => {
    expect(render({})).toBe('');
  });
});
