import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import type { DeliveryResult, NewLead } from '../outbox/outbox-store.ts';
import type { Database } from '../database.ts';
import type { NewNotification } from './notification-store.ts';

// The notification half of the lead-store contract, on SQLite, SQLite on its worker thread and
// PostgreSQL: what the notifier reads, its idempotent outbox, the one open incident and the form switches.

const T0 = Date.UTC(2025, 2, 3, 9, 0, 0);
const MINUTE = 60_000;
const LEASE_MS = 60_000;
const HOME = 'Homepage Simple Lead Form';
const CONTACT = 'Contact Page Form';

let sequence = 0;
function newLead(overrides: Partial<NewLead> = {}): NewLead {
  sequence += 1;
  const id = `lead-${String(sequence).padStart(5, '0')}`;
  return {
    id,
    receivedAt: T0 + sequence,
    source: HOME,
    email: `person${sequence}@example.com`,
    payload: { name: 'Ana', email: `person${sequence}@example.com`, company: 'Smith & Sons', lead_id: id },
    spamReason: undefined,
    initialState: 'pending',
    ...overrides,
  };
}

function result(leadId: string, at: number, nextState: DeliveryResult['nextState'], status: number | undefined, error?: string) {
  return {
    leadId,
    owner: 'w1',
    attempt: { attemptedAt: at, durationMs: 10, status, responseBody: undefined, error },
    nextState,
    nextAttemptAt: nextState === 'pending' ? at + MINUTE : undefined,
  } satisfies DeliveryResult;
}

