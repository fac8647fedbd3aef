// The sales queue in the console: GET /queue ("Call now"), the lead's owner, status, notes and
// logged calls and e-mails (POST /leads/:id/owner, /status, /notes, /touches), the people leads go
// to and their working hours (GET /people, PUT /people/:id/availability), the assignment rules
// (GET and PUT /assignment-rules) and the speed-to-lead figures (GET /speed, /speed/export).
// Every change is audited by the signed-in person and, for owners and statuses, told to the CRM as a
// follow-up event in the same transaction. Text people typed (notes, reasons) goes out as JSON
// strings: the app shows it as text, never as markup.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AssignmentRules, CallNow, LeadSalesView, RuleView, SalesPerson, SpeedReport } from '../../../console/api-types.ts';
import { LEAD_SOURCES } from '../../../lead/rules.ts';
import { RULE_KINDS, SALES_STATUSES, TOUCH_OUTCOMES, type SalesStatus } from '../../../lead/sales.ts';
import { can } from '../../../back-office/roles.ts';
import type { AccountRecord } from '../../../back-office/accounts/account-store.ts';
import { ruleWarnings } from '../../sales/assignment.ts';
import { isAvailable } from '../../sales/availability.ts';
import { ownerFollowUp, statusFollowUp } from '../../sales/crm-follow-ups.ts';
import { OWNER_ROLES, readTeam, type TeamMember } from '../../sales/sales-team.ts';
import { groupSpeed, speedCsv, speedFigures } from '../../sales/speed-figures.ts';
import { describeHours, isOpenAt, isValidTimeZone, type WeeklyHours } from '../../sales/working-time.ts';
import type { AccountId, Availability, LeadSales, NewActivity, NewCrmEvent } from '../../store/sales/sales-store.ts';
import { ConsoleProblem, conflict, notFound } from '../api-errors.ts';
import { sessionOfRequest, type ConsoleContext } from '../context.ts';
import { day, leadIdSchema, optional } from '../lead-view.ts';
import { consoleText, type ConsoleRoutes } from '../request-checks.ts';
import { queueStateOf } from '../sales-detail.ts';
import { toQueueLead, toSalesView, type PeopleIndex } from '../sales-view.ts';

/** Rows per list of "Call now": more than a day's leads for a small team, few enough for a phone. */
export const QUEUE_LIMIT = 100;
export const MAX_NOTE_CHARS = 2000;
export const MAX_LOST_REASON_CHARS = 200;
export const MAX_RULES = 100;
export const MAX_WINDOWS = 28;
/**
 * The assignment rules' body: the most rules, each with its longest value (up to 3 bytes a character
 * in UTF-8) and an owner's id, with room for the JSON around them. The server's own limit is sized
 * for a lead and would refuse a full list of rules the checks below allow.
 */
const RULES_BODY_LIMIT_BYTES = 128 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The figures' default range: the 30 UTC days ending today, as the visit reports. */
const DEFAULT_SPEED_DAYS = 30;
const MAX_SPEED_DAYS = 3_700;

const NO_LEAD = 'There is no lead with that id: it may have been erased.';
const NOT_PLACED = 'This lead is being given its owner right now: try again in a moment.';
const OUTSIDE_QUEUE = 'This lead came before the sales queue, so it has no owner yet: give it an owner first.';
const IN_SPAM =
  'This lead is in Spam, so nobody works it: if it is a real one, choose "Not spam" first and it gets an owner within seconds.';
const FORM_NAMES: readonly string[] = Object.values(LEAD_SOURCES);

const leadParams = z.strictObject({ id: leadIdSchema });
const accountIdSchema = z.string().min(1).max(100);
const personParams = z.strictObject({ id: accountIdSchema });

