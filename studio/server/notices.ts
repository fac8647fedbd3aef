// The e-mails the studio's team gets (back-office/studio-notices.ts): an admin when an editor asks
// for a review, the editor when the request is sent back or approved, and whoever scheduled a
// publish that did not happen. The studio stores each in the notifications' outbox of the lead store
// it shares with the site's server, right after the change it is about (requests and scheduled
// publishes are kept in files, so the two cannot be one transaction); the server's notifier sends it
// with its SMTP settings, retrying and then giving up. Each row names one account and is keyed by the
// event and that account, so storing the same event again stores nothing twice; the address is read
// when it is sent. A studio without accounts has nobody to write to and stores nothing. Storing can
// fail (the database briefly unavailable): the change itself stands, and the failure is logged.
import type { Database } from '../../server/store/database.ts';
import { can } from '../../back-office/roles.ts';
import { studioNoticeKey, type StudioNoticeFacts, type StudioNoticeKind } from '../../back-office/studio-notices.ts';
import type { ReviewRequest } from './reviews.ts';
import type { ScheduledPublish } from './schedule.ts';

/** What the studio needs of the lead store to tell people: the accounts, and the outbox. */
export type StudioOutbox = Pick<Database, 'enqueueNotifications' | 'listAccounts' | 'findAccount'>;

export type StudioNotices = {
  /** An editor asked for a review: each account that may review, but the editor, is told. */
  reviewAsked(request: ReviewRequest): Promise<void>;
  /** A reviewer sent the request back with a comment: the editor is told. */
  reviewSentBack(request: ReviewRequest): Promise<void>;
  /** A reviewer published the request now, or scheduled it for `when` (in the team's words): the editor is told. */
  reviewApproved(request: ReviewRequest, reviewer: string, outcome: { published: true } | { when: string }): Promise<void>;
  /** A scheduled publish failed (`when`: the time it was set for, in the team's words): whoever scheduled it is told. */
  scheduleFailed(entry: ScheduledPublish, when: string): Promise<void>;
};

/** Where each e-mail's link leads, on the studio's address (STUDIO_URL). */
export const NOTICE_LINKS = {
  /** The review requests, with this one opened. */
  review: (studioUrl: string, id: string) => `${studioUrl}/?${new URLSearchParams({ review: id }).toString()}`,
  /** The "Review and publish" screen: a sent-back comment, the scheduled publishes and their failures. */
  publish: (studioUrl: string) => `${studioUrl}/?publish`,
  /** Every publish, newest first. */
  history: (studioUrl: string) => `${studioUrl}/?history=all`,
} as const;

type Log = { error(details: object, message: string): void };

/** At most this many review e-mails from one editor's asks an hour: asking again and again floods nobody. */
export const STUDIO_NOTICE_ASKS_PER_HOUR = 5;

const noNotices: StudioNotices = {
  reviewAsked: async () => {},
  reviewSentBack: async () => {},
  reviewApproved: async () => {},
  scheduleFailed: async () => {},
};

export function createStudioNotices(options: { outbox?: StudioOutbox; studioUrl: string; log: Log; now?: () => number }): StudioNotices {
  const { outbox, studioUrl, log } = options;
  if (!outbox) return noNotices;
  const now = options.now ?? Date.now;
  /** When each editor's asks were last e-mailed, within the past hour. */
  const askedAt = new Map<string, number[]>();
  /** Whether `editor`'s ask may still be e-mailed this hour (and counts it when so). */
  function mayTellOfAsk(editor: string): boolean {
    const at = now();
    const recent = (askedAt.get(editor) ?? []).filter((time) => at - time < 60 * 60 * 1000);
    if (recent.length >= STUDIO_NOTICE_ASKS_PER_HOUR) {
      askedAt.set(editor, recent);
      return false;
    }
    askedAt.set(editor, [...recent, at]);
    return true;
  }
  const pagesOf = (files: readonly { title: string }[]) => files.map((file) => file.title.replace(/\s+/g, ' ').trim()).join('\n');

  /** Stores one e-mail per account; a failure is logged, never thrown at the change it follows. */
  async function store(
    kind: StudioNoticeKind,
    eventId: string,
    accountIds: readonly string[],
    facts: Omit<StudioNoticeFacts, 'accountId' | 'eventId'>,
  ): Promise<void> {
    if (accountIds.length === 0) return;
    const at = now();
    try {
      await outbox!.enqueueNotifications(
        accountIds.map((accountId) => ({
          key: studioNoticeKey(kind, eventId, accountId),
          channel: 'email',
          kind,
          leadId: undefined,
          eventAt: at,
          detail: { ...facts, accountId, eventId },
          createdAt: at,
        })),
      );
    } catch (error) {
      log.error({ err: error, kind, eventId }, 'the e-mail about it could not be stored; nobody will be told');
    }
  }

  /** The account of `email`, unless it is `actor` (nobody is told of their own doing) or gone. */
  async function accountOf(email: string, actor: string): Promise<string[]> {
    if (email === actor) return [];
    try {
      const account = await outbox!.findAccount(email);
      return account ? [account.id] : [];
    } catch (error) {
      log.error({ err: error }, 'the account to tell could not be read; nobody will be told');
      return [];
    }
  }

  return {
    async reviewAsked(request) {
      // The request itself waits in the studio for the admins all the same.
      if (!mayTellOfAsk(request.requestedBy)) {
        log.error(
          { kind: 'studio-review-asked', eventId: request.id },
          `${request.requestedBy} asked for review too often this hour; the admins are not e-mailed again`,
        );
        return;
      }
      let reviewers: string[] = [];
      try {
        reviewers = (await outbox.listAccounts())
          .filter((account) => can(account.role, 'studio:review') && account.email !== request.requestedBy)
          .map((account) => account.id);
      } catch (error) {
        log.error({ err: error }, 'the reviewers to tell could not be read; nobody will be told');
      }
      await store('studio-review-asked', request.id, reviewers, {
        pages: pagesOf(request.files),
        by: request.requestedBy,
        link: NOTICE_LINKS.review(studioUrl, request.id),
        text: request.note,
      });
    },
    async reviewSentBack(request) {
      const reviewer = request.decidedBy ?? '';
      await store('studio-review-sent-back', request.id, await accountOf(request.requestedBy, reviewer), {
        pages: pagesOf(request.files),
        by: reviewer,
        link: NOTICE_LINKS.publish(studioUrl),
        text: request.comment ?? '',
      });
    },
    async reviewApproved(request, reviewer, outcome) {
      await store('studio-review-approved', request.id, await accountOf(request.requestedBy, reviewer), {
        pages: pagesOf(request.files),
        by: reviewer,
        text: '',
        ...('published' in outcome
          ? { outcome: 'published', link: NOTICE_LINKS.history(studioUrl) }
          : { outcome: 'scheduled', when: outcome.when, link: NOTICE_LINKS.publish(studioUrl) }),
      });
    },
    async scheduleFailed(entry, when) {
      await store('studio-schedule-failed', entry.id, await accountOf(entry.scheduledBy, ''), {
        pages: pagesOf(entry.files),
        by: entry.scheduledBy,
        link: NOTICE_LINKS.publish(studioUrl),
        text: entry.message ?? '',
        when,
      });
    },
  };
}
