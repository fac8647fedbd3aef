// @vitest-environment happy-dom
// The Analytics screen against a stand-in for the console's API: the reports for the range in the
// address, a new range or a preset written to the address and asked for, the funnel split on
// request, every table's CSV link for the days shown, each chart with its table, the error and the
// empty states, and an editor, who may not read the leads, not offered it.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANALYTICS_FILTERS, type AnalyticsReport, type AnalyticsSummary, type DayRange, type Role } from '../../api-types.ts';
import { changeWords } from './summary-words.ts';
import {
  analyticsReport,
  analyticsSummary,
  renderConsole,
  sessionFor,
  stubConsoleServer,
  type Answer,
  type Handler,
} from '../testing/console-server.tsx';

const TODAY = '2026-11-27';
/** What the server answers when no range is asked for: the 30 UTC days ending today. */
const DEFAULT_RANGE: DayRange = { from: '2026-10-29', to: TODAY };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(`${TODAY}T10:00:00Z`));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** The reports for the range a request asks for, as the server would echo it. */
const answerRange =
  (overrides: Partial<AnalyticsReport> = {}): Handler =>
  ({ query }) => ({
    body: analyticsReport({ from: query.get('from') ?? DEFAULT_RANGE.from, to: query.get('to') ?? DEFAULT_RANGE.to }, overrides),
  });

/** The summary for the range and filter a request asks for, as the server would echo them. */
const answerSummary =
  (overrides: Partial<AnalyticsSummary> = {}): Handler =>
  ({ query }) => ({
    body: analyticsSummary(
      { from: query.get('from') ?? DEFAULT_RANGE.from, to: query.get('to') ?? DEFAULT_RANGE.to },
      { filter: Object.fromEntries(ANALYTICS_FILTERS.flatMap((key) => (query.has(key) ? [[key, query.get(key)!]] : []))), ...overrides },
    ),
  });

function analytics(address: string, routes: Record<string, Handler | Answer> = {}, role: Role = 'viewer') {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor(role) },
    'GET /analytics': answerRange(),
    'GET /analytics/summary': answerSummary(),
    ...routes,
  });
  const app = renderConsole(address);
  return { server, app };
}

const section = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('section')!;
const rowTexts = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.children].map((cell) => cell.textContent));

