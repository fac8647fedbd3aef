// For component tests: a stand-in for the console's API (fetch answered by the test, every request
// recorded with its method, address, headers and body) and the app drawn at a console address, with
// the router's location readable. Not part of the app's bundle.
import { act, configure, render, type RenderResult } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate, type NavigateFunction } from 'react-router-dom';
import { vi } from 'vitest';
import { ROLE_ACTIONS, type Role } from '../../../back-office/roles.ts';
import {
  leadStatusOf,
  type AnalyticsReport,
  type AnalyticsSummary,
  type DayRange,
  type LeadSalesDetail,
  type LeadSalesView,
  type LeadSummary,
  type SessionInfo,
} from '../../api-types.ts';
import { ConsoleApi } from '../api.ts';
import { App } from '../App.tsx';

// The suite runs two test files at once beside servers, databases and browsers, and on a busy
// machine a screen can take longer than Testing Library's default second to show what a request
// brought. A wait that finds what it looks for returns at once, so the longer limit only slows a test
// that fails anyway.
configure({ asyncUtilTimeout: 5_000 });

export type Answer = { status?: number; body?: unknown };
/** Answers a request; `query` holds its query parameters. */
export type Handler = (request: RecordedRequest) => Answer | Promise<Answer>;

export type RecordedRequest = {
  method: string;
  /** The path under /console/api, e.g. `/leads`. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
};

export function sessionFor(role: Role, email = `${role}@example.com`, id = 'acct-7'): SessionInfo {
  return { id, email, role, csrfToken: `csrf-${role}`, allowed: [...ROLE_ACTIONS[role]] };
}

/**
 * Stubs fetch with `routes` ("GET /leads" → handler or answer). A request no route answers fails the
 * test loudly with a 599, so an unexpected call is never silent.
 */
export function stubConsoleServer(routes: Record<string, Handler | Answer>) {
  const requests: RecordedRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://console.test');
      const path = decodeURIComponent(url.pathname.replace(/^\/console\/api/, ''));
      const request: RecordedRequest = {
        method: init.method ?? 'GET',
        path,
        query: url.searchParams,
        headers: Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v])),
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
        credentials: init.credentials,
      };
      requests.push(request);
      const route = routes[`${request.method} ${path}`];
      const answer =
        route === undefined
          ? { status: 599, body: { error: 'unavailable', message: `No route for ${request.method} ${path}` } }
          : typeof route === 'function'
            ? await route(request)
            : route;
      return new Response(JSON.stringify(answer.body ?? {}), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return {
    requests,
    /** The requests made to `METHOD /path`. */
    made: (route: string) => requests.filter((request) => `${request.method} ${request.path}` === route),
  };
}

export type RenderedConsole = RenderResult & {
  location(): { pathname: string; search: string };
  /** The browser's back (-1) and forward (1) buttons. */
  history(delta: number): void;
};

/** The console at `address` (under /console, e.g. `/console/leads?state=failed`). */
export function renderConsole(address: string): RenderedConsole {
  const current = { pathname: '', search: '' };
  let navigate: NavigateFunction | undefined;
  function LocationProbe() {
    const location = useLocation();
    navigate = useNavigate();
    current.pathname = location.pathname;
    current.search = location.search;
    return null;
  }
  const rendered = render(
    <MemoryRouter basename="/console" initialEntries={[address]}>
      <LocationProbe />
      <App api={new ConsoleApi()} />
    </MemoryRouter>,
  );
  return {
    ...rendered,
    location: () => ({ ...current }),
    history: (delta) => act(() => void navigate?.(delta)),
  };
}

/** A row of the inbox; its status follows its state and attempts, as the server computes it. */
export function leadSummary(id: string, overrides: Partial<Omit<LeadSummary, 'status'>> = {}): LeadSummary {
  const summary = {
    id,
    receivedAt: '2025-03-01T10:00:00.000Z',
    form: 'Contact Page Form',
    name: `Person ${id}`,
    email: `${id}@example.com`,
    company: `Company ${id}`,
    state: 'delivered' as const,
    spamReason: null,
    spamSignals: [],
    attempts: 1,
    nextAttemptAt: null,
    campaign: null,
    source: null,
    callbackRequested: false,
    ...overrides,
  };
  return { ...summary, status: leadStatusOf(summary.state, summary.attempts) };
}

