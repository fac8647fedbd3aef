// @vitest-environment happy-dom
// Settings → Sales team against a stand-in for the console's API: each person's hours, zone and
// whether they could take a lead now; one's own away switch and hours; and, for those who manage the
// team, the assignment rules in order, with the server's warning beside a rule that gives leads to nobody.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AssignmentRules, Role, SalesPerson } from '../../api-types.ts';
import { describedBy } from '../testing/described-by.ts';
import { renderConsole, sessionFor, stubConsoleServer, type Answer, type Handler } from '../testing/console-server.tsx';
import { describeHours } from './SalesTeamSection.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const WEEKDAYS = [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 540, endMinute: 1080 }));
const person = (id: string, email: string, overrides: Partial<SalesPerson> = {}): SalesPerson => ({
  id,
  email,
  role: 'sales',
  timeZone: 'America/New_York',
  windows: WEEKDAYS,
  away: false,
  availableNow: true,
  untouched: 2,
  ...overrides,
});
// The signed-in person is acct-7 (sessionFor).
const PEOPLE: SalesPerson[] = [
  person('acct-7', 'sales@example.com'),
  person('acct-8', 'ana@example.com', { timeZone: 'Europe/Berlin', away: true, availableNow: false, untouched: 0 }),
];
const RULES: AssignmentRules = {
  rules: [
    { kind: 'form', value: 'Contact Page Form', owner: { id: 'acct-8', email: 'ana@example.com' }, warning: null },
    { kind: 'campaign', value: 'spring', owner: { id: 'acct-7', email: 'sales@example.com' }, warning: null },
  ],
};

function settings(role: Role, routes: Record<string, Handler | Answer> = {}) {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor(role) },
    'GET /notifications': { body: { email: false, webhook: false, alertAfterMinutes: 30, forms: [] } },
    'GET /health': { body: { retention: { leadDays: null, spamDays: 30 } } },
    'GET /accounts': { body: [] },
    'GET /people': { body: PEOPLE },
    'GET /assignment-rules': { body: RULES },
    'GET /me/weekly-summary': { body: { enabled: false, emailConfigured: false, schedule: 'Mondays at 8:00 AM, New York time' } },
    ...routes,
  });
  renderConsole('/console/settings');
  return server;
}

/** A person's entry in the team list. */
const personItem = (email: string) =>
  waitFor(() => {
    const item = screen.getAllByRole('listitem').find((each) => each.querySelector('.person-name strong')?.textContent === email);
    if (!item) throw new Error(`${email} is not listed in the sales team`);
    return item;
  });

