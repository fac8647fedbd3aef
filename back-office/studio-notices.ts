import type { Action } from './roles.ts';

// The content studio's e-mails to the team, as both sides of the notifications' outbox know them: the
// studio stores one row per person and event (it knows what happened, its pages and its link), and the
// site's server notifier sends it (it has the SMTP settings, the retries and the giving up).
// - studio-review-asked: an editor asked for a review; to each account that may review.
// - studio-review-sent-back: a reviewer sent a request back with a comment; to the editor who asked.
// - studio-review-approved: a reviewer published a request, or scheduled it; to the editor who asked.
// - studio-schedule-failed: a scheduled publish did not happen; to whoever scheduled it.
// A row names its recipient by account id; the address is read when it is sent, from the account as
// it is then: one removed meanwhile, or whose role no longer allows what the e-mail is about, gets
// nothing. The key is the kind, the event (a request's or a scheduled publish's id) and the account,
// so storing the same event again (a retry) stores nothing twice.

export const STUDIO_NOTICE_KINDS = [
  'studio-review-asked',
  'studio-review-sent-back',
  'studio-review-approved',
  'studio-schedule-failed',
] as const;
export type StudioNoticeKind = (typeof STUDIO_NOTICE_KINDS)[number];

/** What the recipient must still be allowed when the e-mail is sent: a reviewer to review, anyone else to edit. */
export const STUDIO_NOTICE_RECIPIENT_ACTION: Readonly<Record<StudioNoticeKind, Action>> = {
  'studio-review-asked': 'studio:review',
  'studio-review-sent-back': 'studio:edit',
  'studio-review-approved': 'studio:edit',
  'studio-schedule-failed': 'studio:edit',
};

/** The facts every studio e-mail carries, stored with it (plain text; the e-mail escapes them). */
export type StudioNoticeFacts = {
  /** The account it goes to. */
  readonly accountId: string;
  /** The request or the scheduled publish it is about. */
  readonly eventId: string;
  /** The pages, each named as the site's links name it, one a line. */
  readonly pages: string;
  /** Who did it: their e-mail address, as the studio shows people. */
  readonly by: string;
  /** Where in the studio the recipient sees it, a whole address. */
  readonly link: string;
  /** The editor's note (asked), the reviewer's comment (sent back), or why the publish failed; may be empty. */
  readonly text: string;
  /** approved: `published` now, or `scheduled`. */
  readonly outcome?: 'published' | 'scheduled';
  /** approved and scheduled, or failed: the time it was set for, in the team's time zone and words. */
  readonly when?: string;
};

/** The key of one person's e-mail about one event. */
export function studioNoticeKey(kind: StudioNoticeKind, eventId: string, accountId: string): string {
  return `${kind}:${eventId}:${accountId}:email`;
}

/** The page names stored with a notice, as a list again. */
export function noticePages(pages: string): string[] {
  return pages.split('\n').filter((page) => page !== '');
}

export function isStudioNoticeKind(kind: string): kind is StudioNoticeKind {
  return (STUDIO_NOTICE_KINDS as readonly string[]).includes(kind);
}
