// What the rest of the server uses of analytics, as one Fastify decoration (`app.analytics`): the
// store the console's reports read, the name of the visit a request belongs to, and the counting of
// a lead the relay stored ("delivered" and an operator's judgement go to the store directly). The
// analytics plugin decorates it; tests decorate it with fakes.
import type { FastifyRequest } from 'fastify';
import type { LeadFormId } from '../../lead/rules.ts';
import type { AnalyticsStore } from './analytics-store.ts';
import type { EventQueueStats } from './event-queue.ts';

/** A lead as the relay stored it. */
export type LeadToCount = {
  readonly leadId: string;
  /** When the relay received it (ms). */
  readonly at: number;
  readonly form: LeadFormId;
  /** The payload as the inbox stores it: its utm_* words, landing page and first referrer are read. */
  readonly payload: Readonly<Record<string, unknown>>;
  readonly spam: boolean;
};

export type AnalyticsService = {
  readonly store: AnalyticsStore;
  /**
   * The visit hash of the request's visitor today, or undefined when the visitor is not counted
   * (a robot or tool, `DNT: 1`, `Sec-GPC: 1`) or the salt could not be had.
   */
  visitOf(request: FastifyRequest): Promise<string | undefined>;
  /**
   * Counts a lead the relay stored, when its sender is counted: "accepted" unless it is spam, under
   * the campaign words its payload carries (which also keep that campaign out of the day's "(other)").
   */
  countLead(request: FastifyRequest, lead: LeadToCount): Promise<void>;
  /**
   * Resolves once this process's count of the lead (countLead) is written, at once when none is under
   * way. "Delivered" waits for it: the outbox may take a lead before its count is written, and a
   * delivery counted first would find no lead to mark. Never rejects.
   */
  countedLead?(leadId: string): Promise<void>;
  /** The plugin's queue of events on their way to the store: waiting, written and dropped. */
  queueStats?(): EventQueueStats;
};

declare module 'fastify' {
  interface FastifyInstance {
    analytics: AnalyticsService;
  }
}
