// @vitest-environment happy-dom
// The reviewer's screen: each waiting request with the editor's note (as text); its changes in the
// form's words and the preview of its page, read when it is opened (the newest at once); sending it back needs a comment;
// approving publishes it, now or at a set time.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublishRunView, ReviewRequestDetail, ReviewRequestView, ReviewsAnswer } from '../api.ts';
import { RUN_POLL_MS } from '../publish/follow-run.ts';
import { FormModelProvider } from '../changes/form-model-context.ts';
import { siteFormModel } from '../../testing/site-model.ts';
import { ReviewScreen } from './ReviewScreen.tsx';

// The real preview draws the page in a frame; here it says what it was given.
vi.mock('../PreviewPane.tsx', () => ({
  PreviewPane: ({ target }: { target: unknown }) => <p data-testid="preview">{JSON.stringify(target)}</p>,
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const REQUEST: ReviewRequestDetail = {
  id: 'r1',
  status: 'waiting',
  note: 'Spring <script>alert(1)</script>',
  requestedBy: 'maria@example.com',
  requestedAt: '2026-11-30T10:00:00.000Z',
  files: [
    {
      path: 'content/pages/home.yaml',
      title: 'Home',
      kind: 'page',
      name: 'home',
      change: 'changed',
      changedBy: ['maria@example.com', 'li@example.com'],
      hunks: [{ lines: [{ kind: 'added', text: '    heading: Spring is here' }] }] as ReviewRequestDetail['files'][number]['hunks'],
      data: { path: '/', title: 'Home', blocks: [{ type: 'hero', heading: 'Spring is here' }] },
      before: { path: '/', title: 'Home', blocks: [{ type: 'hero', heading: 'Winter is here' }] },
    },
  ],
};

/** An older request, listed after the newest: its changes are read only when it is opened. */
const OLDER: ReviewRequestDetail = {
  ...REQUEST,
  id: 'r0',
  note: '',
  files: [{ ...REQUEST.files[0]!, path: 'content/pages/pricing.yaml', title: 'Pricing', name: 'pricing', data: null }],
};

/** A request as the list answers it: no texts. */
const listed = ({ files, ...request }: ReviewRequestDetail): ReviewRequestView => ({
  ...request,
  files: files.map(({ path, title, change, changedBy }) => ({ path, title, change, ...(changedBy ? { changedBy } : {}) })),
});

/** The requests whose changes the screen read, in order. */
let opened: string[] = [];

function server(answers: Record<string, { status: number; body: unknown }> = {}, shown = [REQUEST]) {
  const posted: { url: string; body: unknown }[] = [];
  opened = [];
  let requests = shown;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (init.method === 'POST') {
        posted.push({ url, body: JSON.parse(String(init.body)) as unknown });
        const answer = answers[url] ?? { status: 200, body: {} };
        if (answer.status === 200) requests = [];
        return Response.json(answer.body, { status: answer.status });
      }
      const answer = answers[url];
      if (answer) return Response.json(answer.body, { status: answer.status });
      if (url === '/api/reviews')
        return Response.json({
          required: true,
          mayPublish: true,
          mayReview: true,
          requests: requests.map(listed),
          waiting: requests.length,
          nextOffset: null,
        } satisfies ReviewsAnswer);
      if (url.startsWith('/api/reviews/request?id=')) {
        const id = url.slice('/api/reviews/request?id='.length);
        opened.push(id);
        return Response.json({ request: requests.find((request) => request.id === id) });
      }
      return Response.json({ timeZone: 'Europe/Berlin', now: '2026-11-30T13:00', mayPublish: true, scheduled: [] });
    }),
  );
  return posted;
}

