// @vitest-environment happy-dom
// Beside a draft: the reviewer's comment on the request that covers it, as text, or that it waits for review.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReviewFeedback as Feedback } from '../api.ts';
import { ReviewFeedback } from './ReviewFeedback.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function server(answer: Feedback) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      return Response.json(answer);
    }),
  );
  return asked;
}

describe('review feedback beside a draft', () => {
  it('shows the comment of a request sent back, as text', async () => {
    const asked = server({
      feedback: {
        id: 'r1',
        status: 'sent-back',
        requestedBy: 'maria@example.com',
        requestedAt: '2026-11-30T10:00:00.000Z',
        comment: '<img src=x onerror=alert(1)> Name the year.',
        decidedBy: 'ana@example.com',
        decidedAt: '2026-11-30T11:00:00.000Z',
      },
    });
    const { container } = render(<ReviewFeedback path="content/pages/home.yaml" />);
    const note = await screen.findByRole('note', { name: 'Review comment' });
    expect(note.textContent).toContain('Sent back by ana@example.com');
    expect(note.textContent).toContain('<img src=x onerror=alert(1)> Name the year.');
    expect(container.querySelector('img')).toBeNull();
    expect(asked).toEqual(['/api/reviews/feedback?path=content%2Fpages%2Fhome.yaml']);
  });

  it('says a draft waits for review, and nothing when there is no request', async () => {
    server({ feedback: { id: 'r1', status: 'waiting', requestedBy: 'maria@example.com', requestedAt: '2026-11-30T10:00:00.000Z' } });
    render(<ReviewFeedback path="content/pages/home.yaml" />);
    expect((await screen.findByRole('note')).textContent).toContain('Waiting for review: maria@example.com asked');
    cleanup();
    server({ feedback: null });
    const { container } = render(<ReviewFeedback path="content/pages/home.yaml" />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container.textContent).toBe('');
  });
});
