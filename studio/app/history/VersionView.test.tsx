// @vitest-environment happy-dom
// "This page as it was": the version drawn read-only in the preview frame, what it changed in the
// form's words, the lines against today one click away,
// and Restore, asked first (saying that a draft stays, or that the page will be deleted), sent with
// the live version the person compared with, and answered in words.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageVersion, PublishAnswer } from '../api.ts';
import { FormModelProvider } from '../changes/form-model-context.ts';
import { siteFormModel } from '../../testing/site-model.ts';
import { VersionView } from './VersionView.tsx';

const realConfirm = window.confirm;
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.confirm = realConfirm;
});

/** The person's answer to the question the studio asks before restoring. */
function answer(yes: boolean) {
  const confirm = vi.fn((_question?: string) => yes);
  window.confirm = confirm;
  return confirm;
}

const COMMIT = 'a'.repeat(40);
const HOME = 'content/pages/home.yaml';

const HOME_VERSION: PageVersion = {
  version: {
    id: COMMIT,
    action: 'publish',
    user: 'maria@example.com',
    at: '2026-03-02T14:05:00.000Z',
    subject: 'Publish Home',
    commit: COMMIT,
    files: [{ path: HOME, name: 'Home', change: 'changed' }],
  },
  path: HOME,
  kind: 'page',
  fileName: 'home',
  name: 'Home',
  text: 'path: /\nblocks:\n  - type: hero\n    heading: First spring\n',
  data: { path: '/', blocks: [{ type: 'hero', heading: 'First spring' }] },
  previousData: { path: '/', blocks: [{ type: 'hero', heading: 'Last winter' }] },
  hunks: [
    {
      lines: [
        { kind: 'same', text: '  - type: hero', oldLine: 3, newLine: 3 },
        { kind: 'removed', text: '    heading: Third spring', oldLine: 4 },
        { kind: 'added', text: '    heading: First spring', newLine: 4 },
      ],
    },
  ],
  liveVersion: 'live-3',
  same: false,
  hasDraft: false,
};

/** The studio server: the version as `versions` holds it (one answer per read), and how a restore is answered. */
function server(versions: PageVersion[], restore: { status: number; body: unknown } = { status: 200, body: {} }) {
  const requests: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      requests.push({ method, url, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
      if (url.startsWith('/api/history/version')) return Response.json(versions.length > 1 ? versions.shift() : versions[0]);
      if (url === '/api/history/restore') return Response.json(restore.body, { status: restore.status });
      // The preview's site settings: not needed to check what the view says.
      return Response.json({ message: 'Not here' }, { status: 404 });
    }),
  );
  return requests;
}

function show(onRestored = vi.fn(async () => {})) {
  const onBack = vi.fn();
  render(
    <FormModelProvider value={siteFormModel()}>
      <VersionView version={COMMIT} path={HOME} backLabel="Back to the history" onBack={onBack} onEdit={() => {}} onRestored={onRestored} />
    </FormModelProvider>,
  );
  return { onBack, onRestored };
}

const RESTORED: PublishAnswer = {
  ok: true,
  record: {
    id: 'r',
    action: 'restore',
    user: 'li',
    at: '2026-03-03T10:00:00.000Z',
    files: [{ path: HOME, title: 'Home', change: 'changed' }],
    ms: 2400,
  },
};

describe('a page as it was', () => {
  it('draws the version read-only beside the diff with today, and restores it once confirmed', async () => {
    const run = { id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427', action: 'restore', user: 'li', startedAt: '', steps: [] };
    const requests = server([HOME_VERSION, { ...HOME_VERSION, same: true, hunks: [] }], {
      status: 202,
      body: { run: { ...run, done: true, answer: RESTORED } },
    });
    const { onRestored } = show();

    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toMatch(/^Home as published on /);
    expect(screen.getByText(/Published by maria@example\.com/).textContent).toContain('commit aaaaaaa');
    // What the version changed, in the form's words; the lines a restore changes one click away.
    expect(screen.getByText('Hero › Heading')).toBeTruthy();
    expect(document.querySelector('del')!.textContent).toContain('Last winter');
    expect(document.querySelector('ins')!.textContent).toContain('First spring');
    expect(document.querySelector('details')!.open).toBe(false);
    expect([...document.querySelectorAll('[data-diff]')].map((line) => [line.getAttribute('data-diff'), line.textContent])).toEqual([
      ['same', '    - type: hero'],
      ['removed', '− Removed:     heading: Third spring'],
      ['added', '+ Added:     heading: First spring'],
    ]);
    expect(screen.getByTitle('Preview of this version').tagName).toBe('IFRAME');
    expect(screen.getByText(/Drawn with today’s site settings/)).toBeTruthy();
    expect(screen.queryByText(/unpublished changes/)).toBeNull();

    const confirm = answer(true);
    fireEvent.click(screen.getByRole('button', { name: 'Restore this version' }));
    expect(confirm.mock.calls[0]![0]).toMatch(
      /^Restore “Home” as it was published on .*\? This makes a new publish: every later version stays/,
    );
    expect((await screen.findByText(/^Restored: Home is live again/)).textContent).toContain('live in 2.4 s');
    expect(requests.find((request) => request.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/history/restore',
      body: { version: COMMIT, path: HOME, liveVersion: 'live-3' },
    });
    expect(onRestored).toHaveBeenCalled();
    // Read again: the version is now what the site has.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Restore this version' })).toHaveProperty('disabled', true));
    expect(screen.getByText(/This version is the same as the page today/)).toBeTruthy();
  });

  it('says a draft stays, and sends nothing when the person says no', async () => {
    const requests = server([{ ...HOME_VERSION, hasDraft: true }]);
    show();
    expect(await screen.findByText(/This page has unpublished changes\. A restore leaves them as a draft/)).toBeTruthy();
    const confirm = answer(false);
    fireEvent.click(screen.getByRole('button', { name: 'Restore this version' }));
    expect(confirm.mock.calls[0]![0]).toContain('The page’s unpublished changes stay as a draft');
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('offers to delete a page that did not exist in the version, and shows why a restore was refused', async () => {
    server([{ ...HOME_VERSION, text: null, data: null }], {
      status: 409,
      body: { message: 'Home was published again since you opened this version: look at the comparison again, then restore.' },
    });
    show();
    expect(await screen.findByText('The page did not exist in this version: restoring it deletes the page.')).toBeTruthy();
    expect(screen.queryByTitle('Preview of this version')).toBeNull();
    const confirm = answer(true);
    fireEvent.click(screen.getByRole('button', { name: 'Restore this version (delete the page)' }));
    expect(confirm.mock.calls[0]![0]).toMatch(/^Restore this version by deleting “Home”\? It did not exist then\./);
    expect((await screen.findByRole('alert')).textContent).toContain('Home was published again since you opened this version');
  });

  it('says why a version cannot be shown, with the way back', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ message: 'Version aaaaaaa is not in the site’s history.' }, { status: 404 })),
    );
    const { onBack } = show();
    expect((await screen.findByRole('alert')).textContent).toContain('is not in the site’s history');
    fireEvent.click(screen.getByRole('button', { name: 'Back to the history' }));
    expect(onBack).toHaveBeenCalled();
  });
});
