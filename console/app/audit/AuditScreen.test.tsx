// @vitest-environment happy-dom
// The audit log against a stand-in for the console's API: each action is said in words an owner
// reads, beside what it touched; an action the screen does not know shows as recorded.
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderConsole, sessionFor, stubConsoleServer } from '../testing/console-server.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the audit log', () => {
  it('names each action in words, beside its detail', async () => {
    stubConsoleServer({
      'GET /session': { body: sessionFor('admin') },
      'GET /audit': {
        body: {
          entries: [
            { at: '2026-11-28T04:52:00.000Z', actor: 'owner@example.com', action: 'lead.retry', detail: 'sent 2 leads' },
            { at: '2026-11-28T04:51:00.000Z', actor: 'system', action: 'retention.purge', detail: '0 leads, 3 spam' },
            { at: '2026-11-28T04:50:00.000Z', actor: 'owner@example.com', action: 'lead.not-spam', detail: 'lead-1' },
            { at: '2026-11-28T04:49:00.000Z', actor: 'owner@example.com', action: 'something.new', detail: '' },
            { at: '2026-11-28T04:48:00.000Z', actor: 'command line (ana)', action: 'account.password', detail: 'li@example.com' },
            { at: '2026-11-28T04:47:00.000Z', actor: 'owner@example.com', action: 'notifications.test', detail: 'email sent' },
            {
              at: '2026-11-28T04:46:00.000Z',
              actor: 'owner@example.com',
              action: 'account.weekly-summary',
              detail: 'weekly summary by e-mail on',
            },
          ],
          next: null,
        },
      },
    });
    renderConsole('/console/audit');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => [row.children[2]!.textContent, row.children[3]!.textContent])).toEqual([
      ['Retried leads', 'sent 2 leads'],
      ['Erased by the retention policy', '0 leads, 3 spam'],
      ['Marked not spam', 'lead-1'],
      ['something.new', ''],
      ['Set a new password', 'li@example.com'],
      ['Sent a test notification', 'email sent'],
      ['Switched own weekly summary', 'weekly summary by e-mail on'],
    ]);
    expect(rows.map((row) => row.children[1]!.textContent)).toEqual([
      'owner@example.com',
      'system',
      'owner@example.com',
      'owner@example.com',
      'command line (ana)',
      'owner@example.com',
      'owner@example.com',
    ]);
  });
});
