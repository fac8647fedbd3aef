// @vitest-environment happy-dom
// "Call now" against a stand-in for the console's API: the salesperson's own leads, then the
// unassigned ones, each a card with its clock, one-tap call and e-mail links that then ask the
// outcome and log it, "Take it" for an unassigned lead, the business hours, and the list kept fresh.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallNow, QueueLead, Role } from '../../api-types.ts';
import { renderConsole, salesView, sessionFor, stubConsoleServer, type Answer, type Handler } from '../testing/console-server.tsx';
import { REFRESH_MS } from './CallNowScreen.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function queueLead(id: string, overrides: Partial<QueueLead> = {}): QueueLead {
  return {
    id,
    receivedAt: '2025-03-01T10:00:00.000Z',
    form: 'Contact Page Form',
    name: `Person ${id}`,
    company: `Company ${id}`,
    email: `${id}@example.com`,
    phone: '+1 (212) 555-0100',
    asked: 'We need help moving our data warehouse.',
    callbackRequested: false,
    sales: salesView({ owner: { id: 'acct-7', email: 'sales@example.com' }, clockMinutes: 2 }),
    ...overrides,
  };
}

const HOURS = 'Mon-Fri 9:00 AM-6:00 PM, New York time';
const QUEUE: CallNow = {
  mine: [queueLead('a', { sales: salesView({ owner: { id: 'acct-7', email: 'sales@example.com' }, clockMinutes: 125 }) }), queueLead('b')],
  unassigned: [queueLead('c', { sales: salesView({ clockMinutes: 4 }), callbackRequested: true })],
  businessHours: HOURS,
  openNow: true,
};

function callNow(role: Role = 'sales', routes: Record<string, Handler | Answer> = {}) {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor(role) },
    'GET /queue': { body: QUEUE },
    'GET /bookings': { body: { bookings: [] } },
    ...routes,
  });
  const app = renderConsole('/console/call-now');
  return { server, app };
}

const card = (name: string) => screen.getByRole('listitem', { name });