const ownerBody = z.strictObject({ ownerId: accountIdSchema.nullable() });
const statusBody = z
  .strictObject({ status: z.enum(SALES_STATUSES), lostReason: optional(consoleText(MAX_LOST_REASON_CHARS)) })
  .superRefine((body, context) => {
    if (body.status === 'lost' && (body.lostReason === undefined || body.lostReason.trim() === ''))
      context.addIssue({ code: 'custom', path: ['lostReason'], message: 'Say why the lead was lost (a few words, such as "price").' });
  });
/** A note may run over several lines; other control characters have no place in it (and PostgreSQL refuses U+0000). */
const noteBody = z.strictObject({
  text: z
    .string()
    .max(MAX_NOTE_CHARS)
    .refine((text) => text.trim() !== '', 'Write something in the note.')
    .refine((text) => !/[^\P{Cc}\n\r\t]/u.test(text), 'Must not contain control characters other than line breaks and tabs.'),
});
const touchBody = z.strictObject({ kind: z.enum(['call', 'email']), outcome: z.enum(TOUCH_OUTCOMES) }).superRefine((body, context) => {
  if (body.kind === 'call' && body.outcome === 'sent')
    context.addIssue({ code: 'custom', path: ['outcome'], message: 'A call is reached, left a voicemail, no answer or wrong number.' });
  if (body.kind === 'email' && body.outcome !== 'sent')
    context.addIssue({ code: 'custom', path: ['outcome'], message: 'An e-mail is logged as sent.' });
});

const windowSchema = z
  .strictObject({
    day: z.number().int().min(0).max(6),
    startMinute: z.number().int().min(0).max(1439),
    endMinute: z.number().int().min(1).max(1440),
  })
  .superRefine((window, context) => {
    if (window.startMinute >= window.endMinute)
      context.addIssue({ code: 'custom', path: ['endMinute'], message: 'Must end after it starts, within the same day.' });
  });
const availabilityBody = z.strictObject({
  timeZone: z.string().max(100).refine(isValidTimeZone, 'Must be a time zone such as America/Chicago or Europe/London.'),
  windows: z.array(windowSchema).max(MAX_WINDOWS),
  away: z.boolean(),
});

const rulesBody = z.strictObject({
  rules: z
    .array(
      z
        .strictObject({ kind: z.enum(RULE_KINDS), value: consoleText(200), ownerId: accountIdSchema.nullable() })
        .superRefine((rule, context) => {
          if (rule.kind !== 'domain' && rule.value.trim() === '')
            context.addIssue({ code: 'custom', path: ['value'], message: 'Say which form, service or campaign the rule is for.' });
          if (rule.kind !== 'domain' && rule.ownerId === null)
            context.addIssue({ code: 'custom', path: ['ownerId'], message: 'Choose the person who gets these leads.' });
        }),
    )
    .max(MAX_RULES),
});

const speedQuery = z.strictObject({ from: optional(day), to: optional(day) }).superRefine((query, context) => {
  if (query.from !== undefined && query.to !== undefined && query.to < query.from)
    context.addIssue({ code: 'custom', path: ['to'], message: 'Must be on or after "from".' });
});
const speedExportQuery = z
  .strictObject({ from: optional(day), to: optional(day), by: z.enum(['owner', 'form', 'campaign']) })
  .superRefine((query, context) => {
    if (query.from !== undefined && query.to !== undefined && query.to < query.from)
      context.addIssue({ code: 'custom', path: ['to'], message: 'Must be on or after "from".' });
  });

function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The range asked for: `to` defaults to today, `from` to the 30 days ending at `to`; whole UTC days. */
function speedRange(query: { from?: string | undefined; to?: string | undefined }, now: number) {
  const to = query.to ?? dayOf(now);
  const from = query.from ?? dayOf(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_SPEED_DAYS - 1) * DAY_MS);
  const receivedFrom = Date.parse(`${from}T00:00:00Z`);
  const receivedBefore = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
  if ((receivedBefore - receivedFrom) / DAY_MS > MAX_SPEED_DAYS)
    throw new ConsoleProblem(400, 'validation', `"from": The range must span at most ${MAX_SPEED_DAYS.toLocaleString('en')} days.`, {
      from: `The range must span at most ${MAX_SPEED_DAYS.toLocaleString('en')} days.`,
    });
  if (query.to === undefined && query.from !== undefined && query.from > to)
    throw new ConsoleProblem(400, 'validation', `"from": Must be ${to} or earlier, or give "to" too.`, {
      from: `Must be ${to} or earlier, or give "to" too.`,
    });
  return { range: { from, to }, receivedFrom, receivedBefore };
}

