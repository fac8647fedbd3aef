// @vitest-environment happy-dom
// One lead against a stand-in for the console's API: what a stranger typed is shown as text and never
// becomes markup, the delivery timeline reads attempt by attempt, and the actions follow the role.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeadWithSales, Role } from '../../api-types.ts';
import {
  leadSummary,
  renderConsole,
  salesDetail,
  sessionFor,
  stubConsoleServer,
  type Answer,
  type Handler,
} from '../testing/console-server.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const HOSTILE = '<img src=x onerror=alert(1)>';

const LEAD: LeadWithSales = {
  ...leadSummary('lead-1', { name: HOSTILE, state: 'pending', attempts: 2, nextAttemptAt: '2025-03-01T10:05:00.000Z' }),
  ...salesDetail(),
  fields: [
    ['name', HOSTILE],
    ['message', '**bold** and <script>alert(2)</script>'],
  ],
  attribution: {
    campaign: 'spring',
    source: 'linkedin',
    medium: null,
    referrer: 'https://www.linkedin.com/',
    landingPage: '/contact',
    other: [['gclid', 'abc123']],
  },
  spamSignals: [],
  attemptsLog: [
    {
      at: '2025-03-01T10:00:01.000Z',
      durationMs: 412,
      status: 502,
      answerStart: '<html><body><h1>Bad gateway</h1>',
      error: 'The CRM answered 502',
      outcome: 'pending',
    },
    {
      at: '2025-03-01T10:01:00.000Z',
      durationMs: 10000,
      status: null,
      answerStart: null,
      error: 'Timed out after 10 s',
      outcome: 'pending',
    },
  ],
};

function leadView(role: Role, routes: Record<string, Handler | Answer> = {}) {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor(role) },
    'GET /leads/lead-1': { body: LEAD },
    'GET /people': { body: [] },
    ...routes,
  });
  const app = renderConsole('/console/leads/lead-1');
  return { server, app };
}

