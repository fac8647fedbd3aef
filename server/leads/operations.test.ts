// The inbox operations behind the console and `npm run leads`: each change writes its entry with
// the actor and moment the caller names, in the console's words; a change the store refuses (a lead
// the CRM has, one that is not there) writes nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database as LeadStore } from '../store/database.ts';
import type { NewLead } from '../store/outbox/outbox-store.ts';
import { openSqliteStore } from '../store/sqlite-store.ts';
import { describeFilter, eraseLeadsByEmail, markLeadSpam, recordLeadExport, retryLeads, sendLeadAgain } from './operations.ts';

const AT = Date.UTC(2025, 0, 15, 9, 0, 0);
const acting = { actor: 'owner@example.com', at: AT };

let folder: string;
let store: LeadStore;

function lead(id: string, overrides: Partial<NewLead> = {}): NewLead {
  return {
    id,
    receivedAt: AT - 1_000,
    source: 'Contact Page Form',
    email: `${id}@example.com`,
    payload: { name: 'Ana Lima', lead_id: id },
    spamReason: undefined,
    initialState: 'pending',
    ...overrides,
  };
}

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'lead-operations-'));
  store = openSqliteStore(path.join(folder, 'leads.sqlite'));
  await store.insertLead(lead('lead1', { initialState: 'held' }));
  await store.insertLead(lead('lead2', { initialState: 'spam', spamReason: 'honeypot' }));
});
afterEach(async () => {
  await store.close();
  await rm(folder, { recursive: true, force: true });
});

const audit = async () =>
  (await store.listAudit(undefined, 20)).entries.map(({ at, actor, action, detail }) => ({ at, actor, action, detail }));

describe('lead operations', () => {
  it('mark spam naming who judged it, and record it; a lead not there is refused and not recorded', async () => {
    expect(await markLeadSpam(store, acting, 'lead1')).toBe(true);
    expect(await store.getLead('lead1')).toMatchObject({ state: 'spam', spamReason: 'marked by owner@example.com' });
    expect(await markLeadSpam(store, acting, 'nope')).toBe(false);
    expect(await audit()).toEqual([{ at: AT, actor: 'owner@example.com', action: 'lead.spam', detail: 'lead1' }]);
  });

  it('send again only a lead the CRM has, and record only what was sent', async () => {
    expect(await sendLeadAgain(store, acting, 'lead1')).toBe(false);
    expect(await sendLeadAgain(store, acting, 'nope')).toBe(false);
    expect(await audit()).toEqual([]);
  });

  it('record a retry with what it sent and skipped, and an erasure by its count', async () => {
    expect((await retryLeads(store, acting, ['lead1', 'lead2', 'lead1'])).moved.map((moved) => moved.id)).toEqual(['lead1']);
    expect(await eraseLeadsByEmail(store, acting, 'LEAD2@example.com')).toEqual(['lead2']);
    expect(await eraseLeadsByEmail(store, acting, 'nobody@example.com')).toEqual([]);
    await recordLeadExport(store, acting, 'csv', { state: 'failed', q: 'Ana' });
    expect((await audit()).reverse()).toEqual([
      { at: AT, actor: 'owner@example.com', action: 'lead.retry', detail: 'sent 1 lead(s): lead1 (1 held); skipped 1 spam' },
      { at: AT, actor: 'owner@example.com', action: 'leads.erase', detail: '1 lead(s)' },
      { at: AT, actor: 'owner@example.com', action: 'leads.erase', detail: '0 lead(s)' },
      { at: AT, actor: 'owner@example.com', action: 'leads.export', detail: 'csv: state=failed, text search' },
    ]);
  });

  it('describe an export filter without the text typed into it', () => {
    expect(describeFilter({})).toBe('all leads');
    expect(describeFilter({ form: 'Contact Page Form', campaign: 'ana', source: 'x' })).toBe(
      'form=Contact Page Form, campaign filter, source filter',
    );
    expect(describeFilter({ form: 'Ana Lima' })).toBe('a form the site does not have');
  });
});
