import type { AccountStore } from '../../back-office/accounts/account-store.ts';
import { can } from '../../back-office/roles.ts';
import { STUDIO_NOTICE_KINDS, STUDIO_NOTICE_RECIPIENT_ACTION, isStudioNoticeKind } from '../../back-office/studio-notices.ts';
import type { StudioNoticeFacts } from '../../back-office/studio-notices.ts';
import type { ClaimedNotification } from '../store/notifications/notification-store.ts';
import type { Composed, NotificationSource } from './notifier.ts';
import { studioNoticeMessage } from './studio-messages.ts';

// The content studio's e-mails (back-office/studio-notices.ts) as a source of the notifier's: the
// studio stores them in the outbox as things happen, so there is nothing to queue here; each is
// worded when it is sent, to the account it names as that account is then. An account removed
// meanwhile, or whose role no longer allows what it is about (an admin who may no longer review),
// gets nothing: the row is skipped. So does one stored more than a day before it could be sent (the
// studio stores them whether or not this server sends e-mail; once e-mail is set up, what happened
// days ago is old news, and the studio itself shows where each review stands).

/** How long a studio e-mail stays worth sending; the notifier's retries end well within it. */
export const STUDIO_NOTICE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const text = (value: string | number | undefined) => (value === undefined ? '' : String(value));

/** The facts stored with a notification, as the studio wrote them. */
function factsOf(notification: ClaimedNotification): StudioNoticeFacts {
  const { detail } = notification;
  const outcome = detail.outcome === 'published' || detail.outcome === 'scheduled' ? detail.outcome : undefined;
  return {
    accountId: text(detail.accountId),
    eventId: text(detail.eventId),
    pages: text(detail.pages),
    by: text(detail.by),
    link: text(detail.link),
    text: text(detail.text),
    ...(outcome ? { outcome } : {}),
    ...(detail.when === undefined ? {} : { when: text(detail.when) }),
  };
}

export function createStudioNotices({
  store,
  now = Date.now,
}: {
  store: Pick<AccountStore, 'listAccounts'>;
  now?: () => number;
}): NotificationSource {
  return {
    kinds: STUDIO_NOTICE_KINDS,
    async queue() {
      // The studio stores its notifications itself, when the review or the publish changes.
    },
    async compose(notification): Promise<Composed> {
      const { kind } = notification;
      if (!isStudioNoticeKind(kind)) return { skip: `no message for notifications of the kind ${kind}` };
      if (notification.channel !== 'email') return { skip: "the studio's notices go by e-mail only" };
      if (now() - notification.createdAt > STUDIO_NOTICE_MAX_AGE_MS) return { skip: 'stored more than a day ago: old news' };
      const facts = factsOf(notification);
      const account = (await store.listAccounts()).find((candidate) => candidate.id === facts.accountId);
      if (account === undefined) return { skip: 'the account was removed' };
      if (!can(account.role, STUDIO_NOTICE_RECIPIENT_ACTION[kind])) return { skip: "the account's role no longer concerns it" };
      const message = studioNoticeMessage(kind, facts);
      return { message: { ...message, email: { ...message.email, to: [account.email] } } };
    },
  };
}