function notification(key: string, overrides: Partial<NewNotification> = {}): NewNotification {
  return {
    key,
    channel: 'email',
    kind: 'incident-opened',
    leadId: undefined,
    eventAt: T0,
    detail: { since: T0 },
    createdAt: T0,
    ...overrides,
  };
}

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`lead store notifications: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    // Stores a lead and takes it through the outbox with the given answers, one a minute.
    async function deliverWith(lead: NewLead, answers: Array<[DeliveryResult['nextState'], number | undefined, string?]>, from: number) {
      await store.insertLead(lead);
      for (const [index, [nextState, status, error]] of answers.entries()) {
        const at = from + index * MINUTE;
        await store.claimDue({ now: Math.max(at, lead.receivedAt + index * MINUTE), limit: 50, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([result(lead.id, at, nextState, status, error)]);
      }
    }

    it("keeps the studio's e-mails once per key from two processes at once, their texts exactly as written", async () => {
      const other = await database.open();
      const comment = 'Shorter, please.\nAnd «Spring» with its accent: é — 🌷';
      const sentBack = notification('studio-review-sent-back:r1:a1:email', {
        kind: 'studio-review-sent-back',
        detail: {
          accountId: 'a1',
          eventId: 'r1',
          pages: 'Home\nAbout us',
          by: 'ana@example.com',
          link: 'https://studio.example.com/?publish',
          text: comment,
        },
      });
      const stored = await Promise.all([store.enqueueNotifications([sentBack]), other.enqueueNotifications([sentBack])]);
      expect(stored.reduce((sum, count) => sum + count, 0)).toBe(1);
      const [row] = await store.listNotifications();
      expect(row).toMatchObject({ kind: 'studio-review-sent-back', channel: 'email', state: 'pending', detail: sentBack.detail });
      expect(
        (await store.claimNotifications({ now: T0, limit: 10, owner: 'n1', leaseMs: LEASE_MS })).map((claimed) => claimed.detail.text),
      ).toEqual([comment]);
    });

    describe('readNotifyEvents', () => {
      it('lists real leads received since the given time, oldest first, without spam or forms switched off', async () => {
        const before = newLead({ receivedAt: T0 - MINUTE });
        const first = newLead();
        const spam = newLead({ initialState: 'spam', spamReason: 'honeypot' });
        const contact = newLead({ source: CONTACT });
        const second = newLead();
        for (const lead of [before, first, spam, contact, second]) await store.insertLead(lead);
        await store.setNotifyForm(CONTACT, false, T0);

        const events = await store.readNotifyEvents({ since: T0, limit: 10, newLeads: true });
        expect(events.newLeads).toEqual([
          { leadId: first.id, source: HOME, state: 'pending', at: first.receivedAt },
          { leadId: second.id, source: HOME, state: 'pending', at: second.receivedAt },
        ]);
        expect((await store.readNotifyEvents({ since: T0, limit: 1, newLeads: true })).newLeads.map((event) => event.leadId)).toEqual([
          first.id,
        ]);
        expect((await store.readNotifyEvents({ since: T0, limit: 10, newLeads: false })).newLeads).toEqual([]);
      });

      it('leaves out a lead once its new-lead notification is stored', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        await store.enqueueNotifications([
          notification(`new-lead:${lead.id}:email`, { kind: 'new-lead', leadId: lead.id, eventAt: lead.receivedAt }),
        ]);
        expect((await store.readNotifyEvents({ since: T0, limit: 10, newLeads: true })).newLeads).toEqual([]);
      });

      it('lists leads that became failed or delivered-test, once per change', async () => {
        const failed = newLead();
        const test = newLead();
        const delivered = newLead();
        await deliverWith(
          failed,
          [
            ['pending', 500],
            ['failed', 410],
          ],
          T0 + MINUTE,
        );
        await deliverWith(test, [['delivered-test', 200]], T0 + 5 * MINUTE);
        await deliverWith(delivered, [['delivered', 200]], T0 + 6 * MINUTE);

        const { settledLeads } = await store.readNotifyEvents({ since: T0, limit: 10, newLeads: false });
        expect(settledLeads).toEqual([
          { leadId: failed.id, source: HOME, state: 'failed', at: T0 + 2 * MINUTE + 10 },
          { leadId: test.id, source: HOME, state: 'delivered-test', at: T0 + 5 * MINUTE + 10 },
        ]);

        await store.enqueueNotifications([
          notification('failed-once', { kind: 'lead-failed', leadId: failed.id, eventAt: T0 + 2 * MINUTE + 10 }),
        ]);
        expect((await store.readNotifyEvents({ since: T0, limit: 10, newLeads: false })).settledLeads.map((event) => event.leadId)).toEqual(
          [test.id],
        );

        // Retried by an operator and failed again: a new change, listed again.
        await store.retry({ id: failed.id }, T0 + 10 * MINUTE);
        await store.claimDue({ now: T0 + 10 * MINUTE, limit: 50, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([result(failed.id, T0 + 10 * MINUTE, 'failed', 410)]);
        expect((await store.readNotifyEvents({ since: T0, limit: 10, newLeads: false })).settledLeads.map((event) => event.at)).toEqual([
          T0 + 5 * MINUTE + 10,
          T0 + 10 * MINUTE + 10,
        ]);
      });

      it("reads the CRM's delivery record: the last success, the first failure after it and the last failure", async () => {
        expect((await store.readNotifyEvents({ since: T0, limit: 10, newLeads: false })).health).toEqual({
          lastSuccessAt: undefined,
          firstFailureAt: undefined,
          lastFailureAt: undefined,
          lastFailure: undefined,
        });
        await deliverWith(
          newLead(),
          [
            ['pending', 500],
            ['pending', 503],
          ],
          T0,
        );
        expect((await store.readNotifyEvents({ since: T0, limit: 10, newLeads: false })).health).toEqual({
          lastSuccessAt: undefined,
          firstFailureAt: T0,
          lastFailureAt: T0 + MINUTE,
          lastFailure: 'HTTP 503',
        });
        await deliverWith(newLead(), [['delivered', 200]], T0 + 3 * MINUTE);
        expect((await store.readNotifyEvents({ since: T0, limit: 10, newLeads: false })).health).toMatchObject({
          lastSuccessAt: T0 + 3 * MINUTE,
          firstFailureAt: undefined,
        });
        await deliverWith(newLead(), [['failed', undefined, 'timeout after 10000 ms']], T0 + 4 * MINUTE);
        expect((await store.readNotifyEvents({ since: T0, limit: 10, newLeads: false })).health).toEqual({
          lastSuccessAt: T0 + 3 * MINUTE,
          firstFailureAt: T0 + 4 * MINUTE,
          lastFailureAt: T0 + 4 * MINUTE,
          lastFailure: 'timeout after 10000 ms',
        });
      });
    });

    describe('countSpam', () => {
      it('counts the leads received in the range that are spam now, as the Spam view lists them', async () => {
        const dayStart = Date.UTC(2025, 2, 4);
        const dayEnd = dayStart + 24 * 60 * MINUTE;
        const counted = [newLead({ receivedAt: dayStart }), newLead({ receivedAt: dayEnd - 1 })];
        const marked = newLead({ receivedAt: dayStart + MINUTE });
        const released = newLead({ receivedAt: dayStart + 2 * MINUTE, spamReason: 'honeypot', initialState: 'spam' });
        for (const lead of [
          ...counted.map((lead) => ({ ...lead, spamReason: 'honeypot', initialState: 'spam' as const })),
          marked,
          released,
          newLead({ receivedAt: dayStart - 1, spamReason: 'honeypot', initialState: 'spam' }),
          newLead({ receivedAt: dayEnd, spamReason: 'honeypot', initialState: 'spam' }),
          newLead({ receivedAt: dayStart + 3 * MINUTE }),
        ]) {
          await store.insertLead(lead);
        }
        expect(await store.markSpam(marked.id, 'marked by ana@example.com', dayEnd)).toBe(true);
        expect(await store.markNotSpam(released.id, dayEnd, released)).toBe(true);
        expect(await store.countSpam(dayStart, dayEnd)).toBe(3);
        const listed = await store.listLeadPage({ spam: true, receivedFrom: dayStart, receivedBefore: dayEnd }, undefined, 50);
        expect(listed.leads).toHaveLength(3);
        expect(await store.countSpam(dayEnd + 1, dayEnd + 24 * 60 * MINUTE)).toBe(0);
      });
    });

    describe('enqueueNotifications', () => {
      it('stores each key once, whichever process stores it, and moves the watermark only forward', async () => {
        const other = await database.open();
        expect(await store.notifyWatermark()).toBeUndefined();
        const results = await Promise.all([
          store.enqueueNotifications([notification('a'), notification('b')], T0 + 2 * MINUTE),
          other.enqueueNotifications([notification('b'), notification('a')], T0 + MINUTE),
        ]);
        expect(results.reduce((sum, count) => sum + count, 0)).toBe(2);
        expect((await store.listNotifications()).map((row) => row.key).sort()).toEqual(['a', 'b']);
        expect(await store.notifyWatermark()).toBe(T0 + 2 * MINUTE);
        await other.enqueueNotifications([], T0);
        expect(await store.notifyWatermark()).toBe(T0 + 2 * MINUTE);
      });
    });

    describe('incidents', () => {
      it('opens one incident however many processes try, and closes it once', async () => {
        const other = await database.open();
        const opened = await Promise.all([
          store.startIncident({ since: T0, lastError: 'HTTP 503', openedAt: T0 + 15 * MINUTE }, [notification('open-1')]),
          other.startIncident({ since: T0, lastError: 'HTTP 503', openedAt: T0 + 15 * MINUTE }, [notification('open-1')]),
          other.startIncident({ since: T0 + 1, lastError: 'HTTP 500', openedAt: T0 + 15 * MINUTE }, [notification('open-2')]),
        ]);
        expect(opened.filter(Boolean)).toHaveLength(1);
        const open = await other.findOpenIncident();
        expect(open?.closedAt).toBeUndefined();
        expect((await store.listNotifications()).map((row) => row.key)).toHaveLength(1);

        const since = open?.since ?? 0;
        const closed = await Promise.all([
          store.endIncident(since, T0 + 20 * MINUTE, [notification('recovered')]),
          other.endIncident(since, T0 + 20 * MINUTE, [notification('recovered-again')]),
        ]);
        expect(closed.filter(Boolean)).toHaveLength(1);
        expect(await store.findOpenIncident()).toBeUndefined();
        expect((await store.listNotifications()).map((row) => row.key)).toHaveLength(2);

        // After recovery, a new incident may open.
        expect(await store.startIncident({ since: T0 + 30 * MINUTE, lastError: undefined, openedAt: T0 + 45 * MINUTE }, [])).toBe(true);
        expect(await other.findOpenIncident()).toEqual({
          since: T0 + 30 * MINUTE,
          lastError: undefined,
          openedAt: T0 + 45 * MINUTE,
          closedAt: undefined,
        });
      });
    });

    describe('claimNotifications and recordNotificationResults', () => {
      it('hands each due notification to one notifier at a time, and keeps what each try did', async () => {
        await store.enqueueNotifications([
          notification('first', { createdAt: T0, detail: { since: T0, lastError: 'HTTP 503' } }),
          notification('later', { createdAt: T0 + MINUTE, channel: 'webhook' }),
        ]);
        const other = await database.open();
        const claimed = await store.claimNotifications({ now: T0, limit: 10, owner: 'n1', leaseMs: LEASE_MS });
        expect(claimed).toMatchObject([{ key: 'first', channel: 'email', attempts: 0, detail: { since: T0, lastError: 'HTTP 503' } }]);
        expect(await other.claimNotifications({ now: T0 + 30_000, limit: 10, owner: 'n2', leaseMs: LEASE_MS })).toEqual([]);

        const id = claimed[0]?.id ?? 0;
        // A notifier whose lease was taken over records nothing.
        await other.recordNotificationResults([{ id, owner: 'n2', at: T0, nextState: 'sent', error: undefined, nextAttemptAt: undefined }]);
        await store.recordNotificationResults([
          { id, owner: 'n1', at: T0 + 1_000, nextState: 'pending', error: 'connect ECONNREFUSED', nextAttemptAt: T0 + 5 * MINUTE },
        ]);
        expect((await store.listNotifications())[0]).toMatchObject({ state: 'pending', attempts: 1, lastError: 'connect ECONNREFUSED' });

        const due = await other.claimNotifications({ now: T0 + 5 * MINUTE, limit: 10, owner: 'n2', leaseMs: LEASE_MS });
        expect(due.map((row) => [row.key, row.attempts])).toEqual([
          ['later', 0],
          ['first', 1],
        ]);
        await other.recordNotificationResults(
          due.map((row) => ({
            id: row.id,
            owner: 'n2',
            at: T0 + 6 * MINUTE,
            nextState: 'sent',
            error: undefined,
            nextAttemptAt: undefined,
          })),
        );
        expect((await store.listNotifications()).map((row) => row.state)).toEqual(['sent', 'sent']);
        expect(await store.claimNotifications({ now: T0 + 10 ** 9, limit: 10, owner: 'n1', leaseMs: LEASE_MS })).toEqual([]);
      });

      it('claims a notification again once the lease of a notifier that died has lapsed', async () => {
        await store.enqueueNotifications([notification('orphan')]);
        expect(await store.claimNotifications({ now: T0, limit: 10, owner: 'n1', leaseMs: LEASE_MS })).toHaveLength(1);
        expect(await store.claimNotifications({ now: T0 + LEASE_MS, limit: 10, owner: 'n2', leaseMs: LEASE_MS })).toHaveLength(1);
      });
    });

    describe('form switches', () => {
      it('keeps each form’s new-lead e-mail switch, shared by every process', async () => {
        expect(await store.listNotifyForms()).toEqual([]);
        await store.setNotifyForm(CONTACT, false, T0);
        await store.setNotifyForm(HOME, false, T0);
        await store.setNotifyForm(HOME, true, T0 + 1);
        const other = await database.open();
        expect(await other.listNotifyForms()).toEqual([
          { form: CONTACT, newLeadEmail: false },
          { form: HOME, newLeadEmail: true },
        ]);
      });
    });
  });
}
