// @vitest-environment happy-dom
// The console as a whole against a stand-in for its API: the layout and its navigation, a session
// that ends mid-way returning to sign-in on the same address, signing out, and the health screen.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Health } from '../api-types.ts';
import { leadSummary, renderConsole, sessionFor, stubConsoleServer } from './testing/console-server.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const HEALTH: Health = {
  perForm: [
    { form: 'Homepage Simple Lead Form', today: 2, week: 9 },
    { form: 'Contact Page Form', today: 0, week: 4 },
  ],
  perDay: [
    { day: '2025-02-23', leads: 1 },
    { day: '2025-03-01', leads: 2 },
  ],
  deliveredLast24h: 5,
  failed: 3,
  retrying: 5,
  spamWeek: 4,
  oldestUndelivered: { id: 'lead-old', receivedAt: '2025-03-01T08:00:00.000Z', waitedMinutes: 95 },
  lastCrmSuccessAt: '2025-03-01T09:30:00.000Z',
  backlog: { pending: 12, drainMinutes: 2, maxPer10s: 1, crmRefusing: false },
  incident: { since: '2025-03-01T09:40:00.000Z', lastError: 'The CRM answered 503' },
  retention: { leadDays: 365, spamDays: 30 },
};

describe('the layout', () => {
  it('names who is signed in and marks the current page; the audit log is listed for admins only', async () => {
    stubConsoleServer({ 'GET /session': { body: sessionFor('sales', 'sam@example.com') }, 'GET /health': { body: HEALTH } });
    renderConsole('/console/settings?x=1');
    const header = await screen.findByRole('banner');
    expect(header.textContent).toContain('Signed in as sam@example.com (sales)');
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Call now', 'Health', 'Inbox', 'Spam', 'Analytics', 'Speed to lead', 'Settings']);
    expect(within(nav).getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Health' }).getAttribute('aria-current')).toBeNull();
    expect(screen.getByRole('link', { name: 'Skip to the content' }).getAttribute('href')).toBe('#main');
    expect(document.getElementById('main')?.tagName).toBe('MAIN');
    cleanup();

    stubConsoleServer({ 'GET /session': { body: sessionFor('admin') }, 'GET /health': { body: HEALTH } });
    renderConsole('/console');
    const adminNav = await screen.findByRole('navigation', { name: 'Console' });
    expect(
      within(adminNav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Call now', 'Health', 'Inbox', 'Spam', 'Analytics', 'Speed to lead', 'Audit log', 'Settings']);
  });

  it('signs out with the CSRF token and shows the sign-in screen', async () => {
    const server = stubConsoleServer({
      'GET /session': { body: sessionFor('viewer') },
      'GET /health': { body: HEALTH },
      'DELETE /session': { body: {} },
    });
    renderConsole('/console');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to the console' })).toBeTruthy();
    expect(server.made('DELETE /session')[0]!.headers['x-csrf-token']).toBe('csrf-viewer');
  });
});

describe('the first screen', () => {
  it('is "Call now" for a salesperson, whose Health screen keeps a link of its own, and Health for an admin', async () => {
    stubConsoleServer({
      'GET /session': { body: sessionFor('sales') },
      'GET /queue': { body: { mine: [], unassigned: [], businessHours: 'Mon-Fri 9:00 AM-6:00 PM, New York time', openNow: true } },
      'GET /health': { body: HEALTH },
    });
    const app = renderConsole('/console');
    expect(await screen.findByRole('heading', { level: 1, name: 'Call now' })).toBeTruthy();
    expect(app.location().pathname).toBe('/call-now');
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(within(nav).getByRole('link', { name: 'Call now' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(within(nav).getByRole('link', { name: 'Health' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Health' })).toBeTruthy();
    expect(app.location().pathname).toBe('/health');
    cleanup();

    stubConsoleServer({ 'GET /session': { body: sessionFor('admin') }, 'GET /health': { body: HEALTH } });
    const admin = renderConsole('/console');
    expect(await screen.findByRole('heading', { level: 1, name: 'Health' })).toBeTruthy();
    expect(admin.location().pathname).toBe('/');
  });
});

describe('a session that ends', () => {
  it('returns to sign-in on the same address when any call answers 401, and back to that screen after signing in', async () => {
    let signedIn = true;
    const server = stubConsoleServer({
      'GET /session': { body: sessionFor('viewer') },
      'GET /leads': () =>
        signedIn
          ? { status: 401, body: { error: 'signed-out', message: 'Your session has ended.' } }
          : { body: { leads: [leadSummary('a')], next: null } },
      'POST /session': () => {
        signedIn = false;
        return { body: sessionFor('viewer') };
      },
    });
    const app = renderConsole('/console/leads?q=acme');
    expect(await screen.findByRole('heading', { name: 'Sign in to the console' })).toBeTruthy();
    expect(screen.getByText('Your session has ended. Sign in again to carry on.')).toBeTruthy();
    expect(app.location().search).toBe('?q=acme');

    signedIn = false;
    fireEvent.change(screen.getByLabelText('E-mail address'), { target: { value: 'viewer@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'a long password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Person a')).toBeTruthy();
    expect(server.made('GET /leads').at(-1)!.query.get('q')).toBe('acme');
  });
});

describe('the health screen', () => {
  it('shows leads per form as a chart with its table, delivery, the incident and the retention policy', async () => {
    stubConsoleServer({ 'GET /session': { body: sessionFor('viewer') }, 'GET /health': { body: HEALTH } });
    const app = renderConsole('/console');
    const chart = await screen.findByRole('img', { name: /^Leads per form, today and in the last 7 days: / });
    expect(chart.getAttribute('aria-label')).toContain('Homepage Simple Lead Form 2 today, 9 last 7 days');
    expect(chart.querySelectorAll('rect')).toHaveLength(4);
    const table = screen.getAllByRole('table')[0]!;
    expect(within(table).getByRole('row', { name: 'Homepage Simple Lead Form 2 9' })).toBeTruthy();

    expect(screen.getByRole('alert').textContent).toContain('Last error: The CRM answered 503');
    expect(screen.getByRole('link', { name: '3 leads' }).getAttribute('href')).toBe('/console/leads?state=failed');
    expect(screen.getByRole('link', { name: '5 leads' }).getAttribute('href')).toBe('/console/leads?state=retrying');
    expect(screen.queryByText(/Failing/)).toBeNull();
    const spam = screen.getByRole('link', { name: '4 leads judged spam' });
    expect(spam.getAttribute('href')).toBe('/console/spam?from=2025-02-23');
    const oldest = screen.getByRole('link', { name: /^Received / });
    expect(oldest.getAttribute('href')).toBe('/console/leads/lead-old');
    expect(oldest.parentElement!.textContent).toContain('waiting 1 h 35 min');
    expect(screen.getByText('12 leads to send (7 waiting to be sent, 5 still trying); about 2 min at 1 per 10 seconds')).toBeTruthy();
    expect(screen.getByText('Leads are erased after 365 days.')).toBeTruthy();
    expect(screen.getByText('Spam is erased after 30 days.')).toBeTruthy();
    expect(app.container.querySelector('style')).toBeNull();
  });
});

describe('the backlog while the CRM refuses leads', () => {
  it('gives no time to send them, since refused leads wait for their next attempt', async () => {
    const refusing: Health = { ...HEALTH, backlog: { pending: 12, drainMinutes: null, maxPer10s: 90, crmRefusing: true } };
    stubConsoleServer({ 'GET /session': { body: sessionFor('viewer') }, 'GET /health': { body: refusing } });
    renderConsole('/console');
    expect(
      await screen.findByText(
        '12 leads to send (7 waiting to be sent, 5 still trying); no estimate of when they go while the CRM is refusing leads',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/about \d+ min/)).toBeNull();
  });
});

describe('the audit log', () => {
  it('appends older entries through the cursor', async () => {
    const server = stubConsoleServer({
      'GET /session': { body: sessionFor('admin') },
      'GET /audit': ({ query }) =>
        query.get('after') === 'older'
          ? {
              body: {
                entries: [{ at: '2025-02-01T00:00:00.000Z', actor: 'ann@example.com', action: 'leads.export', detail: 'all' }],
                next: null,
              },
            }
          : {
              body: {
                entries: [{ at: '2025-03-01T00:00:00.000Z', actor: 'ann@example.com', action: 'lead.retry', detail: 'lead-1' }],
                next: 'older',
              },
            },
    });
    renderConsole('/console/audit');
    await screen.findByText('Retried leads');
    fireEvent.click(screen.getByRole('button', { name: 'Older entries' }));
    await screen.findByText('Exported leads');
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(server.made('GET /audit')[1]!.query.get('after')).toBe('older');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Older entries' })).toBeNull());
  });

  it('tells a role that may not read it so, without asking the server', async () => {
    const server = stubConsoleServer({ 'GET /session': { body: sessionFor('sales') } });
    renderConsole('/console/audit');
    expect((await screen.findByRole('alert')).textContent).toBe('Your role cannot do this.');
    expect(server.made('GET /audit')).toEqual([]);
  });
});
