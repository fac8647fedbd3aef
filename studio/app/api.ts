// The studio server's JSON API, as the browser app calls it. Every change carries the session's CSRF
// token; an answer that is not OK becomes an ApiError with the server's plain message.
import type { ContentIssue } from '../../content-model/content-issue.ts';
import type {
  Appearance,
  Changes,
  ContentKind,
  Entry,
  HistoryPage,
  HistoryVersion,
  OpenedFile,
  PageVersion,
  PublishAnswer,
  PublishRecord,
  PublishRunView,
  Reference,
  ReviewFeedback,
  ReviewFileView,
  ReviewRequestDetail,
  ReviewRequestView,
  ReviewsAnswer,
  ScheduleAnswer,
  ScheduledView,
  Session,
  SignInRequest,
  StoredImage,
} from '../api-types.ts';
import type { PreviewContent } from './preview-protocol.ts';
import { createApiClient } from '../../back-office/browser/api-client.ts';

// The shapes are defined once, in studio/api-types.ts; the app's components take them from here.
export type {
  Appearance,
  Changes,
  ContentKind,
  Entry,
  HistoryPage,
  HistoryVersion,
  OpenedFile,
  PageVersion,
  PublishAnswer,
  PublishRecord,
  PublishRunView,
  Reference,
  Session,
  StoredImage,
};
export type { ReviewFeedback, ReviewFileView, ReviewRequestDetail, ReviewRequestView, ReviewsAnswer, ScheduleAnswer, ScheduledView };
export type { ScheduledChange } from '../api-types.ts';

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly reason: string | undefined;
  readonly body: unknown;

  constructor(status: number, message: string, reason: string | undefined, body: unknown) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.body = body;
  }
}

const client = createApiClient({
  unreachable: () =>
    new ApiError(
      0,
      'The studio server cannot be reached. Check that it is still running; your last changes are kept in this tab.',
      undefined,
      null,
    ),
  failure: (status, body) => {
    const answer = body as { message?: string; reason?: string };
    return new ApiError(status, answer.message ?? `The studio answered ${status}.`, answer.reason, answer);
  },
});
const call = client.call;

