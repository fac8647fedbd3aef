import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import type { Database } from '../database.ts';
import type { NewLead } from '../outbox/outbox-store.ts';
import type { NewNotification } from '../notifications/notification-store.ts';
import type { NewActivity, NewCrmEvent, Placement } from './sales-store.ts';
import type { SharedSql } from '../../../back-office/database/shared-sql.ts';
import {
  SELECT_DOMAIN_OWNER,
  SELECT_EARLIER_BY_PHONE,
  SELECT_SPEED_ROWS,
  SELECT_UNTOUCHED,
  SELECT_UNTOUCHED_OF_OWNER,
  SELECT_UNTOUCHED_UNASSIGNED,
  SELECT_UNPLACED,
} from './sales-sql.ts';
import { HOUR, LEASE_MS, delivered, newAccount, newLead, T0 } from '../../testing/store-fixtures.ts';
import { LEAD_SCHEMA_VERSIONS } from '../lead-schema.ts';

// The sales store contract: the same tests against node:sqlite, node:sqlite on its worker thread and
// PostgreSQL. Two stores opened on one database stand in for two server processes.

const MINUTE = 60_000;
const DAY = 24 * HOUR;

function leadWith(payload: Record<string, string>, overrides: Partial<NewLead> = {}): NewLead {
  const lead = newLead(overrides);
  return { ...lead, payload: { ...lead.payload, ...payload } };
}

function activity(leadId: string, kind: NewActivity['kind'], at: number, actorId?: string): NewActivity {
  return { leadId, at, kind, actorId, actor: actorId === undefined ? 'system' : 'ana@example.com', detail: { note: kind } };
}

function placement(leadId: string, overrides: Partial<Placement> = {}): Placement {
  return {
    leadId,
    at: T0 + MINUTE,
    ownerId: undefined,
    clockStartsAt: T0,
    joinedTo: undefined,
    roundRobin: false,
    activity: activity(leadId, 'assigned', T0 + MINUTE),
    audit: { actor: 'system', action: 'lead assigned', detail: leadId },
    ...overrides,
  };
}

function crmEvent(leadId: string, at: number): NewCrmEvent {
  return { leadId, kind: 'status', at, body: { lead_id: leadId, event: 'status' } };
}

