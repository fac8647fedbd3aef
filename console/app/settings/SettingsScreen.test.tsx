// @vitest-environment happy-dom
// Settings against a stand-in for the console's API: notifications per form and a test message,
// the retention policy, and the accounts an admin manages.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountSummary, Health, NotificationSettings, Role } from '../../api-types.ts';
import { describedBy } from '../testing/described-by.ts';
import { renderConsole, sessionFor, stubConsoleServer, type Answer, type Handler } from '../testing/console-server.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOTIFICATIONS: NotificationSettings = {
  email: true,
  webhook: false,
  alertAfterMinutes: 30,
  forms: [
    { form: 'Contact Page Form', newLeadEmail: true },
    { form: 'Homepage Simple Lead Form', newLeadEmail: false },
  ],
};
const RETENTION: Health['retention'] = { leadDays: null, spamDays: 30 };
const ACCOUNTS: AccountSummary[] = [
  { email: 'admin@example.com', role: 'admin', createdAt: '2025-01-01T00:00:00.000Z', lastSignInAt: '2025-03-01T00:00:00.000Z' },
  { email: 'sam@example.com', role: 'sales', createdAt: '2025-01-02T00:00:00.000Z', lastSignInAt: null },
];

function settings(role: Role, routes: Record<string, Handler | Answer> = {}) {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor(role) },
    'GET /notifications': { body: NOTIFICATIONS },
    'GET /health': { body: { retention: RETENTION } },
    'GET /accounts': { body: { accounts: ACCOUNTS } },
    'GET /people': { body: [] },
    'GET /assignment-rules': { body: { rules: [] } },
    'GET /me/weekly-summary': { body: { enabled: false, emailConfigured: true, schedule: 'Mondays at 8:00 AM, New York time' } },
    ...routes,
  });
  renderConsole('/console/settings');
  return server;
}

describe('notifications', () => {
  it("an admin switches a form's new-lead e-mail and sends a test to every channel", async () => {
    const server = settings('admin', {
      'PUT /notifications/forms': { body: {} },
      'POST /notifications/test': { body: { channels: [{ channel: 'email', ok: false, error: 'SMTP refused the login' }] } },
    });
    const toggle = await screen.findByRole('switch', { name: 'Homepage Simple Lead Form' });
    expect(screen.getByText('Not configured (the server needs ALERT_WEBHOOK_URL)')).toBeTruthy();
    fireEvent.click(toggle);
    await waitFor(() => expect(server.made('PUT /notifications/forms')).toHaveLength(1));
    const [put] = server.made('PUT /notifications/forms');
    expect(put!.body).toEqual({ form: 'Homepage Simple Lead Form', newLeadEmail: true });
    expect(put!.headers['x-csrf-token']).toBe('csrf-admin');

    fireEvent.click(screen.getByRole('button', { name: 'Send a test notification' }));
    const results = await screen.findByRole('list', { name: 'Test notification results' });
    expect(results.textContent).toBe('E-mail: failed (SMTP refused the login)');
  });

  it('other roles read the settings and the retention policy without switches', async () => {
    const server = settings('sales');
    expect(await screen.findByText('Contact Page Form: on')).toBeTruthy();
    // Their own weekly summary is the one switch they have.
    expect(screen.getAllByRole('switch').map((element) => element.parentElement?.textContent)).toEqual(['Weekly summary by e-mail']);
    expect(screen.queryByRole('button', { name: 'Send a test notification' })).toBeNull();
    expect(await screen.findByText('Leads are kept until they are erased.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Accounts' })).toBeNull();
    expect(server.made('GET /accounts')).toEqual([]);
  });
});

describe('new-lead e-mail while e-mail is not configured', () => {
  const unconfigured = { 'GET /notifications': { body: { ...NOTIFICATIONS, email: false } } };

  it('never says a form e-mails its leads', async () => {
    settings('sales', unconfigured);
    expect(await screen.findByText('Contact Page Form: off until e-mail is configured (switched on)')).toBeTruthy();
    expect(screen.getByText('Homepage Simple Lead Form: off')).toBeTruthy();
    expect(screen.queryByText(/: on$/)).toBeNull();
    expect(screen.getByText(/No new lead is e-mailed while e-mail is not configured/)).toBeTruthy();
  });

  it("an admin's switch says nothing is sent yet, and so does the answer to switching it", async () => {
    settings('admin', { ...unconfigured, 'PUT /notifications/forms': { body: {} } });
    const toggle = await screen.findByRole('switch', { name: 'Homepage Simple Lead Form (not sent: e-mail is not configured)' });
    fireEvent.click(toggle);
    expect(await screen.findByText('Homepage Simple Lead Form: switched on; nothing is e-mailed until e-mail is configured.')).toBeTruthy();
  });
});

describe('accounts', () => {
  it("adds an account with its role, and ties the server's field messages to the fields", async () => {
    const server = settings('admin', {
      'POST /accounts': ({ body }) =>
        (body as { password: string }).password.length < 12
          ? {
              status: 400,
              body: { error: 'validation', message: 'Check the new account.', fields: { password: 'Use at least 12 characters.' } },
            }
          : { body: {} },
    });
    const form = await screen.findByRole('form', { name: 'Add an account' });
    fireEvent.change(within(form).getByLabelText('E-mail address'), { target: { value: 'new@example.com' } });
    fireEvent.change(within(form).getByLabelText('Role'), { target: { value: 'sales' } });
    expect(describedBy(within(form).getByLabelText('Role'))).toContain('forwards them again');
    fireEvent.change(within(form).getByLabelText('First password'), { target: { value: 'short' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add the account' }));
    await within(form).findByText('Use at least 12 characters.');
    expect(describedBy(within(form).getByLabelText('First password'))).toContain('Use at least 12 characters.');

    fireEvent.change(within(form).getByLabelText('First password'), { target: { value: 'a much longer password' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add the account' }));
    expect(await screen.findByText('new@example.com was added as sales.')).toBeTruthy();
    expect(server.made('POST /accounts').at(-1)!.body).toEqual({
      email: 'new@example.com',
      role: 'sales',
      password: 'a much longer password',
    });
  });

  it('changes a role, and removes an account only after the confirmation', async () => {
    const server = settings('admin', {
      'PATCH /accounts/sam@example.com': { body: {} },
      'DELETE /accounts/sam@example.com': { body: {} },
    });
    const role = await screen.findByRole('combobox', { name: 'Role of sam@example.com' });
    fireEvent.change(role, { target: { value: 'viewer' } });
    fireEvent.click(within(role.parentElement!).getByRole('button', { name: 'Change role' }));
    expect(
      await screen.findByText('sam@example.com is now viewer and was signed out everywhere, to sign in again with the new role.'),
    ).toBeTruthy();
    expect(server.made('PATCH /accounts/sam@example.com')[0]!.body).toEqual({ role: 'viewer' });

    fireEvent.click(screen.getByRole('button', { name: 'Remove sam@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove an account' });
    expect(server.made('DELETE /accounts/sam@example.com')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove sam@example.com' }));
    expect(await screen.findByText('sam@example.com was removed.')).toBeTruthy();
    expect(server.made('DELETE /accounts/sam@example.com')[0]!.headers['x-csrf-token']).toBe('csrf-admin');
  });
});
