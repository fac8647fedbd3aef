// @vitest-environment happy-dom
// The publish screen's actions as each person may use them: an editor whose changes need review has
// "Ask for review" (with a note) instead of Publish and sees the reviewer's comment as text; someone
// who may publish can publish now or schedule it in the site's time zone, and sees what is scheduled.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReviewsAnswer, ScheduleAnswer, ScheduledView } from '../api.ts';
import { PublishChoice } from './PublishChoice.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SCHEDULED: ScheduledView = {
  id: 's1',
  at: '2026-12-01T08:00:00.000Z',
  when: 'Tue 1 Dec, 09:00 (Europe/Berlin)',
  scheduledBy: 'maria@example.com',
  status: 'waiting',
  files: [
    { path: 'content/pages/home.yaml', title: 'Home' },
    { path: 'content/pages/pricing.yaml', title: 'Pricing' },
  ],
  seen: false,
  mayCancel: true,
};

function server(reviews: ReviewsAnswer, schedule: Partial<ScheduleAnswer> = {}) {
  const posted: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (init.method === 'POST') {
        const body = JSON.parse(String(init.body)) as unknown;
        posted.push({ url, body });
        if (url === '/api/schedule') return Response.json({ scheduled: SCHEDULED });
        return Response.json({ request: {} });
      }
      if (url === '/api/reviews') return Response.json(reviews);
      return Response.json({
        timeZone: 'Europe/Berlin',
        now: '2026-11-30T13:00',
        mayPublish: reviews.mayPublish,
        scheduled: [],
        ...schedule,
      });
    }),
  );
  return posted;
}

/** The changes the publish screen shows: a publish at a set time carries exactly these. */
const SEEN = [
  { path: 'content/pages/home.yaml', fingerprint: 'f-home' },
  { path: 'content/pages/pricing.yaml', fingerprint: 'f-pricing' },
];

const choice = (onPublish = vi.fn()) => (
  <PublishChoice publishable busy={false} seen={SEEN} onPublish={onPublish} onChanged={() => {}}>
    <button type="button">Undo last publish</button>
  </PublishChoice>
);

describe('an editor whose changes need review', () => {
  it('asks for review with a note instead of publishing', async () => {
    const posted = server({ required: true, mayPublish: false, mayReview: false, requests: [], waiting: 0, nextOffset: null });
    render(choice());
    const ask = await screen.findByRole('button', { name: 'Ask for review' });
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Undo last publish' })).toBeNull();
    expect(screen.queryByLabelText('Publish at')).toBeNull();
    fireEvent.change(screen.getByLabelText('Note for the reviewer (optional)'), { target: { value: 'New spring headline' } });
    fireEvent.click(ask);
    await screen.findByText('Asked for review: an admin will publish your changes or send them back with a comment.');
    expect(posted).toEqual([{ url: '/api/reviews', body: { note: 'New spring headline' } }]);
  });

  it('shows the reviewer’s comment on a request sent back as text, markup and all', async () => {
    server({
      required: true,
      mayPublish: false,
      mayReview: false,
      requests: [
        {
          id: 'r1',
          status: 'sent-back',
          note: '',
          requestedBy: 'maria@example.com',
          requestedAt: '2026-11-30T10:00:00.000Z',
          comment: 'Name the year <script>alert(1)</script><b>now</b>',
          decidedBy: 'ana@example.com',
          decidedAt: '2026-11-30T11:00:00.000Z',
          files: [],
        },
      ],
      waiting: 0,
      nextOffset: null,
    });
    const { container } = render(choice());
    const note = await screen.findByRole('note', { name: 'Review comment' });
    expect(note.textContent).toContain('Sent back by ana@example.com');
    expect(note.textContent).toContain('Name the year <script>alert(1)</script><b>now</b>');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
  });
});

describe('someone who may publish', () => {
  it('publishes now, or schedules in the site’s time zone and lists what is scheduled', async () => {
    const onPublish = vi.fn();
    const posted = server(
      { required: false, mayPublish: true, mayReview: false, requests: [], waiting: 0, nextOffset: null },
      { scheduled: [SCHEDULED] },
    );
    render(choice(onPublish));
    fireEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    expect(onPublish).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Undo last publish' })).toBeTruthy();
    await screen.findByText('Time in Europe/Berlin, the site’s time zone.');
    expect(await screen.findByText(/Scheduled: Home, Pricing — Tue 1 Dec, 09:00 \(Europe\/Berlin\) by maria@example.com/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Schedule publish' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose the date and time to publish at.');
    fireEvent.change(screen.getByLabelText('Publish at'), { target: { value: '2026-12-01T09:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule publish' }));
    await screen.findByText('Scheduled: Home, Pricing — Tue 1 Dec, 09:00 (Europe/Berlin).');
    expect(posted).toEqual([{ url: '/api/schedule', body: { at: '2026-12-01T09:00', files: SEEN } }]);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel the publish of Home, Pricing at Tue 1 Dec, 09:00 (Europe/Berlin)' }));
    await waitFor(() => expect(posted.at(-1)).toEqual({ url: '/api/schedule/cancel', body: { id: 's1' } }));
  });
});
