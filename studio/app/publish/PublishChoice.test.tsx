// @vitest-environment happy-dom
// The publish screen's actions as each person may use them: an editor whose changes need review has
// "Ask for review" (with a note) instead of Publish and sees the reviewer's comment as text; someone
// who may publish can publish now or schedule it in the team's time zone, and sees what failed.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReviewsAnswer, ScheduleAnswer, ScheduledView } from '../api.ts';
import { momentInZoneWords } from '../../time-words.ts';
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
  it('publishes now, or schedules in the team’s time zone, naming it and saying the chosen moment back before it is confirmed', async () => {
    const onPublish = vi.fn();
    const failed: ScheduledView = { ...SCHEDULED, id: 's2', status: 'failed', message: 'The site could not be built.', mayCancel: false };
    const posted = server(
      { required: false, mayPublish: true, mayReview: false, requests: [], waiting: 0, nextOffset: null },
      { scheduled: [SCHEDULED, failed] },
    );
    render(choice(onPublish));
    fireEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    expect(onPublish).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Undo last publish' })).toBeTruthy();
    await screen.findByText('Times are Berlin time (Europe/Berlin).');
    // A waiting publish is shown with the changes it carries (ScheduledChanges), a failed one here.
    expect(screen.queryByRole('button', { name: /^Cancel/ })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Scheduled publishes that failed' })).toBeTruthy();
    expect(
      screen.getByText(/^Home and Pricing — Tue 1 Dec, 09:00 \(Europe\/Berlin\), scheduled by Maria: nothing was published\./),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Schedule publish' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose the date and time to publish at.');
    const field = screen.getByLabelText('Publish at');
    fireEvent.change(field, { target: { value: '2026-12-01T09:00' } });
    // 09:00 in Berlin, worded as the schedule list words it, and read with the field.
    const chosen = `Goes live ${momentInZoneWords('2026-12-01T08:00:00.000Z', { timeZone: 'Europe/Berlin', language: navigator.language })}.`;
    expect(screen.getByText(chosen)).toBeTruthy();
    expect(field.getAttribute('aria-describedby')).toMatch(/-chosen/);
    fireEvent.click(screen.getByRole('button', { name: 'Schedule publish' }));
    await screen.findByText('Scheduled: Home and Pricing — Tue 1 Dec, 09:00 (Europe/Berlin).');
    expect(posted).toEqual([{ url: '/api/schedule', body: { at: '2026-12-01T09:00', files: SEEN } }]);
  });
});
