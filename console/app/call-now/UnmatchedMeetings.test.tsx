// @vitest-environment happy-dom
// "Call now" lists, under the leads, the meetings booked by people we have no lead for: who, how to
// reach them, when, and on which booking page; a cancelled one says so, and the list comes back
// with the queue's refresh.
import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BookingView, CallNow } from '../../api-types.ts';
import { formatTime } from '../parts/format.tsx';
import { renderConsole, sessionFor, stubConsoleServer } from '../testing/console-server.tsx';
import { REFRESH_MS } from './CallNowScreen.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const EMPTY_QUEUE: CallNow = { mine: [], unassigned: [], businessHours: 'every hour', openNow: true };

function meeting(id: number, overrides: Partial<BookingView> = {}): BookingView {
  return {
    id,
    provider: 'cal',
    leadId: null,
    matchedBy: null,
    name: `Sam ${id}`,
    email: `sam${id}@example.com`,
    startsAt: '2026-12-01T15:00:00.000Z',
    endsAt: '2026-12-01T15:30:00.000Z',
    status: 'booked',
    lastChange: 'created',
    receivedAt: '2026-11-28T10:00:00.000Z',
    ...overrides,
  };
}

function show(bookings: BookingView[]) {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor('sales') },
    'GET /queue': { body: EMPTY_QUEUE },
    'GET /bookings': { body: { bookings } },
  });
  renderConsole('/console/call-now');
  return server;
}

describe('meetings that match no lead, on "Call now"', () => {
  it('lists each with name, e-mail, time and booking page, and says when one was cancelled', async () => {
    const server = show([meeting(2, { provider: 'calendly', status: 'cancelled', lastChange: 'cancelled' }), meeting(1)]);
    const section = await screen.findByRole('region', { name: 'Meetings booked by people with no lead (2)' });
    expect(server.made('GET /bookings')[0]?.query.get('unmatched')).toBe('1');
    const cards = within(section).getAllByRole('listitem');
    expect(cards.map((card) => card.getAttribute('aria-labelledby'))).toEqual(['meeting-card-2', 'meeting-card-1']);

    const booked = within(section).getByRole('listitem', { name: 'Sam 1' });
    expect(booked.textContent).toContain(`Meeting ${formatTime('2026-12-01T15:00:00.000Z')}`);
    expect(booked.textContent).toContain('booked on Cal.com');
    expect(within(booked).getByRole('link', { name: 'sam1@example.com' }).getAttribute('href')).toBe('mailto:sam1@example.com');

    const cancelled = within(section).getByRole('listitem', { name: 'Sam 2' });
    expect(cancelled.textContent).toContain(`Cancelled: was ${formatTime('2026-12-01T15:00:00.000Z')}`);
    expect(cancelled.textContent).toContain('booked on Calendly');
  });

  it('shows a booker’s name and address as text, and links only a plain address', async () => {
    // Whoever books on the public booking page types the name and address the provider's webhook sends us.
    const name = '<img src=x onerror="globalThis.__pwned=1">';
    const email = 'x@example.com?bcc=all@example.com&body=<script>globalThis.__pwned=2</script>';
    show([
      meeting(1, { name, email }),
      meeting(2, { name: '', email: 'javascript:alert(1)//@example.com' }),
      meeting(3, { name: 'Ann', email: 'ann@example.com' }),
    ]);
    const section = await screen.findByRole('region', { name: 'Meetings booked by people with no lead (3)' });
    const [first, second, third] = within(section).getAllByRole('listitem');
    expect(first!.textContent).toContain(name);
    expect(first!.textContent).toContain(email);
    expect(second!.textContent).toContain('javascript:alert(1)//@example.com');
    expect(section.querySelector('img, script, [onerror]')).toBeNull();
    expect((globalThis as { __pwned?: unknown }).__pwned).toBeUndefined();
    // No link for an address a mail program would read as extra headers, nor for a script URL.
    expect(within(first!).queryByRole('link')).toBeNull();
    expect(within(second!).queryByRole('link')).toBeNull();
    expect(within(third!).getByRole('link', { name: 'ann@example.com' }).getAttribute('href')).toBe('mailto:ann@example.com');
    for (const link of section.querySelectorAll('a')) expect(link.getAttribute('href')).toMatch(/^mailto:[^?&#%,\s]+$/);
  });

  it('says when every meeting belongs to a lead, and asks again with the queue', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = show([]);
    const section = await screen.findByRole('region', { name: 'Meetings booked by people with no lead (0)' });
    expect(section.textContent).toContain('Every meeting booked belongs to a lead.');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(REFRESH_MS);
    });
    expect(server.made('GET /bookings').length).toBeGreaterThanOrEqual(2);
  });
});
