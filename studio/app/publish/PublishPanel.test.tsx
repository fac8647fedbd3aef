// @vitest-environment happy-dom
// The review screen opened a moment after typing: it sends the edit still waiting, waits for it to be
// saved, and only then shows what would be published; a save that lands while it is open is shown too.
// After a publish, where it got (pushed, waiting for the live site, live since) is shown and kept fresh.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Changes, PublishRecord, PublishRunView } from '../api.ts';
import { pendingSaves, type PendingSave } from '../editor/pending-saves.ts';
import { FormModelProvider } from '../changes/form-model-context.ts';
import { siteFormModel } from '../../testing/site-model.ts';
import { PublishPanel } from './PublishPanel.tsx';
import { STATUS_POLL_MS } from './usePublishStatus.ts';
import { RUN_POLL_MS } from './follow-run.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOTHING: Changes = { files: [], held: [], issues: [], warnings: [], publishable: false };
const changed = (title: string): Changes => ({
  files: [
    {
      path: 'content/pages/about.yaml',
      title,
      change: 'changed',
      updatedBy: 'ana@example.com',
      changedBy: ['ana@example.com'],
      fingerprint: `f-${title}`,
      hunks: [],
      before: { title: 'About' },
      after: { title },
    },
  ],
  held: [],
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
      if (url === '/api/reviews')
        return Response.json({ required: false, mayPublish: true, mayReview: false, requests: [], waiting: 0, nextOffset: null });
      if (url === '/api/schedule') return Response.json({ timeZone: 'UTC', now: '2026-11-30T12:00', mayPublish: true, scheduled: [] });
      if (url === '/api/publish-status') return Response.json({ history: [], running: [] });
      return Response.json(url === '/api/changes' ? current.changes : {});
    }),
  );
  return asked;
}

const panel = () => (
  <FormModelProvider value={siteFormModel()}>
    <PublishPanel canUndo={false} history={[]} onDone={async () => {}} onOpen={() => {}} />
  </FormModelProvider>
);

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

  it('shows each change in the form’s words, below the Publish button so a phone shows it without scrolling', async () => {
    server({ changes: changed('About Us') });
    render(panel());
    const place = await screen.findByText('About Us › Search title');
    const publish = screen.getByRole('button', { name: 'Publish' });
    expect(publish.compareDocumentPosition(place) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(document.querySelector('ins')!.textContent).toBe(' [added:  Us] ');
    expect(screen.queryByText(/content\/pages/)).toBeNull();
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

const RUN: PublishRunView = {
  id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  action: 'publish',
  user: 'maria@example.com',
  startedAt: '2026-03-02T10:41:00.000Z',
  done: false,
  steps: [
    { key: 'checking', label: 'Checking the content', state: 'done' },
    { key: 'building', label: 'Building the site', state: 'now' },
    { key: 'going-live', label: 'Switching the live site to the new build', state: 'next' },
  ],
};

describe('a publish under way', () => {
  it('says another person’s publish is under way, and whose, without its steps or result', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/publish-status')
          return Response.json({
            history: [],
            running: [],
            elsewhere: [{ action: 'publish', user: 'ana@example.com', startedAt: '2026-11-30T12:00:00Z' }],
          });
        if (url === '/api/reviews') return Response.json({ required: false, mayPublish: true, mayReview: false, requests: [] });
        if (url === '/api/schedule') return Response.json({ timeZone: 'UTC', now: '2026-11-30T12:00', mayPublish: true, scheduled: [] });
        return Response.json(url === '/api/changes' ? changed('About') : {});
      }),
    );
    render(panel());

    expect(
      (
        await screen.findByText('Publishing started by ana@example.com is under way; a publish you start now waits for it to finish.')
      ).getAttribute('role'),
    ).toBe('status');
    expect(screen.queryByRole('status', { name: 'Publish progress' })).toBeNull();
  });

  it('shows one started before the screen opened (another tab, a reload) step by step, then what it came to', async () => {
    const run = { current: RUN };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/publish-status') return Response.json({ history: [], running: [run.current] });
        if (url === `/api/publish-runs/${RUN.id}`) return Response.json({ run: run.current });
        if (url === '/api/reviews') return Response.json({ required: false, mayPublish: true, mayReview: false, requests: [] });
        if (url === '/api/schedule') return Response.json({ timeZone: 'UTC', now: '2026-11-30T12:00', mayPublish: true, scheduled: [] });
        return Response.json(url === '/api/changes' ? changed('About') : {});
      }),
    );
    render(panel());

    const progress = await screen.findByRole('status', { name: 'Publish progress' });
    await waitFor(() => expect(progress.textContent).toContain('Publishing (started by maria@example.com)…'));
    expect([...progress.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'Checking the content ✓(done)',
      'Building the site …(under way)',
      'Switching the live site to the new build (next)',
    ]);
    expect(progress.querySelector('[aria-current="step"]')?.textContent).toContain('Building the site');
    expect(screen.getByRole('button', { name: 'Publish' })).toHaveProperty('disabled', true);

    run.current = {
      ...RUN,
      done: true,
      steps: RUN.steps.map((step) => ({ ...step, state: 'done' })),
      answer: {
        ok: true,
        record: {
          id: 'x',
          action: 'publish',
          user: 'maria@example.com',
          at: RUN.startedAt,
          files: [{ path: 'content/pages/about.yaml', title: 'About', change: 'changed' }],
          ms: 2500,
        },
      },
    };
    expect(await screen.findByText(/^Published: About — live in 2\.5 s\.$/, undefined, { timeout: RUN_POLL_MS * 4 })).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Publish progress' })).toBeNull();
  });
});

