// The sales queue's console API on a real store (SQLite and PostgreSQL), as a salesperson and an
// admin meet it: "Call now" (mine, then unassigned; never spam, never a repeat that joined an
// earlier lead), a logged call stopping the clock, statuses with their lost reason, notes kept as
// written (a script in a note comes back as text), the owner changed by hand, each person's working
// hours, the assignment rules with their warnings, the speed-to-lead figures and their CSV, and who
// may do what. The assigner runs by hand here, so each step is seen as it happens.
import { afterEach, describe, expect, it } from 'vitest';
import type {
  AssignmentRules,
  CallNow,
  LeadDetail,
  LeadSalesDetail,
  LeadSalesView,
  LeadSummary,
  SalesPerson,
  SpeedReport,
} from '../../console/api-types.ts';
import type { WorkingWindow } from '../../lead/sales.ts';
import type { WeeklyHours } from '../sales/working-time.ts';
import { startConsoleServer, type ConsoleTestServer, type Signed } from '../testing/console-client.ts';
import { postgresHarness, type StoreDatabase } from '../testing/store-harness.ts';

let server: ConsoleTestServer | undefined;
let database: StoreDatabase | undefined;
afterEach(async () => {
  await server?.close();
  await database?.remove();
  server = undefined;
  database = undefined;
});

const leadId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const EVERY_HOUR: WeeklyHours = { timeZone: 'UTC', windows: [] };
const ALL_WEEK: WorkingWindow[] = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440 }));
const SCRIPT = '<script>alert(1)</script>\nsecond line';
const MINUTE = 60_000;

