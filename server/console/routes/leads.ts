// The inbox: GET /leads (a page of leads, newest first), GET /leads/:id (one lead with its delivery
// timeline and its sales side: owner, status, clock and the timeline of what was done), POST /leads/retry (forward again), POST /leads/:id/spam (mark spam or not spam) and
// GET /leads/export (every lead the filters match, as a CSV or JSON download, read page by page).
import { finished, Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { leadStatusOf, type LeadPage, type RetryResult, type SendAgainResult, type SpamResult } from '../../../console/api-types.ts';
import { markLeadSpam, recordLeadExport, retryEveryFailed, retryLeads, sendLeadAgain } from '../../leads/operations.ts';
import { forwardNotSpam } from '../../leads/not-spam.ts';
import { loadRoiParameters } from '../../leads/roi-parameters.ts';
import { csvHeaderLine, csvLeadLine, toExportJson, toExportRecord } from '../../leads/lead-export.ts';
import { createGate } from '../../../back-office/concurrency.ts';
import { readSearch, SEND_AGAIN_STATES, type LeadExport, type LeadQuery } from '../../store/inbox/inbox-store.ts';
import { ConsoleProblem, conflict, notFound } from '../api-errors.ts';
import { actingOf, type ConsoleContext } from '../context.ts';
import {
  checkDayRange,
  encodeCursor,
  leadCursorSchema,
  leadFilterShape,
  leadIdSchema,
  toLeadDetail,
  toLeadQuery,
  toLeadSummary,
} from '../lead-view.ts';
import type { ConsoleRoutes } from '../request-checks.ts';
import { readLeadSalesDetail } from '../sales-detail.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
/** Leads read from the store at once while a download is written. */
const EXPORT_PAGE_SIZE = 200;
/** Queries that may read many leads run one at a time per process, with at most this many waiting. */
const SCANNING_QUERY_GATE = { running: 1, waiting: 4 };
/** Downloads running at once per process. */
export const MAX_DOWNLOADS = 2;
/** Ids one retry may name: a screenful of selections, well under the body limit. */
export const MAX_RETRY_IDS = 500;
/** A retry names ids; 500 ids of 36 characters, quoted, need about 20 KiB. */
const RETRY_BODY_LIMIT_BYTES = 32 * 1024;

const pageSize = z.preprocess(
  (value) => (value === '' || value === undefined ? undefined : Number(value)),
  z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
);

const listQuery = z
  .strictObject({ ...leadFilterShape, after: leadCursorSchema.optional(), limit: pageSize })
  .superRefine((filter, context) => checkDayRange(filter, context));
const exportQuery = z
  .strictObject({ ...leadFilterShape, format: z.enum(['csv', 'json']) })
  .superRefine((filter, context) => checkDayRange(filter, context));
const RETRY_MESSAGE = `Send ids (1 to ${MAX_RETRY_IDS} lead ids) or allFailed: true.`;
/**
 * `{ ids }` or `{ allFailed: true }`, checked as one object so that a refusal names what is wrong
 * (too many ids, allFailed not true) rather than only that neither shape fits.
 */
const retryBody = z
  .strictObject(
    { ids: z.array(leadIdSchema).min(1).max(MAX_RETRY_IDS).optional(), allFailed: z.literal(true).optional() },
    { error: (issue) => (issue.code === 'invalid_type' ? RETRY_MESSAGE : undefined) },
  )
  .superRefine((body, context) => {
    if ((body.ids === undefined) === (body.allFailed === undefined)) context.addIssue({ code: 'custom', message: RETRY_MESSAGE });
  })
  .transform((body) => (body.allFailed === true ? { allFailed: true as const } : { ids: body.ids ?? [] }));
const spamBody = z.strictObject({ spam: z.boolean() });
const sendAgainBody = z.strictObject({});
const leadParams = z.strictObject({ id: leadIdSchema });

/** Without a CRM address nothing can be sent: a retry would only move leads that then wait for ever. */
export const NO_CRM_MESSAGE =
  'No CRM is set up (the server has no CRM_WEBHOOK_URL), so nothing can be sent: leads stay held until it is set and the server restarts.';

/**
 * Every lead of an export, newest first, a page at a time so memory stays flat. Between pages the
 * HTTP thread serves other requests first, and the read is closed however the download ends.
 */
async function* matchingLeads(reader: LeadExport) {
  try {
    for (;;) {
      const leads = await reader.nextPage(EXPORT_PAGE_SIZE);
      if (leads.length === 0) return;
      yield* leads;
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    await reader.close();
  }
}

async function* csvExport(reader: LeadExport) {
  yield csvHeaderLine();
  for await (const lead of matchingLeads(reader)) yield csvLeadLine(lead);
}

async function* jsonExport(reader: LeadExport) {
  yield '[';
  let first = true;
  for await (const lead of matchingLeads(reader)) {
    yield `${first ? '\n' : ',\n'}${toExportJson(toExportRecord(lead))}`;
    first = false;
  }
  yield '\n]\n';
}

/**
 * True when no index answers the query by itself, so it may read many leads to fill a page: a search
 * for part of a word, or two of the filters that each have an index (form, campaign, source, state,
 * spam or not spam, a whole address) together. A date range alone, or with one of them, reads only
 * the rows it returns; so does the inbox's first screen, every lead but spam, from its own index.
 */
export function mayScan(query: LeadQuery): boolean {
  const search = readSearch(query.search);
  if (search !== undefined && 'part' in search) return true;
  const indexed = [query.source, query.campaign, query.utmSource, query.state, query.spam === undefined ? undefined : true, search];
  return indexed.filter((filter) => filter !== undefined).length > 1;
}

function busy(): ConsoleProblem {
  return new ConsoleProblem(503, 'busy', 'The console is busy with other searches or downloads: try again in a moment.');
}

export const leadRoutes: ConsoleRoutes<{ context: ConsoleContext }> = async (app, { context }) => {
  const { store, now } = context;
  // A query no index answers reads leads until it has a page, every lead when it matches almost
  // nothing (about 0.4 s at a million on SQLite, whose one store thread also takes the leads). One runs
  // at a time and a few wait; more are told to try again, so no flood of them can hold up new leads.
  const scanningQueries = createGate(SCANNING_QUERY_GATE);
  let downloads = 0;

  app.get('/leads', { config: { right: 'leads:read' }, schema: { querystring: listQuery } }, async (request): Promise<LeadPage> => {
    const { after, limit, ...filter } = request.query;
    const position = after === undefined ? undefined : { receivedAt: after.at, id: after.id };
    const query = toLeadQuery(filter);
    const read = () => store.listLeadPage(query, position, limit ?? DEFAULT_PAGE_SIZE);
    const page = mayScan(query) ? await scanningQueries.run(read) : await read();
    if (page === undefined) throw busy();
    // The page's owners and statuses in one read, and the people's addresses in another: never one per lead.
    const [sales, accounts] = await Promise.all([store.listSalesOf(page.leads.map((lead) => lead.id)), store.listAccounts()]);
    const salesOf = new Map(sales.map((row) => [row.leadId, row]));
    const people = new Map(accounts.map((account) => [account.id, account.email]));
    return {
      leads: page.leads.map((lead) => {
        const row = salesOf.get(lead.id);
        const email = row?.ownerId === undefined ? undefined : people.get(row.ownerId);
        return toLeadSummary(
          lead,
          row === undefined ? undefined : { owner: email === undefined ? null : { id: row.ownerId!, email }, status: row.status },
        );
      }),
      next: page.next === undefined ? null : encodeCursor(page.next.receivedAt, page.next.id),
    };
  });

  // HEAD is refused (405, Allow: GET): it would read every lead and record an export that sent nothing.
  app.head('/leads/export', { config: { right: 'leads:export' } }, async (_request, reply) =>
    reply.code(405).header('allow', 'GET').send(),
  );
  app.get(
    '/leads/export',
    { config: { right: 'leads:export' }, schema: { querystring: exportQuery }, exposeHeadRoute: false },
    async (request, reply) => {
      const { format, ...filter } = request.query;
      // Each download reads one page at a time; only a few run at once, so they cannot crowd out the leads.
      if (downloads >= MAX_DOWNLOADS) throw busy();
      const day = new Date(now()).toISOString().slice(0, 10);
      const query = toLeadQuery(filter);
      downloads += 1;
      // The download's place and its read are given back however the download ends: sent in full,
      // stopped half-way, or abandoned before it began. finished() reports a response that has closed
      // already, which a 'close' listener added after the awaits below would never hear of.
      let reader: LeadExport | undefined;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        downloads -= 1;
        void reader?.close();
      };
      finished(reply.raw, release);
      // The download reads on a connection of its own, from one snapshot (openLeadExport), so neither
      // its size nor a filter no index answers can make a new lead wait. It is opened before the audit
      // entry is written, so an export that could not start is not recorded as made.
      try {
        reader = await store.openLeadExport(query);
      } catch (failure) {
        release();
        throw failure;
      }
      // A browser gone while the read opened gets nothing, and nothing is recorded as exported.
      if (released) {
        await reader.close();
        return reply;
      }
      try {
        await recordLeadExport(store, actingOf(request, context), format, filter);
      } catch (failure) {
        release();
        throw failure;
      }
      if (released) return reply;
      reply
        .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="leads-${day}.${format}"`);
      const opened = reader;
      const body = Readable.from(format === 'csv' ? csvExport(opened) : jsonExport(opened));
      // A stream destroyed before its first page never runs the pages' own clean-up.
      body.once('close', () => void opened.close());
      return reply.send(body);
    },
  );

  app.get('/leads/:id', { config: { right: 'leads:read' }, schema: { params: leadParams } }, async (request) => {
    const lead = await store.getLead(request.params.id);
    if (lead === undefined) throw notFound('There is no lead with that id: it may have been erased.');
    const attempts = await store.listAttempts(lead.id);
    return { ...toLeadDetail(lead, attempts), ...(await readLeadSalesDetail(context, lead, attempts)) };
  });

  app.post(
    '/leads/retry',
    { config: { right: 'leads:retry' }, schema: { body: retryBody }, bodyLimit: RETRY_BODY_LIMIT_BYTES },
    async (request): Promise<RetryResult> => {
      if (context.config.crmWebhookUrl === undefined) throw conflict(NO_CRM_MESSAGE);
      const body = request.body;
      const { moved, sent, skipped } =
        'allFailed' in body
          ? await retryEveryFailed(store, actingOf(request, context))
          : await retryLeads(store, actingOf(request, context), body.ids);
      return { retried: moved.length, sent, skipped };
    },
  );

  // A lead the CRM already has goes again only when someone asks for exactly that, one lead at a time.
  app.post(
    '/leads/:id/send-again',
    { config: { right: 'leads:retry' }, schema: { params: leadParams, body: sendAgainBody } },
    async (request): Promise<SendAgainResult> => {
      const { id } = request.params;
      const before = await store.getLead(id);
      if (before === undefined) throw notFound('There is no lead with that id: it may have been erased.');
      if (context.config.crmWebhookUrl === undefined) throw conflict(NO_CRM_MESSAGE);
      if (!(await sendLeadAgain(store, actingOf(request, context), id))) {
        const lead = (await store.getLead(id)) ?? before;
        throw conflict(
          SEND_AGAIN_STATES.includes(lead.state)
            ? 'This lead is being sent right now: nothing was sent again.'
            : `The CRM does not have this lead (it is ${leadStatusOf(lead.state, lead.attempts)}): nothing was sent again.`,
        );
      }
      return { state: 'pending' };
    },
  );

  app.post(
    '/leads/:id/spam',
    { config: { right: 'leads:mark-spam' }, schema: { params: leadParams, body: spamBody } },
    async (request): Promise<SpamResult> => {
      const { id } = request.params;
      const acting = actingOf(request, context);
      if ((await store.getLead(id)) === undefined) throw notFound('There is no lead with that id: it may have been erased.');
      if (request.body.spam) {
        const changed = await markLeadSpam(store, acting, id);
        const lead = await store.getLead(id);
        if (lead === undefined) throw notFound('There is no lead with that id: it may have been erased.');
        if (!changed) {
          throw conflict(
            `This lead is ${leadStatusOf(lead.state, lead.attempts)}: a lead the CRM already has, or that is being sent right now, cannot be marked spam.`,
          );
        }
      } else {
        const outcome = await forwardNotSpam(store, acting, id, () => loadRoiParameters(context.config.distDir));
        if (outcome.kind === 'missing') throw notFound('There is no lead with that id: it may have been erased.');
        if (outcome.kind === 'not-spam')
          throw conflict(`This lead is ${leadStatusOf(outcome.lead.state, outcome.lead.attempts)}, not spam: nothing to change.`);
        if (outcome.kind === 'unsendable') throw conflict(outcome.message);
        // A real lead now: the assigner gives it an owner in its own loop, after this answer.
        if (request.server.hasDecorator('sales')) request.server.sales.assigner.nudge();
      }
      const lead = await store.getLead(id);
      if (lead === undefined) throw notFound('There is no lead with that id: it may have been erased.');
      await tellAnalytics(request, id, request.body.spam);
      return { state: lead.state };
    },
  );
};

/**
 * The visit reports count a lead as accepted when the inbox does: "Not spam" accepts it, "Spam" takes
 * an acceptance back. The change is made already; analytics trouble is logged, never answered.
 */
async function tellAnalytics(request: FastifyRequest, leadId: string, spam: boolean): Promise<void> {
  if (!request.server.hasDecorator('analytics')) return;
  try {
    await request.server.analytics.store.recordLeadJudged(leadId, spam);
  } catch (error) {
    request.log.warn({ err: error, leadId }, 'could not tell the analytics how the lead was judged');
  }
}