/** Visit reports for a range: one day with visits (the first), one page, referrer, campaign and entry page, and the contact form's funnel. */
export function analyticsReport(range: DayRange, overrides: Partial<AnalyticsReport> = {}): AnalyticsReport {
  const days: AnalyticsReport['days'] = [];
  for (let at = Date.parse(`${range.from}T00:00:00Z`); at <= Date.parse(`${range.to}T00:00:00Z`); at += 24 * 60 * 60 * 1000) {
    const day = new Date(at).toISOString().slice(0, 10);
    days.push(
      days.length === 0 ? { day, visitors: 7, pageviews: 19, bookingClicks: 2 } : { day, visitors: 0, pageviews: 0, bookingClicks: 0 },
    );
  }
  const funnel = [{ form: 'contact' as const, key: '', viewed: 40, started: 10, submitted: 8, accepted: 6, delivered: 5, booked: 0 }];
  return {
    range,
    split: 'none',
    days,
    pages: [{ path: '/pricing', visitors: 5, pageviews: 9, bookingClicks: 1 }],
    referrers: [
      { host: 'www.google.com', visitors: 4 },
      { host: '', visitors: 3 },
    ],
    campaigns: [{ source: 'newsletter', medium: 'email', name: 'autumn', click: '', visitors: 2 }],
    entryPages: [{ path: '/', visitors: 6 }],
    funnel,
    splitFunnel: funnel,
    ...overrides,
  };
}

/**
 * The summary for a range: 10 visitors, 4 leads accepted, 3 the CRM took, 2 meetings on the first
 * day, against 8 / 4 / 0 / 0 before; the rest of the range's days empty; one campaign and one entry page.
 */
export function analyticsSummary(range: DayRange, overrides: Partial<AnalyticsSummary> = {}): AnalyticsSummary {
  const dayMs = 24 * 60 * 60 * 1000;
  const days = Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / dayMs) + 1;
  const shift = (day: string, by: number) => new Date(Date.parse(`${day}T00:00:00Z`) + by * dayMs).toISOString().slice(0, 10);
  return {
    range,
    previousRange: { from: shift(range.from, -days), to: shift(range.from, -1) },
    filter: {},
    figures: [
      { name: 'visitors', value: 10, previous: 8, change: 0.25 },
      { name: 'accepted', value: 4, previous: 4, change: 0 },
      { name: 'delivered', value: 3, previous: 0, change: null },
      { name: 'booked', value: 2, previous: 0, change: null },
      { name: 'visitToLead', value: 0.4, previous: 0.5, change: -0.2 },
    ],
    conversions: [
      { kind: 'campaign', key: 'roi-q4', source: 'linkedin', visitors: 6, accepted: 3, delivered: 3, booked: 2 },
      { kind: 'entry', key: '/roi', source: '', visitors: 6, accepted: 3, delivered: 2, booked: 1 },
    ],
    series: [{ day: range.from, visitors: 10, accepted: 4, delivered: 3, booked: 2 }],
    seriesGrain: 'day',
    emptyDays: days - 1,
    countedFrom: null,
    ...overrides,
  };
}

/** A lead's sales side: new, nobody owns it, its clock running 12 minutes, nothing done yet. */
export function salesView(overrides: Partial<LeadSalesView> = {}): LeadSalesView {
  return {
    owner: null,
    status: 'new',
    lostReason: null,
    clockStartsAt: '2025-03-01T10:00:00.000Z',
    firstTouchAt: null,
    clockMinutes: 12,
    clockRunning: true,
    joinedTo: null,
    ...overrides,
  };
}

/** The sales side of a lead's page: its view, a phone, no call-back asked, an empty timeline. */
export function salesDetail(overrides: Partial<LeadSalesDetail> = {}): LeadSalesDetail {
  return {
    sales: salesView(),
    phone: '+1 212 555 0100',
    callback: { requested: false, consentText: null, consentAt: null },
    timeline: [],
    joined: [],
    crmUrl: null,
    ...overrides,
  };
}
