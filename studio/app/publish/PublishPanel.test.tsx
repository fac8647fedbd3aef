// @vitest-environment happy-dom
// The review screen opened a moment after typing: it sends the edit still waiting, waits for it to be
// saved, and only then shows what would be published; a save that lands while it is open is shown too.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Changes } from '../api.ts';
import { pendingSaves, type PendingSave } from '../editor/pending-saves.ts';
import { PublishPanel } from './PublishPanel.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOTHING: Changes = { files: [], issues: [], warnings: [], publishable: false };
const changed = (title: string): Changes => ({
  files: [{ path: 'content/pages/about.yaml', title, change: 'changed', updatedBy: 'ana@example.com', hunks: [] }],
  issues: [],
  warnings: [],
  publishable: true,
});

/** The studio server: GET /api/changes answers what `current` holds at the moment it is asked. */
function server(current: { changes: Changes }) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      if (url === '/api/reviews') return Response.json({ required: false, mayPublish: true, mayReview: false, requests: [] });
      if (url === '/api/schedule') return Response.json({ timeZone: 'UTC', now: '2026-11-30T12:00', mayPublish: true, scheduled: [] });
      return Response.json(url === '/api/changes' ? current.changes : {});
    }),
  );
  return asked;
}

const panel = () => <PublishPanel canUndo={false} history={[]} onDone={async () => {}} onOpen={() => {}} />;

describe('the review screen and edits still being saved', () => {
  it('sends a waiting edit at once and shows the changes only once it is saved', async () => {
    const current = { changes: NOTHING };
    const asked = server(current);
    // An edit typed a moment ago: its save waits for typing to pause.
    const edit: PendingSave = { flush: vi.fn() };
    pendingSaves.track(edit, true);
    render(panel());

    expect(screen.getByRole('status')).toHaveProperty('textContent', 'Saving your last edit, then gathering the changes…');
    expect(edit.flush).toHaveBeenCalledTimes(1);
    expect(asked).not.toContain('/api/changes');
    expect(await screen.findByRole('button', { name: 'Publish' })).toHaveProperty('disabled', true);

    // The save lands: the server now has the draft.
    current.changes = changed('About Us');
    act(() => pendingSaves.track(edit, false));
    await screen.findByRole('heading', { name: /About Us/ });
    expect(screen.queryByText('There are no unpublished changes.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Publish' })).toHaveProperty('disabled', false);
  });

  it('reads the changes again when a save lands while it is open', async () => {
    const current = { changes: NOTHING };
    server(current);
    render(panel());
    await screen.findByText('There are no unpublished changes.');

    const late: PendingSave = { flush: () => {} };
    act(() => pendingSaves.track(late, true));
    current.changes = changed('Services');
    act(() => pendingSaves.track(late, false));
    await screen.findByRole('heading', { name: /Services/ });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Publish' })).toHaveProperty('disabled', false));
  });
});