function notice(leadId: string, step: number, at: number): NewNotification {
  return { key: `escalation:${leadId}:${step}`, channel: 'email', kind: 'new-lead', leadId, eventAt: at, detail: { step }, createdAt: at };
}

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`sales store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    const person = async (email: string): Promise<string> => {
      const created = await store.createAccount(newAccount({ email }));
      if (created.kind !== 'created') throw new Error('the account exists');
      return created.account.id;
    };
    const auditActions = async () => (await store.listAudit(undefined, 100)).entries.map((entry) => `${entry.action}: ${entry.detail}`);
    const tableRows = async (table: string) => ((await database.rows())[table] ?? []) as Record<string, unknown>[];

    describe('listUnplaced and place', () => {
      it('lists real leads with no sales row, oldest first, with the facts the assigner reads', async () => {
        const first = leadWith({ phone: '+1 (555) 010-2030', service_interest: 'AI Strategy', utm_campaign: 'spring' });
        const spam = newLead({ initialState: 'spam', spamReason: 'too_fast' });
        const second = newLead();
        for (const lead of [first, spam, second]) await store.insertLead(lead);
        expect(await store.listUnplaced(10, 0)).toEqual([
          {
            leadId: first.id,
            receivedAt: first.receivedAt,
            source: first.source,
            email: first.email.toLowerCase(),
            phone: '+1 (555) 010-2030',
            campaign: 'spring',
            serviceInterest: 'AI Strategy',
          },
          expect.objectContaining({ leadId: second.id, phone: undefined, campaign: undefined, serviceInterest: undefined }),
        ]);
        expect(await store.listUnplaced(1, 0)).toHaveLength(1);
        expect(await store.place(placement(first.id))).toBe(true);
        expect((await store.listUnplaced(10, 0)).map((lead) => lead.leadId)).toEqual([second.id]);
      });

      it('lists only leads received since the moment given, so leads from before the queue are never handed out', async () => {
        const old = newLead({ receivedAt: T0 - 400 * DAY });
        const yesterday = newLead({ receivedAt: T0 - DAY - 1 });
        const recent = newLead({ receivedAt: T0 - HOUR });
        for (const lead of [old, yesterday, recent]) await store.insertLead(lead);
        expect((await store.listUnplaced(10, T0 - DAY)).map((lead) => lead.leadId)).toEqual([recent.id]);
        expect((await store.listUnplaced(10, 0)).map((lead) => lead.leadId)).toEqual([old.id, yesterday.id, recent.id]);
      });

      it('makes a lead placeable once it is marked not spam', async () => {
        const lead = newLead({ initialState: 'spam', spamReason: 'too_fast' });
        await store.insertLead(lead);
        expect(await store.listUnplaced(10, 0)).toEqual([]);
        await store.markNotSpam(lead.id, T0 + MINUTE, { source: lead.source, email: lead.email, payload: lead.payload });
        expect((await store.listUnplaced(10, 0)).map((unplaced) => unplaced.leadId)).toEqual([lead.id]);
      });

      it('writes the sales row, its activity, audit entry, CRM event and round-robin turn once; a second placement writes nothing', async () => {
        const ana = await person('ana@example.com');
        const lead = newLead();
        await store.insertLead(lead);
        const placed = placement(lead.id, { ownerId: ana, roundRobin: true, crmEvents: [crmEvent(lead.id, T0 + MINUTE)] });
        expect(await store.place(placed)).toBe(true);
        expect(await store.findLeadSales(lead.id)).toEqual({
          leadId: lead.id,
          ownerId: ana,
          assignedAt: T0 + MINUTE,
          status: 'new',
          lostReason: undefined,
          clockStartsAt: T0,
          firstTouchAt: undefined,
          joinedTo: undefined,
          escalationStep: 0,
        });
        expect(await store.listAvailability()).toEqual([
          { accountId: ana, timeZone: '', windows: [], away: false, lastAssignedAt: T0 + MINUTE, defaultHours: true },
        ]);
        expect(await store.place({ ...placed, at: T0 + 2 * MINUTE, ownerId: undefined })).toBe(false);
        expect(await store.findLeadSales(lead.id)).toMatchObject({ ownerId: ana, assignedAt: T0 + MINUTE });
        expect(await store.listActivities(lead.id)).toHaveLength(1);
        expect(await auditActions()).toEqual([`lead assigned: ${lead.id}`]);
        expect(await tableRows('crm_events')).toHaveLength(1);
        expect((await store.listAvailability())[0]?.lastAssignedAt).toBe(T0 + MINUTE);
      });

      it('places nothing for a lead that is gone', async () => {
        expect(await store.place(placement('no-such-lead'))).toBe(false);
        expect(await auditActions()).toEqual([]);
      });

      it('places each lead exactly once when two processes race, each writing its own owner', async () => {
        const other = await database.open();
        const ana = await person('ana@example.com');
        const ben = await person('ben@example.com');
        const leads = Array.from({ length: 12 }, () => newLead());
        for (const lead of leads) await store.insertLead(lead);
        const race = await Promise.all(
          leads.flatMap((lead) => [
            store.place(placement(lead.id, { ownerId: ana, roundRobin: true, audit: { actor: 'one', action: 'placed', detail: lead.id } })),
            other.place(placement(lead.id, { ownerId: ben, roundRobin: true, audit: { actor: 'two', action: 'placed', detail: lead.id } })),
          ]),
        );
        for (const [index, lead] of leads.entries()) {
          const [first, second] = [race[2 * index], race[2 * index + 1]];
          expect([first, second].filter(Boolean)).toHaveLength(1);
          const sales = await store.findLeadSales(lead.id);
          expect(sales?.ownerId).toBe(first === true ? ana : ben);
          expect(await store.listActivities(lead.id)).toHaveLength(1);
        }
        const entries = (await store.listAudit(undefined, 100)).entries;
        expect(entries).toHaveLength(leads.length);
        expect(new Set(entries.map((entry) => entry.detail)).size).toBe(leads.length);
        expect(await tableRows('lead_sales')).toHaveLength(leads.length);
      });
    });

    describe('findEarlierLead and findDomainOwner', () => {
      it('finds the same person by e-mail or by phone digits within the window, and returns the lead they first joined', async () => {
        const ana = await person('ana@example.com');
        const root = leadWith({ phone: '555-010-2030' }, { email: 'Li@Acme.com', receivedAt: T0 });
        const repeat = newLead({ email: 'li@acme.com', receivedAt: T0 + HOUR });
        const byPhone = leadWith({ phone: '+1 555 010 2030' }, { email: 'other@elsewhere.com', receivedAt: T0 + 2 * HOUR });
        const later = newLead({ email: 'li@acme.com', receivedAt: T0 + 3 * HOUR });
        for (const lead of [root, repeat, byPhone, later]) await store.insertLead(lead);
        await store.place(placement(root.id, { ownerId: ana }));
        await store.place(placement(repeat.id, { ownerId: ana, joinedTo: root.id }));

        const found = await store.findEarlierLead({ email: ' LI@acme.com ', phone: undefined, since: T0 - DAY, before: later.id });
        expect(found).toMatchObject({ leadId: root.id, ownerId: ana, joinedTo: undefined });
        expect(
          await store.findEarlierLead({ email: 'other@elsewhere.com', phone: '(555) 010.2030', since: T0 - DAY, before: byPhone.id }),
        ).toMatchObject({ leadId: root.id });
        // Outside the window, a later lead, a phone too short to tell people apart: no match.
        expect(await store.findEarlierLead({ email: 'li@acme.com', phone: undefined, since: T0 + 2 * HOUR, before: later.id })).toBe(
          undefined,
        );
        expect(await store.findEarlierLead({ email: 'li@acme.com', phone: undefined, since: T0 - DAY, before: root.id })).toBe(undefined);
        expect(await store.findEarlierLead({ email: 'x@y.com', phone: '2030', since: T0 - DAY, before: later.id })).toBe(undefined);
      });

      it('matches no one on a phone number too short to tell people apart', async () => {
        const short = leadWith({ phone: '12-34-56' }, { email: 'li@acme.com' });
        await store.insertLead(short);
        await store.place(placement(short.id));
        expect(await store.findEarlierLead({ email: 'x@y.com', phone: '123456', since: 0, before: 'later' })).toBe(undefined);
        expect(await store.findEarlierLead({ email: 'x@y.com', phone: '1234567', since: 0, before: 'later' })).toBe(undefined);
      });

      it('never joins a lead to spam', async () => {
        const earlier = newLead({ email: 'li@acme.com' });
        await store.insertLead(earlier);
        await store.place(placement(earlier.id));
        await store.markSpam(earlier.id, 'manual', T0 + MINUTE);
        expect(await store.findEarlierLead({ email: 'li@acme.com', phone: undefined, since: 0, before: 'later' })).toBe(undefined);
      });

      it('names the owner of the domain’s most recently assigned lead', async () => {
        const ana = await person('ana@example.com');
        const ben = await person('ben@example.com');
        const first = newLead({ email: 'li@acme.com' });
        const second = newLead({ email: 'jo@ACME.com' });
        const unowned = newLead({ email: 'mo@acme.com' });
        for (const lead of [first, second, unowned]) await store.insertLead(lead);
        await store.place(placement(first.id, { ownerId: ana, at: T0 + MINUTE }));
        await store.place(placement(second.id, { ownerId: ben, at: T0 + 2 * MINUTE }));
        await store.place(placement(unowned.id, { at: T0 + 3 * MINUTE }));
        expect(await store.findDomainOwner('Acme.com')).toBe(ben);
        expect(await store.findDomainOwner('cme.com')).toBe(undefined);
      });
    });

    describe('recordActivity', () => {
      it('stops the clock at the first human touch only; later touches and notes leave it where it stopped', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        await store.place(placement(lead.id));
        expect(
          await store.recordActivity({
            activity: activity(lead.id, 'note', T0 + 2 * MINUTE),
            touch: false,
            audit: undefined,
            crmEvents: [],
          }),
        ).toMatchObject({ firstTouchAt: undefined });
        expect(
          await store.recordActivity({
            activity: activity(lead.id, 'call', T0 + 3 * MINUTE),
            touch: true,
            audit: undefined,
            crmEvents: [],
          }),
        ).toMatchObject({ firstTouchAt: T0 + 3 * MINUTE });
        await store.recordActivity({ activity: activity(lead.id, 'email', T0 + 9 * MINUTE), touch: true, audit: undefined, crmEvents: [] });
        expect(await store.findLeadSales(lead.id)).toMatchObject({ firstTouchAt: T0 + 3 * MINUTE });
        expect((await store.listActivities(lead.id)).map((entry) => entry.kind)).toEqual(['assigned', 'note', 'call', 'email']);
      });

      it('counts a status beyond new as a touch, keeps a lost sale’s reason and refuses a lost sale without one', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        await store.place(placement(lead.id));
        await expect(
          store.recordActivity({
            activity: activity(lead.id, 'status', T0 + 2 * MINUTE),
            status: { to: 'lost', lostReason: '  ' },
            touch: false,
            audit: { actor: 'ana@example.com', action: 'status', detail: 'lost' },
            crmEvents: [],
          }),
        ).rejects.toThrow(/reason/);
        expect(await store.listActivities(lead.id)).toHaveLength(1);
        const qualified = await store.recordActivity({
          activity: activity(lead.id, 'status', T0 + 4 * MINUTE),
          status: { to: 'qualified', lostReason: undefined },
          touch: false,
          audit: { actor: 'ana@example.com', action: 'status', detail: 'qualified' },
          crmEvents: [crmEvent(lead.id, T0 + 4 * MINUTE)],
        });
        expect(qualified).toMatchObject({ status: 'qualified', firstTouchAt: T0 + 4 * MINUTE, lostReason: undefined });
        const lost = await store.recordActivity({
          activity: activity(lead.id, 'status', T0 + 5 * MINUTE),
          status: { to: 'lost', lostReason: 'Went with a competitor' },
          touch: false,
          audit: undefined,
          crmEvents: [],
        });
        expect(lost).toMatchObject({ status: 'lost', lostReason: 'Went with a competitor', firstTouchAt: T0 + 4 * MINUTE });
        expect(await auditActions()).toContain('status: qualified');
        expect(await auditActions()).not.toContain('status: lost');
      });

      it('stops the first lead’s clock when a person touches a repeat that joined it', async () => {
        const root = newLead({ email: 'li@acme.com' });
        const repeat = newLead({ email: 'li@acme.com' });
        for (const lead of [root, repeat]) await store.insertLead(lead);
        await store.place(placement(root.id));
        await store.place(placement(repeat.id, { joinedTo: root.id }));
        expect(await store.listJoined(root.id)).toEqual([repeat.id]);
        await store.recordActivity({
          activity: activity(repeat.id, 'call', T0 + 7 * MINUTE),
          touch: true,
          audit: undefined,
          crmEvents: [],
        });
        expect(await store.findLeadSales(root.id)).toMatchObject({ firstTouchAt: T0 + 7 * MINUTE });
        expect(await store.findLeadSales(repeat.id)).toMatchObject({ firstTouchAt: T0 + 7 * MINUTE });
        expect(await store.listUntouched({ limit: 10 })).toEqual([]);
      });

      it('writes nothing for a lead with no sales row', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        expect(
          await store.recordActivity({
            activity: activity(lead.id, 'call', T0),
            touch: true,
            audit: { actor: 'a', action: 'b', detail: 'c' },
            crmEvents: [crmEvent(lead.id, T0)],
          }),
        ).toBe(undefined);
        expect(await store.listActivities(lead.id)).toEqual([]);
        expect(await auditActions()).toEqual([]);
        expect(await tableRows('crm_events')).toEqual([]);
      });

      it('queues CRM events due at once, or held while the lead itself waits for a CRM address', async () => {
        const sent = newLead();
        const held = newLead({ initialState: 'held' });
        for (const lead of [sent, held]) {
          await store.insertLead(lead);
          await store.place(placement(lead.id));
          await store.recordActivity({
            activity: activity(lead.id, 'call', T0 + 5 * MINUTE),
            touch: true,
            audit: undefined,
            crmEvents: [crmEvent(lead.id, T0 + 5 * MINUTE)],
          });
        }
        const events = await tableRows('crm_events');
        expect(events.map((row) => [row.lead_id, row.state, row.next_attempt_at === null ? null : Number(row.next_attempt_at)])).toEqual([
          [sent.id, 'pending', T0 + 5 * MINUTE],
          [held.id, 'held', null],
        ]);
        expect(JSON.parse(String(events[0]?.body))).toEqual({ lead_id: sent.id, event: 'status' });
      });
    });

    describe('reassign', () => {
      it('moves the lead only from the owner expected, with its activity, audit entry and CRM event', async () => {
        const ana = await person('ana@example.com');
        const ben = await person('ben@example.com');
        const lead = newLead();
        await store.insertLead(lead);
        await store.place(placement(lead.id, { ownerId: ana, audit: undefined }));
        const change = {
          leadId: lead.id,
          expectedOwnerId: ana,
          ownerId: ben,
          at: T0 + 5 * MINUTE,
          activity: activity(lead.id, 'assigned', T0 + 5 * MINUTE, ana),
          audit: { actor: 'ana@example.com', action: 'lead reassigned', detail: 'to ben' },
          crmEvents: [crmEvent(lead.id, T0 + 5 * MINUTE)],
        };
        expect(await store.reassign(change)).toBe(true);
        expect(await store.findLeadSales(lead.id)).toMatchObject({ ownerId: ben, assignedAt: T0 + 5 * MINUTE });
        // A second person acting on what they saw before the move changes nothing.
        expect(await store.reassign({ ...change, ownerId: undefined })).toBe(false);
        expect(await store.findLeadSales(lead.id)).toMatchObject({ ownerId: ben });
        expect(await store.reassign({ ...change, expectedOwnerId: ben, ownerId: undefined })).toBe(true);
        expect(await store.findLeadSales(lead.id)).toMatchObject({ ownerId: undefined, assignedAt: undefined });
        expect(await store.reassign({ ...change, expectedOwnerId: undefined, ownerId: ana })).toBe(true);
        expect(await store.listActivities(lead.id)).toHaveLength(4);
        expect(await auditActions()).toHaveLength(3);
        expect(await tableRows('crm_events')).toHaveLength(3);
      });
    });

    describe('listUntouched and listSpeedRows', () => {
      it('lists untouched first visits, oldest first, by owner or unassigned, never spam, joined or touched leads', async () => {
        const ana = await person('ana@example.com');
        const [mine, unassigned, touched, joined, spam] = [newLead(), newLead(), newLead(), newLead(), newLead()];
        for (const lead of [mine, unassigned, touched, joined, spam]) await store.insertLead(lead);
        await store.place(placement(mine.id, { ownerId: ana }));
        await store.place(placement(unassigned.id));
        await store.place(placement(touched.id, { ownerId: ana }));
        await store.place(placement(joined.id, { ownerId: ana, joinedTo: mine.id }));
        await store.place(placement(spam.id));
        await store.markSpam(spam.id, 'manual', T0 + MINUTE);
        await store.recordActivity({
          activity: activity(touched.id, 'meeting', T0 + 2 * MINUTE),
          touch: true,
          audit: undefined,
          crmEvents: [],
        });
        const ids = (leads: { leadId: string }[]) => leads.map((lead) => lead.leadId);
        expect(ids(await store.listUntouched({ limit: 10 }))).toEqual([mine.id, unassigned.id]);
        expect(ids(await store.listUntouched({ ownerId: ana, limit: 10 }))).toEqual([mine.id]);
        expect(ids(await store.listUntouched({ unassigned: true, limit: 10 }))).toEqual([unassigned.id]);
        expect(ids(await store.listUntouched({ limit: 1 }))).toEqual([mine.id]);
        expect(await store.listUntouched({ ownerId: ana, limit: 10 })).toEqual([
          { leadId: mine.id, receivedAt: mine.receivedAt, ownerId: ana, clockStartsAt: T0, escalationStep: 0 },
        ]);
      });

      it('gives the figures’ rows: placed first visits received in the range, not spam', async () => {
        const ana = await person('ana@example.com');
        const inRange = leadWith({ utm_campaign: 'spring' }, { receivedAt: T0 + HOUR });
        const joined = newLead({ receivedAt: T0 + HOUR + 1 });
        const before = newLead({ receivedAt: T0 - 1 });
        const unplaced = newLead({ receivedAt: T0 + HOUR + 2 });
        // Given its first owner by hand more than a day after it arrived: nobody timed the visitor's wait.
        const late = newLead({ receivedAt: T0 + HOUR + 3 });
        for (const lead of [inRange, joined, before, unplaced, late]) await store.insertLead(lead);
        await store.place(placement(late.id, { ownerId: ana, at: T0 + HOUR + 3 + DAY, clockStartsAt: T0 + HOUR + 3 + DAY }));
        await store.place(placement(inRange.id, { ownerId: ana, clockStartsAt: T0 + 2 * HOUR }));
        await store.place(placement(joined.id, { joinedTo: inRange.id }));
        await store.place(placement(before.id));
        await store.recordActivity({ activity: activity(inRange.id, 'call', T0 + 3 * HOUR), touch: true, audit: undefined, crmEvents: [] });
        expect(await store.listSpeedRows(T0, T0 + DAY)).toEqual([
          {
            leadId: inRange.id,
            receivedAt: T0 + HOUR,
            source: inRange.source,
            campaign: 'spring',
            ownerId: ana,
            clockStartsAt: T0 + 2 * HOUR,
            firstTouchAt: T0 + 3 * HOUR,
          },
        ]);
        expect(await store.listSpeedRows(T0, T0 + HOUR)).toEqual([]);
      });
    });

    describe('escalate', () => {
      it('takes each step once, in order, only while nobody has touched the lead, with its notices stored once', async () => {
        const ana = await person('ana@example.com');
        const ben = await person('ben@example.com');
        const lead = newLead();
        await store.insertLead(lead);
        await store.place(placement(lead.id, { ownerId: ana, audit: undefined }));
        const step = (n: number, extra: object = {}) => ({
          leadId: lead.id,
          step: n,
          expectedOwnerId: ana,
          at: T0 + n * 10 * MINUTE,
          notifications: [notice(lead.id, n, T0 + n * 10 * MINUTE)],
          activity: activity(lead.id, 'escalated', T0 + n * 10 * MINUTE),
          audit: undefined,
          ...extra,
        });
        expect(await store.escalate(step(2))).toBe(false);
        expect(await store.escalate(step(1))).toBe(true);
        expect(await store.escalate(step(1))).toBe(false);
        expect(await store.findLeadSales(lead.id)).toMatchObject({ escalationStep: 1 });
        expect(await store.escalate(step(2))).toBe(true);
        const moved = step(3, {
          reassign: {
            ownerId: ben,
            activity: activity(lead.id, 'assigned', T0 + 30 * MINUTE),
            crmEvents: [crmEvent(lead.id, T0 + 30 * MINUTE)],
            roundRobin: true,
          },
          audit: { actor: 'system', action: 'lead reassigned', detail: 'nobody called' },
        });
        expect(await store.escalate(moved)).toBe(true);
        expect(await store.findLeadSales(lead.id)).toMatchObject({ escalationStep: 3, ownerId: ben, assignedAt: T0 + 30 * MINUTE });
        expect((await store.listNotifications()).map((stored) => stored.key)).toEqual([1, 2, 3].map((n) => `escalation:${lead.id}:${n}`));
        expect((await store.listActivities(lead.id)).map((entry) => entry.kind)).toEqual([
          'assigned',
          'escalated',
          'escalated',
          'assigned',
          'escalated',
        ]);
        expect(await auditActions()).toEqual(['lead reassigned: nobody called']);
        expect(await tableRows('crm_events')).toHaveLength(1);
        expect((await store.listAvailability()).find((row) => row.accountId === ben)?.lastAssignedAt).toBe(T0 + 30 * MINUTE);
      });

      it('takes no step, and writes nothing, when someone changed the owner after the ladder read the lead', async () => {
        const [ana, ben, cleo] = [await person('ana@example.com'), await person('ben@example.com'), await person('cleo@example.com')];
        const lead = newLead();
        await store.insertLead(lead);
        await store.place(placement(lead.id, { ownerId: ana, audit: undefined }));
        // The ladder read the lead (owner Ana); an admin gives it to Ben before the ladder writes.
        const readOwner = (await store.listUntouched({ limit: 10 }))[0]?.ownerId;
        expect(readOwner).toBe(ana);
        await store.reassign({
          leadId: lead.id,
          expectedOwnerId: ana,
          ownerId: ben,
          at: T0 + 59 * MINUTE,
          activity: activity(lead.id, 'assigned', T0 + 59 * MINUTE, ana),
          audit: undefined,
          crmEvents: [],
        });
        const step3 = {
          leadId: lead.id,
          step: 1,
          expectedOwnerId: readOwner,
          at: T0 + HOUR,
          notifications: [notice(lead.id, 1, T0 + HOUR)],
          reassign: { ownerId: cleo, activity: activity(lead.id, 'assigned', T0 + HOUR), crmEvents: [crmEvent(lead.id, T0 + HOUR)] },
          activity: activity(lead.id, 'escalated', T0 + HOUR),
          audit: { actor: 'system', action: 'lead reassigned', detail: 'nobody called' },
        };
        expect(await store.escalate(step3)).toBe(false);
        expect(await store.findLeadSales(lead.id)).toMatchObject({ ownerId: ben, escalationStep: 0 });
        expect(await store.listNotifications()).toEqual([]);
        expect(await tableRows('crm_events')).toEqual([]);
        expect(await auditActions()).toEqual([]);
        expect((await store.listActivities(lead.id)).map((entry) => entry.kind)).toEqual(['assigned', 'assigned']);
        // Read again, with Ben as the owner, the step is taken.
        expect(await store.escalate({ ...step3, expectedOwnerId: ben })).toBe(true);
        expect(await store.findLeadSales(lead.id)).toMatchObject({ ownerId: cleo, escalationStep: 1 });
      });

      it('takes no step once a person touched the lead', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        await store.place(placement(lead.id));
        await store.recordActivity({ activity: activity(lead.id, 'call', T0 + MINUTE), touch: true, audit: undefined, crmEvents: [] });
        const taken = await store.escalate({
          leadId: lead.id,
          step: 1,
          expectedOwnerId: undefined,
          at: T0 + 5 * MINUTE,
          notifications: [notice(lead.id, 1, T0 + 5 * MINUTE)],
          activity: activity(lead.id, 'escalated', T0 + 5 * MINUTE),
          audit: undefined,
        });
        expect(taken).toBe(false);
        expect(await store.listNotifications()).toEqual([]);
      });

      it('lets exactly one of two processes take a step', async () => {
        const other = await database.open();
        const leads = Array.from({ length: 8 }, () => newLead());
        for (const lead of leads) {
          await store.insertLead(lead);
          await store.place(placement(lead.id, { audit: undefined }));
        }
        const escalation = (leadId: string, by: string) => ({
          leadId,
          step: 1,
          expectedOwnerId: undefined,
          at: T0 + 5 * MINUTE,
          notifications: [notice(leadId, 1, T0 + 5 * MINUTE)],
          activity: activity(leadId, 'escalated', T0 + 5 * MINUTE),
          audit: { actor: by, action: 'escalated', detail: leadId },
        });
        const results = await Promise.all(
          leads.flatMap((lead) => [store.escalate(escalation(lead.id, 'one')), other.escalate(escalation(lead.id, 'two'))]),
        );
        expect(results.filter(Boolean)).toHaveLength(leads.length);
        for (const lead of leads) expect(await store.listActivities(lead.id)).toHaveLength(2);
        expect(await store.listNotifications()).toHaveLength(leads.length);
        expect((await store.listAudit(undefined, 100)).entries).toHaveLength(leads.length);
      });
    });

    describe('releaseOwner', () => {
      it('hands every open lead of a person back to unassigned, one activity each and one audit entry naming them', async () => {
        const ana = await person('ana@example.com');
        const ben = await person('ben@example.com');
        const [untouched, contacted, won, bens] = [newLead(), newLead(), newLead(), newLead()];
        for (const lead of [untouched, contacted, won, bens]) await store.insertLead(lead);
        for (const lead of [untouched, contacted, won]) await store.place(placement(lead.id, { ownerId: ana, audit: undefined }));
        await store.place(placement(bens.id, { ownerId: ben, audit: undefined }));
        for (const [lead, to] of [
          [contacted, 'contacted'],
          [won, 'won'],
        ] as const) {
          await store.recordActivity({
            activity: activity(lead.id, 'status', T0 + 2 * MINUTE),
            status: { to, lostReason: undefined },
            touch: false,
            audit: undefined,
            crmEvents: [],
          });
        }
        const released = await store.releaseOwner(
          ana,
          T0 + HOUR,
          { actor: 'admin@example.com', action: 'account removed', describe: 'released-leads' },
          'ana@example.com',
        );
        expect(released).toEqual([untouched.id, contacted.id]);
        expect(await store.findLeadSales(untouched.id)).toMatchObject({ ownerId: undefined, assignedAt: undefined });
        expect(await store.findLeadSales(won.id)).toMatchObject({ ownerId: ana });
        expect(await store.findLeadSales(bens.id)).toMatchObject({ ownerId: ben });
        expect((await store.listActivities(untouched.id)).at(-1)).toMatchObject({
          kind: 'assigned',
          actor: 'admin@example.com',
          detail: { fromOwnerId: ana, toOwnerId: null, reason: 'owner-released' },
        });
        expect(await auditActions()).toEqual([`account removed: back to unassigned: 2 lead(s): ${untouched.id}, ${contacted.id}`]);
        // The CRM hears that each released lead has no owner now, in the same transaction.
        const events = await tableRows('crm_events');
        expect(events.map((row) => [row.lead_id, row.kind, JSON.parse(String(row.body))])).toEqual(
          [untouched, contacted].map((lead) => [
            lead.id,
            'owner',
            {
              event: 'owner_changed',
              lead_id: lead.id,
              at: new Date(T0 + HOUR).toISOString(),
              owner_email: null,
              previous_owner_email: 'ana@example.com',
            },
          ]),
        );
        expect(
          await store.releaseOwner(ana, T0 + 2 * HOUR, { actor: 'admin@example.com', action: 'again', describe: 'released-leads' }),
        ).toEqual([]);
        expect(await auditActions()).toHaveLength(1);
      });
    });

    describe('rules and availability', () => {
      it('replaces the rules whole, in the order given, with an audit entry', async () => {
        const ana = await person('ana@example.com');
        await store.replaceRules([{ kind: 'form', value: 'Old form', ownerId: ana }], {
          actor: 'admin@example.com',
          action: 'rules saved',
          detail: '1 rule',
        });
        const saved = await store.replaceRules(
          [
            { kind: 'campaign', value: 'spring', ownerId: ana },
            { kind: 'domain', value: '', ownerId: undefined },
            { kind: 'form', value: 'ROI Calculator', ownerId: ana },
          ],
          { actor: 'admin@example.com', action: 'rules saved', detail: '3 rules' },
        );
        expect(saved.map(({ kind, value, ownerId }) => ({ kind, value, ownerId }))).toEqual([
          { kind: 'campaign', value: 'spring', ownerId: ana },
          { kind: 'domain', value: '', ownerId: undefined },
          { kind: 'form', value: 'ROI Calculator', ownerId: ana },
        ]);
        expect(await store.listRules()).toEqual(saved);
        expect(await auditActions()).toEqual(['rules saved: 3 rules', 'rules saved: 1 rule']);
      });

      it('keeps one set of hours per person, changed in place, and forgets them with the account', async () => {
        const ana = await person('ana@example.com');
        const windows = [{ day: 1, startMinute: 9 * 60, endMinute: 17 * 60 }];
        await store.setAvailability({ accountId: ana, timeZone: 'America/Chicago', windows, away: false }, T0, {
          actor: 'ana@example.com',
          action: 'hours set',
          detail: 'Chicago',
        });
        await store.setAvailability({ accountId: ana, timeZone: 'Europe/Dublin', windows: [], away: true }, T0 + 1, undefined);
        expect(await store.listAvailability()).toEqual([
          { accountId: ana, timeZone: 'Europe/Dublin', windows: [], away: true, lastAssignedAt: undefined, defaultHours: false },
        ]);
        await store.setAvailability({ accountId: ana, timeZone: 'America/Chicago', windows, away: false }, T0 + 2, undefined);
        expect((await store.listAvailability())[0]).toMatchObject({ timeZone: 'America/Chicago', windows, away: false });
        expect(await auditActions()).toEqual(['hours set: Chicago']);
        await store.removeAccount('ana@example.com');
        expect(await store.listAvailability()).toEqual([]);
      });
    });

    describe('audit in the same transaction', () => {
      it('takes the change back with an audit entry the log refuses: nothing placed, reassigned, escalated, released or saved', async () => {
        // No actor: the audit log's NOT NULL refuses the row, so the whole transaction must roll back.
        const refused = { actor: null as unknown as string, action: 'refused', detail: 'refused' };
        const ana = await person('ana@example.com');
        const [lead, other] = [newLead(), newLead()];
        for (const stored of [lead, other]) await store.insertLead(stored);
        await expect(store.place(placement(lead.id, { ownerId: ana, roundRobin: true, audit: refused }))).rejects.toThrow();
        expect(await store.findLeadSales(lead.id)).toBe(undefined);
        expect(await store.listActivities(lead.id)).toEqual([]);
        expect(await store.listAvailability()).toEqual([]);
        await store.place(placement(other.id, { ownerId: ana, audit: undefined }));
        const change = { at: T0 + HOUR, activity: activity(other.id, 'assigned', T0 + HOUR), crmEvents: [crmEvent(other.id, T0 + HOUR)] };
        await expect(
          store.reassign({ ...change, leadId: other.id, expectedOwnerId: ana, ownerId: undefined, audit: refused }),
        ).rejects.toThrow();
        await expect(
          store.escalate({
            leadId: other.id,
            step: 1,
            expectedOwnerId: ana,
            at: T0 + HOUR,
            notifications: [notice(other.id, 1, T0 + HOUR)],
            reassign: { ownerId: undefined, activity: change.activity, crmEvents: change.crmEvents },
            activity: activity(other.id, 'escalated', T0 + HOUR),
            audit: refused,
          }),
        ).rejects.toThrow();
        await expect(store.releaseOwner(ana, T0 + HOUR, refused)).rejects.toThrow();
        await expect(store.replaceRules([{ kind: 'form', value: 'x', ownerId: ana }], refused)).rejects.toThrow();
        await expect(store.setAvailability({ accountId: ana, timeZone: 'UTC', windows: [], away: true }, T0, refused)).rejects.toThrow();
        expect(await store.findLeadSales(other.id)).toMatchObject({ ownerId: ana, escalationStep: 0 });
        expect(await store.listActivities(other.id)).toHaveLength(1);
        expect(await store.listNotifications()).toEqual([]);
        expect(await tableRows('crm_events')).toEqual([]);
        expect(await store.listRules()).toEqual([]);
        expect(await store.listAvailability()).toEqual([]);
      });
    });

    describe('query plans', () => {
      it('reads the queue, the ladder, repeats and domains through their indexes, never a whole table or a sort', async () => {
        const dialect = harness.kind === 'postgres' ? 'postgres' : 'sqlite';
        const reads: [SharedSql, (string | number)[], string][] = [
          [SELECT_UNTOUCHED_OF_OWNER, ['some-account', 10], 'lead_sales_untouched_by_owner'],
          [SELECT_UNTOUCHED_UNASSIGNED, [10], 'lead_sales_untouched_by_owner'],
          [SELECT_UNTOUCHED, [10], 'lead_sales_untouched'],
          [SELECT_EARLIER_BY_PHONE, [0, 'x', 'x', '5550102030'], 'lead_sales_phone'],
          [SELECT_DOMAIN_OWNER, ['acme.com'], 'lead_sales_domain'],
          [SELECT_SPEED_ROWS, [0, 1, DAY], 'lead_sales_received'],
          [SELECT_UNPLACED, [0, 10], 'deliveries_not_spam_newest'],
        ];
        for (const [statement, params, index] of reads) {
          const plan = await database.explain(statement[dialect], params);
          if (dialect === 'sqlite') {
            // PostgreSQL chooses among indexes by cost, which a test's few rows cannot show; SQLite by rule.
            expect(plan).toContain(index);
            expect(plan).not.toMatch(/SCAN (lead_sales|s)\b(?! USING)/);
            expect(plan).not.toContain('TEMP B-TREE');
          } else {
            expect(plan).not.toMatch(/Seq Scan on lead_sales/);
          }
        }
      });
    });

    describe('upgrade', () => {
      it('makes the leads stored before the queue existed placeable once the database is upgraded', async () => {
        const older = await harness.createDatabase();
        try {
          const before = await older.openAtVersion(8);
          const lead = newLead();
          await before.insertLead(lead);
          await before.close();
          const upgraded = await older.open();
          expect(await upgraded.schemaVersion()).toBe(LEAD_SCHEMA_VERSIONS.at(-1)?.version);
          expect((await upgraded.listUnplaced(10, 0)).map((unplaced) => unplaced.leadId)).toEqual([lead.id]);
          expect(await upgraded.place(placement(lead.id))).toBe(true);
        } finally {
          await older.remove();
        }
      });
    });

    describe('erasure and retention', () => {
      it('erases a person’s sales rows, timeline and CRM events with their leads; a repeat of theirs no longer points at them', async () => {
        const erased = newLead({ email: 'li@acme.com' });
        const kept = leadWith({}, { email: 'other@acme.com' });
        for (const lead of [erased, kept]) await store.insertLead(lead);
        await store.place(placement(erased.id));
        await store.place(placement(kept.id, { joinedTo: erased.id }));
        await store.recordActivity({
          activity: activity(erased.id, 'call', T0 + MINUTE),
          touch: true,
          audit: undefined,
          crmEvents: [crmEvent(erased.id, T0 + MINUTE)],
        });
        expect(await store.eraseByEmail('li@acme.com')).toEqual([erased.id]);
        expect(await store.findLeadSales(erased.id)).toBe(undefined);
        expect(await store.listActivities(erased.id)).toEqual([]);
        expect(await tableRows('crm_events')).toEqual([]);
        expect(await store.findLeadSales(kept.id)).toMatchObject({ joinedTo: undefined });
        expect((await tableRows('lead_sales')).map((row) => row.lead_id)).toEqual([kept.id]);
      });

      it('purges expired leads with their sales rows, timeline and CRM events', async () => {
        const old = newLead({ receivedAt: T0 - 400 * DAY });
        await store.insertLead(old);
        await store.claimDue({ now: T0, limit: 1, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([delivered(old.id, 'w1', T0)]);
        await store.place(placement(old.id));
        await store.recordActivity({
          activity: activity(old.id, 'call', T0 + MINUTE),
          touch: true,
          audit: undefined,
          crmEvents: [crmEvent(old.id, T0)],
        });
        expect(await store.purgeExpired({ leadsReceivedBefore: T0 - 365 * DAY })).toEqual({ leads: 1, spam: 0 });
        const rows = await database.rows();
        expect([rows.lead_sales, rows.lead_activities, rows.crm_events]).toEqual([[], [], []]);
      });
    });
  });
}