describe('where a publish got, after it is done', () => {
  const record = (live: { state: 'waiting' | 'live'; text: string }): PublishRecord => ({
    id: '2026-03-02T10-41-00-000Z-publish',
    action: 'publish',
    user: 'ana@example.com',
    at: '2026-03-02T10:41:00.000Z',
    files: [{ path: 'content/pages/about.yaml', title: 'About', change: 'changed' }],
    commit: 'a'.repeat(40),
    ms: 4200,
    remote: { name: 'origin', branch: 'main', pushed: true },
    status: { remote: { pushed: true, text: 'Pushed to origin/main' }, live },
  });

  it('says it was pushed and waits for the live site, then says since when it is live', async () => {
    const published = record({ state: 'waiting', text: 'Waiting for the live site…' });
    const live = record({ state: 'live', text: 'Live since 10:42' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        Response.json(
          url === '/api/changes'
            ? changed('About')
            : url === '/api/publish'
              ? { run: { ...RUN, done: true, answer: { ok: true, record: published } } }
              : url === '/api/publish-status'
                ? { history: [live], running: [] }
                : url === '/api/reviews'
                  ? { required: false, mayPublish: true, mayReview: false, requests: [], waiting: 0, nextOffset: null }
                  : url === '/api/schedule'
                    ? { timeZone: 'UTC', now: '2026-11-30T12:00', mayPublish: true, scheduled: [] }
                    : {},
        ),
      ),
    );
    render(panel());
    fireEvent.click(await screen.findByRole('button', { name: 'Publish' }));

    const status = await screen.findByRole('status', { name: 'Remote and live site' });
    expect(status.textContent).toBe('Pushed to origin/mainWaiting for the live site…');
    expect(screen.getByText(/^Published: About — built and committed in 4\.2 s\.$/)).toBeTruthy();
    await waitFor(() => expect(status.textContent).toBe('Pushed to origin/mainLive since 10:42'), { timeout: STATUS_POLL_MS + 2_000 });
  });
});

describe('what a publish sends', () => {
  it('publishes exactly the changes shown, lists others’ changes apart, and shows the newer changes when refused', async () => {
    const shown: Changes = {
      ...changed('About'),
      held: [{ path: 'content/pages/home.yaml', title: 'Home', changedBy: ['maria@example.com'] }],
    };
    const current = { changes: shown };
    const posted: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (init.method === 'POST') {
          posted.push({ url, body: JSON.parse(String(init.body)) as unknown });
          // Someone saved the page after the screen loaded: the server refuses before starting any
          // publish, and has the newer text.
          current.changes = changed('About, saved since');
          return Response.json(
            {
              ok: false,
              reason: 'changed-since',
              message:
                'About changed since you opened the publish screen: look at the changes again before publishing. Nothing was published.',
            },
            { status: 409 },
          );
        }
        if (url === '/api/reviews')
          return Response.json({ required: true, mayPublish: true, mayReview: true, requests: [], waiting: 0, nextOffset: null });
        if (url === '/api/schedule') return Response.json({ timeZone: 'UTC', now: '2026-11-30T12:00', mayPublish: true, scheduled: [] });
        if (url === '/api/publish-status') return Response.json({ history: [], running: [] });
        return Response.json(url === '/api/changes' ? current.changes : {});
      }),
    );
    render(panel());
    const held = await screen.findByRole('region', { name: 'Not published from here' });
    expect(held.textContent).toContain('Home, changed by maria@example.com');
    // The file held is not the one shown above it, so the sentence names it as another.
    expect(held.textContent).toContain('One other file holds changes by others. This publish leaves them out;');
    expect(screen.getByText(/^One file changes once published\./)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Publish' }));

    expect((await screen.findByRole('alert')).textContent).toContain('About changed since you opened the publish screen');
    expect(posted).toEqual([{ url: '/api/publish', body: { files: [{ path: 'content/pages/about.yaml', fingerprint: 'f-About' }] } }]);
    await screen.findByRole('heading', { name: /About, saved since/ });
  });
});