describe('a lead', () => {
  it('shows what the visitor typed as literal text, creating no element from it', async () => {
    const { app } = leadView('viewer');
    expect(await screen.findAllByText(HOSTILE)).not.toHaveLength(0);
    expect(screen.getByText('**bold** and <script>alert(2)</script>')).toBeTruthy();
    expect(app.container.querySelector('img')).toBeNull();
    expect(app.container.querySelectorAll('script, strong > strong, b')).toHaveLength(0);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain(HOSTILE);
  });

  it("names each field as the lead's form labelled it, and what the browser added in plain words", async () => {
    const sent: LeadWithSales = {
      ...LEAD,
      fields: [
        ['service_interest', 'AI Consulting'],
        ['submitted_at', '2025-03-01T09:59:30.000Z'],
        ['page_url', 'https://example.com/contact'],
        ['user_agent', 'Mozilla/5.0'],
        ['favourite_colour', 'blue'],
      ],
    };
    leadView('viewer', { 'GET /leads/lead-1': { body: sent } });
    const fields = (await screen.findByRole('heading', { name: 'What they sent' })).closest('section')!;
    await waitFor(() => expect(fields.querySelectorAll('dt')).toHaveLength(5));
    expect([...fields.querySelectorAll('dt')].map((term) => term.textContent)).toEqual([
      'Service Interest',
      'Sent at (their clock)',
      'Sent from the page',
      'Browser',
      'favourite_colour',
    ]);
    expect(fields.textContent).not.toContain('2025-03-01T09:59:30.000Z');
    expect(fields.textContent).toContain('2025');
  });

  it('shows where it came from and each delivery attempt with the start of the CRM answer as text', async () => {
    const { app } = leadView('viewer');
    await screen.findByText('abc123');
    expect(screen.getByText('https://www.linkedin.com/')).toBeTruthy();
    expect(screen.getByText('abc123').closest('dd')?.previousElementSibling?.textContent).toBe('Google Ads click (gclid)');
    const answer = app.container.querySelector('pre')!;
    expect(answer.textContent).toBe('<html><body><h1>Bad gateway</h1>');
    expect(answer.children).toHaveLength(0);
    expect(screen.getByText('Error: The CRM answered 502')).toBeTruthy();
    expect(screen.getByText(/HTTP 502, 412 ms/)).toBeTruthy();
    expect(screen.getByText(/no answer \(timeout or network error\), 10000 ms/)).toBeTruthy();
    expect(screen.getByText(/^2 attempts; next attempt due /)).toBeTruthy();
  });

  it('a viewer sees no action; sales retries it with the CSRF token', async () => {
    leadView('viewer');
    await screen.findByText('abc123');
    expect(screen.queryByRole('button', { name: 'Retry now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark as spam' })).toBeNull();
    cleanup();

    const { server } = leadView('sales', {
      'POST /leads/retry': {
        body: {
          retried: 1,
          sent: { failed: 0, held: 0, waiting: 0, retrying: 1 },
          skipped: { spam: 0, delivered: 0, sending: 0, missing: 0 },
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Retry now' }));
    expect(await screen.findByText('1 lead will be sent to the CRM: 1 retrying.')).toBeTruthy();
    const [retry] = server.made('POST /leads/retry');
    expect(retry!.body).toEqual({ ids: ['lead-1'] });
    expect(retry!.headers['x-csrf-token']).toBe('csrf-sales');
    await waitFor(() => expect(server.made('GET /leads/lead-1')).toHaveLength(2));
  });

  it('marks it spam, and a spam lead not spam', async () => {
    const { server } = leadView('sales', { 'POST /leads/lead-1/spam': { body: { state: 'spam' } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Mark as spam' }));
    expect(await screen.findByText('Marked as spam: it will not be sent to the CRM.')).toBeTruthy();
    expect(server.made('POST /leads/lead-1/spam')[0]!.body).toEqual({ spam: true });
    cleanup();

    const spam: LeadWithSales = {
      ...LEAD,
      state: 'spam',
      status: 'spam',
      spamReason: 'honeypot',
      spamSignals: ['The hidden field was filled in'],
    };
    const second = leadView('admin', {
      'GET /leads/lead-1': { body: spam },
      'POST /leads/lead-1/spam': { body: { state: 'pending' } },
    });
    expect(await screen.findByText('The hidden field was filled in')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry now' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Send again/ })).toBeNull();
    expect(screen.queryByText(/honeypot/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Not spam' }));
    expect(await screen.findByText('Marked not spam: it will be sent to the CRM. CRM delivery: Waiting to be sent.')).toBeTruthy();
    expect(second.server.made('POST /leads/lead-1/spam')[0]!.body).toEqual({ spam: false });
  });

  it('counts every attempt the timeline lists, also after a retry started the count again', async () => {
    const retried: LeadWithSales = {
      ...LEAD,
      attempts: 1,
      attemptsLog: [...LEAD.attemptsLog, { ...LEAD.attemptsLog[0]!, at: '2025-03-01T11:00:00.000Z' }],
    };
    leadView('viewer', { 'GET /leads/lead-1': { body: retried } });
    expect(await screen.findByText(/^3 attempts \(1 since it was last retried\); next attempt due /)).toBeTruthy();
    expect(screen.getAllByRole('listitem').filter((item) => item.className === 'timeline-item')).toHaveLength(3);
  });

  it('offers a delivered lead no "Retry now" nor "Mark as spam", only "Send again" saying the CRM gets a second copy', async () => {
    const delivered: LeadWithSales = { ...LEAD, state: 'delivered', status: 'delivered', attempts: 1, nextAttemptAt: null };
    const { server } = leadView('sales', {
      'GET /leads/lead-1': { body: delivered },
      'POST /leads/lead-1/send-again': { body: { state: 'pending' } },
    });
    const again = await screen.findByRole('button', { name: 'Send again: the CRM already has this lead; it will get a second copy' });
    expect(screen.queryByRole('button', { name: 'Retry now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark as spam' })).toBeNull();
    fireEvent.click(again);
    expect(await screen.findByText('The lead will be sent to the CRM again: the CRM gets a second copy.')).toBeTruthy();
    expect(server.made('POST /leads/retry')).toEqual([]);
    const [sent] = server.made('POST /leads/lead-1/send-again');
    expect(sent!.headers['x-csrf-token']).toBe('csrf-sales');
  });

  it('says when the lead is not there', async () => {
    leadView('viewer', {
      'GET /leads/lead-1': { status: 404, body: { error: 'not-found', message: 'No lead has this id; it may have been erased.' } },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('No lead has this id; it may have been erased.');
  });
});

describe('text a visitor typed', () => {
  it('is set apart from the heading and the fields around it, so a direction control reorders only itself', async () => {
    const reversed = 'Bob\u202Egnp.exe';
    stubConsoleServer({
      'GET /session': { body: sessionFor('viewer') },
      'GET /leads/lead-1': { body: { ...LEAD, name: reversed, fields: [['name', reversed]] } },
    });
    renderConsole('/console/leads/lead-1');
    const heading = await screen.findByRole('heading', { level: 1 });
    const isolated = heading.querySelector('bdi');
    expect(isolated?.textContent).toBe(reversed);
    expect(isolated?.getAttribute('dir')).toBe('auto');
    const value = screen.getByText('Full Name').nextElementSibling;
    expect(value?.querySelector('bdi')?.textContent).toBe(reversed);
  });
});

describe('call me back now', () => {
  it('says on the lead page that the visitor asked for a call-back now, and names the agreement in plain words', async () => {
    const asked: LeadWithSales = {
      ...LEAD,
      ...leadSummary('lead-1', { callbackRequested: true }),
      fields: [
        ['callback_requested', 'Yes'],
        ['callback_consent_text', 'Example Co may call me now with an automated or artificial voice.'],
      ],
    };
    leadView('viewer', { 'GET /leads/lead-1': { body: asked } });
    const heading = await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(heading.textContent).toContain('Asked for a call-back now'));
    const fields = screen.getByRole('heading', { name: 'What they sent' }).closest('section')!;
    expect([...fields.querySelectorAll('dt')].map((term) => term.textContent)).toEqual([
      'Asked for a call-back now',
      'Call-back agreement, as shown to them',
    ]);
  });

  it('says nothing of a call-back on a lead that did not ask', async () => {
    leadView('viewer');
    await screen.findAllByText(HOSTILE);
    expect(screen.queryByText('Asked for a call-back now')).toBeNull();
  });
});