describe.each([
  ['SQLite', undefined],
  ['PostgreSQL', postgresHarness],
] as const)('the sales queue API on %s', (_name, harness) => {
  const skip = harness?.skipReason;
  let clock = Date.now();

  async function start() {
    clock = Date.now();
    database = harness ? await harness.createDatabase() : undefined;
    const console = await startConsoleServer({
      ...(database ? { database } : {}),
      appOptions: { salesTuning: { start: false, siteHours: EVERY_HOUR, now: () => clock } },
    });
    server = console;
    await console.addAccount('admin@example.com', 'admin');
    await console.addAccount('ana@example.com', 'sales');
    await console.addAccount('bo@example.com', 'sales');
    await console.addAccount('viewer@example.com', 'viewer');
    const admin = await console.signedIn('admin@example.com');
    const ana = await console.signedIn('ana@example.com');
    const bo = await console.signedIn('bo@example.com');
    const viewer = await console.signedIn('viewer@example.com');
    // Each sets their own hours: every day, all day, so round-robin has both to choose from.
    for (const person of [ana, bo]) {
      const response = await console.change(person, 'PUT', `/console/api/people/${person.info.id}/availability`, {
        timeZone: 'America/Chicago',
        windows: ALL_WEEK,
        away: false,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    return { console, admin, ana, bo, viewer };
  }

  async function addLead(console: ConsoleTestServer, n: number, overrides: Record<string, unknown> = {}) {
    const email = (overrides.email as string | undefined) ?? `person${n}@example.com`;
    await console.insertLead({
      id: leadId(n),
      receivedAt: clock - (10 - n) * MINUTE,
      email,
      source: 'Contact Page Form',
      payload: {
        name: `Person ${n}`,
        email,
        company: 'Acme',
        phone: `+1 312 555 01${String(n).padStart(2, '0')}`,
        message: `Question ${n}`,
        lead_id: leadId(n),
      },
      initialState: 'pending',
      ...overrides,
    });
  }

  async function place(console: ConsoleTestServer) {
    await console.app.sales.assigner.runOnce();
  }

  async function detail(console: ConsoleTestServer, who: Signed, id: string) {
    const response = await console.read(who, `/console/api/leads/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<LeadDetail & LeadSalesDetail>();
  }

  it.skipIf(skip)('"Call now" lists my untouched leads, then unassigned ones, oldest first; never spam, never a repeat', async () => {
    const { console, admin, ana } = await start();
    await console.change(admin, 'PUT', '/console/api/assignment-rules', {
      rules: [{ kind: 'form', value: 'Contact Page Form', ownerId: ana.info.id }],
    });
    await addLead(console, 1);
    await addLead(console, 2);
    await addLead(console, 3, { spamReason: 'honeypot', initialState: 'spam' });
    // The same person again: it joins lead 1 and never shows on its own.
    await addLead(console, 4, { email: 'person1@example.com' });
    await place(console);

    const queue = (await console.read(ana, '/console/api/queue')).json<CallNow>();
    expect(queue.mine.map((row) => row.id)).toEqual([leadId(1), leadId(2)]);
    expect(queue.unassigned).toEqual([]);
    expect(queue.mine[0]).toMatchObject({
      name: 'Person 1',
      company: 'Acme',
      phone: '+1 312 555 0101',
      email: 'person1@example.com',
      asked: 'Question 1',
      callbackRequested: false,
      sales: { owner: { id: ana.info.id, email: 'ana@example.com' }, status: 'new', clockRunning: true, firstTouchAt: null },
    });
    expect(queue.mine[0]!.sales.clockMinutes).toBe(9);
    expect(queue.openNow).toBe(true);
    expect((await detail(console, ana, leadId(1))).joined.map((joined) => joined.id)).toEqual([leadId(4)]);
    expect((await detail(console, ana, leadId(4))).sales.joinedTo).toBe(leadId(1));

    // Everyone away: a new lead waits unassigned, and shows to everyone under "unassigned".
    for (const person of [ana]) {
      await console.change(person, 'PUT', `/console/api/people/${person.info.id}/availability`, {
        timeZone: 'UTC',
        windows: ALL_WEEK,
        away: true,
      });
    }
    const bo = await console.signedIn('bo@example.com');
    await console.change(bo, 'PUT', `/console/api/people/${bo.info.id}/availability`, { timeZone: 'UTC', windows: ALL_WEEK, away: true });
    await addLead(console, 5, { email: 'new@example.org' });
    await place(console);
    expect((await console.read(bo, '/console/api/queue')).json<CallNow>().unassigned.map((row) => row.id)).toEqual([leadId(5)]);
  });

  it.skipIf(skip)('a logged call stops the clock and takes the lead off "Call now"; the timeline says what happened', async () => {
    const { console, ana, bo } = await start();
    await addLead(console, 1);
    await place(console);
    const owner = (await detail(console, ana, leadId(1))).sales.owner!;
    const caller = owner.id === ana.info.id ? ana : bo;

    clock += 3 * MINUTE;
    const response = await console.change(caller, 'POST', `/console/api/leads/${leadId(1)}/touches`, { kind: 'call', outcome: 'reached' });
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json<LeadSalesView>();
    expect(view.firstTouchAt).toBe(new Date(clock).toISOString());
    expect(view.clockRunning).toBe(false);
    expect(view.clockMinutes).toBe(12);
    expect((await console.read(caller, '/console/api/queue')).json<CallNow>().mine).toEqual([]);

    const lead = await detail(console, caller, leadId(1));
    // The CRM hears of the owner too; its delivery is named as such, apart from the sale.
    expect(lead.timeline.map((entry) => entry.text)).toEqual([
      `Assigned to ${owner.email} (round-robin)`,
      'The new owner is waiting to be sent to the CRM',
      'Called: reached them',
    ]);
    expect(lead.timeline[2]).toMatchObject({ kind: 'call', actor: caller.info.email });
    // A later call does not move the first touch.
    clock += 10 * MINUTE;
    await console.change(caller, 'POST', `/console/api/leads/${leadId(1)}/touches`, { kind: 'email', outcome: 'sent' });
    expect((await detail(console, caller, leadId(1))).sales.clockMinutes).toBe(12);
  });

  it.skipIf(skip)('statuses need a reason for lost; notes come back exactly as written, as text', async () => {
    const { console, ana } = await start();
    await addLead(console, 1);
    await place(console);

    const noReason = await console.change(ana, 'POST', `/console/api/leads/${leadId(1)}/status`, { status: 'lost' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ error: 'validation', fields: { lostReason: expect.stringContaining('why') } });
    const lost = await console.change(ana, 'POST', `/console/api/leads/${leadId(1)}/status`, { status: 'lost', lostReason: 'price' });
    expect(lost.json<LeadSalesView>()).toMatchObject({ status: 'lost', lostReason: 'price' });
    expect(lost.json<LeadSalesView>().firstTouchAt).not.toBeNull();

    const note = await console.change(ana, 'POST', `/console/api/leads/${leadId(1)}/notes`, { text: SCRIPT });
    expect(note.statusCode, note.body).toBe(200);
    const lead = await console.read(ana, `/console/api/leads/${leadId(1)}`);
    expect(lead.headers['content-type']).toMatch(/^application\/json/);
    const timeline = lead.json<LeadSalesDetail>().timeline;
    expect(timeline.map((entry) => entry.text)).toContain('Status: new → lost (price)');
    expect(timeline.find((entry) => entry.kind === 'note')).toMatchObject({ text: 'Note', note: SCRIPT, actor: 'ana@example.com' });

    expect((await console.change(ana, 'POST', `/console/api/leads/${leadId(1)}/notes`, { text: '   ' })).json()).toMatchObject({
      fields: { text: 'Write something in the note.' },
    });
    expect(
      (await console.change(ana, 'POST', `/console/api/leads/${leadId(1)}/touches`, { kind: 'call', outcome: 'sent' })).json(),
    ).toMatchObject({
      fields: { outcome: expect.any(String) },
    });
    expect((await console.change(ana, 'POST', `/console/api/leads/${leadId(99)}/notes`, { text: 'x' })).statusCode).toBe(404);
  });

  it.skipIf(skip)('the owner is changed by hand, audited, to someone who works leads only', async () => {
    const { console, admin, ana, bo, viewer } = await start();
    await addLead(console, 1);
    await place(console);
    const first = (await detail(console, ana, leadId(1))).sales.owner!;
    const next = first.id === ana.info.id ? bo : ana;
    const moved = await console.change(ana, 'POST', `/console/api/leads/${leadId(1)}/owner`, { ownerId: next.info.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<LeadSalesView>().owner).toEqual({ id: next.info.id, email: next.info.email });
    const toViewer = await console.change(ana, 'POST', `/console/api/leads/${leadId(1)}/owner`, { ownerId: viewer.info.id });
    expect(toViewer.statusCode).toBe(400);
    expect(toViewer.json()).toMatchObject({ fields: { ownerId: expect.any(String) } });
    expect((await console.change(viewer, 'POST', `/console/api/leads/${leadId(1)}/owner`, { ownerId: ana.info.id })).statusCode).toBe(403);
    const audit = (await console.read(admin, '/console/api/audit')).json<{
      entries: { action: string; actor: string; detail: string }[];
    }>();
    expect(
      audit.entries.some(
        (entry) =>
          entry.action === 'lead.assign' &&
          entry.actor === 'ana@example.com' &&
          entry.detail.includes(`owner ${next.info.email}, was ${first.email}`),
      ),
    ).toBe(true);
  });

  it.skipIf(skip)('working hours: my own with leads:work, anyone’s only for an admin; a bad zone or window names the field', async () => {
    const { console, admin, ana, bo, viewer } = await start();
    const mine = await console.change(ana, 'PUT', `/console/api/people/${ana.info.id}/availability`, {
      timeZone: 'Europe/London',
      windows: [{ day: 1, startMinute: 540, endMinute: 1020 }],
      away: true,
    });
    expect(mine.json<SalesPerson>()).toMatchObject({ id: ana.info.id, timeZone: 'Europe/London', away: true, availableNow: false });
    expect(
      (await console.change(ana, 'PUT', `/console/api/people/${bo.info.id}/availability`, { timeZone: 'UTC', windows: [], away: true }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await console.change(viewer, 'PUT', `/console/api/people/${viewer.info.id}/availability`, {
          timeZone: 'UTC',
          windows: [],
          away: true,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await console.change(admin, 'PUT', `/console/api/people/${bo.info.id}/availability`, {
          timeZone: 'UTC',
          windows: ALL_WEEK,
          away: false,
        })
      ).statusCode,
    ).toBe(200);

    const badZone = await console.change(ana, 'PUT', `/console/api/people/${ana.info.id}/availability`, {
      timeZone: 'Mars/Olympus',
      windows: [],
      away: false,
    });
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json()).toMatchObject({ fields: { timeZone: expect.stringContaining('time zone') } });
    const backwards = await console.change(ana, 'PUT', `/console/api/people/${ana.info.id}/availability`, {
      timeZone: 'UTC',
      windows: [{ day: 2, startMinute: 600, endMinute: 540 }],
      away: false,
    });
    expect(backwards.json()).toMatchObject({ fields: { 'windows.0.endMinute': expect.stringContaining('end after it starts') } });

    const people = (await console.read(viewer, '/console/api/people')).json<SalesPerson[]>();
    expect(people.map((person) => person.email).sort()).toEqual(['admin@example.com', 'ana@example.com', 'bo@example.com']);
  });

  it.skipIf(skip)('assignment rules: only an admin sets them, and a rule that gives leads to nobody says why', async () => {
    const { console, admin, ana, viewer } = await start();
    const saved = await console.change(admin, 'PUT', '/console/api/assignment-rules', {
      rules: [
        { kind: 'form', value: 'Contact Page Form', ownerId: ana.info.id },
        { kind: 'campaign', value: 'spring', ownerId: viewer.info.id },
        { kind: 'domain', value: '', ownerId: null },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const rules = saved.json<AssignmentRules>().rules;
    expect(rules.map((rule) => [rule.kind, rule.owner?.email ?? null])).toEqual([
      ['form', 'ana@example.com'],
      ['campaign', 'viewer@example.com'],
      ['domain', null],
    ]);
    expect(rules[0]!.warning).toBeNull();
    expect(rules[1]!.warning).toContain('viewer@example.com');
    expect((await console.read(admin, '/console/api/assignment-rules')).json<AssignmentRules>()).toEqual({ rules });
    expect((await console.change(ana, 'PUT', '/console/api/assignment-rules', { rules: [] })).statusCode).toBe(403);
    expect((await console.read(ana, '/console/api/assignment-rules')).statusCode).toBe(403);
    const missingOwner = await console.change(admin, 'PUT', '/console/api/assignment-rules', {
      rules: [{ kind: 'service', value: 'Voice agents', ownerId: null }],
    });
    expect(missingOwner.json()).toMatchObject({ fields: { 'rules.0.ownerId': expect.any(String) } });
  });

  it.skipIf(skip)('a lead from before the queue is never handed out; its page says so and a person can give it an owner', async () => {
    const { console, ana } = await start();
    await addLead(console, 1, { receivedAt: clock - 3 * 24 * 60 * MINUTE });
    await addLead(console, 2);
    await place(console);

    const before = await detail(console, ana, leadId(1));
    expect(before.queue).toBe('outside');
    expect(before.sales).toMatchObject({ owner: null, clockMinutes: 0, clockRunning: false });
    expect((await detail(console, ana, leadId(2))).queue).toBe('placed');
    const queue = (await console.read(ana, '/console/api/queue')).json<CallNow>();
    expect([...queue.mine, ...queue.unassigned].map((row) => row.id)).not.toContain(leadId(1));
    const call = await console.change(ana, 'POST', `/console/api/leads/${leadId(1)}/touches`, { kind: 'call', outcome: 'reached' });
    expect(call.statusCode).toBe(409);
    expect(call.json<{ message: string }>().message).toContain('came before the sales queue');

    clock += MINUTE;
    const given = await console.change(ana, 'POST', `/console/api/leads/${leadId(1)}/owner`, { ownerId: ana.info.id });
    expect(given.statusCode, given.body).toBe(200);
    const after = await detail(console, ana, leadId(1));
    expect(after.queue).toBe('placed');
    expect(after.sales).toMatchObject({
      owner: { id: ana.info.id, email: 'ana@example.com' },
      clockStartsAt: new Date(clock).toISOString(),
    });
    expect(after.timeline.map((entry) => entry.actor)).toContain('ana@example.com');
    const mine = (await console.read(ana, '/console/api/queue')).json<CallNow>().mine;
    expect(mine.map((row) => row.id)).toContain(leadId(1));
    // The figures time leads from the visitor's send: this one was never timed, so they leave it out.
    const report = (await console.read(ana, '/console/api/speed')).json<SpeedReport>();
    expect(report.overall.leads).toBe(1);
  });

  it.skipIf(skip)('the inbox shows each lead’s sales status, phone and owner', async () => {
    const { console, ana } = await start();
    await addLead(console, 1, { receivedAt: clock - 3 * 24 * 60 * MINUTE });
    await addLead(console, 2);
    await place(console);
    const owner = (await detail(console, ana, leadId(2))).sales.owner!;
    const page = (await console.read(ana, '/console/api/leads')).json<{ leads: LeadSummary[] }>();
    const byId = new Map(page.leads.map((lead) => [lead.id, lead]));
    expect(byId.get(leadId(2))).toMatchObject({ phone: '+1 312 555 0102', owner, salesStatus: 'new' });
    // Outside the queue: no owner and no sales status to show.
    expect(byId.get(leadId(1))).toMatchObject({ phone: '+1 312 555 0101' });
    expect(byId.get(leadId(1))!.owner).toBe(undefined);
    expect(byId.get(leadId(1))!.salesStatus).toBe(undefined);
  });

  it.skipIf(skip)('a full list of assignment rules, each as long as allowed, is saved; one rule more names the list', async () => {
    const { console, admin, ana } = await start();
    // 100 rules of 200 characters each (accented, two bytes each in UTF-8): every one within its limits.
    const full = Array.from({ length: 100 }, (_, n) => ({ kind: 'campaign', value: `${n}-${'é'.repeat(196)}`, ownerId: ana.info.id }));
    const saved = await console.change(admin, 'PUT', '/console/api/assignment-rules', { rules: full });
    expect(saved.statusCode, saved.body.slice(0, 200)).toBe(200);
    expect(saved.json<AssignmentRules>().rules).toHaveLength(100);
    const tooMany = await console.change(admin, 'PUT', '/console/api/assignment-rules', {
      rules: [...full, { kind: 'campaign', value: 'one more', ownerId: ana.info.id }],
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ fields: { rules: expect.stringContaining('at most 100') } });
  });

  it.skipIf(skip)('speed to lead: the figures over a range and their CSV', async () => {
    const { console, ana, bo } = await start();
    await addLead(console, 1);
    await addLead(console, 2);
    await place(console);
    for (const id of [leadId(1)]) {
      const owner = (await detail(console, ana, id)).sales.owner!;
      await console.change(owner.id === ana.info.id ? ana : bo, 'POST', `/console/api/leads/${id}/touches`, {
        kind: 'call',
        outcome: 'reached',
      });
    }
    const report = (await console.read(ana, '/console/api/speed')).json<SpeedReport>();
    expect(report.overall).toMatchObject({ leads: 2, reached: 1, medianMinutes: 9, neverReached: 0.5 });
    expect(report.businessHours).toContain('Every hour counts');
    expect(report.byForm.map((group) => [group.label, group.leads])).toEqual([['Contact Page Form', 2]]);
    const csv = await console.read(ana, '/console/api/speed/export?by=owner');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain('ana@example.com');
    expect((await console.read(ana, '/console/api/speed?from=2026-02-30')).json()).toMatchObject({ fields: { from: expect.any(String) } });
    expect((await console.read(ana, '/console/api/speed/export?by=colour')).statusCode).toBe(400);
  });

  it.skipIf(skip)('a removed person’s lead goes to the next available person, and its timeline says why', async () => {
    const { console, admin, ana, bo } = await start();
    await console.change(admin, 'PUT', '/console/api/assignment-rules', {
      rules: [{ kind: 'form', value: 'Contact Page Form', ownerId: ana.info.id }],
    });
    await addLead(console, 1);
    await place(console);
    const removed = await console.change(admin, 'DELETE', '/console/api/accounts/ana%40example.com');
    expect(removed.statusCode, removed.body).toBe(204);
    const lead = await detail(console, bo, leadId(1));
    expect(lead.sales.owner).toEqual({ id: bo.info.id, email: 'bo@example.com' });
    expect(lead.timeline.map((entry) => [entry.actor, entry.text])).toEqual(
      expect.arrayContaining([
        ['admin@example.com', 'Back to unassigned: its owner was removed or is no longer in sales'],
        ['system', 'Assigned to bo@example.com (round-robin: ana@example.com account removed)'],
      ]),
    );
  });

  it.skipIf(skip)('a lead in Spam is not worked until someone says it is not spam, and the refusal says so', async () => {
    const { console, ana } = await start();
    await addLead(console, 3, { spamReason: 'honeypot', initialState: 'spam' });
    // Spam from before the queue: giving it an owner must not slip it into the queue either.
    await addLead(console, 4, { spamReason: 'honeypot', initialState: 'spam', receivedAt: clock - 3 * 24 * 60 * MINUTE });
    await place(console);
    for (const spam of [leadId(3), leadId(4)]) {
      for (const [path, body] of [
        ['touches', { kind: 'call', outcome: 'reached' }],
        ['notes', { text: 'Looks real' }],
        ['status', { status: 'won' }],
        ['owner', { ownerId: ana.info.id }],
      ] as const) {
        const response = await console.change(ana, 'POST', `/console/api/leads/${spam}/${path}`, body);
        expect(response.statusCode, `${spam} ${path}`).toBe(409);
        expect(response.json<{ message: string }>().message, path).toContain('choose "Not spam" first');
      }
      expect((await detail(console, ana, spam)).timeline).toEqual([]);
    }
  });

  it.skipIf(skip)('a change without the session’s token is refused and changes nothing', async () => {
    const { console, ana } = await start();
    await addLead(console, 1);
    await place(console);
    const response = await console.app.inject({
      method: 'POST',
      url: `/console/api/leads/${leadId(1)}/touches`,
      headers: { ...ana.changeHeaders, 'x-csrf-token': 'A'.repeat(43) },
      payload: JSON.stringify({ kind: 'call', outcome: 'reached' }),
    });
    expect(response.statusCode).toBe(403);
    expect((await detail(console, ana, leadId(1))).sales.firstTouchAt).toBeNull();
  });
});
