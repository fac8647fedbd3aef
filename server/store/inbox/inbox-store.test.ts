import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import { buildLeadPageQuery } from '../lead-page-query.ts';
import type { LeadCursor, LeadQuery } from './inbox-store.ts';
import type { Database } from '../database.ts';
import { PURGE_BATCH_SIZE } from './inbox-store.ts';
import { delivered, HOUR, LEAD_WAIT_BOUND_MS, LEASE_MS, newLead, T0 } from '../../testing/store-fixtures.ts';

// The inbox store contract: the same tests against node:sqlite, node:sqlite on its
// worker thread and PostgreSQL. The PostgreSQL half needs TEST_DATABASE_URL; without it vitest
// reports it as skipped and the reason is printed.

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`inbox store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    describe('retry', () => {
      it('makes one failed lead due again with a fresh schedule, saying what it was', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 1, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([{ ...delivered(lead.id, 'w1', T0 + 10_000, 410), nextState: 'failed' }]);
        expect(await store.retry({ id: lead.id }, T0 + 20_000)).toEqual([{ id: lead.id, from: 'failed', attempts: 1 }]);
        expect(await store.getLead(lead.id)).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: T0 + 20_000 });
      });

      it('retries every failed lead, and never spam nor a lead the CRM already has, by id or in bulk', async () => {
        const failedIds: string[] = [];
        for (let index = 0; index < 3; index += 1) {
          const lead = newLead();
          failedIds.push(lead.id);
          await store.insertLead(lead);
        }
        const kept = newLead();
        const test = newLead();
        const spam = newLead({ initialState: 'spam', spamReason: 'too_fast' });
        await store.insertLead(kept);
        await store.insertLead(test);
        await store.insertLead(spam);
        const claimed = await store.claimDue({ now: T0 + 10_000, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        const outcomeOf = (id: string) => (id === kept.id ? 'delivered' : id === test.id ? 'delivered-test' : 'failed');
        await store.recordResults(
          claimed.map((claim) => ({ ...delivered(claim.leadId, 'w1', T0 + 10_000), nextState: outcomeOf(claim.leadId) })),
        );
        const retried = await store.retry({ state: 'failed' }, T0 + 20_000);
        expect(retried.map((lead) => lead.id).sort()).toEqual(failedIds.sort());
        expect(retried.every((lead) => lead.from === 'failed')).toBe(true);
        for (const id of [kept.id, test.id, spam.id, 'no-such-lead']) expect(await store.retry({ id }, T0 + 20_000)).toEqual([]);
        expect(await store.getLead(spam.id)).toMatchObject({ state: 'spam' });
        expect(await store.getLead(kept.id)).toMatchObject({ state: 'delivered' });
        expect(await store.getLead(test.id)).toMatchObject({ state: 'delivered-test' });
      });

      it('sends a delivered or test-delivered lead again only when asked to, never spam or a failed lead', async () => {
        const kept = newLead();
        const test = newLead();
        const failed = newLead();
        const spam = newLead({ initialState: 'spam', spamReason: 'too_fast' });
        for (const lead of [kept, test, failed, spam]) await store.insertLead(lead);
        const claimed = await store.claimDue({ now: T0 + 10_000, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        const outcomeOf = (id: string) => (id === kept.id ? 'delivered' : id === test.id ? 'delivered-test' : 'failed');
        await store.recordResults(
          claimed.map((claim) => ({ ...delivered(claim.leadId, 'w1', T0 + 10_000), nextState: outcomeOf(claim.leadId) })),
        );
        expect(await store.sendAgain(kept.id, T0 + 20_000)).toBe(true);
        expect(await store.sendAgain(test.id, T0 + 20_000)).toBe(true);
        expect(await store.getLead(kept.id)).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: T0 + 20_000 });
        expect(await store.getLead(test.id)).toMatchObject({ state: 'pending', attempts: 0 });
        for (const id of [failed.id, spam.id, 'no-such-lead']) expect(await store.sendAgain(id, T0 + 20_000)).toBe(false);
        expect(await store.getLead(spam.id)).toMatchObject({ state: 'spam' });
      });

      it('leaves a lead alone while a worker holds it', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 1, owner: 'w1', leaseMs: LEASE_MS });
        expect(await store.retry({ id: lead.id }, T0 + 10_001)).toEqual([]);
      });
    });

    describe('eraseByEmail', () => {
      it('deletes every lead of that address, whatever its case, with its delivery history', async () => {
        const first = newLead({ email: 'Ana@Example.com' });
        const second = newLead({ email: 'ana@example.com' });
        const other = newLead();
        for (const lead of [first, second, other]) await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([delivered(first.id, 'w1', T0 + 10_000)]);
        expect((await store.eraseByEmail(' ANA@example.COM ')).sort()).toEqual([first.id, second.id].sort());
        expect(await store.getLead(first.id)).toBeUndefined();
        expect(await store.listAttempts(first.id)).toEqual([]);
        expect((await store.listLeads()).map((lead) => lead.id)).toEqual([other.id]);
        // A result arriving for an erased lead leaves no trace.
        await store.recordResults([delivered(second.id, 'w1', T0 + 10_001)]);
        expect(await store.listAttempts(second.id)).toEqual([]);
      });
    });

    describe('listing', () => {
      it('lists oldest first, filters by state, limits, and counts by state', async () => {
        const leads = [newLead(), newLead({ initialState: 'held' }), newLead()];
        for (const lead of leads) await store.insertLead(lead);
        expect((await store.listLeads()).map((lead) => lead.id)).toEqual(leads.map((lead) => lead.id));
        expect((await store.listLeads({ state: 'held' })).map((lead) => lead.id)).toEqual([leads[1]?.id]);
        expect(await store.listLeads({ limit: 1 })).toHaveLength(1);
        expect(await store.countByState()).toEqual({ pending: 2, held: 1 });
      });
    });

    describe('openLeadExport', () => {
      // Many leads written past the store in one statement, received T0+1 … T0+count, all delivered.
      async function seedLeads(count: number): Promise<void> {
        const numbers =
          harness.kind === 'postgres'
            ? `SELECT i FROM generate_series(1, ${count}) AS i`
            : `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count}) SELECT i FROM n`;
        const id = harness.kind === 'postgres' ? `'bulk-' || lpad(i::text, 6, '0')` : `printf('bulk-%06d', i)`;
        const payload =
          harness.kind === 'postgres'
            ? `json_build_object('name', 'Person ' || i, 'email', 'p' || i || '@example.com')::text`
            : `json_object('name', 'Person ' || i, 'email', 'p' || i || '@example.com')`;
        await database.execute(`
          INSERT INTO leads (id, received_at, source, email, payload, name, company)
            SELECT ${id}, ${T0} + i, 'Contact Page Form', 'p' || i || '@example.com', ${payload}, 'Person ' || i, 'Acme'
            FROM (${numbers}) AS numbers;
          INSERT INTO deliveries (lead_id, state, updated_at, received_at) SELECT id, 'delivered', received_at, received_at FROM leads;`);
      }

      async function readAll(reader: Awaited<ReturnType<Database['openLeadExport']>>): Promise<string[]> {
        const ids: string[] = [];
        for (;;) {
          const leads = await reader.nextPage(200);
          if (leads.length === 0) return ids;
          ids.push(...leads.map((lead) => lead.id));
          // As a download does: the page is sent before the next is read.
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }

      it('reads every lead as it was when the download began, while new leads are taken without waiting', async () => {
        const COUNT = 10_000;
        await seedLeads(COUNT);
        const everyLead = Array.from({ length: COUNT }, (_, index) => `bulk-${String(COUNT - index).padStart(6, '0')}`);
        const [all, searched] = await Promise.all([store.openLeadExport({}), store.openLeadExport({ search: 'person' })]);

        // Meanwhile leads arrive (received before every seeded one, so a read that is no snapshot would
        // end with them) and a seeded lead the downloads have not reached yet is erased.
        let reading = true;
        const insertMs: number[] = [];
        const taking = (async () => {
          for (let index = 0; reading; index += 1) {
            const started = performance.now();
            await store.insertLead(newLead({ receivedAt: T0 - 1_000 - index }));
            insertMs.push(performance.now() - started);
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        })();
        expect(await store.eraseByEmail('p1@example.com')).toEqual(['bulk-000001']);
        const [allIds, searchedIds] = await Promise.all([readAll(all), readAll(searched)]);
        reading = false;
        await taking;
        await Promise.all([all.close(), searched.close(), all.close()]);

        expect(allIds).toEqual(everyLead);
        expect(searchedIds).toEqual(everyLead);
        expect(insertMs.length).toBeGreaterThan(3);
        // A new lead waits for its own commit, never for a page of a download.
        expect(Math.max(...insertMs)).toBeLessThan(LEAD_WAIT_BOUND_MS);
        // Once closed, a download reads nothing more; the store goes on.
        expect(await all.nextPage(200)).toEqual([]);
        expect((await store.listLeadPage({ search: 'p2@example.com' }, undefined, 10)).leads.map((lead) => lead.id)).toEqual([
          'bulk-000002',
        ]);
      });

      it('reads only the leads the query matches, in pages of the size asked', async () => {
        await seedLeads(450);
        const reader = await store.openLeadExport({ receivedFrom: T0 + 101, receivedBefore: T0 + 401 });
        const sizes: number[] = [];
        for (let leads = await reader.nextPage(120); leads.length > 0; leads = await reader.nextPage(120)) sizes.push(leads.length);
        await reader.close();
        expect(sizes).toEqual([120, 120, 60]);
      });
    });

    describe('listLeadPage', () => {
      const pageIds = async (query: LeadQuery, limit = 50) => (await store.listLeadPage(query, undefined, limit)).leads.map((l) => l.id);

      it('pages newest first without skipping or repeating leads received in the same millisecond', async () => {
        const times = [T0, T0 + 5, T0 + 5, T0 + 5, T0 + 9, T0 + 9, T0 + 20];
        const leads = times.map((receivedAt) => newLead({ receivedAt }));
        for (const lead of leads) await store.insertLead(lead);
        const expected = [...leads].sort((a, b) => b.receivedAt - a.receivedAt || (a.id < b.id ? 1 : -1)).map((lead) => lead.id);
        const seen: string[] = [];
        let after: LeadCursor | undefined;
        do {
          const page = await store.listLeadPage({}, after, 2);
          expect(page.leads.length).toBeLessThanOrEqual(2);
          seen.push(...page.leads.map((lead) => lead.id));
          after = page.next;
        } while (after !== undefined);
        expect(seen).toEqual(expected);
        const whole = await store.listLeadPage({}, undefined, leads.length);
        expect(whole.next).toBeUndefined();
        expect(whole.leads[0]).toMatchObject({ id: expected[0], name: "Seán O'Brien", company: 'Smith & Sons' });
      });

      it('filters by form, state, spam, date range, campaign and utm source', async () => {
        const contact = newLead({ source: 'Contact Page Form', payload: { name: 'A', utm_campaign: 'spring', utm_source: 'google' } });
        const held = newLead({ initialState: 'held', payload: { name: 'B', utm_campaign: 'spring', utm_source: 'newsletter' } });
        const spam = newLead({ initialState: 'spam', spamReason: 'honeypot', payload: { name: 'C', utm_campaign: 'autumn' } });
        const late = newLead({ receivedAt: T0 + HOUR, payload: { name: 'D' } });
        for (const lead of [contact, held, spam, late]) await store.insertLead(lead);
        expect(await pageIds({ source: 'Contact Page Form' })).toEqual([contact.id]);
        expect(await pageIds({ state: 'held' })).toEqual([held.id]);
        expect(await pageIds({ state: 'pending' })).toEqual([late.id, contact.id]);
        expect(await pageIds({ spam: true })).toEqual([spam.id]);
        expect(await pageIds({ spam: false })).toEqual([late.id, held.id, contact.id]);
        expect(await pageIds({ receivedFrom: held.receivedAt, receivedBefore: late.receivedAt })).toEqual([spam.id, held.id]);
        expect(await pageIds({ campaign: 'spring' })).toEqual([held.id, contact.id]);
        expect(await pageIds({ campaign: 'spring', utmSource: 'newsletter' })).toEqual([held.id]);
        expect(await pageIds({ utmSource: 'google', state: 'pending' })).toEqual([contact.id]);
        expect(await pageIds({ source: 'No Such Form' })).toEqual([]);
      });

      it('pages a filtered list the same way, the state filter included', async () => {
        const leads = [T0, T0, T0, T0 + 1].map((receivedAt) => newLead({ receivedAt, initialState: 'held' }));
        await store.insertLead(newLead({ receivedAt: T0 }));
        for (const lead of leads) await store.insertLead(lead);
        const first = await store.listLeadPage({ state: 'held' }, undefined, 3);
        const second = await store.listLeadPage({ state: 'held' }, first.next, 3);
        expect(second.next).toBeUndefined();
        expect([...first.leads, ...second.leads].map((lead) => lead.id).sort()).toEqual(leads.map((lead) => lead.id).sort());
      });

      it('searches part of a name or company and a whole address, in any case', async () => {
        const ana = newLead({ email: 'Ana.Lima@Example.com', payload: { name: 'Ana Lima', company: 'Northwind Traders' } });
        const sean = newLead({ email: 'sean@obrien.ie', payload: { name: "Seán O'Brien", company: 'Smith & Sons' } });
        const percent = newLead({ email: 'x@example.org', payload: { name: 'Ten% Off Ltd' } });
        for (const lead of [ana, sean, percent]) await store.insertLead(lead);
        expect(await pageIds({ search: 'lima' })).toEqual([ana.id]);
        expect(await pageIds({ search: "O'BRIEN" })).toEqual([sean.id]);
        expect(await pageIds({ search: 'northwind' })).toEqual([ana.id]);
        expect(await pageIds({ search: ' ANA.LIMA@example.COM ' })).toEqual([ana.id]);
        expect(await pageIds({ search: 'obrien.ie' })).toEqual([sean.id]);
        // Wildcards typed by a person are plain characters.
        expect(await pageIds({ search: '%' })).toEqual([percent.id]);
        expect(await pageIds({ search: '_' })).toEqual([]);
        expect(await pageIds({ search: 'nobody@example.com' })).toEqual([]);
        expect(await pageIds({ search: '  ' })).toHaveLength(3);
      });

      it('refuses a page size that is not a whole number of at least 1', async () => {
        await expect(store.listLeadPage({}, undefined, 0)).rejects.toThrow('page limit');
      });

      it("answers the first page, the inbox's every lead but spam, and a search by address from an index", async () => {
        for (let index = 0; index < 20; index += 1) await store.insertLead(newLead({ initialState: index % 2 === 0 ? 'spam' : 'pending' }));
        // Older leads, one in five spam, written past the store in one statement: enough rows that
        // PostgreSQL plans as it would for a real inbox instead of sorting a handful in memory.
        const older = Array.from({ length: 3_000 }, (_, index) => ({
          id: `older-${index}`,
          at: T0 - 3_000 + index,
          spam: index % 5 === 0,
        }));
        await database.execute(
          `INSERT INTO leads (id, received_at, source, email, payload) VALUES ${older
            .map(({ id, at }) => `('${id}', ${at}, 'Homepage Simple Lead Form', '${id}@example.com', '{}')`)
            .join(', ')};
           INSERT INTO deliveries (lead_id, state, updated_at, received_at) VALUES ${older
             .map(({ id, at, spam }) => `('${id}', '${spam ? 'spam' : 'delivered'}', ${at}, ${at})`)
             .join(', ')};`,
        );
        const dialect = harness.kind === 'postgres' ? 'postgres' : 'sqlite';
        const queries: LeadQuery[] = [
          {},
          { spam: false },
          { spam: false, receivedFrom: T0 },
          { search: 'Person3@example.com' },
          { state: 'pending' },
          { source: 'Contact Page Form' },
        ];
        for (const query of queries) {
          const { sql, params } = buildLeadPageQuery(dialect, query, undefined, 50);
          const plan = await database.explain(sql, params);
          if (dialect === 'sqlite') {
            expect(plan).not.toMatch(/SCAN (leads|l|deliveries|d)\b(?! USING)/);
            expect(plan).not.toContain('TEMP B-TREE');
          } else {
            expect(plan).toMatch(/Index (Only )?Scan/);
            expect(plan).not.toMatch(/Seq Scan on (leads|deliveries)/);
          }
          // Every lead but spam walks the index of exactly those, so a flood of spam is never read past.
          if (query.spam === false) expect(plan).toContain('deliveries_not_spam_newest');
        }
        const page = await store.listLeadPage({ spam: false }, undefined, 12);
        expect(page.leads.map((lead) => lead.state)).toEqual([...Array<string>(10).fill('pending'), 'delivered', 'delivered']);
      });
    });

    describe('spam marking', () => {
      it('moves a lead not yet delivered to spam with its reason, and back to pending, due now', async () => {
        const lead = newLead({ initialState: 'held' });
        await store.insertLead(lead);
        expect(await store.markSpam(lead.id, 'marked by ana@example.com', T0 + 100)).toBe(true);
        expect(await store.getLead(lead.id)).toMatchObject({ state: 'spam', spamReason: 'marked by ana@example.com', updatedAt: T0 + 100 });
        expect(await store.claimDue({ now: T0 + 10 ** 9, limit: 10, owner: 'w1', leaseMs: LEASE_MS })).toEqual([]);
        // What is forwarded is the lead as its form built it again, in place of what was stored.
        const rebuilt = {
          source: 'Contact Page Form',
          email: 'Ana@Example.com',
          payload: { name: 'Ana Lima', email: 'ana@example.com', company: 'Lima Co' },
        };
        expect(await store.markNotSpam(lead.id, T0 + 200, rebuilt)).toBe(true);
        expect(await store.getLead(lead.id)).toMatchObject({
          state: 'pending',
          spamReason: undefined,
          attempts: 0,
          nextAttemptAt: T0 + 200,
          source: 'Contact Page Form',
          email: 'ana@example.com',
          payload: rebuilt.payload,
          name: 'Ana Lima',
          company: 'Lima Co',
        });
        expect(await store.markNotSpam(lead.id, T0 + 300, rebuilt)).toBe(false);
        expect(await store.markNotSpam('no-such-lead', T0 + 300, rebuilt)).toBe(false);
        expect(await store.markSpam('no-such-lead', 'x', T0 + 300)).toBe(false);
      });

      it('never takes back a delivered lead, nor one a worker is sending', async () => {
        const sent = newLead();
        const sending = newLead();
        const failed = newLead();
        for (const lead of [sent, sending, failed]) await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([
          delivered(sent.id, 'w1', T0 + 10_000),
          { ...delivered(failed.id, 'w1', T0 + 10_000), nextState: 'failed' },
        ]);
        expect(await store.markSpam(sent.id, 'x', T0 + 10_001)).toBe(false);
        expect(await store.markSpam(sending.id, 'x', T0 + 10_001)).toBe(false);
        expect(await store.markSpam(failed.id, 'x', T0 + 10_001)).toBe(true);
        expect(await store.countByState()).toEqual({ delivered: 1, pending: 1, spam: 1 });
      });
    });

    it('counts the leads of an address as eraseByEmail would match them', async () => {
      for (const email of ['Ana@Example.com', 'ana@example.com', 'li@example.com']) await store.insertLead(newLead({ email }));
      expect(await store.countLeadsByEmail(' ANA@example.COM ')).toBe(2);
      expect(await store.countLeadsByEmail('nobody@example.com')).toBe(0);
    });

    describe('leadHealth', () => {
      it('reports the week per form and per day, deliveries, failures, the oldest waiting lead and the backlog', async () => {
        const now = Date.UTC(2025, 0, 15, 12, 0, 0);
        const DAY = 24 * HOUR;
        const contact = 'Contact Page Form';
        const home = 'Homepage Simple Lead Form';
        const b = newLead({ source: contact, receivedAt: now - 2 * DAY });
        const c = newLead({ source: home, receivedAt: now - 6 * DAY });
        const f = newLead({ source: contact, receivedAt: now - HOUR });
        const g = newLead({ source: home, receivedAt: now - 3 * DAY });
        for (const lead of [b, c, f, g]) await store.insertLead(lead);
        await store.claimDue({ now, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([
          delivered(b.id, 'w1', now - HOUR),
          { ...delivered(c.id, 'w1', now - 30 * HOUR), nextState: 'delivered-test' },
          { ...delivered(f.id, 'w1', now - HOUR, 503), nextState: 'pending', nextAttemptAt: now + HOUR },
          { ...delivered(g.id, 'w1', now - HOUR, 410), nextState: 'failed' },
        ]);
        const a = newLead({ source: contact, receivedAt: now - 2 * HOUR });
        const d = newLead({ source: home, receivedAt: now - 7 * DAY, initialState: 'held' });
        const e = newLead({ source: home, receivedAt: now - HOUR, initialState: 'spam', spamReason: 'honeypot' });
        for (const lead of [a, d, e]) await store.insertLead(lead);

        expect(await store.leadHealth(now)).toEqual({
          perForm: [
            { source: contact, today: 2, week: 3 },
            { source: home, today: 0, week: 2 },
          ],
          perDay: [
            { day: '2025-01-09', leads: 1 },
            { day: '2025-01-10', leads: 0 },
            { day: '2025-01-11', leads: 0 },
            { day: '2025-01-12', leads: 1 },
            { day: '2025-01-13', leads: 1 },
            { day: '2025-01-14', leads: 0 },
            { day: '2025-01-15', leads: 2 },
          ],
          deliveredLast24h: 1,
          failed: 1,
          retrying: 1,
          spamWeek: 1,
          oldestUndelivered: { id: d.id, receivedAt: d.receivedAt },
          lastDeliveredAt: now - HOUR,
          lastFailedAt: now - HOUR,
          pending: 2,
        });
      });

      it('reports an empty store as nothing waiting and nothing delivered', async () => {
        const health = await store.leadHealth(T0);
        expect(health).toMatchObject({
          perForm: [],
          deliveredLast24h: 0,
          failed: 0,
          retrying: 0,
          spamWeek: 0,
          oldestUndelivered: undefined,
          pending: 0,
        });
        expect(health.lastDeliveredAt).toBeUndefined();
        expect(health.lastFailedAt).toBeUndefined();
        expect(health.perDay.map((day) => day.leads)).toEqual([0, 0, 0, 0, 0, 0, 0]);
      });
    });

    describe('purgeExpired', () => {
      it('deletes old delivered, failed and spam leads with their history, never one still to be sent', async () => {
        const old = T0 - 100 * 24 * HOUR;
        const sent = newLead({ receivedAt: old });
        const failed = newLead({ receivedAt: old });
        const sending = newLead({ receivedAt: old });
        const waiting = newLead({ receivedAt: old + 1 });
        const held = newLead({ receivedAt: old, initialState: 'held' });
        const oldSpam = newLead({ receivedAt: old, initialState: 'spam', spamReason: 'honeypot' });
        const recent = newLead({ receivedAt: T0 });
        const recentSpam = newLead({ receivedAt: T0, initialState: 'spam', spamReason: 'too fast' });
        for (const lead of [sent, failed, sending, recent]) await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([
          delivered(sent.id, 'w1', T0 + 10_000),
          delivered(recent.id, 'w1', T0 + 10_000),
          { ...delivered(failed.id, 'w1', T0 + 10_000, 410), nextState: 'failed' },
        ]);
        for (const lead of [waiting, held, oldSpam, recentSpam]) await store.insertLead(lead);

        expect(await store.purgeExpired({ leadsReceivedBefore: T0 - HOUR, spamReceivedBefore: T0 - HOUR })).toEqual({ leads: 2, spam: 1 });
        const left = (await store.listLeads()).map((lead) => lead.id).sort();
        expect(left).toEqual([sending.id, waiting.id, held.id, recent.id, recentSpam.id].sort());
        const rows = await database.rows();
        expect((rows.delivery_attempts ?? []).map((row) => (row as { lead_id: string }).lead_id).sort()).toEqual([recent.id]);
        expect(rows.deliveries).toHaveLength(5);
      });

      it('keeps what no cutoff names, and goes through more leads than one batch', async () => {
        const spam = Array.from({ length: PURGE_BATCH_SIZE + 3 }, () =>
          newLead({ receivedAt: T0 - HOUR, initialState: 'spam', spamReason: 'honeypot' }),
        );
        await Promise.all(spam.map((lead) => store.insertLead(lead)));
        expect(await store.purgeExpired({})).toEqual({ leads: 0, spam: 0 });
        expect(await store.purgeExpired({ leadsReceivedBefore: T0 })).toEqual({ leads: 0, spam: 0 });
        expect(await store.purgeExpired({ spamReceivedBefore: T0 })).toEqual({ leads: 0, spam: spam.length });
        expect(await store.countByState()).toEqual({});
      });
    });
  });
}
