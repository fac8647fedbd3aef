// @vitest-environment happy-dom
// The inbox against a stand-in for the console's API: the filter goes to the address and to the API,
// older pages append, retries and erasures send the session's CSRF token and exactly what was chosen,
// and a role sees only the buttons it may use.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../api-types.ts';
import { leadSummary, renderConsole, sessionFor, stubConsoleServer, type Answer, type Handler } from '../testing/console-server.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function inbox(role: Role, routes: Record<string, Handler | Answer> = {}, address = '/console/leads') {
  const server = stubConsoleServer({
    'GET /session': { body: sessionFor(role) },
    'GET /leads': { body: { leads: [leadSummary('a'), leadSummary('b', { state: 'failed' })], next: null } },
    ...routes,
  });
  const app = renderConsole(address);
  return { server, app };
}

const rows = () => screen.getAllByRole('row').slice(1);

describe('the inbox filter', () => {
  it('writes the chosen filters and the search to the address and asks the API for them', async () => {
    const { server, app } = inbox('viewer');
    await screen.findByText('Person a');
    fireEvent.change(screen.getByLabelText('Form'), { target: { value: 'AI ROI Calculator + Lead Form' } });
    fireEvent.change(screen.getByLabelText('CRM delivery'), { target: { value: 'failed' } });
    fireEvent.change(screen.getByLabelText('Received from'), { target: { value: '2025-02-01' } });
    fireEvent.change(screen.getByLabelText('Campaign (utm_campaign)'), { target: { value: 'spring' } });
    fireEvent.change(screen.getByLabelText('Search name, e-mail or company'), { target: { value: 'ada lovelace' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));

    await waitFor(() => expect(server.made('GET /leads')).toHaveLength(2));
    const query = new URLSearchParams(app.location().search);
    expect(Object.fromEntries(query)).toEqual({
      q: 'ada lovelace',
      form: 'AI ROI Calculator + Lead Form',
      state: 'failed',
      from: '2025-02-01',
      campaign: 'spring',
    });
    expect(Object.fromEntries(server.made('GET /leads')[1]!.query)).toEqual({ ...Object.fromEntries(query), spam: 'no' });
    const exportCsv = new URL(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')!, 'http://console.test');
    expect(exportCsv.pathname).toBe('/console/api/leads/export');
    expect(Object.fromEntries(exportCsv.searchParams)).toEqual({ ...Object.fromEntries(query), spam: 'no', format: 'csv' });
  });

  it('a link with a filter opens with the filter filled in and applied, and never with spam mixed in', async () => {
    const { server } = inbox('viewer', {}, '/console/leads?form=Contact+Page+Form&spam=yes&q=acme&state=retrying');
    await screen.findByText('Person a');
    expect(screen.getByLabelText<HTMLSelectElement>('Form').value).toBe('Contact Page Form');
    expect(screen.getByLabelText<HTMLSelectElement>('CRM delivery').value).toBe('retrying');
    expect(screen.getByLabelText<HTMLInputElement>('Search name, e-mail or company').value).toBe('acme');
    expect(Object.fromEntries(server.made('GET /leads')[0]!.query)).toEqual({
      q: 'acme',
      form: 'Contact Page Form',
      state: 'retrying',
      spam: 'no',
    });
    expect(screen.queryByLabelText('Spam')).toBeNull();
  });

  it('asks for the leads that are not spam when no filter is set', async () => {
    const { server } = inbox('viewer');
    await screen.findByText('Person a');
    expect(Object.fromEntries(server.made('GET /leads')[0]!.query)).toEqual({ spam: 'no' });
  });

  it('says when no lead matches, and when the leads cannot be loaded', async () => {
    inbox('viewer', { 'GET /leads': { body: { leads: [], next: null } } });
    expect(await screen.findByText('No leads match these filters.')).toBeTruthy();
    cleanup();
    inbox('viewer', { 'GET /leads': { status: 503, body: { error: 'unavailable', message: 'The lead store is not answering.' } } });
    expect((await screen.findByRole('alert')).textContent).toBe('The lead store is not answering.');
  });
});

describe('older leads', () => {
  it('loads the next page through the cursor and adds it under the first, newest first', async () => {
    const { server } = inbox(
      'viewer',
      {
        'GET /leads': ({ query }) =>
          query.get('after') === 'cursor-1'
            ? { body: { leads: [leadSummary('c'), leadSummary('d')], next: null } }
            : { body: { leads: [leadSummary('a'), leadSummary('b')], next: 'cursor-1' } },
      },
      '/console/leads?state=failed',
    );
    await screen.findByText('Person a');
    fireEvent.click(screen.getByRole('button', { name: 'Older leads' }));
    await screen.findByText('Person d');
    expect(rows().map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual(['Person a', 'Person b', 'Person c', 'Person d']);
    const older = server.made('GET /leads')[1]!;
    expect(older.query.get('after')).toBe('cursor-1');
    expect(older.query.get('state')).toBe('failed');
    expect(screen.queryByRole('button', { name: 'Older leads' })).toBeNull();
  });
});

describe('retrying leads', () => {
  const NONE_SENT = { failed: 0, held: 0, waiting: 0, retrying: 0 };
  const NONE_SKIPPED = { spam: 0, delivered: 0, sending: 0, missing: 0 };
  /** Seven leads shown: one failed, one held, three spam (shown before they were judged so) and two delivered. */
  const SEVEN = [
    leadSummary('f', { state: 'failed' }),
    leadSummary('h', { state: 'held', attempts: 0 }),
    leadSummary('s1', { state: 'spam', attempts: 0 }),
    leadSummary('s2', { state: 'spam', attempts: 0 }),
    leadSummary('s3', { state: 'spam', attempts: 0 }),
    leadSummary('d1'),
    leadSummary('d2', { state: 'delivered-test' }),
  ];

  it('asks first, counting what will be sent and what skipped, then says what the server sent', async () => {
    const { server } = inbox('sales', {
      'GET /leads': { body: { leads: SEVEN, next: null } },
      'POST /leads/retry': {
        body: { retried: 2, sent: { ...NONE_SENT, failed: 1, held: 1 }, skipped: { ...NONE_SKIPPED, spam: 3, delivered: 2 } },
      },
    });
    await screen.findByText('Person f');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every lead shown' }));
    fireEvent.click(screen.getByRole('button', { name: 'Retry selected (7)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry the selected leads' });
    expect(within(dialog).getByRole('status').textContent).toBe(
      '2 leads will be sent to the CRM: 1 failed and 1 held. 3 spam and 2 already delivered will be skipped.',
    );
    expect(server.made('POST /leads/retry')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send 2 leads' }));
    expect(
      await screen.findByText('2 leads will be sent to the CRM: 1 failed and 1 held. Skipped: 3 spam and 2 already delivered.'),
    ).toBeTruthy();
    const [retry] = server.made('POST /leads/retry');
    expect(retry!.headers['x-csrf-token']).toBe('csrf-sales');
    expect(retry!.credentials).toBe('same-origin');
    expect(retry!.body).toEqual({ ids: SEVEN.map((lead) => lead.id) });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(server.made('GET /leads')).toHaveLength(2));
  });

  it('offers nothing to send when every selected lead is spam or delivered, and Cancel sends nothing', async () => {
    const { server } = inbox('sales', { 'GET /leads': { body: { leads: SEVEN.slice(2), next: null } } });
    await screen.findByText('Person d1');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every lead shown' }));
    fireEvent.click(screen.getByRole('button', { name: 'Retry selected (5)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry the selected leads' });
    expect(within(dialog).getByRole('status').textContent).toBe(
      'None of the selected leads can be retried: 3 spam and 2 already delivered.',
    );
    expect(within(dialog).queryByRole('button', { name: /^Send/ })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.made('POST /leads/retry')).toEqual([]);
  });

  it('retries every failed lead in one call, and says so in the words the health screen uses', async () => {
    const { server } = inbox('admin', {
      'POST /leads/retry': { body: { retried: 7, sent: { ...NONE_SENT, failed: 7 }, skipped: NONE_SKIPPED } },
    });
    await screen.findByText('Person a');
    fireEvent.click(screen.getByRole('button', { name: 'Retry every failed lead' }));
    expect(await screen.findByText('7 failed leads will be sent to the CRM again.')).toBeTruthy();
    expect(server.made('POST /leads/retry')[0]!.body).toEqual({ allFailed: true });
  });

  it('says that retrying leads keep their schedule when no lead has failed', async () => {
    inbox('admin', { 'POST /leads/retry': { body: { retried: 0, sent: NONE_SENT, skipped: NONE_SKIPPED } } });
    await screen.findByText('Person a');
    fireEvent.click(screen.getByRole('button', { name: 'Retry every failed lead' }));
    expect(
      await screen.findByText('No lead has failed: nothing was sent. Leads that are retrying are tried again on their own schedule.'),
    ).toBeTruthy();
  });

  it('a role the server refuses reads "Your role cannot do this."', async () => {
    inbox('sales', { 'POST /leads/retry': { status: 403, body: { error: 'forbidden', message: 'Forbidden' } } });
    await screen.findByText('Person a');
    fireEvent.click(screen.getByRole('button', { name: 'Retry every failed lead' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your role cannot do this.');
  });
});

describe('what a role sees', () => {
  it('a viewer reads and exports, with no selection, retry or erase', async () => {
    inbox('viewer');
    await screen.findByText('Person a');
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /retry/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Erase by e-mail' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Export JSON' })).toBeTruthy();
  });

  it('sales may retry but not erase', async () => {
    inbox('sales');
    await screen.findByText('Person a');
    expect(screen.getByRole('button', { name: 'Retry every failed lead' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Erase by e-mail' })).toBeNull();
  });

  it('shows the CRM delivery as words in each row, never as a sale: waiting and retrying told apart', async () => {
    inbox('viewer', {
      'GET /leads': {
        body: {
          leads: [
            leadSummary('a'),
            leadSummary('b', { state: 'failed' }),
            leadSummary('c', { state: 'pending', attempts: 0 }),
            leadSummary('d', { state: 'pending', attempts: 2 }),
          ],
          next: null,
        },
      },
    });
    await screen.findByText('Person a');
    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    const state = headers.indexOf('CRM delivery');
    expect(rows().map((row) => row.children[state]!.textContent)).toEqual([
      'Sent to the CRM',
      'Gave up',
      'Waiting to be sent',
      'Still trying',
    ]);
  });

  it('shows where the sale stands, the phone as a link that calls and the owner, the sale beside the name', async () => {
    inbox('sales', {
      'GET /leads': {
        body: {
          leads: [
            leadSummary('a', { phone: '+1 (212) 555-0100', owner: { id: 'acct-3', email: 'sam@example.com' }, salesStatus: 'contacted' }),
            leadSummary('b', { phone: '', owner: null, salesStatus: 'new' }),
          ],
          next: null,
        },
      },
    });
    await screen.findByText('Person a');
    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    // The sale and the phone sit beside the name, where a phone's screen shows them without scrolling the table sideways.
    expect(headers.indexOf('Sale')).toBe(headers.indexOf('Name') + 1);
    expect(headers.indexOf('Phone')).toBe(headers.indexOf('Name') + 2);
    const cells = (row: number, name: string) => rows()[row]!.children[headers.indexOf(name)]!;
    expect(cells(0, 'Sale').textContent).toBe('Contacted');
    expect(
      within(cells(0, 'Phone') as HTMLElement)
        .getByRole('link', { name: '+1 (212) 555-0100' })
        .getAttribute('href'),
    ).toBe('tel:+12125550100');
    expect(cells(0, 'Owner').textContent).toBe('sam@example.com');
    expect(cells(1, 'Sale').textContent).toBe('New');
    expect(cells(1, 'Owner').textContent).toBe('Nobody yet');
  });
});

describe('erasing by e-mail', () => {
  it('shows how many leads would go before the button that erases them, and sends that count', async () => {
    const { server } = inbox('admin', {
      'GET /erasures': { body: { count: 3 } },
      'POST /erasures': { body: { erased: 3 } },
    });
    await screen.findByText('Person a');
    fireEvent.click(screen.getByRole('button', { name: 'Erase by e-mail' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase by e-mail' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('E-mail address'));
    expect(within(dialog).queryByRole('button', { name: /^Erase/ })).toBeNull();

    fireEvent.change(within(dialog).getByLabelText('E-mail address'), { target: { value: 'gone@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Find their leads' }));
    expect(
      await within(dialog).findByText('This will permanently erase 3 leads from gone@example.com. This cannot be undone.'),
    ).toBeTruthy();
    expect(server.made('GET /erasures')[0]!.query.get('email')).toBe('gone@example.com');
    expect(server.made('POST /erasures')).toEqual([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Erase 3 leads' }));
    expect(await screen.findByText('Erased 3 leads from gone@example.com.')).toBeTruthy();
    const [erase] = server.made('POST /erasures');
    expect(erase!.body).toEqual({ email: 'gone@example.com', count: 3 });
    expect(erase!.headers['x-csrf-token']).toBe('csrf-admin');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers nothing to erase when the address has no leads', async () => {
    inbox('admin', { 'GET /erasures': { body: { count: 0 } } });
    await screen.findByText('Person a');
    fireEvent.click(screen.getByRole('button', { name: 'Erase by e-mail' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('E-mail address'), { target: { value: 'nobody@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Find their leads' }));
    expect(await within(dialog).findByText('No leads from nobody@example.com.')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: /^Erase/ })).toBeNull();
  });
});

describe('text a visitor typed', () => {
  it('sits in its own direction island in each cell, so a direction control cannot reorder the row', async () => {
    const reversed = 'Bob\u202Egnp.exe';
    inbox('viewer', {
      'GET /leads': { body: { leads: [leadSummary('a', { name: reversed, company: 'Acme\u202E' })], next: null } },
    });
    const cell = await screen.findByText(reversed);
    expect(cell.tagName).toBe('BDI');
    expect(cell.getAttribute('dir')).toBe('auto');
    const row = rows()[0]!;
    expect([...row.querySelectorAll('bdi')].map((element) => element.textContent)).toEqual([reversed, expect.any(String), 'Acme\u202E']);
  });
});

describe('call me back now', () => {
  it('marks the row of a lead whose visitor asked for a call-back now, and only that row', async () => {
    inbox('viewer', {
      'GET /leads': { body: { leads: [leadSummary('a', { callbackRequested: true }), leadSummary('b')], next: null } },
    });
    await screen.findByText('Person a');
    const [asked, other] = rows();
    expect(within(asked!).getByText('Asked for a call-back now')).toBeTruthy();
    expect(within(other!).queryByText('Asked for a call-back now')).toBeNull();
  });
});