function peopleIndex(accounts: readonly Pick<AccountRecord, 'id' | 'email'>[]): PeopleIndex {
  return new Map(accounts.map((account) => [account.id, account.email]));
}

/** How the figures count time, in words. */
function hoursSentence(hours: WeeklyHours): string {
  return hours.windows.length === 0
    ? 'Every hour counts: the site has no business hours set.'
    : `Times count business hours only (${describeHours(hours)}): a lead sent while closed starts waiting at the next opening.`;
}

export const salesRoutes: ConsoleRoutes<{ context: ConsoleContext }> = async (app, { context }) => {
  const { store, salesNow: now, siteHours } = context;

  function me(request: FastifyRequest) {
    return sessionOfRequest(request).record.account;
  }

  async function people(): Promise<PeopleIndex> {
    return peopleIndex(await store.listAccounts());
  }

  /**
   * The lead and its sales row; a lead not placed yet is refused (the assigner places it within
   * seconds). Spam is never placed, so it is refused in its own words rather than "try again".
   */
  async function placedLead(leadId: string): Promise<LeadSales> {
    const lead = await store.getLead(leadId);
    if (lead === undefined) throw notFound(NO_LEAD);
    if (lead.state === 'spam') throw conflict(IN_SPAM);
    const sales = await store.findLeadSales(leadId);
    if (sales === undefined) throw conflict(queueStateOf(lead, sales, now()) === 'outside' ? OUTSIDE_QUEUE : NOT_PLACED);
    return sales;
  }

  /**
   * A person gives a lead outside the queue its first owner: it joins the queue now. Its clock starts
   * at this moment (nobody timed the visitor's wait, so the speed figures leave it out) and the ladder
   * climbs from here. Null (nobody) leaves it as it is.
   */
  async function placeByHand(request: FastifyRequest, leadId: string, target: AccountRecord | undefined): Promise<LeadSalesView> {
    if (target === undefined) return view(leadId, undefined);
    const account = me(request);
    const at = now();
    const placed = await store.place({
      leadId,
      at,
      ownerId: target.id,
      clockStartsAt: at,
      joinedTo: undefined,
      roundRobin: false,
      activity: personActivity(request, leadId, 'assigned', {
        ownerId: target.id,
        owner: target.email,
        previousOwner: null,
        reason: `by ${account.email}; it came before the sales queue, so its clock starts now`,
      }),
      audit: {
        at,
        actor: account.email,
        action: 'lead.assign',
        detail: `${leadId}: owner ${target.email} (it came before the sales queue)`,
      },
      crmEvents: [ownerFollowUp({ leadId, at, ownerEmail: target.email, previousOwnerEmail: undefined })],
    });
    if (!placed) throw conflict('Someone changed the owner of this lead just now: look at it again, then choose.');
    return view(leadId, undefined);
  }

  async function view(leadId: string, sales: LeadSales | undefined): Promise<LeadSalesView> {
    const lead = await store.getLead(leadId);
    if (lead === undefined) throw notFound(NO_LEAD);
    return toSalesView(lead, sales ?? (await store.findLeadSales(leadId)), await people(), siteHours(), now());
  }

  function personActivity(request: FastifyRequest, leadId: string, kind: NewActivity['kind'], detail: NewActivity['detail']): NewActivity {
    const account = me(request);
    return { leadId, at: now(), kind, actorId: account.id, actor: account.email, detail };
  }

  // "Call now": my untouched leads, then the unassigned ones, oldest first. Spam and leads that joined
  // an earlier one never show (the store leaves them out); a lead erased in between is skipped.
  app.get('/queue', { config: { right: 'leads:read' } }, async (request): Promise<CallNow> => {
    const account = me(request);
    const hours = siteHours();
    const at = now();
    const [mine, unassigned, index] = await Promise.all([
      store.listUntouched({ ownerId: account.id, limit: QUEUE_LIMIT }),
      store.listUntouched({ unassigned: true, limit: QUEUE_LIMIT }),
      people(),
    ]);
    const rows = async (list: typeof mine) => {
      const leads = await Promise.all(list.map((entry) => store.getLead(entry.leadId)));
      return list.flatMap((entry, position) => {
        const lead = leads[position];
        return lead === undefined || lead.state === 'spam' ? [] : [toQueueLead(lead, entry, index, hours, at)];
      });
    };
    return {
      mine: await rows(mine),
      unassigned: await rows(unassigned),
      businessHours: describeHours(hours),
      openNow: isOpenAt(hours, at),
    };
  });

  app.post(
    '/leads/:id/owner',
    { config: { right: 'leads:assign' }, schema: { params: leadParams, body: ownerBody } },
    async (request): Promise<LeadSalesView> => {
      const { id } = request.params;
      const lead = await store.getLead(id);
      if (lead === undefined) throw notFound(NO_LEAD);
      if (lead.state === 'spam') throw conflict(IN_SPAM);
      const accounts = await store.listAccounts();
      const target = request.body.ownerId === null ? undefined : accounts.find((account) => account.id === request.body.ownerId);
      if (request.body.ownerId !== null && (target === undefined || !OWNER_ROLES.includes(target.role)))
        throw new ConsoleProblem(400, 'validation', '"ownerId": Choose someone in sales (or an admin) from the list.', {
          ownerId: 'Choose someone in sales (or an admin) from the list.',
        });
      const found = await store.findLeadSales(id);
      if (found === undefined && queueStateOf(lead, found, now()) === 'outside') return placeByHand(request, id, target);
      const sales = await placedLead(id);
      if (sales.ownerId === target?.id) return view(id, sales);
      const index = peopleIndex(accounts);
      const before = sales.ownerId === undefined ? undefined : index.get(sales.ownerId);
      const account = me(request);
      const at = now();
      const moved = await store.reassign({
        leadId: id,
        expectedOwnerId: sales.ownerId,
        ownerId: target?.id,
        at,
        activity: personActivity(request, id, 'assigned', {
          ownerId: target?.id ?? null,
          owner: target?.email ?? null,
          previousOwner: before ?? null,
          reason: `by ${account.email}`,
        }),
        audit: {
          at,
          actor: account.email,
          action: 'lead.assign',
          detail: `${id}: ${target === undefined ? 'no owner' : `owner ${target.email}`}${before === undefined ? '' : `, was ${before}`}`,
        },
        crmEvents: [ownerFollowUp({ leadId: id, at, ownerEmail: target?.email, previousOwnerEmail: before })],
      });
      if (!moved) throw conflict('Someone changed the owner of this lead just now: look at it again, then choose.');
      return view(id, undefined);
    },
  );

  /** Records a person's activity on a placed lead and answers the lead's sales side. */
  async function record(
    request: FastifyRequest,
    leadId: string,
    change: {
      activity: NewActivity;
      touch: boolean;
      status?: { to: SalesStatus; lostReason: string | undefined };
      crmEvents?: NewCrmEvent[];
      action: string;
      detail: string;
    },
  ): Promise<LeadSalesView> {
    const account = me(request);
    const updated = await store.recordActivity({
      activity: change.activity,
      ...(change.status === undefined ? {} : { status: change.status }),
      touch: change.touch,
      audit: { at: change.activity.at, actor: account.email, action: change.action, detail: change.detail },
      crmEvents: change.crmEvents ?? [],
    });
    if (updated === undefined) throw notFound(NO_LEAD);
    return view(leadId, updated);
  }

  app.post(
    '/leads/:id/status',
    { config: { right: 'leads:work' }, schema: { params: leadParams, body: statusBody } },
    async (request): Promise<LeadSalesView> => {
      const { id } = request.params;
      const sales = await placedLead(id);
      const { status } = request.body;
      const lostReason = status === 'lost' ? request.body.lostReason?.trim() : undefined;
      if (status === sales.status && lostReason === sales.lostReason) return view(id, sales);
      const activity = personActivity(request, id, 'status', { from: sales.status, to: status, lostReason: lostReason ?? null });
      return record(request, id, {
        activity,
        // A status beyond new is a person's judgement of a conversation: it stops the clock.
        touch: status !== 'new',
        status: { to: status, lostReason },
        crmEvents: [statusFollowUp({ leadId: id, at: activity.at, status, previousStatus: sales.status, lostReason })],
        action: 'lead.status',
        detail: `${id}: ${sales.status} → ${status}`,
      });
    },
  );

  app.post(
    '/leads/:id/notes',
    { config: { right: 'leads:work' }, schema: { params: leadParams, body: noteBody } },
    async (request): Promise<LeadSalesView> => {
      const { id } = request.params;
      await placedLead(id);
      // A note is not a touch: writing about a lead is not calling it.
      return record(request, id, {
        activity: personActivity(request, id, 'note', { text: request.body.text }),
        touch: false,
        action: 'lead.note',
        detail: `${id}: note added`,
      });
    },
  );

  app.post(
    '/leads/:id/touches',
    { config: { right: 'leads:work' }, schema: { params: leadParams, body: touchBody } },
    async (request): Promise<LeadSalesView> => {
      const { id } = request.params;
      await placedLead(id);
      const { kind, outcome } = request.body;
      // Any logged call or e-mail is a human touch, whatever came of it: the clock measures how soon someone tried.
      return record(request, id, {
        activity: personActivity(request, id, kind, { outcome }),
        touch: true,
        action: kind === 'call' ? 'lead.call' : 'lead.email',
        detail: `${id}: ${outcome}`,
      });
    },
  );

  function toSalesPerson(member: TeamMember, untouched: number, at: number): SalesPerson {
    return {
      id: member.accountId,
      email: member.email,
      role: member.role,
      timeZone: member.timeZone,
      windows: [...member.windows],
      away: member.away,
      availableNow: isAvailable(member, at),
      untouched,
    };
  }

  async function untouchedCount(ownerId: AccountId): Promise<number> {
    return (await store.listUntouched({ ownerId, limit: 1000 })).length;
  }

  app.get('/people', { config: { right: 'leads:read' } }, async (): Promise<SalesPerson[]> => {
    const team = await readTeam(store, siteHours());
    const at = now();
    const counts = await Promise.all(team.map((member) => untouchedCount(member.accountId)));
    return team.map((member, index) => toSalesPerson(member, counts[index] ?? 0, at));
  });

  // Each person sets their own hours and away switch; someone who manages sales sets anyone's.
  app.put(
    '/people/:id/availability',
    { config: { right: 'leads:work' }, schema: { params: personParams, body: availabilityBody } },
    async (request): Promise<SalesPerson> => {
      const account = me(request);
      const { id } = request.params;
      if (id !== account.id && !can(account.role, 'sales:manage'))
        throw new ConsoleProblem(403, 'forbidden', 'You can set only your own working hours: ask an admin to change someone else’s.');
      const team = await readTeam(store, siteHours());
      const member = team.find((person) => person.accountId === id);
      if (member === undefined) throw notFound('There is nobody in sales with that id: they may have been removed.');
      const { timeZone, windows, away } = request.body;
      const availability: Omit<Availability, 'lastAssignedAt' | 'defaultHours'> = { accountId: id, timeZone, windows, away };
      const at = now();
      await store.setAvailability(availability, at, {
        at,
        actor: account.email,
        action: 'sales.availability',
        detail: `${member.email}: ${away ? 'away' : 'working'}, ${windows.length} working ${windows.length === 1 ? 'window' : 'windows'} in ${timeZone}`,
      });
      return toSalesPerson({ ...member, ...availability, defaultHours: false }, await untouchedCount(id), at);
    },
  );

  async function ruleViews(): Promise<AssignmentRules> {
    const [rules, accounts] = await Promise.all([store.listRules(), store.listAccounts()]);
    const warnings = ruleWarnings(
      rules,
      accounts.map((account) => ({ id: account.id, role: account.role, email: account.email })),
      FORM_NAMES,
    );
    const index = peopleIndex(accounts);
    return {
      rules: rules.map((rule, position): RuleView => ({
        kind: rule.kind,
        value: rule.value,
        owner: rule.ownerId === undefined || !index.has(rule.ownerId) ? null : { id: rule.ownerId, email: index.get(rule.ownerId)! },
        warning: warnings[position] ?? null,
      })),
    };
  }

  app.get('/assignment-rules', { config: { right: 'sales:manage' } }, async (): Promise<AssignmentRules> => ruleViews());

  // Saved as given, in order; a rule that would give leads to nobody is saved too, and its warning says why.
  app.put(
    '/assignment-rules',
    { config: { right: 'sales:manage' }, schema: { body: rulesBody }, bodyLimit: RULES_BODY_LIMIT_BYTES },
    async (request): Promise<AssignmentRules> => {
      const account = me(request);
      const rules = request.body.rules.map((rule) => ({
        kind: rule.kind,
        value: rule.kind === 'domain' ? '' : rule.value.trim(),
        ownerId: rule.kind === 'domain' ? undefined : (rule.ownerId ?? undefined),
      }));
      await store.replaceRules(rules, {
        at: now(),
        actor: account.email,
        action: 'sales.rules',
        detail: `${rules.length} assignment ${rules.length === 1 ? 'rule' : 'rules'} saved`,
      });
      return ruleViews();
    },
  );

  async function speedRows(query: { from?: string | undefined; to?: string | undefined }) {
    const range = speedRange(query, now());
    return { ...range, rows: await store.listSpeedRows(range.receivedFrom, range.receivedBefore) };
  }

  app.get('/speed', { config: { right: 'leads:read' }, schema: { querystring: speedQuery } }, async (request): Promise<SpeedReport> => {
    const { range, rows } = await speedRows(request.query);
    const hours = siteHours();
    const at = now();
    const index = await people();
    const ownerLabel = (key: string) => index.get(key) ?? (key === '' ? 'Not assigned' : 'Removed account');
    return {
      range,
      businessHours: hoursSentence(hours),
      overall: speedFigures(rows, hours, at),
      byOwner: groupSpeed(rows, 'owner', ownerLabel, hours, at),
      byForm: groupSpeed(rows, 'form', (key) => key, hours, at),
      byCampaign: groupSpeed(rows, 'campaign', (key) => (key === '' ? '(no campaign)' : key), hours, at),
    };
  });

  app.get('/speed/export', { config: { right: 'leads:read' }, schema: { querystring: speedExportQuery } }, async (request, reply) => {
    const { range, rows } = await speedRows(request.query);
    const hours = siteHours();
    const index = await people();
    const { by } = request.query;
    const label =
      by === 'owner'
        ? (key: string) => index.get(key) ?? (key === '' ? 'Not assigned' : 'Removed account')
        : by === 'campaign'
          ? (key: string) => (key === '' ? '(no campaign)' : key)
          : (key: string) => key;
    const csv = speedCsv(groupSpeed(rows, by, label, hours, now()), by);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="speed-to-lead-by-${by}-${range.from}-to-${range.to}.csv"`)
      .send(csv);
  });
};