describe('the review screen', () => {
  it('shows the request with its note as text, the diff and the preview of the page', async () => {
    server();
    const { container } = render(
      <FormModelProvider value={siteFormModel()}>
        <ReviewScreen onDone={() => {}} />
      </FormModelProvider>,
    );
    const card = await screen.findByRole('article', { name: 'Home' });
    expect(within(card).getByText('Asked for by maria@example.com', { exact: false })).toBeTruthy();
    expect(within(card).getByLabelText('Note from the editor').textContent).toBe('Spring <script>alert(1)</script>');
    expect(container.querySelector('script')).toBeNull();
    // The change in the form's words; the file's lines one click away.
    expect(await within(card).findByText('Home › Hero › Heading')).toBeTruthy();
    expect(within(card).getByText('Show the file’s lines')).toBeTruthy();
    expect(card.querySelector('del')!.textContent).toContain('Winter');
    expect(card.querySelector('ins')!.textContent).toContain('Spring');
    // Whose changes the approval would carry.
    expect(within(card).getByText('Changed by maria@example.com, li@example.com')).toBeTruthy();
    expect(screen.getByTestId('preview').textContent).toContain('"kind":"page"');
    expect(screen.getByTestId('preview').textContent).toContain('Spring is here');
    // The decision follows the changes, before the preview: on a phone it is reached without passing the whole page.
    const approve = within(card).getByRole('button', { name: 'Approve and publish' });
    expect(approve.compareDocumentPosition(screen.getByTestId('preview')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('sends it back only with a comment', async () => {
    const posted = server();
    const onDone = vi.fn();
    render(<ReviewScreen onDone={onDone} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Send back with comment' }));
    expect(screen.getByText('Write a comment saying what to change.')).toBeTruthy();
    expect(posted).toEqual([]);
    fireEvent.change(screen.getByLabelText('Comment for maria@example.com'), { target: { value: 'Name the year.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send back with comment' }));
    await screen.findByText('Sent back to maria@example.com with your comment.');
    expect(posted).toEqual([{ url: '/api/reviews/send-back', body: { id: 'r1', comment: 'Name the year.' } }]);
    expect(screen.getByText('No changes are waiting for review.')).toBeTruthy();
    expect(onDone).toHaveBeenCalled();
  });

  it('approves and publishes it, showing each step as the studio goes through it, and says why when publishing is refused', async () => {
    const running: PublishRunView = {
      id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
      action: 'publish',
      user: 'ana@example.com',
      startedAt: '2026-11-30T13:00:00.000Z',
      done: false,
      steps: [
        { key: 'checking', label: 'Checking the content', state: 'now' },
        { key: 'building', label: 'Building the site', state: 'next' },
      ],
    };
    const posted = server({
      '/api/reviews/approve': { status: 202, body: { run: running } },
      [`/api/publish-runs/${running.id}`]: {
        status: 200,
        body: {
          run: {
            ...running,
            done: true,
            steps: [{ ...running.steps[0]!, state: 'stopped' }],
            answer: {
              ok: false,
              reason: 'conflict',
              message: 'content/pages/home.yaml changed on disk since it was opened in the studio.',
            },
          },
        },
      },
    });
    render(<ReviewScreen onDone={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve and publish' }));
    const progress = await screen.findByRole('status', { name: 'Publish progress' });
    expect(progress.textContent).toContain('Publishing the approved changes…');
    expect(progress.querySelector('[aria-current="step"]')?.textContent).toContain('Checking the content');
    expect(screen.getByRole('button', { name: 'Approve and publish' })).toHaveProperty('disabled', true);
    expect((await screen.findByRole('alert', undefined, { timeout: RUN_POLL_MS * 4 })).textContent).toContain('changed on disk');
    expect(screen.queryByRole('status', { name: 'Publish progress' })).toBeNull();
    expect(posted).toEqual([{ url: '/api/reviews/approve', body: { id: 'r1' } }]);
  });

  it('says at once why an approval cannot start', async () => {
    server({ '/api/reviews/approve': { status: 409, body: { message: 'That review request is being published right now.' } } });
    render(<ReviewScreen onDone={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve and publish' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That review request is being published right now.');
  });

  it('approves it for a later time', async () => {
    const posted = server({
      '/api/reviews/approve': { status: 200, body: { scheduled: { when: 'Tue 1 Dec, 09:00 (Europe/Berlin)' } } },
    });
    render(<ReviewScreen onDone={() => {}} />);
    await screen.findByText('Time in Europe/Berlin, the site’s time zone.');
    fireEvent.change(screen.getByLabelText('Publish at'), { target: { value: '2026-12-01T09:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Approve and publish at this time' }));
    await screen.findByText('Approved. Scheduled: Home — Tue 1 Dec, 09:00 (Europe/Berlin).');
    await waitFor(() => expect(posted).toEqual([{ url: '/api/reviews/approve', body: { id: 'r1', at: '2026-12-01T09:00' } }]));
  });

  it('reads an older request’s changes only when it is opened, and offers its decisions with them', async () => {
    server({}, [REQUEST, OLDER]);
    render(<ReviewScreen onDone={() => {}} />);
    const older = await screen.findByRole('article', { name: 'Pricing' });
    await screen.findByText('heading: Spring is here', { exact: false });
    expect(opened).toEqual(['r1']);
    expect(within(older).queryByRole('button', { name: 'Approve and publish' })).toBeNull();
    fireEvent.click(within(older).getByRole('button', { name: 'Show the changes to Pricing' }));
    await within(older).findByRole('button', { name: 'Approve and publish' });
    expect(opened).toEqual(['r1', 'r0']);
  });

  it('opens the request a link named first, instead of the newest', async () => {
    server({}, [REQUEST, OLDER]);
    render(<ReviewScreen onDone={() => {}} openId="r0" />);
    const older = await screen.findByRole('article', { name: 'Pricing' });
    await within(older).findByRole('button', { name: 'Approve and publish' });
    expect(opened).toEqual(['r0']);
    expect(screen.getAllByRole('article').map((article) => article.querySelector('h2')?.textContent)).toEqual(['Pricing', 'Home']);
  });

  it('says so when the request a link named waits no more, and opens the newest', async () => {
    server({}, [REQUEST]);
    render(<ReviewScreen onDone={() => {}} openId="decided-since" />);
    expect(
      await screen.findByText(
        'The request you followed a link to is no longer waiting: another admin has decided it, or the editor asked again.',
      ),
    ).toBeTruthy();
    await screen.findByText('heading: Spring is here', { exact: false });
    // It looked for the named one (decided: not found), then opened the newest.
    expect(opened).toEqual(['decided-since', 'r1']);
  });

  it('opens the request a link named even when it is not on the first page', async () => {
    server({}, [REQUEST]);
    const fetched = vi.mocked(fetch);
    const list = fetched.getMockImplementation()!;
    fetched.mockImplementation(async (url, init) =>
      String(url) === '/api/reviews/request?id=r0' ? Response.json({ request: OLDER }) : list(url, init),
    );
    render(<ReviewScreen onDone={() => {}} openId="r0" />);
    const older = await screen.findByRole('article', { name: 'Pricing' });
    await within(older).findByRole('button', { name: 'Approve and publish' });
    expect(screen.getAllByRole('article').map((article) => article.querySelector('h2')?.textContent)).toEqual(['Pricing', 'Home']);
    expect(screen.queryByText(/no longer waiting/)).toBeNull();
  });
});