describe('the sales team', () => {
  it("shows each person's hours, zone, leads waiting and whether they could take a lead now", async () => {
    settings('sales');
    const me = await personItem('sales@example.com');
    expect(me.textContent).toContain('(you)');
    expect(within(me).getByText('Available now')).toBeTruthy();
    expect(me.textContent).toContain('Mon-Fri 9:00 AM-6:00 PM, New York time. 2 leads waiting for a first call.');
    const ana = await personItem('ana@example.com');
    expect(within(ana).getByText('Away')).toBeTruthy();
    expect(ana.textContent).toContain('Berlin time');
  });

  it('lets a salesperson switch only their own away switch, sending their hours unchanged with the CSRF token', async () => {
    const server = settings('sales', { 'PUT /people/acct-7/availability': { body: { ...PEOPLE[0], away: true, availableNow: false } } });
    const me = await personItem('sales@example.com');
    expect(within(await personItem('ana@example.com')).queryByRole('switch')).toBeNull();
    expect(within(await personItem('ana@example.com')).queryByRole('button')).toBeNull();
    fireEvent.click(within(me).getByRole('switch', { name: 'Away' }));
    expect(await screen.findByText('You are away: new leads go to the others.')).toBeTruthy();
    const [put] = server.made('PUT /people/acct-7/availability');
    expect(put!.body).toEqual({ timeZone: 'America/New_York', windows: WEEKDAYS, away: true });
    expect(put!.headers['x-csrf-token']).toBe('csrf-sales');
  });

  it('changes one’s own hours: time zone, days and times, refusing an end before the start', async () => {
    const saved: SalesPerson = {
      ...PEOPLE[0]!,
      timeZone: 'America/Chicago',
      windows: [
        { day: 1, startMinute: 480, endMinute: 960 },
        { day: 2, startMinute: 540, endMinute: 1080 },
      ],
    };
    const server = settings('sales', { 'PUT /people/acct-7/availability': { body: saved } });
    const me = await personItem('sales@example.com');
    const open = within(me).getByRole('button', { name: 'Change your hours' });
    fireEvent.click(open);
    const form = within(me).getByRole('form', { name: 'Working hours of sales@example.com' });
    const zone = within(form).getByLabelText<HTMLSelectElement>('Time zone');
    expect(document.activeElement).toBe(zone);
    expect([...zone.options].some((option) => option.value === 'Europe/Berlin')).toBe(true);
    fireEvent.change(zone, { target: { value: 'America/Chicago' } });
    for (const day of ['Wednesday', 'Thursday', 'Friday']) fireEvent.click(within(form).getByRole('checkbox', { name: day }));
    fireEvent.change(within(form).getByLabelText('From (Monday)'), { target: { value: '08:00' } });
    fireEvent.change(within(form).getByLabelText('To (Monday)'), { target: { value: '07:00' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save the hours' }));
    const to = within(form).getByLabelText('To (Monday)');
    expect(describedBy(to)).toBe('Must be later than the start.');
    expect(document.activeElement).toBe(to);
    expect(server.made('PUT /people/acct-7/availability')).toEqual([]);

    fireEvent.change(to, { target: { value: '16:00' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save the hours' }));
    expect(await screen.findByText('Saved your hours: Mon 8:00 AM-4:00 PM; Tue 9:00 AM-6:00 PM, Chicago time.')).toBeTruthy();
    const [put] = server.made('PUT /people/acct-7/availability');
    expect(put!.body).toEqual({
      timeZone: 'America/Chicago',
      windows: [
        { day: 1, startMinute: 480, endMinute: 960 },
        { day: 2, startMinute: 540, endMinute: 1080 },
      ],
      away: false,
    });
    expect(document.activeElement).toBe(within(me).getByRole('button', { name: 'Change your hours' }));
  });

  it('shows the server’s word on the time zone beside it', async () => {
    settings('sales', {
      'PUT /people/acct-7/availability': {
        status: 400,
        body: { error: 'validation', message: 'Check the hours.', fields: { timeZone: 'Choose a time zone from the list.' } },
      },
    });
    const me = await personItem('sales@example.com');
    fireEvent.click(within(me).getByRole('button', { name: 'Change your hours' }));
    fireEvent.click(within(me).getByRole('button', { name: 'Save the hours' }));
    await waitFor(() => expect(describedBy(within(me).getByLabelText('Time zone'))).toContain('Choose a time zone from the list.'));
  });

  it('is not shown to a viewer, who works no leads', async () => {
    const server = settings('viewer');
    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Sales team' })).toBeNull();
    expect(server.made('GET /people')).toEqual([]);
  });
});

describe('the assignment rules', () => {
  it('are for those who manage the team: a salesperson neither sees nor loads them', async () => {
    const server = settings('sales');
    await personItem('sales@example.com');
    expect(screen.queryByRole('heading', { name: 'Assignment rules' })).toBeNull();
    expect(server.made('GET /assignment-rules')).toEqual([]);
  });

  it('an admin moves, adds and saves rules in order, and sees the warning the server gives beside its rule', async () => {
    const warning = 'This rule gives leads to nobody: no form is called "Contact form".';
    const server = settings('admin', {
      'PUT /assignment-rules': {
        body: {
          rules: [
            { kind: 'campaign', value: 'spring', owner: { id: 'acct-7', email: 'sales@example.com' }, warning: null },
            { kind: 'form', value: 'Contact form', owner: { id: 'acct-8', email: 'ana@example.com' }, warning },
            { kind: 'domain', value: '', owner: null, warning: null },
          ],
        },
      },
    });
    const rules = await screen.findByRole('form', { name: 'Assignment rules' });
    const rule = (n: number) => within(rules).getByRole('group', { name: `Rule ${n}` });
    expect(within(rule(1)).getByLabelText<HTMLInputElement>('Form name').value).toBe('Contact Page Form');
    expect(within(rule(1)).getByRole('button', { name: 'Move up rule 1' })).toHaveProperty('disabled', true);

    fireEvent.click(within(rule(2)).getByRole('button', { name: 'Move up rule 2' }));
    expect(within(rule(1)).getByLabelText<HTMLInputElement>('Campaign').value).toBe('spring');
    // The moved rule reached the top, so the focus stays with it on the button still usable.
    expect(document.activeElement).toBe(within(rule(1)).getByRole('button', { name: 'Move down rule 1' }));
    fireEvent.change(within(rule(2)).getByLabelText('Form name'), { target: { value: 'Contact form' } });

    fireEvent.click(within(rules).getByRole('button', { name: 'Add a rule' }));
    const kind = within(rule(3)).getByLabelText('Leads by');
    expect(document.activeElement).toBe(kind);
    fireEvent.change(kind, { target: { value: 'domain' } });
    expect(within(rule(3)).queryByLabelText('Goes to')).toBeNull();

    fireEvent.click(within(rules).getByRole('button', { name: 'Save the rules' }));
    expect(await screen.findByText('Rules saved. 1 rule gives leads to nobody: see the warning beside it.')).toBeTruthy();
    const [put] = server.made('PUT /assignment-rules');
    expect(put!.body).toEqual({
      rules: [
        { kind: 'campaign', value: 'spring', ownerId: 'acct-7' },
        { kind: 'form', value: 'Contact form', ownerId: 'acct-8' },
        { kind: 'domain', value: '', ownerId: null },
      ],
    });
    expect(put!.headers['x-csrf-token']).toBe('csrf-admin');
    expect(within(rule(2)).getByText(warning)).toBeTruthy();
    expect(describedBy(within(rule(2)).getByLabelText('Form name'))).toContain(warning);
  });

  it('refuses a rule without its value or person, naming the field, and sends nothing', async () => {
    const server = settings('admin');
    const rules = await screen.findByRole('form', { name: 'Assignment rules' });
    fireEvent.click(within(rules).getByRole('button', { name: 'Add a rule' }));
    fireEvent.click(within(rules).getByRole('button', { name: 'Save the rules' }));
    const added = within(rules).getByRole('group', { name: 'Rule 3' });
    const value = within(added).getByLabelText('Form name');
    expect(describedBy(value)).toContain('Fill this in, or remove the rule.');
    expect(describedBy(within(added).getByLabelText('Goes to'))).toBe('Choose who gets these leads.');
    expect(document.activeElement).toBe(value);
    expect(server.made('PUT /assignment-rules')).toEqual([]);

    fireEvent.click(within(added).getByRole('button', { name: 'Remove rule 3' }));
    expect(within(rules).queryByRole('group', { name: 'Rule 3' })).toBeNull();
    expect(document.activeElement).toBe(within(rules).getByRole('button', { name: 'Add a rule' }));
  });

  it('shows the server’s sentence when the rules cannot be read', async () => {
    settings('admin', {
      'GET /assignment-rules': { status: 503, body: { error: 'unavailable', message: 'The database is not answering.' } },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('The database is not answering.');
  });
});

describe('working hours in words', () => {
  it('joins days that share their hours, and lists them one by one otherwise', () => {
    expect(describeHours(WEEKDAYS)).toBe('Mon-Fri 9:00 AM-6:00 PM');
    expect(describeHours([])).toBe('No working hours set');
    expect(
      describeHours([
        { day: 0, startMinute: 600, endMinute: 720 },
        { day: 1, startMinute: 540, endMinute: 1020 },
      ]),
    ).toBe('Mon 9:00 AM-5:00 PM; Sun 10:00 AM-12:00 PM');
  });
});
