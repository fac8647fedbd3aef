import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '../../back-office/roles.ts';
import type { Database } from '../store/database.ts';
import type { NewLead } from '../store/outbox/outbox-store.ts';
import type { WorkingWindow } from '../../lead/sales.ts';
import { announceSkip, STORE_HARNESSES, type StoreDatabase } from '../testing/store-harness.ts';
import { createAssigner } from './assigner.ts';
import { createEscalator } from './escalator.ts';
import { changeTeamRole, removeTeamAccount } from './release.ts';
import type { WeeklyHours } from './working-time.ts';

// The sales engine on a real store, on SQLite, SQLite on its worker thread and PostgreSQL: who the
// assigner gives each lead to (rules, round-robin order, away, off shift, the same person again,
// nobody available and picked up later, two processes placing the same leads), the escalation
// ladder driven by a fake clock (owner told once, team once, reassigned once, stopped by a touch, a
// restart in the middle sends nothing twice), and a removed or demoted person's leads handed out again.

const MINUTE = 60_000;
/** A Wednesday, 10:00 UTC. */
const T0 = Date.UTC(2026, 10, 25, 10, 0, 0);
/** Every hour counts for the site's clock (the clock maths have their own tests). */
const EVERY_HOUR: WeeklyHours = { timeZone: 'UTC', windows: [] };
const ALL_WEEK: WorkingWindow[] = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440 }));
const log = pino({ level: 'silent' });

