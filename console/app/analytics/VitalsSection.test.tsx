// @vitest-environment happy-dom
// Page speed for real visitors against a stand-in for the console's API: the figures for the days and
// page it is given, worded for an owner with Google's rating, a page under the minimum saying it has
// not enough visits measured yet, asking again for other days, and the server's sentence on failure.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VitalsReport } from '../../api-types.ts';
import { ConsoleApi } from '../api.ts';
import { SessionProvider } from '../session.tsx';
import { sessionFor, stubConsoleServer, type Answer } from '../testing/console-server.tsx';
import { VitalsSection } from './VitalsSection.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const REPORT: VitalsReport = {
  minSamples: 30,
  routes: [
    {
      path: '/pricing',
      measured: 64,
      figures: [
        { metric: 'LCP', p75: 2_140, samples: 64, rating: 'good' },
        { metric: 'CLS', p75: 0.31, samples: 61, rating: 'poor' },
      ],
    },
    { path: '/blog/what-is-ai-consulting', measured: 12, figures: [] },
  ],
};

function show(props: Parameters<typeof VitalsSection>[0], answer: Answer = { body: REPORT }) {
  const server = stubConsoleServer({ 'GET /analytics/vitals': answer });
  const session = { info: sessionFor('viewer'), api: new ConsoleApi(), can: () => true, signOut: async () => undefined };
  const element = (next: Parameters<typeof VitalsSection>[0]) => (
    <SessionProvider value={session}>
      <VitalsSection {...next} />
    </SessionProvider>
  );
  const rendered = render(element(props));
  return { server, rerender: (next: Parameters<typeof VitalsSection>[0]) => rendered.rerender(element(next)) };
}

const definitions = (block: HTMLElement) =>
  within(block)
    .getAllByRole('term')
    .map((term) => [term.textContent, term.nextElementSibling?.textContent]);

describe('page speed for real visitors', () => {
  it('shows each page’s figures for the days given, in words an owner reads, and how many visits a page still needs', async () => {
    const { server } = show({ range: { from: '2026-11-01', to: '2026-11-27' } });
    const pricing = (await screen.findByRole('heading', { level: 3, name: '/pricing' })).parentElement!;
    expect(Object.fromEntries(server.made('GET /analytics/vitals')[0]!.query)).toEqual({ from: '2026-11-01', to: '2026-11-27' });

    const section = screen.getByRole('region', { name: 'Page speed for real visitors' });
    expect(section.textContent).toContain(
      'Largest Contentful Paint — how long the main content takes to appear. Good at 2.5 s or less, poor over 4.0 s.',
    );
    expect(section.textContent).toContain(
      'Interaction to Next Paint — how quickly the page answers a tap, click or key press. Good at 200 ms or less',
    );
    expect(section.textContent).toContain('Cumulative Layout Shift — how much the page jumps around while it loads. Good at 0.10 or less');
    expect(section.textContent).toContain('A page is shown once it has 30 visits measured in these days');

    expect(definitions(pricing)).toEqual([
      ['Largest Contentful Paint', '2.1 s Good64 visits measured'],
      ['Interaction to Next Paint', 'Not enough visits measured yet.'],
      ['Cumulative Layout Shift', '0.31 Poor61 visits measured'],
    ]);
    const article = screen.getByRole('heading', { level: 3, name: '/blog/what-is-ai-consulting' }).parentElement!;
    expect(article.textContent).toContain('Not enough visits measured yet: 12 of 30.');
    expect(within(article).queryByRole('term')).toBeNull();
  });

  it('asks again for other days or one page, and says when nothing was measured', async () => {
    const { server, rerender } = show({ range: { from: '2026-11-01', to: '2026-11-27' } });
    await screen.findByRole('heading', { level: 3, name: '/pricing' });
    rerender({ range: { from: '2026-10-01', to: '2026-10-31' }, page: '/pricing' });
    await vi.waitFor(() => expect(server.made('GET /analytics/vitals')).toHaveLength(2));
    expect(Object.fromEntries(server.made('GET /analytics/vitals')[1]!.query)).toEqual({
      from: '2026-10-01',
      to: '2026-10-31',
      page: '/pricing',
    });

    cleanup();
    vi.unstubAllGlobals();
    show({ range: { from: '2026-11-01', to: '2026-11-27' }, page: '/about' }, { body: { minSamples: 30, routes: [] } });
    expect(await screen.findByText('No visit to /about was measured in these days.')).toBeTruthy();
  });

  it('says what the server said when the figures cannot be had', async () => {
    show(
      { range: { from: '2026-11-01', to: '2026-11-27' } },
      { status: 503, body: { error: 'unavailable', message: 'The visit reports are briefly unavailable: try again in a moment.' } },
    );
    expect((await screen.findByRole('alert')).textContent).toBe('The visit reports are briefly unavailable: try again in a moment.');
  });
});