export const api = {
  async session(): Promise<Session> {
    const session = await call<Session>('GET', '/api/session');
    client.setCsrfToken(session.csrfToken ?? '');
    return session;
  },
  /** Signs in with a team account's e-mail address and password. */
  async signIn(email: string, password: string): Promise<Session> {
    const session = await call<Session>('POST', '/api/session', { email, password } satisfies SignInRequest);
    client.setCsrfToken(session.csrfToken ?? '');
    return session;
  },
  /** `everywhere`: end every session of the person, on every browser. */
  signOut: (everywhere = false) => call<unknown>('DELETE', `/api/session${everywhere ? '?everywhere=true' : ''}`),
  schemas: () => call<Record<string, unknown>>('GET', '/api/schemas'),
  entries: () => call<{ entries: Entry[]; canUndo: boolean; history: PublishRecord[] }>('GET', '/api/entries'),
  open: (path: string) => call<OpenedFile>('GET', `/api/file?path=${encodeURIComponent(path)}`),
  save: (path: string, data: unknown, revision: number, diskVersion: string | null) =>
    call<{ revision: number; edited: boolean; issues: ContentIssue[] }>('PUT', '/api/file', { path, data, revision, diskVersion }),
  create: (kind: 'page' | 'article', name: string, copyFrom?: string) =>
    call<{ path: string }>('POST', '/api/file', { kind, name, ...(copyFrom ? { copyFrom } : {}) }),
  rename: (path: string, address: string, revision: number, diskVersion: string | null) =>
    call<{ address: string; updated: string[] }>('POST', '/api/rename', { path, address, revision, diskVersion }),
  remove: (path: string, revision: number, diskVersion: string | null) =>
    call<unknown>(
      'DELETE',
      `/api/file?path=${encodeURIComponent(path)}&revision=${revision}&diskVersion=${encodeURIComponent(diskVersion ?? '')}`,
    ),
  appearance: (path: string) => call<Appearance>('GET', `/api/appearance?path=${encodeURIComponent(path)}`),
  /** The social card's picture; `revision` changes the address after a save, so the browser asks again. */
  cardUrl: (path: string, revision: number) => `/api/appearance/card?path=${encodeURIComponent(path)}&revision=${revision}`,
  references: (path: string) => call<{ references: Reference[] }>('GET', `/api/references?path=${encodeURIComponent(path)}`),
  /** `revision`: the draft revision this tab last saw (a change saved since is never dropped unseen). */
  discard: (path: string, revision: number) => call<unknown>('POST', '/api/discard', { path, revision }),
  /** `revision`: the draft revision this tab last saw (another tab's newer draft is never dropped). */
  keepBoth: (path: string, data: unknown, revision: number) => call<{ path: string }>('POST', '/api/keep-both', { path, data, revision }),
  changes: () => call<Changes>('GET', '/api/changes'),
  /**
   * Starts a publish of exactly the drafts the screen showed (each with its fingerprint): answered at
   * once with the run to follow (publishRun), or refused when one was saved since.
   */
  publish: (files: readonly SeenDraft[]) => call<{ run: PublishRunView }>('POST', '/api/publish', { files: files.map(seenDraft) }),
  undo: () => call<{ run: PublishRunView }>('POST', '/api/undo', {}),
  /** How far a publish, an undo or a restore has got, and once done, what it came to. */
  publishRun: (id: string) => call<{ run: PublishRunView }>('GET', `/api/publish-runs/${encodeURIComponent(id)}`),
  /** Published versions, newest first: every file's, or `path`'s only; `head` and `offset` ask for older ones. */
  history: (options: { path?: string | null; head?: string | null; offset?: number } = {}) => {
    const query = new URLSearchParams();
    if (options.path) query.set('path', options.path);
    if (options.head) query.set('head', options.head);
    if (options.offset) query.set('offset', String(options.offset));
    const text = query.toString();
    return call<HistoryPage>('GET', `/api/history${text ? `?${text}` : ''}`);
  },
  /** One file as a version left it, beside the file today. */
  version: (version: string, path: string) =>
    call<PageVersion>('GET', `/api/history/version?version=${encodeURIComponent(version)}&path=${encodeURIComponent(path)}`),
  /** Publishes the file as the version left it; `liveVersion`: the live file the person compared it with. */
  restore: (version: string, path: string, liveVersion: string | null) =>
    call<{ run: PublishRunView }>('POST', '/api/history/restore', { version, path, liveVersion }),
  // Review before publish and scheduled publishing.
  /** One page of the review requests, without their texts; `offset` asks for the next. */
  reviews: (offset = 0) => call<ReviewsAnswer>('GET', `/api/reviews${offset ? `?offset=${offset}` : ''}`),
  /** One request opened: each file's diff and what the preview draws. */
  reviewRequest: (id: string) => call<{ request: ReviewRequestDetail }>('GET', `/api/reviews/request?id=${encodeURIComponent(id)}`),
  askForReview: (note: string) => call<{ request: ReviewRequestView }>('POST', '/api/reviews', { note }),
  sendBack: (id: string, comment: string) => call<{ request: ReviewRequestView }>('POST', '/api/reviews/send-back', { id, comment }),
  /** Publishes the request now, or with `at` (a date and time in the site's time zone) schedules it. */
  /** Approves a review request and starts its publish: answered at once with the run to follow (publishRun). */
  approve: (id: string) => call<{ run: PublishRunView }>('POST', '/api/reviews/approve', { id }),
  /** Approves a review request for a publish at `at`, in the site's time zone. */
  approveAt: (id: string, at: string) => call<{ scheduled: ScheduledView }>('POST', '/api/reviews/approve', { id, at }),
  reviewFeedback: (path: string) => call<ReviewFeedback>('GET', `/api/reviews/feedback?path=${encodeURIComponent(path)}`),
  schedule: () => call<ScheduleAnswer>('GET', '/api/schedule'),
  /** Schedules exactly the drafts the screen showed, with their texts as they are now. */
  schedulePublish: (at: string, files: readonly SeenDraft[]) =>
    call<{ scheduled: ScheduledView }>('POST', '/api/schedule', { at, files: files.map(seenDraft) }),
  cancelScheduled: (id: string) => call<{ scheduled: ScheduledView }>('POST', '/api/schedule/cancel', { id }),
  dismissScheduled: (id: string) => call<unknown>('POST', '/api/schedule/dismiss', { id }),
  /** The recent publishes with how far each got: pushed, waiting for the live site, live. */
  /** `running`: the runs this person may follow; `elsewhere`: other people's runs under way (no answer, no id). */
  publishStatus: () =>
    call<{ history: PublishRecord[]; running: PublishRunView[]; elsewhere: Pick<PublishRunView, 'action' | 'user' | 'startedAt'>[] }>(
      'GET',
      '/api/publish-status',
    ),
  previewData: () => call<PreviewContent>('GET', '/api/preview-data'),
  images: () => call<{ images: StoredImage[] }>('GET', '/api/images'),
  upload: (file: File) => call<StoredImage>('POST', `/api/images?name=${encodeURIComponent(file.name)}`, file, 'application/octet-stream'),
};

/** A draft as the publish screen showed it: its file and the fingerprint of its text. */
export type SeenDraft = Pick<Changes['files'][number], 'path' | 'fingerprint'>;

const seenDraft = ({ path, fingerprint }: SeenDraft): SeenDraft => ({ path, fingerprint });