describe('Call now', () => {
  it('lists my leads then the unassigned ones as cards, each with its clock, who, what they asked and one-tap links', async () => {
    callNow();
    const mine = await screen.findByRole('region', { name: 'My leads to call (2)' });
    expect(
      within(mine)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-labelledby')),
    ).toEqual(['lead-card-a', 'lead-card-b']);
    const unassigned = screen.getByRole('region', { name: 'Not assigned yet (1)' });
    expect(
      within(unassigned)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['Person c']);

    const first = card('Person a');
    const clock = (name: string) => card(name).querySelector('.clock')!;
    expect(clock('Person a').textContent).toBe('Waiting 2 h 5 min (over 5 minutes)');
    expect(clock('Person a').className).toContain('clock-late');
    expect(clock('Person b').textContent).toBe('Waiting 2 min');
    expect(clock('Person b').className).toContain('clock-fresh');
    expect(clock('Person c').className).toContain('clock-soon');
    expect(first.textContent).toContain('Company a · Contact Page Form');
    expect(within(first).getByText('We need help moving our data warehouse.').closest('p')!.className).toBe('lead-card-asked');
    expect(within(first).getByRole('link', { name: 'Call Person a' }).getAttribute('href')).toBe('tel:+12125550100');
    expect(within(first).getByRole('link', { name: 'E-mail Person a' }).getAttribute('href')).toBe('mailto:a@example.com');
    expect(within(first).getByRole('link', { name: 'Person a' }).getAttribute('href')).toBe('/console/leads/a');
    expect(screen.getByText(`Clocks run ${HOURS}; open now.`)).toBeTruthy();
  });

  it('marks a lead that asked for a call-back now, and offers "Take it" only on unassigned leads', async () => {
    callNow();
    await screen.findByRole('heading', { name: 'Person c' });
    expect(within(card('Person c')).getByText('Asked for a call-back now')).toBeTruthy();
    expect(within(card('Person a')).queryByText('Asked for a call-back now')).toBeNull();
    expect(within(card('Person c')).getByRole('button', { name: 'Take it (Person c)' })).toBeTruthy();
    expect(within(card('Person a')).queryByRole('button', { name: /Take it/ })).toBeNull();
  });

  it('says when a clock will start for a lead sent while closed', async () => {
    const later = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
    callNow('sales', {
      'GET /queue': {
        body: {
          ...QUEUE,
          openNow: false,
          mine: [queueLead('n', { sales: salesView({ clockStartsAt: later, clockMinutes: 0, clockRunning: false }) })],
          unassigned: [],
        },
      },
    });
    expect(await screen.findByText(/^Clock starts at /)).toBeTruthy();
    expect(screen.getByText(`Clocks run ${HOURS}; closed now.`)).toBeTruthy();
  });

  it('asks how the call went after the Call link, logs the outcome with the CSRF token and takes the lead off the list', async () => {
    const { server } = callNow('sales', {
      'POST /leads/a/touches': { body: salesView({ firstTouchAt: '2025-03-01T12:06:00.000Z', clockRunning: false }) },
    });
    await screen.findByRole('heading', { name: 'Person a' });
    fireEvent.click(within(card('Person a')).getByRole('link', { name: 'Call Person a' }));
    const question = within(card('Person a')).getByRole('group', { name: 'How did the call to Person a go?' });
    expect(document.activeElement).toBe(question);
    expect(
      within(question)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Reached them', 'Left a voicemail', 'No answer', 'Wrong number', 'I did not call']);
    fireEvent.click(within(question).getByRole('button', { name: 'Left a voicemail' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Person a' })).toBeNull());
    const [touch] = server.made('POST /leads/a/touches');
    expect(touch!.body).toEqual({ kind: 'call', outcome: 'left-voicemail' });
    expect(touch!.headers['x-csrf-token']).toBe('csrf-sales');
    expect(screen.getByRole('status').textContent).toBe('Person a: left a voicemail, logged. The lead has left the list.');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: /^My leads to call/ }));
    // The list is read again: a colleague may have changed it meanwhile.
    expect(server.made('GET /queue').length).toBeGreaterThanOrEqual(2);
  });

  it('asks only "sent" after the E-mail link; "I did not send it" logs nothing', async () => {
    const { server } = callNow('sales', { 'POST /leads/b/touches': { body: salesView() } });
    await screen.findByRole('heading', { name: 'Person b' });
    fireEvent.click(within(card('Person b')).getByRole('link', { name: 'E-mail Person b' }));
    const question = within(card('Person b')).getByRole('group', { name: 'Did the e-mail to Person b go out?' });
    expect(
      within(question)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['E-mail sent', 'I did not send it']);
    fireEvent.click(within(question).getByRole('button', { name: 'I did not send it' }));
    expect(within(card('Person b')).queryByRole('group')).toBeNull();
    expect(document.activeElement).toBe(within(card('Person b')).getByRole('link', { name: 'E-mail Person b' }));
    expect(server.made('POST /leads/b/touches')).toEqual([]);

    fireEvent.click(within(card('Person b')).getByRole('link', { name: 'E-mail Person b' }));
    fireEvent.click(within(card('Person b')).getByRole('button', { name: 'E-mail sent' }));
    await waitFor(() => expect(server.made('POST /leads/b/touches')).toHaveLength(1));
    expect(server.made('POST /leads/b/touches')[0]!.body).toEqual({ kind: 'email', outcome: 'sent' });
  });

  it('keeps the lead and says why when logging fails', async () => {
    callNow('sales', {
      'POST /leads/a/touches': { status: 409, body: { error: 'conflict', message: 'This lead was erased meanwhile.' } },
    });
    await screen.findByRole('heading', { name: 'Person a' });
    fireEvent.click(within(card('Person a')).getByRole('link', { name: 'Call Person a' }));
    fireEvent.click(within(card('Person a')).getByRole('button', { name: 'Reached them' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('This lead was erased meanwhile.');
    expect(card('Person a')).toBeTruthy();
    expect(within(card('Person a')).getByRole('group').getAttribute('aria-describedby')).toBe(alert.id);
  });

  it('"Take it" gives the lead to the signed-in person with the CSRF token', async () => {
    let taken = false;
    const { server } = callNow('sales', {
      'GET /queue': () => ({
        body: taken
          ? {
              ...QUEUE,
              mine: [...QUEUE.mine, { ...QUEUE.unassigned[0]!, sales: salesView({ owner: { id: 'acct-7', email: 'sales@example.com' } }) }],
              unassigned: [],
            }
          : QUEUE,
      }),
      'POST /leads/c/owner': () => {
        taken = true;
        return { body: salesView({ owner: { id: 'acct-7', email: 'sales@example.com' } }) };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Take it (Person c)' }));
    expect(await screen.findByRole('region', { name: 'My leads to call (3)' })).toBeTruthy();
    const [take] = server.made('POST /leads/c/owner');
    expect(take!.body).toEqual({ ownerId: 'acct-7' });
    expect(take!.headers['x-csrf-token']).toBe('csrf-sales');
    expect(screen.getByRole('status').textContent).toBe('Person c is yours now: the lead is under "My leads to call".');
    expect(screen.getByText('Every lead has an owner.')).toBeTruthy();
  });

  it('a viewer sees the leads and the links, but no outcome is asked and nothing can be taken', async () => {
    callNow('viewer');
    await screen.findByRole('heading', { name: 'Person c' });
    expect(screen.queryByRole('button', { name: /Take it/ })).toBeNull();
    fireEvent.click(within(card('Person a')).getByRole('link', { name: 'Call Person a' }));
    expect(screen.queryByRole('group')).toBeNull();
  });

  it('says so when nobody is waiting, and shows the server’s sentence when the list cannot be read', async () => {
    callNow('sales', { 'GET /queue': { body: { ...QUEUE, mine: [], unassigned: [] } } });
    expect(await screen.findByText('Nobody is waiting for a call.')).toBeTruthy();
    cleanup();
    callNow('sales', { 'GET /queue': { status: 503, body: { error: 'unavailable', message: 'The database is not answering.' } } });
    expect((await screen.findByRole('alert')).textContent).toBe('The database is not answering.');
  });

  it('shows a loading state first', async () => {
    callNow('sales', { 'GET /queue': () => new Promise<Answer>(() => undefined) });
    expect(await screen.findByText('Loading the leads to call…')).toBeTruthy();
  });

  it('reads the list again every 30 seconds while visible, and ticks the clocks every minute without asking', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    const { server } = callNow();
    await screen.findByRole('heading', { name: 'Person b' });
    const asked = server.made('GET /queue').length;
    await act(async () => {
      vi.advanceTimersByTime(REFRESH_MS - 1000);
    });
    expect(server.made('GET /queue')).toHaveLength(asked);
    await act(async () => {
      vi.advanceTimersByTime(2000);
    });
    await waitFor(() => expect(server.made('GET /queue')).toHaveLength(asked + 1));
  });

  it('ticks a running clock every minute without asking the server', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    const { server } = callNow('sales', { 'GET /queue': { body: { ...QUEUE, unassigned: [] } } });
    await screen.findByRole('heading', { name: 'Person b' });
    const asked = server.made('GET /queue').length;
    expect(card('Person b').querySelector('.clock')!.textContent).toBe('Waiting 2 min');
    // The screen's effects (its timers among them) run before the clock moves on.
    await act(async () => undefined);
    // Hidden, the list is not read again, but the clocks go on.
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    await act(async () => {
      vi.advanceTimersByTime(4 * 60_000);
    });
    expect(card('Person b').querySelector('.clock')!.textContent).toBe('Waiting 6 min (over 5 minutes)');
    expect(server.made('GET /queue')).toHaveLength(asked);
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });
});
