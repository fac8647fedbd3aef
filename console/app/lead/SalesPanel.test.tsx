// @vitest-environment happy-dom
// The sales side of a lead's page against a stand-in for the console's API: the clock, call and
// e-mail with the outcome logged, the owner and the status (a lost sale needs its reason), notes,
// the timeline newest first, the call-back consent, joined leads and the CRM link, by role.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeadWithSales, Role, SalesPerson } from '../../api-types.ts';
import { describedBy } from '../testing/described-by.ts';
import {
  leadSummary,
  renderConsole,
  salesDetail,
  salesView,
  sessionFor,
  stubConsoleServer,
  type Answer,
  type Handler,
} from '../testing/console-server.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const person = (id: string, email: string, overrides: Partial<SalesPerson> = {}): SalesPerson => ({
  id,
  email,
  role: 'sales',
  timeZone: 'America/New_York',
  windows: [],
  away: false,
  availableNow: true,
  untouched: 0,
  ...overrides,
});
const PEOPLE = [person('acct-7', 'sales@example.com'), person('acct-8', 'ana@example.com', { away: true, availableNow: false })];

const LEAD: LeadWithSales = {
  ...leadSummary('lead-1', { name: 'Dana Reyes', email: 'dana@example.com' }),
  fields: [['name', 'Dana Reyes']],
  attribution: { campaign: null, source: null, medium: null, referrer: null, landingPage: null, other: [] },
  attemptsLog: [],
  ...salesDetail({
    sales: salesView({ owner: { id: 'acct-8', email: 'ana@example.com' }, clockMinutes: 9 }),
    timeline: [
      { at: '2025-03-01T10:00:05.000Z', kind: 'assigned', actor: 'system', text: 'Given to ana@example.com (round-robin)', note: null },
      { at: '2025-03-01T10:20:00.000Z', kind: 'note', actor: 'ana@example.com', text: 'Note', note: '<b>call after 3</b>' },
      { at: '2025-03-01T10:01:00.000Z', kind: 'crm', actor: 'system', text: 'Sent to the CRM', note: null },
    ],
  }),
};

function leadPage(role: Role, lead: LeadWithSales = LEAD, routes: Record<string, Handler | Answer> = {}) {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor(role) },
    'GET /leads/lead-1': { body: lead },
    'GET /people': { body: PEOPLE },
    ...routes,
  });
  const app = renderConsole('/console/leads/lead-1');
  return { server, app };
}

const panel = async () => screen.findByRole('region', { name: 'Sales' });

