// What every console route module works with: the store, the settings, the clock, the session
// cookie and the team sign-in. Changes go through the operations of server/leads/operations.ts and
// back-office/accounts/operations.ts, which write the audit log with the actor `actingOf` names.
// cookie, the team sign-in, and the audit log.
import type { InboxStore } from '../store/inbox/inbox-store.ts';
import type { AuditStore } from '../store/audit/audit-store.ts';
import type { AccountStore } from '../../back-office/accounts/account-store.ts';
import type { SessionStore } from '../../back-office/sessions/session-store.ts';
import type { SignInLimitStore } from '../../back-office/sign-in/sign-in-limit-store.ts';
import type { FastifyRequest } from 'fastify';
import type { Acting } from '../../back-office/accounts/audit-trail.ts';
import type { Config } from '../config.ts';
import type { TeamSignIn } from '../../back-office/sign-in/sign-in.ts';
import { ConsoleProblem } from './api-errors.ts';
import { ACCESS_MESSAGES, type ConsoleSession } from './access.ts';
import type { SessionCookie } from '../../back-office/sessions/session-cookie.ts';
import type { SalesStore } from '../store/sales/sales-store.ts';
import type { CrmEventStore } from '../store/crm-events/crm-event-store.ts';
import type { BookingStore } from '../store/bookings/booking-store.ts';
import type { WeeklyHours } from '../sales/working-time.ts';
import type { WeeklySummaryChoices } from '../store/notifications/notification-store.ts';

export type ConsoleContext = {
  readonly store: InboxStore &
    AuditStore &
    AccountStore &
    SessionStore &
    SignInLimitStore &
    SalesStore &
    CrmEventStore &
    BookingStore &
    WeeklySummaryChoices;
  readonly config: Config;
  readonly now: () => number;
  readonly cookie: SessionCookie;
  readonly signIn: TeamSignIn;
  /** The site's business hours now (the sales clock's, from the build). */
  readonly siteHours: () => WeeklyHours;
  /** The sales queue's clock: lead clocks, touches and figures are read and written by it. */
  readonly salesNow: () => number;
};

/** The session a route that declared its access runs with: always there once the access check passed. */
export function sessionOfRequest(request: FastifyRequest): ConsoleSession {
  const session = request.consoleSession;
  if (!session) throw new ConsoleProblem(401, 'signed-out', ACCESS_MESSAGES.signedOut);
  return session;
}

/** Who is acting: the signed-in account's address. */
export function actorOf(request: FastifyRequest): string {
  return sessionOfRequest(request).record.account.email;
}

/** Who acts, for the audit log: the signed-in account's address, at the console's clock. */
export function actingOf(request: FastifyRequest, context: Pick<ConsoleContext, 'now'>): Acting {
  return { actor: actorOf(request), at: context.now() };
}
