// @vitest-environment happy-dom
// The file editor against a stand-in for the studio server (fetch answered by the test): an edit is
// saved as a draft once typing pauses; a failed save keeps the text in the form and says why; a
// conflict offers its choices; the browser asks before leaving an edit unsaved. The ROI numbers are
// edited here because their side panel is worked out in the page, with no preview frame to load.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OpenedFile } from '../api.ts';
import type { FormModel } from '../fields/form-model.ts';
import { EMPTY_MODEL } from '../testing/render-field.tsx';
import { FileEditor } from './FileEditor.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const model: FormModel = {
  ...EMPTY_MODEL,
  roi: {
    key: '',
    label: 'ROI',
    required: true,
    kind: 'object',
    fields: [{ key: 'investmentUsd', label: 'Investment (USD)', required: true, kind: 'number' }],
  },
};

const ROI: OpenedFile = {
  path: 'content/roi.yaml',
  kind: 'roi',
  name: 'roi',
  data: { investmentUsd: 5000 },
  deleted: false,
  isNew: false,
  edited: false,
  revision: 3,
  diskVersion: 'disk-1',
  issues: [],
};

type Answer = { status: number; body: unknown };

/**
 * How long a save may take to be answered: the pause after typing (400 ms) and the stand-in server's
 * answer, with room for a machine busy running every other test file at once.
 */
const SAVE_ANSWERED = { timeout: 5_000 };

/** The studio server as the editor sees it: the file to open, and how each save is answered. */
function server(saves: Answer[]) {
  const requests: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      requests.push({ method, url, body });
      const answer: Answer =
        method === 'GET' && url.startsWith('/api/file')
          ? { status: 200, body: ROI }
          : method === 'PUT' && url === '/api/file'
            ? (saves.shift() ?? { status: 500, body: { message: 'No answer left in the test.' } })
            : { status: 200, body: { path: ROI.path } };
      return Response.json(answer.body, { status: answer.status });
    }),
  );
  return { saves: () => requests.filter((request) => request.method === 'PUT'), requests };
}

async function openEditor() {
  const onChanged = vi.fn();
  render(<FileEditor path={ROI.path} model={model} onChanged={onChanged} onOpen={vi.fn()} />);
  await screen.findByText('No unpublished changes');
  return { onChanged, field: screen.getByLabelText(/^Investment/) as HTMLInputElement };
}

function leavingAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('the file editor', () => {
  it('opens the file as a form under its title', async () => {
    server([]);
    const { field } = await openEditor();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('ROI calculator numbers');
    expect(field.value).toBe('5000');
  });

  it('saves an edit as a draft once typing pauses, and says so', async () => {
    const studio = server([{ status: 200, body: { revision: 4, edited: true, issues: [] } }]);
    const { field, onChanged } = await openEditor();
    fireEvent.change(field, { target: { value: '6000' } });
    expect(screen.getByText('Editing…').getAttribute('role')).toBe('status');
    expect(studio.saves()).toEqual([]);
    await screen.findByText('Draft saved', undefined, SAVE_ANSWERED);
    expect(studio.saves()).toEqual([
      { method: 'PUT', url: '/api/file', body: { path: ROI.path, data: { investmentUsd: 6000 }, revision: 3, diskVersion: 'disk-1' } },
    ]);
    expect(onChanged).toHaveBeenCalled();
    expect(screen.getByText('Unpublished changes')).toBeTruthy();
  });

  it('keeps the text in the form when a save fails, and says why and what happens next', async () => {
    server([{ status: 500, body: { message: 'The disk is full.' } }]);
    const { field } = await openEditor();
    fireEvent.change(field, { target: { value: '6000' } });
    const alert = await screen.findByRole('alert', undefined, SAVE_ANSWERED);
    expect(alert.textContent).toBe('The disk is full. Your changes are still in this tab; they are saved again with your next edit.');
    expect(field.value).toBe('6000');
    // Closing the tab now would lose it.
    expect(leavingAsks()).toBe(true);
  });

  it('shows a conflict with its choices; keeping my version sends the text in the form', async () => {
    const studio = server([{ status: 409, body: { message: 'content/roi.yaml changed on disk.', reason: 'disk-changed' } }]);
    const { field } = await openEditor();
    fireEvent.change(field, { target: { value: '7000' } });
    const banner = await screen.findByRole('alert', undefined, SAVE_ANSWERED);
    expect(banner.textContent).toContain('content/roi.yaml changed on disk. Your edits were not saved over it.');
    expect(within(banner).getByRole('button', { name: 'Reload the new version (drop my edits)' })).toBeTruthy();
    fireEvent.click(within(banner).getByRole('button', { name: 'Keep my version on top of the new one' }));
    await waitFor(() =>
      expect(studio.requests.find((request) => request.url === '/api/keep-both')?.body).toEqual({
        path: ROI.path,
        data: { investmentUsd: 7000 },
        revision: 3,
      }),
    );
  });

  it('has the browser ask before the page is left with an edit not yet saved', async () => {
    server([{ status: 200, body: { revision: 4, edited: true, issues: [] } }]);
    const { field } = await openEditor();
    expect(leavingAsks()).toBe(false);
    fireEvent.change(field, { target: { value: '6000' } });
    expect(leavingAsks()).toBe(true);
    await screen.findByText('Draft saved', undefined, SAVE_ANSWERED);
    // React takes the question away in an effect run just after it shows "Draft saved", not with it.
    await waitFor(() => expect(leavingAsks()).toBe(false));
  });
});