describe('the Analytics screen', () => {
  it('shows the reports for the range in the address, and says how visits are counted', async () => {
    const { server } = analytics('/console/analytics?from=2026-11-01&to=2026-11-03');
    await screen.findByRole('heading', { name: 'Visitors and page views' });
    expect(Object.fromEntries(server.made('GET /analytics')[0]!.query)).toEqual({ from: '2026-11-01', to: '2026-11-03' });
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-01');
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2026-11-03');

    const counted = section('How visits are counted').textContent!;
    expect(counted).toContain('one browser on one day');
    expect(counted).toContain('the same person on five days counts as five visitors');
    expect(counted).toContain('Do Not Track or Global Privacy Control');
    expect(counted).toContain('robots');
    expect(counted).toMatch(/“Lead accepted” and “Delivered to the CRM” are counted by the server itself/);

    const days = within(section('Visitors and page views')).getByRole('table', { name: /^Visitors and page views per day/ });
    expect(rowTexts(days)).toEqual([
      ['2026-11-01', '7', '19', '2'],
      ['2026-11-02', '0', '0', '0'],
      ['2026-11-03', '0', '0', '0'],
    ]);
    expect(
      within(days)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Day (UTC)', 'Visitors', 'Page views', 'Booking clicks']);
    expect(rowTexts(within(section('Pages')).getByRole('table'))).toEqual([['/pricing', '5', '9', '1']]);
    expect(rowTexts(within(section('Referrers')).getByRole('table'))).toEqual([
      ['www.google.com', '4'],
      ['No referring site (typed, bookmarked, or the browser kept it back)', '3'],
    ]);
    expect(rowTexts(within(section('Campaigns')).getByRole('table'))).toEqual([['newsletter', 'email', 'autumn', 'No', '2']]);
    expect(rowTexts(within(section('Entry pages')).getByRole('table'))).toEqual([['/', '6']]);

    const funnel = section('Forms: from page view to a meeting');
    expect(within(funnel).getByRole('heading', { level: 3, name: 'Contact form' })).toBeTruthy();
    expect(
      rowTexts(within(funnel).getByRole('table', { name: /^Contact form: visits at the first three steps, leads at the last three/ })),
    ).toEqual([
      ['Page view', '40', '100%'],
      ['Form started', '10', '25%'],
      ['Submitted', '8', '20%'],
      ['Lead accepted', '6', '15%'],
      ['Delivered to the CRM', '5', '12.5%'],
      ['Meeting booked', '0', '0%'],
    ]);
  });

  it('asks for the default range when the address names none, and fills the form with the days shown', async () => {
    const { server } = analytics('/console/analytics');
    await screen.findByRole('heading', { name: 'Pages' });
    expect([...server.made('GET /analytics')[0]!.query]).toEqual([]);
    await waitFor(() => expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe(DEFAULT_RANGE.from));
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe(DEFAULT_RANGE.to);
  });

  it('writes a new range to the address and asks for it; a preset does the same in one click', async () => {
    const { server, app } = analytics('/console/analytics?from=2026-11-01&to=2026-11-03');
    await screen.findByRole('heading', { name: 'Pages' });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-09-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-09-02' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show reports' }));
    await waitFor(() => expect(app.location().search).toBe('?from=2026-09-01&to=2026-09-02'));
    await waitFor(() => expect(server.made('GET /analytics')).toHaveLength(2));
    expect(Object.fromEntries(server.made('GET /analytics')[1]!.query)).toEqual({ from: '2026-09-01', to: '2026-09-02' });
    await waitFor(() => expect(within(section('Visitors and page views')).getAllByRole('row', { name: /^2026-09-0[12]/ })).toHaveLength(2));

    const lastWeek = within(screen.getByRole('group', { name: 'Preset ranges' })).getByRole('button', { name: 'Last 7 days' });
    lastWeek.focus();
    fireEvent.click(lastWeek);
    await waitFor(() => expect(app.location().search).toBe(`?from=2026-11-21&to=${TODAY}`));
    await waitFor(() => expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-21'));
    // The form is the same one: the button pressed keeps the focus while the reports change.
    expect(document.activeElement).toBe(lastWeek);
    fireEvent.click(screen.getByRole('button', { name: 'This year' }));
    await waitFor(() => expect(app.location().search).toBe(`?from=2026-01-01&to=${TODAY}`));
    await waitFor(() => expect(server.made('GET /analytics').at(-1)!.query.get('from')).toBe('2026-01-01'));
  });

  it('refuses a range that ends before it starts, beside the To field, without asking the server', async () => {
    const { server } = analytics('/console/analytics?from=2026-11-01&to=2026-11-03');
    await screen.findByRole('heading', { name: 'Pages' });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-10-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show reports' }));
    const to = screen.getByLabelText('To');
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(to.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent).toBe(
      'Must be on or after the From day.',
    );
    expect(server.made('GET /analytics')).toHaveLength(1);
  });

  it('splits the funnel on request: the split is kept in the address and each row shows its conversion', async () => {
    const split = [
      { form: 'contact' as const, key: 'newsletter', viewed: 10, started: 4, submitted: 4, accepted: 3, delivered: 3, booked: 0 },
      { form: 'contact' as const, key: '', viewed: 30, started: 6, submitted: 4, accepted: 3, delivered: 2, booked: 0 },
    ];
    const { server, app } = analytics('/console/analytics?from=2026-11-01&to=2026-11-03', {
      'GET /analytics': ({ query }) => {
        const range = { from: query.get('from')!, to: query.get('to')! };
        return { body: analyticsReport(range, query.get('split') === 'source' ? { split: 'source', splitFunnel: split } : {}) };
      },
    });
    await screen.findByRole('heading', { name: 'Pages' });
    const select = screen.getByLabelText('Split by');
    expect([...select.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'None',
      'Campaign',
      'Source',
      'Entry page',
    ]);
    fireEvent.change(select, { target: { value: 'source' } });
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-03&split=source'));
    const table = await screen.findByRole('table', { name: 'Each form from page view to the CRM, by source' });
    expect(server.made('GET /analytics').at(-1)!.query.get('split')).toBe('source');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Form',
      'Source',
      'Page view',
      'Form started',
      'Submitted',
      'Lead accepted',
      'Delivered to the CRM',
      'Meeting booked',
      'Accepted ÷ viewed',
      'Delivered ÷ viewed',
      'Booked ÷ viewed',
    ]);
    expect(rowTexts(table)).toEqual([
      ['Contact form', 'newsletter', '10', '4', '4', '3', '3', '0', '30%', '30%', '0%'],
      ['Contact form', '(direct)', '30', '6', '4', '3', '2', '0', '10%', '6.7%', '0%'],
    ]);
    expect(screen.getByRole('link', { name: 'Download CSV of the funnel split by source' }).getAttribute('href')).toBe(
      '/console/api/analytics/export?report=funnel&from=2026-11-01&to=2026-11-03&split=source',
    );
  });

  it('links every table to its CSV for the days shown', async () => {
    analytics('/console/analytics');
    await screen.findByRole('heading', { name: 'Pages' });
    const links = screen.getAllByRole('link', { name: /^Download CSV/ });
    const reports = links.map((link) => {
      const url = new URL(link.getAttribute('href')!, 'http://console.test');
      expect(url.pathname).toBe('/console/api/analytics/export');
      expect(url.searchParams.get('from'), link.textContent!).toBe(DEFAULT_RANGE.from);
      expect(url.searchParams.get('to'), link.textContent!).toBe(DEFAULT_RANGE.to);
      return url.searchParams.get('report');
    });
    expect(reports).toEqual(['days', 'pages', 'referrers', 'campaigns', 'entry-pages', 'funnel', 'funnel']);
    expect(new Set(links.map((link) => link.textContent)).size).toBe(links.length);
  });

  it('draws each chart with a table of the same numbers beside it', async () => {
    analytics('/console/analytics?from=2026-11-01&to=2026-11-03');
    await screen.findByRole('heading', { name: 'Pages' });
    // The chart over time first (see below), then the detail charts.
    const charts = screen.getAllByRole('img').slice(1);
    expect(charts).toHaveLength(2);
    expect(charts[0]!.getAttribute('aria-label')).toBe(
      'Visitors and page views per day, 2026-11-01 to 2026-11-03: 7 visitors and 19 page views in all; the most visitors on one day, 7, on 2026-11-01.',
    );
    expect(charts[0]!.querySelectorAll('rect')).toHaveLength(6);
    expect(charts[1]!.getAttribute('aria-label')).toContain(
      'Contact form: visits at the first three steps, leads at the last three: Page view 40; Form started 10; Submitted 8; Lead accepted 6',
    );
    for (const chart of charts) {
      const table = within(chart.closest('.chart-with-table') as HTMLElement).getByRole('table');
      expect(table.querySelector('caption')?.textContent).toBeTruthy();
      expect(within(table).getAllByRole('rowheader').length).toBeGreaterThan(0);
    }
  });

  /** A report of no visits, whose forms' funnel is `funnel`. */
  const noVisits = (range: DayRange, funnel: AnalyticsReport['funnel']) =>
    analyticsReport(range, {
      days: analyticsReport(range).days.map((day) => ({ ...day, visitors: 0, pageviews: 0, bookingClicks: 0 })),
      pages: [],
      referrers: [],
      campaigns: [],
      entryPages: [],
      funnel,
      splitFunnel: funnel,
    });

  it('says when the range holds no visits and no leads, and shows no empty tables', async () => {
    analytics('/console/analytics?from=2026-11-01&to=2026-11-03', {
      'GET /analytics': ({ query }) => ({ body: noVisits({ from: query.get('from')!, to: query.get('to')! }, []) }),
    });
    const details = (await screen.findByText('Forms funnel and detail tables')).closest('details')!;
    expect(await within(details).findByText('No visits or leads counted in this range.')).toBeTruthy();
    expect(within(details).queryByRole('table')).toBeNull();
    expect(screen.getByLabelText('From')).toBeTruthy();
  });

  it('still shows the leads of a range without a counted visit, since the server counts leads itself', async () => {
    const leadsOnly = [{ form: 'contact' as const, key: '', viewed: 0, started: 0, submitted: 0, accepted: 5, delivered: 3, booked: 0 }];
    analytics('/console/analytics?from=2026-11-01&to=2026-11-03', {
      'GET /analytics': ({ query }) => ({ body: noVisits({ from: query.get('from')!, to: query.get('to')! }, leadsOnly) }),
    });
    expect(await screen.findByText('No visits counted in this range; the leads it holds are counted below.')).toBeTruthy();
    const funnel = section('Forms: from page view to a meeting');
    const table = within(funnel).getAllByRole('table')[0]!;
    expect(rowTexts(table).find((row) => row[0] === 'Lead accepted')?.[1]).toBe('5');
    expect(rowTexts(table).find((row) => row[0] === 'Delivered to the CRM')?.[1]).toBe('3');
  });

  it("shows the server's sentence when the reports cannot be read", async () => {
    analytics('/console/analytics', {
      'GET /analytics': {
        status: 503,
        body: { error: 'unavailable', message: 'The visit reports are briefly unavailable: try again in a moment.', retryAfterSeconds: 2 },
      },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('The visit reports are briefly unavailable: try again in a moment.');
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('who sees Analytics', () => {
  it('is listed for a role that reads the leads, beside the other screens', async () => {
    analytics('/console/analytics', {}, 'sales');
    const nav = await screen.findByRole('navigation', { name: 'Console' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Call now', 'Health', 'Inbox', 'Spam', 'Analytics', 'Speed to lead', 'Settings']);
    expect(within(nav).getByRole('link', { name: 'Analytics' }).getAttribute('aria-current')).toBe('page');
  });

  it('is not offered to an editor, whose account is for the content studio', async () => {
    const { server } = analytics('/console', {}, 'editor');
    await screen.findByText('This account has nothing to read in the console: it is for the content studio.');
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(within(nav).queryAllByRole('link')).toEqual([]);
    expect(server.made('GET /health')).toEqual([]);
    expect(server.made('GET /analytics')).toEqual([]);
  });
});

describe('what converts, at a glance', () => {
  const figureTexts = () =>
    screen
      .getAllByRole('listitem')
      .filter((item) => item.classList.contains('key-figure'))
      .map((item) => [...item.children].map((part) => part.textContent));

  it('opens on the key figures, each with its change against the previous period in words', async () => {
    analytics('/console/analytics?from=2026-11-01&to=2026-11-30');
    await screen.findByText('Visit-to-lead rate');
    expect(figureTexts()).toEqual([
      ['Visitors', '10', '▲ 25% vs previous 30 days'],
      ['Leads accepted', '4', 'no change'],
      ['Leads the CRM took', '3', 'new'],
      ['Meetings booked', '2', 'new'],
      ['Visit-to-lead rate', '40%', '▼ 20% vs previous 30 days'],
    ]);
    // The figures come first, then what converts, then the chart; the detail tables are behind a disclosure.
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings.slice(0, 3)).toEqual(['Key figures', 'What converts', 'Over time']);
    expect(screen.getByText('Forms funnel and detail tables').closest('details')!.open).toBe(false);
  });

  it('filters the whole screen from a click on a campaign, keeps it in the address, and removes it from its chip', async () => {
    const { server, app } = analytics('/console/analytics?from=2026-11-01&to=2026-11-30');
    const converts = section(await screen.findByRole('heading', { name: 'What converts' }).then((heading) => heading.textContent!));
    expect(rowTexts(within(converts).getByRole('table'))).toEqual([
      ['Campaign roi-q4 from linkedin', '6', '3', '3', '2'],
      ['Entry page /roi', '6', '3', '2', '1'],
    ]);
    fireEvent.click(within(converts).getByRole('button', { name: 'roi-q4' }));
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-30&campaign=roi-q4'));
    await waitFor(() => expect(server.made('GET /analytics/summary').at(-1)!.query.get('campaign')).toBe('roi-q4'));
    expect(await screen.findByText('Campaign: roi-q4')).toBeTruthy();
    // Every number on the screen follows the filter: the detail tables, which count every visit, are not read.
    const detailReads = server.made('GET /analytics').length;
    expect(screen.getByText(/not shown while a filter is set/)).toBeTruthy();

    // A click on a source adds to the filter; '' is a real value, "direct".
    fireEvent.click(within(section('What converts')).getByRole('button', { name: 'linkedin' }));
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-30&campaign=roi-q4&source=linkedin'));
    expect(Object.fromEntries(server.made('GET /analytics/summary').at(-1)!.query)).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      campaign: 'roi-q4',
      source: 'linkedin',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove the filter Campaign: roi-q4' }));
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-30&source=linkedin'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove the filter Source: linkedin' }));
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-30'));
    await waitFor(() => expect(server.made('GET /analytics').length).toBeGreaterThan(detailReads));
    expect(screen.queryByRole('button', { name: /^Remove the filter/ })).toBeNull();
  });

  it('reads the filters from the address, "no campaign" included, and follows back and forward', async () => {
    const { server, app } = analytics('/console/analytics?from=2026-11-01&to=2026-11-30&campaign=&form=roi');
    expect(await screen.findByText('Campaign: (no campaign)')).toBeTruthy();
    expect(screen.getByText('Form: ROI calculator form')).toBeTruthy();
    // The filters show from the address at once; the summary's request may follow a moment later.
    await waitFor(() => expect(server.made('GET /analytics/summary').length).toBeGreaterThan(0));
    expect(Object.fromEntries(server.made('GET /analytics/summary')[0]!.query)).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      campaign: '',
      form: 'roi',
    });
    // With a form, the visitors are those who saw it.
    expect(await screen.findByText('Visitors who saw the form')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove all filters' }));
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-30'));
    await waitFor(() => expect(screen.queryByText('Campaign: (no campaign)')).toBeNull());
    app.history(-1);
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-30&campaign=&form=roi'));
    expect(await screen.findByText('Campaign: (no campaign)')).toBeTruthy();
    await waitFor(() => expect(server.made('GET /analytics/summary').at(-1)!.query.get('form')).toBe('roi'));
    app.history(1);
    await waitFor(() => expect(screen.queryByText('Campaign: (no campaign)')).toBeNull());
  });

  it('filters by a form, a referring site or an entry page from the detail tables too', async () => {
    const { app } = analytics('/console/analytics?from=2026-11-01&to=2026-11-03');
    await screen.findByRole('heading', { name: 'Pages' });
    fireEvent.click(within(section('Referrers')).getByRole('button', { name: 'www.google.com' }));
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-03&source=www.google.com'));
    app.history(-1);
    await screen.findByRole('heading', { name: 'Pages' });
    fireEvent.click(within(section('Forms: from page view to a meeting')).getAllByRole('button', { name: 'Contact form' })[0]!);
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-03&form=contact'));
    app.history(-1);
    await screen.findByRole('heading', { name: 'Pages' });
    fireEvent.click(within(section('Entry pages')).getByRole('button', { name: '/' }));
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-03&page=%2F'));
  });

  it('leaves days with nothing out of the chart’s table and says how many, and keeps the metric in the address', async () => {
    const { app } = analytics('/console/analytics?from=2026-11-01&to=2026-11-30', {
      'GET /analytics/summary': answerSummary({
        series: [
          { day: '2026-11-03', visitors: 12, accepted: 2, delivered: 1, booked: 0 },
          { day: '2026-11-20', visitors: 5, accepted: 1, delivered: 1, booked: 1 },
        ],
        emptyDays: 28,
      }),
    });
    const chart = section(await screen.findByRole('heading', { name: 'Over time' }).then((heading) => heading.textContent!));
    expect(rowTexts(within(chart).getByRole('table'))).toEqual([
      ['2026-11-03', '12'],
      ['2026-11-20', '5'],
    ]);
    expect(within(chart).getByText('28 days with no visits or leads hidden.')).toBeTruthy();
    expect(within(chart).getByRole('img').getAttribute('aria-label')).toBe(
      'Visitors per day, 2026-11-01 to 2026-11-30: 17 in all; the most on one day, 12, on 2026-11-03.',
    );
    fireEvent.change(within(chart).getByLabelText('Show'), { target: { value: 'booked' } });
    await waitFor(() => expect(app.location().search).toBe('?from=2026-11-01&to=2026-11-30&metric=booked'));
    expect(rowTexts(within(chart).getByRole('table'))).toEqual([
      ['2026-11-03', '0'],
      ['2026-11-20', '1'],
    ]);
    expect(
      within(chart)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Day (UTC)', 'Meetings booked']);
  });

  it('charts a range longer than three months by month', async () => {
    analytics('/console/analytics?from=2026-01-15&to=2026-11-27', {
      'GET /analytics/summary': answerSummary({
        seriesGrain: 'month',
        series: [
          { day: '2026-01-15', visitors: 40, accepted: 2, delivered: 1, booked: 0 },
          { day: '2026-03-01', visitors: 90, accepted: 5, delivered: 4, booked: 2 },
        ],
        emptyDays: 285,
      }),
    });
    const chart = section(await screen.findByRole('heading', { name: 'Over time' }).then((heading) => heading.textContent!));
    expect(within(chart).getByRole('img').getAttribute('aria-label')).toBe(
      'Visitors per month, 2026-01-15 to 2026-11-27: 130 in all; the most in one month, 90, in 2026-03.',
    );
    expect(within(chart).getAllByRole('columnheader')[0]!.textContent).toBe('Month (from the day shown)');
    expect(within(chart).getByText('285 days with no visits or leads hidden.')).toBeTruthy();
  });

  it('says plainly from which day the figures count, when the range reaches before it', async () => {
    analytics('/console/analytics?from=2026-11-01&to=2026-11-30', {
      'GET /analytics/summary': answerSummary({ countedFrom: '2026-11-15' }),
    });
    expect(await screen.findByText(/count from 2026-11-15; earlier days are in the detail tables only/)).toBeTruthy();
  });
});

describe('campaign words from visitors’ links are shown as text', () => {
  // Anyone can put anything in utm_campaign and utm_source: the screen shows it, uses it as a filter
  // link and writes it to the address, and none of that may ever become markup or a script.
  const IMG = '<img src=x onerror="globalThis.__pwned=1">';
  const SCRIPT = '"><script>globalThis.__pwned=2</script>';
  const PATH = '/roi"><svg onload="globalThis.__pwned=3">';
  const hostile = answerSummary({
    conversions: [
      { kind: 'campaign', key: IMG, source: SCRIPT, visitors: 6, accepted: 3, delivered: 3, booked: 2 },
      { kind: 'entry', key: PATH, source: '', visitors: 6, accepted: 3, delivered: 2, booked: 1 },
    ],
  });
  const noMarkup = () => {
    expect(document.querySelector('main img, main script, main svg[onload], [onerror], [onload]')).toBeNull();
    expect((globalThis as { __pwned?: unknown }).__pwned).toBeUndefined();
  };

  it('in what converts, its filter links, the chips and the address', async () => {
    const { server, app } = analytics('/console/analytics?from=2026-11-01&to=2026-11-30', { 'GET /analytics/summary': hostile });
    const converts = section(await screen.findByRole('heading', { name: 'What converts' }).then((heading) => heading.textContent!));
    const table = within(converts).getByRole('table');
    expect(table.textContent).toContain(IMG);
    expect(table.textContent).toContain(SCRIPT);
    expect(table.textContent).toContain(PATH);
    noMarkup();

    fireEvent.click(within(converts).getByRole('button', { name: IMG }));
    await waitFor(() => expect(new URLSearchParams(app.location().search).get('campaign')).toBe(IMG));
    // One parameter in the address and in the request, whatever the words hold: no extra parameter slips in.
    expect([...new URLSearchParams(app.location().search).keys()]).toEqual(['from', 'to', 'campaign']);
    await waitFor(() => expect(server.made('GET /analytics/summary').at(-1)!.query.get('campaign')).toBe(IMG));
    expect([...server.made('GET /analytics/summary').at(-1)!.query.keys()].sort()).toEqual(['campaign', 'from', 'to']);
    expect(await screen.findByText(`Campaign: ${IMG}`)).toBeTruthy();
    fireEvent.click(within(section('What converts')).getByRole('button', { name: SCRIPT }));
    await waitFor(() => expect(new URLSearchParams(app.location().search).get('source')).toBe(SCRIPT));
    expect(await screen.findByText(`Source: ${SCRIPT}`)).toBeTruthy();
    noMarkup();
  });

  it('read back from an address someone sent, with an ampersand that tries to add a filter', async () => {
    const campaign = `${IMG}&form=roi`;
    const { server } = analytics(`/console/analytics?from=2026-11-01&to=2026-11-30&campaign=${encodeURIComponent(campaign)}`, {
      'GET /analytics/summary': hostile,
    });
    expect(await screen.findByText(`Campaign: ${campaign}`)).toBeTruthy();
    // The chip reads the address at once; the summary is asked for after it, so wait for the request.
    await waitFor(() => expect(server.made('GET /analytics/summary').length).toBeGreaterThan(0));
    const asked = server.made('GET /analytics/summary')[0]!.query;
    expect(Object.fromEntries(asked)).toEqual({ from: '2026-11-01', to: '2026-11-30', campaign });
    noMarkup();
  });
});

describe('a figure’s change in words', () => {
  const figure = (value: number | null, previous: number | null) => ({ name: 'visitors' as const, value, previous, change: null });
  it('says up or down by how much against the previous period, new, or no change', () => {
    expect(changeWords(figure(125, 100), 30)).toBe('▲ 25% vs previous 30 days');
    expect(changeWords(figure(90, 100), 7)).toBe('▼ 10% vs previous 7 days');
    expect(changeWords(figure(3, 2), 1)).toBe('▲ 50% vs previous day');
    expect(changeWords(figure(1001, 1000), 30)).toBe('▲ less than 1% vs previous 30 days');
    expect(changeWords(figure(5, 0), 30)).toBe('new');
    expect(changeWords(figure(0, 0), 30)).toBe('no change');
    expect(changeWords(figure(7, 7), 30)).toBe('no change');
    expect(changeWords({ ...figure(0.4, null), name: 'visitToLead' }, 30)).toBe('new');
    expect(changeWords({ ...figure(null, null), name: 'visitToLead' }, 30)).toBe('nothing to compare');
  });
});
