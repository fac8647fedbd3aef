// @vitest-environment happy-dom
// Speed to lead against a stand-in for the console's API: the key figures for a range kept in the
// address, the tables by owner, form and campaign with their CSV downloads, the sentence saying
// business hours are counted, and the loading, empty and error states.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DayRange, Role, SpeedFigures, SpeedReport } from '../../api-types.ts';
import { renderConsole, sessionFor, stubConsoleServer, type Answer, type Handler } from '../testing/console-server.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const figures = (overrides: Partial<SpeedFigures> = {}): SpeedFigures => ({
  leads: 40,
  reached: 36,
  medianMinutes: 4,
  p90Minutes: 95,
  within5Minutes: 0.55,
  within1Hour: 0.8,
  neverReached: 0.1,
  ...overrides,
});

function report(range: DayRange, overrides: Partial<SpeedReport> = {}): SpeedReport {
  return {
    range,
    businessHours:
      'Times count business hours only (Mon-Fri 9:00 AM-6:00 PM, New York time): a lead sent while closed starts waiting at the next opening.',
    overall: figures(),
    byOwner: [
      { ...figures({ leads: 25, medianMinutes: 3 }), key: '7', label: 'sam@example.com' },
      {
        ...figures({ leads: 15, medianMinutes: null, p90Minutes: null, reached: 0, within5Minutes: 0, within1Hour: 0, neverReached: 1 }),
        key: '8',
        label: 'ana@example.com',
      },
    ],
    byForm: [{ ...figures(), key: 'Contact Page Form', label: 'Contact Page Form' }],
    byCampaign: [],
    ...overrides,
  };
}

function speed(address: string, routes: Record<string, Handler | Answer> = {}, role: Role = 'viewer') {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor(role) },
    'GET /speed': (request) =>
      ({ body: report({ from: request.query.get('from') ?? '2025-02-01', to: request.query.get('to') ?? '2025-03-02' }) }) satisfies Answer,
    ...routes,
  });
  const app = renderConsole(address);
  return { server, app };
}

describe('Speed to lead', () => {
  it('shows the key figures, says business hours are counted, and each table with its CSV for the same days', async () => {
    const { server } = speed('/console/speed?from=2025-03-01&to=2025-03-31');
    const overall = await screen.findByRole('region', { name: '40 leads from 2025-03-01 to 2025-03-31' });
    const facts = [...overall.querySelectorAll('dt')].map((term) => [term.textContent, term.nextElementSibling!.textContent]);
    expect(facts).toEqual([
      ['Median time to the first touch', '4 min'],
      ['9 in 10 first touches within', '1 h 35 min'],
      ['Reached within 5 minutes', '55%'],
      ['Reached within 1 hour', '80%'],
      ['Never reached', '10%'],
    ]);
    expect(screen.getByText(/^Times count business hours only \(Mon-Fri 9:00 AM-6:00 PM, New York time\)/)).toBeTruthy();
    expect(server.made('GET /speed')[0]!.query.toString()).toBe('from=2025-03-01&to=2025-03-31');

    const byOwner = screen.getByRole('region', { name: 'By owner' });
    const rows = within(byOwner)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['sam@example.com', '25', '3 min', '1 h 35 min', '55%', '80%', '10%'],
      ['ana@example.com', '15', 'n/a', 'n/a', '0%', '0%', '100%'],
    ]);
    expect(within(byOwner).getByRole('link', { name: 'Download CSV of speed to lead by owner' }).getAttribute('href')).toBe(
      '/console/api/speed/export?from=2025-03-01&to=2025-03-31&by=owner',
    );
    expect(
      within(screen.getByRole('region', { name: 'By form' }))
        .getByRole('link')
        .getAttribute('href'),
    ).toBe('/console/api/speed/export?from=2025-03-01&to=2025-03-31&by=form');
    expect(within(screen.getByRole('region', { name: 'By campaign' })).getByText('No leads.')).toBeTruthy();
  });

  it('asks for the days chosen in the range form and keeps them in the address', async () => {
    const { server, app } = speed('/console/speed');
    await screen.findByRole('region', { name: /^40 leads from 2025-02-01 to 2025-03-02$/ });
    expect(server.made('GET /speed')[0]!.query.toString()).toBe('');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-01-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-01-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show reports' }));
    await screen.findByRole('region', { name: '40 leads from 2025-01-01 to 2025-01-31' });
    expect(app.location().search).toBe('?from=2025-01-01&to=2025-01-31');
    expect(server.made('GET /speed').at(-1)!.query.toString()).toBe('from=2025-01-01&to=2025-01-31');
  });

  it('says so when the range holds no lead, and shows the server’s sentence on an error', async () => {
    speed('/console/speed?from=2025-03-01&to=2025-03-02', {
      'GET /speed': {
        body: report({ from: '2025-03-01', to: '2025-03-02' }, { overall: figures({ leads: 0, reached: 0 }), byOwner: [], byForm: [] }),
      },
    });
    expect(await screen.findByText('No leads from 2025-03-01 to 2025-03-02.')).toBeTruthy();
    cleanup();
    speed('/console/speed', {
      'GET /speed': { status: 400, body: { error: 'validation', message: 'The range must end on or after its first day.', fields: {} } },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('The range must end on or after its first day.');
  });

  it('shows a loading state while the figures come, and is listed for those who read the leads', async () => {
    speed('/console/speed', { 'GET /speed': () => new Promise<Answer>(() => undefined) });
    expect(await screen.findByText('Loading the figures…')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(within(nav).getByRole('link', { name: 'Speed to lead' }).getAttribute('aria-current')).toBe('page');
    // A viewer reads the leads but does not work them: no "Call now".
    expect(within(nav).queryByRole('link', { name: 'Call now' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Speed to lead'));
  });
});