describe("a lead's sales panel", () => {
  it('comes first on the page, with the clock, the call and e-mail links, and the delivery named as the CRM’s', async () => {
    leadPage('sales');
    const sales = await panel();
    const regions = screen.getAllByRole('region').map((region) => region.getAttribute('aria-labelledby'));
    expect(regions[0]).toBe('lead-sales');
    expect(sales.querySelector('.clock')!.textContent).toBe('Waiting 9 min for a first call or e-mail.');
    expect(within(sales).getByRole('link', { name: 'Call Dana Reyes' }).getAttribute('href')).toBe('tel:+12125550100');
    expect(within(sales).getByRole('link', { name: 'E-mail Dana Reyes' }).getAttribute('href')).toBe('mailto:dana@example.com');
    expect(screen.getByRole('heading', { name: 'CRM delivery' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('Sent to the CRM');
    expect(screen.queryByText('Delivered')).toBeNull();
  });

  it('offers no e-mail link for an address that would add recipients or words to the message (a bot’s, kept as spam)', async () => {
    const hostile = 'dana@example.com?bcc=collector@attacker.example&body=Wire%20the%20deposit';
    leadPage('sales', { ...LEAD, email: hostile });
    const sales = await panel();
    expect(within(sales).queryByRole('link', { name: 'E-mail Dana Reyes' })).toBeNull();
    expect(sales.querySelector('a[href^="mailto:"]')).toBeNull();
    expect(within(sales).getByRole('link', { name: 'Call Dana Reyes' }).getAttribute('href')).toBe('tel:+12125550100');
  });

  it('shows the timeline newest first, a note as the text written', async () => {
    const { app } = leadPage('viewer');
    const timeline = await screen.findByRole('list', { name: 'Timeline, newest first' });
    const items = within(timeline).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/: Note \(ana@example.com\)<b>call after 3<\/b>$/),
      expect.stringMatching(/: Sent to the CRM \(automatic\)$/),
      expect.stringMatching(/: Given to ana@example.com \(round-robin\) \(automatic\)$/),
    ]);
    expect(app.container.querySelector('.timeline b')).toBeNull();
  });

  it('logs a call’s outcome with the CSRF token and reads the lead again', async () => {
    const { server } = leadPage('sales', LEAD, {
      'POST /leads/lead-1/touches': { body: salesView({ firstTouchAt: '2025-03-01T10:09:00.000Z', clockRunning: false }) },
    });
    const sales = await panel();
    fireEvent.click(within(sales).getByRole('link', { name: 'Call Dana Reyes' }));
    fireEvent.click(within(sales).getByRole('button', { name: 'No answer' }));
    expect(await screen.findByText('Logged: no answer.')).toBeTruthy();
    expect(document.activeElement).toBe(within(sales).getByRole('link', { name: 'Call Dana Reyes' }));
    const [touch] = server.made('POST /leads/lead-1/touches');
    expect(touch!.body).toEqual({ kind: 'call', outcome: 'no-answer' });
    expect(touch!.headers['x-csrf-token']).toBe('csrf-sales');
    // The page reads the lead again once the touch is stored; the message may show first.
    await waitFor(() => expect(server.made('GET /leads/lead-1')).toHaveLength(2));
  });

  it('gives the lead to another person from the team list, with the CSRF token', async () => {
    const { server } = leadPage('sales', LEAD, {
      'POST /leads/lead-1/owner': { body: salesView({ owner: { id: 'acct-7', email: 'sales@example.com' } }) },
    });
    const owner = await screen.findByLabelText<HTMLSelectElement>('Owner');
    expect(owner.value).toBe('acct-8');
    expect([...owner.options].map((option) => option.textContent)).toEqual(['Nobody yet', 'sales@example.com', 'ana@example.com (away)']);
    fireEvent.change(owner, { target: { value: 'acct-7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change owner' }));
    expect(await screen.findByText('The lead now belongs to sales@example.com.')).toBeTruthy();
    const [change] = server.made('POST /leads/lead-1/owner');
    expect(change!.body).toEqual({ ownerId: 'acct-7' });
    expect(change!.headers['x-csrf-token']).toBe('csrf-sales');
  });

  it('says plainly that a lead from before the sales queue has no owner or clock, and offers to give it one', async () => {
    const old: LeadWithSales = {
      ...LEAD,
      queue: 'outside',
      sales: salesView({ owner: null, clockMinutes: 0, clockRunning: false }),
      timeline: [],
    };
    const { server } = leadPage('sales', old, {
      'POST /leads/lead-1/owner': { body: salesView({ owner: { id: 'acct-7', email: 'sales@example.com' } }) },
    });
    const sales = await panel();
    expect(sales.textContent).toContain('This lead came before the sales queue, so it has no owner, sales status or waiting time.');
    expect(sales.querySelector('.clock')).toBe(null);
    expect(within(sales).queryByLabelText('Sales status')).toBe(null);
    const owner = await within(sales).findByLabelText<HTMLSelectElement>('Owner');
    fireEvent.change(owner, { target: { value: 'acct-7' } });
    fireEvent.click(within(sales).getByRole('button', { name: 'Change owner' }));
    expect(await screen.findByText('The lead now belongs to sales@example.com.')).toBeTruthy();
    expect(server.made('POST /leads/lead-1/owner')[0]!.body).toEqual({ ownerId: 'acct-7' });
  });

  it('asks why a sale was lost before sending it, then sends the reason', async () => {
    const { server } = leadPage('sales', LEAD, {
      'POST /leads/lead-1/status': { body: salesView({ status: 'lost', lostReason: 'Chose another firm' }) },
    });
    const status = await screen.findByLabelText<HTMLSelectElement>('Sales status');
    expect([...status.options].map((option) => option.textContent)).toEqual(['New', 'Contacted', 'Qualified', 'Won', 'Lost']);
    fireEvent.change(status, { target: { value: 'lost' } });
    const reason = screen.getByLabelText('Why was it lost?');
    fireEvent.click(screen.getByRole('button', { name: 'Save the status' }));
    expect(document.activeElement).toBe(reason);
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(reason)).toBe('Say why the sale was lost (for example: price, timing, chose another firm).');
    expect(server.made('POST /leads/lead-1/status')).toEqual([]);

    fireEvent.change(reason, { target: { value: '  Chose another firm ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the status' }));
    expect(await screen.findByText('Sales status: lost.')).toBeTruthy();
    const [change] = server.made('POST /leads/lead-1/status');
    expect(change!.body).toEqual({ status: 'lost', lostReason: 'Chose another firm' });
    expect(change!.headers['x-csrf-token']).toBe('csrf-sales');
  });

  it('sends a status without a reason unless it is lost, and shows the server’s word on a field beside it', async () => {
    const { server } = leadPage('sales', LEAD, {
      'POST /leads/lead-1/status': {
        status: 400,
        body: {
          error: 'validation',
          message: 'Check the status.',
          fields: { status: 'Choose one of new, contacted, qualified, won or lost.' },
        },
      },
    });
    const status = await screen.findByLabelText('Sales status');
    fireEvent.change(status, { target: { value: 'qualified' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the status' }));
    await waitFor(() => expect(describedBy(status)).toBe('Choose one of new, contacted, qualified, won or lost.'));
    expect(server.made('POST /leads/lead-1/status')[0]!.body).toEqual({ status: 'qualified' });
  });

  it('adds a note, refusing an empty one, and keeps the focus in the note box', async () => {
    const { server } = leadPage('sales', LEAD, { 'POST /leads/lead-1/notes': { body: salesView() } });
    const note = await screen.findByLabelText('Note');
    fireEvent.click(screen.getByRole('button', { name: 'Add the note' }));
    expect(describedBy(note)).toContain('Write the note first.');
    expect(document.activeElement).toBe(note);
    fireEvent.change(note, { target: { value: 'Wants a quote by Friday' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add the note' }));
    expect(await screen.findByText('Note added to the timeline.')).toBeTruthy();
    const [sent] = server.made('POST /leads/lead-1/notes');
    expect(sent!.body).toEqual({ text: 'Wants a quote by Friday' });
    expect(sent!.headers['x-csrf-token']).toBe('csrf-sales');
    expect((note as HTMLTextAreaElement).value).toBe('');
    expect(document.activeElement).toBe(note);
  });

  it('a viewer reads the owner and the status but changes nothing', async () => {
    const { server } = leadPage('viewer');
    const sales = await panel();
    expect(sales.textContent).toContain('Owner: ana@example.com');
    expect(sales.textContent).toContain('Sales status: New');
    expect(within(sales).queryByRole('combobox')).toBeNull();
    expect(within(sales).queryByLabelText('Note')).toBeNull();
    expect(server.made('GET /people')).toEqual([]);
  });

  it('shows the call-back consent as agreed, the joined leads, the earlier lead and the CRM record', async () => {
    leadPage('viewer', {
      ...LEAD,
      sales: salesView({ joinedTo: 'lead-0', firstTouchAt: '2025-03-01T10:04:00.000Z', clockMinutes: 4, clockRunning: false }),
      callback: {
        requested: true,
        consentText: 'I agree that Acme may call me, including with an automated voice. Consent is not a condition of purchase.',
        consentAt: '2025-03-01T10:00:00.000Z',
      },
      joined: [{ id: 'lead-2', receivedAt: '2025-03-02T10:00:00.000Z', form: 'ROI Calculator Form' }],
      crmUrl: 'https://crm.example.com/contacts/lead-1',
    });
    const sales = await panel();
    expect(within(sales).getByText('Asked for a call-back now')).toBeTruthy();
    expect(within(sales).getByText(/^I agree that Acme may call me/)).toBeTruthy();
    expect(sales.textContent).toMatch(/First touched .+, after 4 min of business hours\./);
    expect(within(sales).getByRole('link', { name: 'earlier lead of the same person' }).getAttribute('href')).toBe('/console/leads/lead-0');
    expect(
      within(sales)
        .getByRole('link', { name: /^ROI Calculator Form, / })
        .getAttribute('href'),
    ).toBe('/console/leads/lead-2');
    const crm = within(sales).getByRole('link', { name: 'Open in the CRM (opens a new tab)' });
    expect(crm.getAttribute('href')).toBe('https://crm.example.com/contacts/lead-1');
    expect(crm.getAttribute('rel')).toContain('noopener');
  });
});
