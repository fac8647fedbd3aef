// @vitest-environment happy-dom
// The spam view against a stand-in for the console's API: only spam, with why in plain words, and
// "Not spam" that sends a real lead on; the health screen's link shows the days its count covered.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../api-types.ts';
import { leadSummary, renderConsole, sessionFor, stubConsoleServer, type Answer, type Handler } from '../testing/console-server.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SPAM = [
  leadSummary('s1', {
    state: 'spam',
    attempts: 0,
    spamReason: 'honeypot',
    spamSignals: ['The hidden field that people never see was filled in.'],
  }),
  leadSummary('s2', {
    state: 'spam',
    attempts: 0,
    spamReason: 'too_fast',
    spamSignals: ['The form was sent less than 2 seconds after it appeared.'],
  }),
];

function spamView(role: Role, routes: Record<string, Handler | Answer> = {}, address = '/console/spam') {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor(role) },
    'GET /leads': { body: { leads: SPAM, next: null } },
    ...routes,
  });
  renderConsole(address);
  return server;
}

describe('the spam view', () => {
  it('lists only spam, each with why in plain words', async () => {
    const server = spamView('viewer');
    await screen.findByText('Person s1');
    expect(Object.fromEntries(server.made('GET /leads')[0]!.query)).toEqual({ spam: 'yes' });
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]!.textContent)).toEqual([
      'The hidden field that people never see was filled in.',
      'The form was sent less than 2 seconds after it appeared.',
    ]);
    expect(screen.queryByText(/honeypot|too_fast/)).toBeNull();
    expect(screen.queryByRole('button', { name: /Not spam/ })).toBeNull();
  });

  it('"Not spam" sends the lead on with the CSRF token, says so and reloads the list', async () => {
    const server = spamView('sales', { 'POST /leads/s2/spam': { body: { state: 'pending' } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Not spam: the lead from Person s2' }));
    expect(
      await screen.findByText('The lead from Person s2 is no longer spam: it is in the inbox and will be sent to the CRM.'),
    ).toBeTruthy();
    const [marked] = server.made('POST /leads/s2/spam');
    expect(marked!.body).toEqual({ spam: false });
    expect(marked!.headers['x-csrf-token']).toBe('csrf-sales');
    await waitFor(() => expect(server.made('GET /leads')).toHaveLength(2));
  });

  it('shows the spam received since the day the health screen counted from', async () => {
    const server = spamView('viewer', {}, '/console/spam?from=2025-02-23');
    await screen.findByText('Person s1');
    expect(Object.fromEntries(server.made('GET /leads')[0]!.query)).toEqual({ spam: 'yes', from: '2025-02-23' });
    expect(screen.getByRole('link', { name: 'Show all spam' }).getAttribute('href')).toBe('/console/spam');
  });

  it("shows one day's spam, the leads the daily spam notification counted", async () => {
    const server = spamView('viewer', {}, '/console/spam?from=2026-11-27&to=2026-11-27');
    await screen.findByText('Person s1');
    expect(Object.fromEntries(server.made('GET /leads')[0]!.query)).toEqual({ spam: 'yes', from: '2026-11-27', to: '2026-11-27' });
    expect(screen.getByText(/Received on 2026-11-27 \(UTC\)\./)).toBeTruthy();
  });

  it('says when a day had no spam left', async () => {
    spamView('viewer', { 'GET /leads': { body: { leads: [], next: null } } }, '/console/spam?from=2026-11-27&to=2026-11-27');
    expect(await screen.findByText('No spam on that day.')).toBeTruthy();
  });
});
