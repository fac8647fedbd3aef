// @vitest-environment happy-dom
// The weekly summary's switch in Settings, against a stand-in for the console's API: a person switches
// their own summary on and off, sees when it comes, and is told plainly when e-mail is not set up.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role, WeeklySummaryChoice } from '../../api-types.ts';
import { renderConsole, sessionFor, stubConsoleServer, type Answer, type Handler } from '../testing/console-server.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SCHEDULE = 'Mondays at 8:00 AM, New York time';
const OFF: WeeklySummaryChoice = { enabled: false, emailConfigured: true, schedule: SCHEDULE };

function settings(role: Role, choice: WeeklySummaryChoice, routes: Record<string, Handler | Answer> = {}) {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor(role) },
    'GET /notifications': { body: { email: choice.emailConfigured, webhook: false, alertAfterMinutes: 15, forms: [] } },
    'GET /health': { body: { retention: { leadDays: null, spamDays: null } } },
    'GET /accounts': { body: { accounts: [] } },
    'GET /people': { body: [] },
    'GET /assignment-rules': { body: { rules: [] } },
    'GET /me/weekly-summary': { body: choice },
    ...routes,
  });
  renderConsole('/console/settings');
  return server;
}

describe('the weekly summary switch', () => {
  it('a person switches their own summary on and is told when it comes', async () => {
    const server = settings('viewer', OFF, { 'PUT /me/weekly-summary': { body: { ...OFF, enabled: true } } });
    const toggle = await screen.findByRole('switch', { name: 'Weekly summary by e-mail' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText(/^Sent Mondays at 8:00 AM, New York time, to viewer@example\.com:/)).toBeTruthy();

    fireEvent.click(toggle);
    await waitFor(() => expect(server.made('PUT /me/weekly-summary')).toHaveLength(1));
    const [put] = server.made('PUT /me/weekly-summary');
    expect(put!.body).toEqual({ enabled: true });
    expect(put!.headers['x-csrf-token']).toBe('csrf-viewer');
    expect(await screen.findByText(`The weekly summary is on: it comes ${SCHEDULE}.`)).toBeTruthy();
    // The screen reads the choice again from the server.
    await waitFor(() => expect(server.made('GET /me/weekly-summary')).toHaveLength(2));
  });

  it('says plainly that nothing is sent while e-mail is not set up, and an admin what the server needs', async () => {
    settings('sales', { ...OFF, emailConfigured: false });
    expect(await screen.findByText(/^It cannot be sent until e-mail is set up on the server\. Ask an admin to set it up\.$/)).toBeTruthy();
    cleanup();
    vi.unstubAllGlobals();

    settings(
      'admin',
      { ...OFF, emailConfigured: false },
      { 'PUT /me/weekly-summary': { body: { ...OFF, enabled: true, emailConfigured: false } } },
    );
    expect(await screen.findByText(/^It cannot be sent until e-mail is set up on the server\. To set it up, give the server/)).toBeTruthy();
    fireEvent.click(await screen.findByRole('switch', { name: 'Weekly summary by e-mail' }));
    expect(await screen.findByText('The weekly summary is on, but nothing is sent until e-mail is set up on the server.')).toBeTruthy();
  });

  it('switching it off says so', async () => {
    settings('admin', { ...OFF, enabled: true }, { 'PUT /me/weekly-summary': { body: OFF } });
    const toggle = await screen.findByRole('switch', { name: 'Weekly summary by e-mail' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    fireEvent.click(toggle);
    expect(await screen.findByText('The weekly summary is off: you will not get it any more.')).toBeTruthy();
  });
});
