// @vitest-environment happy-dom
// A scheduled publish of this person's that failed is shown, with why, when they open the studio,
// until they dismiss it; someone else's failure is not theirs to see here.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScheduledView } from './api.ts';
import { ScheduleFailures } from './ScheduleFailures.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const failed = (id: string, scheduledBy: string): ScheduledView => ({
  id,
  at: '2026-12-01T08:00:00.000Z',
  when: 'Tue 1 Dec, 09:00 (Europe/Berlin)',
  scheduledBy,
  status: 'failed',
  files: [{ path: 'content/pages/home.yaml', title: 'Home' }],
  message: 'content/pages/home.yaml changed on disk since it was opened in the studio.',
  seen: false,
  mayCancel: false,
});

describe('failed scheduled publishes', () => {
  it('tells the person who scheduled it why it failed, until they dismiss it', async () => {
    let scheduled = [failed('s1', 'maria@example.com'), failed('s2', 'ana@example.com')];
    const posted: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (init.method === 'POST') {
          posted.push(JSON.parse(String(init.body)));
          scheduled = scheduled.map((entry) => ({ ...entry, seen: true }));
          return Response.json({ dismissed: true });
        }
        return Response.json({ timeZone: 'Europe/Berlin', now: '2026-12-01T10:00', mayPublish: true, scheduled });
      }),
    );
    render(<ScheduleFailures user="maria@example.com" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your scheduled publish did not happen: Home — Tue 1 Dec, 09:00 (Europe/Berlin).');
    expect(alert.textContent).toContain('changed on disk');
    expect(screen.getAllByRole('button', { name: /Dismiss/ })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the message about Home' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(posted).toEqual([{ id: 's1' }]);
  });
});