let sequence = 0;
function lead(overrides: Partial<NewLead> = {}): NewLead {
  sequence += 1;
  const id = `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
  const email = overrides.email ?? `person${sequence}@example.com`;
  return {
    id,
    receivedAt: T0 + sequence,
    source: 'Contact Page Form',
    email,
    payload: { name: `Person ${sequence}`, email, phone: `555-010-${String(sequence).padStart(4, '0')}`, lead_id: id },
    spamReason: undefined,
    initialState: 'pending',
    ...overrides,
  };
}

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`the sales engine: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;
    let clock: number;
    const now = () => clock;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
      clock = T0 + MINUTE;
    });
    afterEach(async () => {
      await database.remove();
    });

    async function person(email: string, options: { role?: Role; windows?: WorkingWindow[]; away?: boolean } = {}): Promise<string> {
      const created = await store.createAccount({ email, role: options.role ?? 'sales', passwordHash: 'scrypt$x', now: T0 });
      if (created.kind !== 'created') throw new Error('account exists');
      await store.setAvailability(
        { accountId: created.account.id, timeZone: 'UTC', windows: options.windows ?? ALL_WEEK, away: options.away ?? false },
        T0,
        undefined,
      );
      return created.account.id;
    }

    async function setAway(accountId: string, away: boolean) {
      await store.setAvailability({ accountId, timeZone: 'UTC', windows: ALL_WEEK, away }, clock, undefined);
    }

    function assigner(on: Database = store) {
      return createAssigner({ store: on, siteHours: () => EVERY_HOUR, log, now });
    }

    function escalator(on: Database = store, channels: ('email' | 'webhook')[] = ['email', 'webhook']) {
      return createEscalator({ store: on, siteHours: () => EVERY_HOUR, steps: [5, 15, 60], channels, log, now });
    }

    async function ownerOf(leadId: string) {
      return (await store.findLeadSales(leadId))?.ownerId;
    }

    it('gives leads round-robin, the person waiting longest first, and says so in the timeline', async () => {
      const ana = await person('ana@example.com');
      const bo = await person('bo@example.com');
      const leads = [lead(), lead(), lead(), lead()];
      for (const each of leads) await store.insertLead(each);
      const result = await assigner().runOnce();
      expect(result.placed).toBe(4);
      const owners = await Promise.all(leads.map((each) => ownerOf(each.id)));
      // Nobody was given one yet: ties go by account id, then the round goes on in turn.
      const first = [ana, bo].sort()[0]!;
      const second = first === ana ? bo : ana;
      expect(owners).toEqual([first, second, first, second]);
      const [assigned] = await store.listActivities(leads[0]!.id);
      expect(assigned).toMatchObject({ kind: 'assigned', actor: 'system', detail: { reason: 'round-robin' } });
      expect((await store.findLeadSales(leads[0]!.id))?.clockStartsAt).toBe(leads[0]!.receivedAt);
    });

    it('follows a rule for its form, and passes over a person who is away or off shift', async () => {
      const ana = await person('ana@example.com');
      const bo = await person('bo@example.com');
      await store.replaceRules([{ kind: 'form', value: 'Contact Page Form', ownerId: bo }], undefined);
      const contact = lead();
      const home = lead({ source: 'Homepage Simple Lead Form' });
      await store.insertLead(contact);
      await store.insertLead(home);
      await assigner().runOnce();
      expect(await ownerOf(contact.id)).toBe(bo);
      // No rule for the home page's form: round-robin, where a rule's lead took nobody's turn (a tie, by account id).
      expect(await ownerOf(home.id)).toBe([ana, bo].sort()[0]);

      // Bo away: his rule is passed over and the lead goes to whoever is available.
      await setAway(bo, true);
      const whileAway = lead();
      await store.insertLead(whileAway);
      await assigner().runOnce();
      expect(await ownerOf(whileAway.id)).toBe(ana);

      // Ana off shift (she works Mondays only; it is Wednesday), Bo back: Bo gets it.
      await setAway(bo, false);
      await store.setAvailability(
        { accountId: ana, timeZone: 'UTC', windows: [{ day: 1, startMinute: 0, endMinute: 1440 }], away: false },
        clock,
        undefined,
      );
      const offShift = lead({ source: 'Homepage Simple Lead Form' });
      await store.insertLead(offShift);
      await assigner().runOnce();
      expect(await ownerOf(offShift.id)).toBe(bo);
    });

    it('joins the same person’s second lead to their first, with the same owner and no clock of its own', async () => {
      const ana = await person('ana@example.com');
      await person('bo@example.com');
      const first = lead({ email: 'repeat@acme.example' });
      await store.insertLead(first);
      await assigner().runOnce();
      const firstOwner = await ownerOf(first.id);
      expect(firstOwner).toBeDefined();
      void ana;

      const again = lead({ email: 'repeat@acme.example' });
      await store.insertLead(again);
      await assigner().runOnce();
      const joined = await store.findLeadSales(again.id);
      expect(joined).toMatchObject({ joinedTo: first.id, ownerId: firstOwner });
      expect(await store.listJoined(first.id)).toEqual([again.id]);
      // It never shows in the queue: the earlier lead carries the clock.
      const untouched = await store.listUntouched({ limit: 100 });
      expect(untouched.map((entry) => entry.leadId)).not.toContain(again.id);
      expect((await store.listActivities(again.id))[0]).toMatchObject({ kind: 'joined' });
    });

    it('leaves a lead unassigned while nobody is available, and gives it to the first person back', async () => {
      const ana = await person('ana@example.com', { away: true });
      const waiting = lead();
      await store.insertLead(waiting);
      await assigner().runOnce();
      expect(await store.findLeadSales(waiting.id)).toMatchObject({ ownerId: undefined });
      expect((await store.listUntouched({ unassigned: true, limit: 10 })).map((entry) => entry.leadId)).toEqual([waiting.id]);
      expect((await store.listActivities(waiting.id))[0]).toMatchObject({ kind: 'assigned', detail: { reason: 'nobody available' } });

      clock += MINUTE;
      await setAway(ana, false);
      const pass = await assigner().runOnce();
      expect(pass.pickedUp).toBe(1);
      expect(await ownerOf(waiting.id)).toBe(ana);
    });

    it('places each lead once when two processes place the same leads at the same moment', async () => {
      await person('ana@example.com');
      await person('bo@example.com');
      await person('cy@example.com');
      const leads = Array.from({ length: 24 }, () => lead());
      for (const each of leads) await store.insertLead(each);
      const other = await database.open();
      const [one, two] = await Promise.all([assigner(store).runOnce(), assigner(other).runOnce()]);
      expect(one.placed + two.placed).toBe(24);
      for (const each of leads) {
        const activities = await store.listActivities(each.id);
        expect(
          activities.filter((activity) => activity.kind === 'assigned'),
          each.id,
        ).toHaveLength(1);
        expect(await ownerOf(each.id)).toBeDefined();
      }
      expect(await store.listUnplaced(100, 0)).toEqual([]);
    });

    it('climbs the ladder once per step with a fake clock: owner, team, then the next available person', async () => {
      const ana = await person('ana@example.com');
      const bo = await person('bo@example.com');
      const waiting = lead();
      await store.insertLead(waiting);
      await assigner().runOnce();
      const owner = await ownerOf(waiting.id);
      const other = owner === ana ? bo : ana;
      const ownerEmail = owner === ana ? 'ana@example.com' : 'bo@example.com';
      const otherEmail = owner === ana ? 'bo@example.com' : 'ana@example.com';

      const ladder = escalator();
      clock = waiting.receivedAt + 4 * MINUTE;
      expect(await ladder.runOnce()).toBe(0);

      clock = waiting.receivedAt + 5 * MINUTE;
      expect(await ladder.runOnce()).toBe(1);
      expect(await ladder.runOnce()).toBe(0);
      let notices = (await store.listNotifications()).filter((notice) => notice.leadId === waiting.id);
      expect(notices.map((notice) => [notice.kind, notice.channel, notice.detail.to ?? null])).toEqual([
        ['lead-waiting', 'email', ownerEmail],
        ['lead-waiting', 'webhook', null],
      ]);

      // A restart in the middle: a new process's ladder, on its own connection, sends nothing again.
      const restarted = escalator(await database.open());
      expect(await restarted.runOnce()).toBe(0);

      clock = waiting.receivedAt + 15 * MINUTE;
      expect(await Promise.all([ladder.runOnce(), restarted.runOnce()])).toSatisfy((taken: number[]) => taken[0]! + taken[1]! === 1);
      notices = (await store.listNotifications()).filter((notice) => notice.leadId === waiting.id);
      const team = notices.filter((notice) => notice.kind === 'lead-waiting-team' && notice.channel === 'email');
      expect(team).toHaveLength(1);
      expect(String(team[0]!.detail.to).split(',').sort()).toEqual(['ana@example.com', 'bo@example.com']);

      clock = waiting.receivedAt + 60 * MINUTE;
      expect(await ladder.runOnce()).toBe(1);
      expect(await ladder.runOnce()).toBe(0);
      expect(await ownerOf(waiting.id)).toBe(other);
      notices = (await store.listNotifications()).filter((notice) => notice.leadId === waiting.id);
      expect(
        notices.filter((notice) => notice.kind === 'lead-reassigned').map((notice) => [notice.channel, notice.detail.to ?? null]),
      ).toEqual([
        ['email', otherEmail],
        ['webhook', null],
      ]);
      expect(notices).toHaveLength(6);
      const kinds = (await store.listActivities(waiting.id)).map((activity) => activity.kind);
      expect(kinds.filter((kind) => kind === 'escalated')).toHaveLength(3);
    });

    it('tells the team once about a lead nobody owns: step 2 is taken without a second notice', async () => {
      await person('ana@example.com', { away: true });
      const waiting = lead();
      await store.insertLead(waiting);
      await assigner().runOnce();
      expect(await ownerOf(waiting.id)).toBe(undefined);
      const ladder = escalator();
      clock = waiting.receivedAt + 5 * MINUTE;
      expect(await ladder.runOnce()).toBe(1);
      clock = waiting.receivedAt + 15 * MINUTE;
      expect(await ladder.runOnce()).toBe(1);
      expect(await store.findLeadSales(waiting.id)).toMatchObject({ escalationStep: 2 });
      const notices = (await store.listNotifications()).filter((notice) => notice.leadId === waiting.id);
      expect(notices.map((notice) => [notice.kind, notice.channel])).toEqual([
        ['lead-waiting-team', 'email'],
        ['lead-waiting-team', 'webhook'],
      ]);
      const escalated = (await store.listActivities(waiting.id)).filter((activity) => activity.kind === 'escalated');
      expect(escalated.map((activity) => activity.detail.told)).toEqual(['team', 'team-already']);
    });

    it('never hands out, queues or escalates a lead stored more than a day before the assigner looked', async () => {
      await person('ana@example.com');
      const old = lead({ receivedAt: T0 - 3 * 24 * 60 * MINUTE });
      const recent = lead();
      for (const each of [old, recent]) await store.insertLead(each);
      expect((await assigner().runOnce()).placed).toBe(1);
      expect(await store.findLeadSales(old.id)).toBe(undefined);
      expect(await ownerOf(recent.id)).toBeDefined();
      clock = T0 + 2 * 60 * MINUTE;
      await assigner().runOnce();
      await escalator().runOnce();
      expect(await store.findLeadSales(old.id)).toBe(undefined);
      expect((await store.listNotifications()).filter((notice) => notice.leadId === old.id)).toEqual([]);
    });

    it('stops the ladder at a human touch', async () => {
      await person('ana@example.com');
      const called = lead();
      await store.insertLead(called);
      await assigner().runOnce();
      const owner = await ownerOf(called.id);
      clock = called.receivedAt + 2 * MINUTE;
      await store.recordActivity({
        activity: {
          leadId: called.id,
          at: clock,
          kind: 'call',
          actorId: owner,
          actor: 'ana@example.com',
          detail: { outcome: 'no-answer' },
        },
        touch: true,
        audit: undefined,
        crmEvents: [],
      });
      clock = called.receivedAt + 90 * MINUTE;
      expect(await escalator().runOnce()).toBe(0);
      expect((await store.listNotifications()).filter((notice) => notice.leadId === called.id)).toEqual([]);
      expect(await ownerOf(called.id)).toBe(owner);
    });

    it('hands a removed person’s leads to the next available person, and a demoted one’s too, audited', async () => {
      const ana = await person('ana@example.com');
      const bo = await person('bo@example.com');
      await person('cy@example.com', { away: true });
      await store.replaceRules([{ kind: 'form', value: 'Contact Page Form', ownerId: ana }], undefined);
      const leads = [lead(), lead()];
      for (const each of leads) await store.insertLead(each);
      await assigner().runOnce();
      expect(await Promise.all(leads.map((each) => ownerOf(each.id)))).toEqual([ana, ana]);

      const acting = { actor: 'admin@example.com', at: clock };
      expect((await removeTeamAccount(store, acting, 'ana@example.com', EVERY_HOUR)).kind).toBe('removed');
      expect(await Promise.all(leads.map((each) => ownerOf(each.id)))).toEqual([bo, bo]);
      // The CRM hears each change of owner: given to Ana, released (nobody), given to Bo.
      for (const each of leads)
        expect((await store.listCrmEvents(each.id)).map((event) => event.kind)).toEqual(['owner', 'owner', 'owner']);
      const audit = await store.listAudit(undefined, 50);
      expect(
        audit.entries.some(
          (entry) => entry.action === 'lead.release' && entry.actor === 'admin@example.com' && entry.detail.includes('ana@example.com'),
        ),
      ).toBe(true);

      // Bo becomes a viewer: nobody else is available (Cy is away), so the leads wait unassigned.
      expect((await changeTeamRole(store, acting, 'bo@example.com', 'viewer', EVERY_HOUR)).kind).toBe('changed');
      expect(await Promise.all(leads.map((each) => ownerOf(each.id)))).toEqual([undefined, undefined]);
    });
  });
}
