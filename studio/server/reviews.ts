// Review before publish. With the team's accounts and STUDIO_REVIEW=required, an editor's changes
// go live only once an admin has looked at them: the editor asks for review (with an optional note),
// which keeps a snapshot of every draft as it is then (path, text, the version on disk it was made
// from, who, when); a reviewer publishes that snapshot (through the publisher, so conflicts, content
// checks and the build apply as for any publish) or sends it back with a comment, which the editor
// sees beside the draft. Asking again replaces the earlier request for the same files.
//
// Who may do what is decided by the roles (back-office/roles.ts: `studio:publish`,
// `studio:review`); without accounts, or with review off, everyone who may edit may publish and
// there is nothing to review. Requests are kept in .studio/reviews.json, written in one rename, and
// each open request's texts apart in .studio/review-texts/<id>.json: the list (paged) never reads
// them; they are read when a request is opened, approved or scheduled.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { can } from '../../back-office/roles.ts';
import type { Session } from './auth/sessions.ts';
import type { Publisher, PublishResult } from './publish.ts';
import type { StepReporter } from './publish.ts';
import { authorsOf, type Draft, type Workspace } from './workspace.ts';

export const REVIEW_SETTINGS = ['required', 'off'] as const;
export type ReviewSetting = (typeof REVIEW_SETTINGS)[number];

/** STUDIO_REVIEW: `required` or `off` (the default); anything else stops the studio with this message. */
export function readReviewSetting(text: string | undefined): ReviewSetting {
  const value = text?.trim().toLowerCase() || 'off';
  if (value === 'required' || value === 'off') return value;
  throw new Error(`STUDIO_REVIEW must be "required" or "off", not "${text}".`);
}

export type PublishRights = {
  /** Review applies: the studio has accounts and STUDIO_REVIEW=required. */
  readonly reviewRequired: boolean;
  /** May make changes live (publish, undo, schedule) without asking for review. */
  mayPublish(session: Session | undefined): boolean;
  /** May see every request and approve or send it back. */
  mayReview(session: Session | undefined): boolean;
  /** May cancel a publish someone else scheduled (an admin; without accounts there is only one person). */
  mayCancelAny(session: Session | undefined): boolean;
  /**
   * May make live a change of where the booking page points (booking-page.ts): it receives every
   * visitor's name and e-mail address, so only a role that may read the leads; without accounts, the one person.
   */
  mayChangeBookingPage(session: Session | undefined): boolean;
};

/** The one place the studio asks the roles who may publish and review; `team`: the studio has accounts. */
export function publishRights(review: ReviewSetting, team: boolean): PublishRights {
  const reviewRequired = team && review === 'required';
  return {
    reviewRequired,
    mayPublish: (session) => Boolean(session) && (!reviewRequired || (session!.role !== undefined && can(session!.role, 'studio:publish'))),
    mayReview: (session) => reviewRequired && session?.role !== undefined && can(session.role, 'studio:review'),
    mayCancelAny: (session) => Boolean(session) && (!team || (session!.role !== undefined && can(session!.role, 'studio:publish'))),
    mayChangeBookingPage: (session) => Boolean(session) && (!team || (session!.role !== undefined && can(session!.role, 'leads:read'))),
  };
}

/** Requests one person may have waiting or sent back at once (each keeps a copy of its drafts). */
export const MAX_OPEN_REQUESTS_EACH = 20;
/** The most text one request keeps (its drafts together): far above any real change, and it bounds the file. */
export const MAX_SNAPSHOT_CHARACTERS = 4_000_000;

export const REVIEW_MESSAGES = {
  publishRefused:
    'Your changes need a review before they go live: use “Ask for review” on the publish screen, and an admin will publish them.',
  restoreRefused:
    'Restoring makes a version live at once, and your changes need a review first: ask an admin to restore it, or copy what you need into the page and ask for review.',
  tooLarge: 'These changes are too large to keep for a review (over 4 million characters together): publish them in smaller parts.',
  tooMany: `You have ${MAX_OPEN_REQUESTS_EACH} requests waiting for review already: wait for an admin to decide them, or ask again for the same pages (which replaces the earlier request).`,
  notReviewer: 'Only an admin may approve or send back a review request.',
  reviewOff: 'Review is not required in this studio: publish the changes directly.',
  nothing: 'There is nothing to review: no page has unpublished changes.',
  nothingOwn: 'There is nothing of yours to review: the unpublished changes are other people’s, and they ask for their own review.',
  invalid: 'The changes have mistakes: fix them (they are listed on the publish screen and beside the fields), then ask for review.',
  notFound: 'That review request does not exist any more: reload the list.',
  notWaiting: 'That review request was already decided or replaced: reload the list.',
  busy: 'That review request is being published right now.',
} as const;

/** One file of a request, exactly as it will be published. */
export type ReviewFile = {
  path: string;
  title: string;
  change: 'added' | 'changed' | 'deleted';
  /** The text to make live; null deletes the file. */
  text: string | null;
  /** The version on disk the draft was made from: a file changed since is a conflict. */
  baseVersion: string | null;
  /** Everyone whose change the draft held, named in the commit. */
  changedBy?: string[];
};

/** A file of a request as the list keeps it: what it is, without its text (kept apart, read when the request is opened). */
export type ReviewFileSummary = Pick<ReviewFile, 'path' | 'title' | 'change' | 'changedBy'> & {
  /** The request was decided (published or replaced): its text is no longer kept, only what it was. */
  textDropped?: true;
};

/**
 * waiting: for a reviewer; sent-back: with the reviewer's comment; scheduled: approved for a later
 * time; published; replaced: the editor asked again for the same files.
 */
export type ReviewStatus = 'waiting' | 'sent-back' | 'scheduled' | 'published' | 'replaced';

export type ReviewRequest = {
  id: string;
  status: ReviewStatus;
  files: ReviewFileSummary[];
  note: string;
  requestedBy: string;
  requestedAt: string;
  comment?: string;
  decidedBy?: string;
  decidedAt?: string;
  /** The publish that made it live, or the scheduled publish that will. */
  publishId?: string;
  scheduleId?: string;
};

/**
 * Drafts as they are now (every draft, unless named), as a publish would make them live: what a
 * review request or a scheduled publish keeps, texts and all, so later edits never ride along.
 */
export function snapshotDrafts(workspace: Workspace, drafts: readonly Draft[] = workspace.listDrafts()): ReviewFile[] {
  const titles = new Map(workspace.listEntries().map((entry) => [entry.path, entry.name]));
  return drafts.map((draft) => ({
    path: draft.path,
    title: titles.get(draft.path) ?? draft.path,
    change: draft.baseVersion === null ? 'added' : draft.text === null ? 'deleted' : 'changed',
    text: draft.text,
    baseVersion: draft.baseVersion,
    changedBy: authorsOf(draft),
  }));
}

/** A file of a request without its text, as the list keeps it. */
function summaryOf(entry: Partial<ReviewFile> & ReviewFileSummary): ReviewFileSummary {
  return {
    path: entry.path,
    title: entry.title,
    change: entry.change,
    ...(entry.changedBy ? { changedBy: entry.changedBy } : {}),
    ...(entry.textDropped ? { textDropped: true as const } : {}),
  };
}

/** The files as the publisher takes them. */
export function changesOf(files: readonly ReviewFile[]) {
  return files.map(({ path: file, text, baseVersion, changedBy }) => ({
    path: file,
    text,
    baseVersion,
    ...(changedBy ? { changedBy } : {}),
  }));
}

export class ReviewError extends Error {
  override name = 'ReviewError';
  readonly status: 403 | 404 | 409 | 422;
  constructor(message: string, status: 403 | 404 | 409 | 422) {
    super(message);
    this.status = status;
  }
}

/** The longest note or comment kept; the form says so too. */
export const MAX_REVIEW_TEXT = 2000;
/** Decided requests kept for the list; waiting, sent-back and scheduled ones are always kept. */
const KEEP_DECIDED = 50;

export type Reviews = ReturnType<typeof createReviews>;

/** How many requests one page of the list holds. */
export const REVIEW_PAGE_SIZE = 20;

const isOpen = (request: ReviewRequest) => request.status === 'waiting' || request.status === 'sent-back' || request.status === 'scheduled';

export function createReviews(options: { stateDir: string; workspace: Workspace; publisher: Publisher; now?: () => Date }) {
  const { workspace, publisher } = options;
  const file = path.join(options.stateDir, 'reviews.json');
  // Each open request's texts, in a file of its own: the list never reads them, and a decision
  // never rewrites them (a request may hold millions of characters).
  const textsDir = path.join(options.stateDir, 'review-texts');
  const textsFile = (id: string) => path.join(textsDir, `${id}.json`);
  const now = options.now ?? (() => new Date());
  const publishing = new Set<string>();

  function read(): ReviewRequest[] {
    if (!existsSync(file)) return [];
    const requests = (JSON.parse(readFileSync(file, 'utf8')) as { requests: (ReviewRequest & { files: Partial<ReviewFile>[] })[] })
      .requests;
    // A review file written before the texts were kept apart holds them inline: they move out once.
    const inline = requests.filter((request) => request.files.some((entry) => 'text' in entry));
    if (inline.length === 0) return requests;
    for (const request of inline) {
      if (isOpen(request)) keepTexts(request.id, request.files as ReviewFile[]);
      request.files = request.files.map(summaryOf);
    }
    write(requests);
    return requests;
  }

  function write(requests: ReviewRequest[]): void {
    // A scheduled approval is still to be marked published (or waiting again) when its publish has
    // run: it is never pruned, however many requests are decided meanwhile.
    const open = requests.filter(isOpen);
    // A decided request is listed for what it was; its texts are not needed again.
    const decided = requests
      .filter((request) => !open.includes(request))
      .slice(-KEEP_DECIDED)
      .map((request) => ({ ...request, files: request.files.map((entry) => ({ ...summaryOf(entry), textDropped: true as const })) }));
    const kept = requests.flatMap((request) =>
      open.includes(request) ? [request] : decided.filter((candidate) => candidate.id === request.id),
    );
    workspace.writeAtomically(file, `${JSON.stringify({ requests: kept }, null, 2)}\n`);
    const keptOpen = new Set(open.map((request) => request.id));
    for (const name of existsSync(textsDir) ? readdirSync(textsDir) : []) {
      if (!keptOpen.has(name.replace(/\.json$/, ''))) rmSync(path.join(textsDir, name), { force: true });
    }
  }

  function keepTexts(id: string, files: readonly ReviewFile[]): void {
    mkdirSync(textsDir, { recursive: true });
    const texts = files.map(({ path: entry, text, baseVersion }) => ({ path: entry, text, baseVersion }));
    workspace.writeAtomically(textsFile(id), `${JSON.stringify({ files: texts })}\n`);
  }

  /** A request's files with their texts, exactly as it will be published; a decided request keeps none. */
  function filesOf(request: ReviewRequest): ReviewFile[] {
    const stored = existsSync(textsFile(request.id))
      ? (JSON.parse(readFileSync(textsFile(request.id), 'utf8')) as { files: Pick<ReviewFile, 'path' | 'text' | 'baseVersion'>[] }).files
      : [];
    return request.files.map((entry) => {
      const texts = stored.find((candidate) => candidate.path === entry.path);
      return { ...summaryOf(entry), text: texts?.text ?? null, baseVersion: texts?.baseVersion ?? null };
    });
  }

  function update(id: string, change: (request: ReviewRequest) => void): ReviewRequest {
    const requests = read();
    const request = requests.find((candidate) => candidate.id === id);
    if (!request) throw new ReviewError(REVIEW_MESSAGES.notFound, 404);
    change(request);
    write(requests);
    return request;
  }

  /**
   * Asks for review of the drafts `user` changed, as they are now (each file names everyone whose
   * change it holds); this person's earlier open request for any of the same files is replaced.
   * Another person's request, and its comment, is never touched: nobody can take over someone
   * else's sent-back change as their own.
   */
  function ask(user: string, note: string): ReviewRequest {
    const all = workspace.listDrafts();
    if (all.length === 0) throw new ReviewError(REVIEW_MESSAGES.nothing, 409);
    const drafts = all.filter((draft) => authorsOf(draft).includes(user));
    if (drafts.length === 0) throw new ReviewError(REVIEW_MESSAGES.nothingOwn, 409);
    if (publisher.check(drafts).errors.length > 0) throw new ReviewError(REVIEW_MESSAGES.invalid, 422);
    const files = snapshotDrafts(workspace, drafts);
    if (files.reduce((sum, entry) => sum + (entry.text?.length ?? 0), 0) > MAX_SNAPSHOT_CHARACTERS)
      throw new ReviewError(REVIEW_MESSAGES.tooLarge, 422);
    const paths = new Set(files.map((entry) => entry.path));
    const requests = read();
    for (const earlier of requests) {
      if (
        earlier.requestedBy === user &&
        (earlier.status === 'waiting' || earlier.status === 'sent-back') &&
        earlier.files.some((entry) => paths.has(entry.path))
      )
        earlier.status = 'replaced';
    }
    const openOfThisPerson = requests.filter(
      (earlier) => earlier.requestedBy === user && (earlier.status === 'waiting' || earlier.status === 'sent-back'),
    );
    if (openOfThisPerson.length >= MAX_OPEN_REQUESTS_EACH) throw new ReviewError(REVIEW_MESSAGES.tooMany, 409);
    const request: ReviewRequest = {
      id: randomUUID(),
      status: 'waiting',
      files: files.map(summaryOf),
      note: note.trim(),
      requestedBy: user,
      requestedAt: now().toISOString(),
    };
    keepTexts(request.id, files);
    requests.push(request);
    write(requests);
    return request;
  }

  function waiting(id: string): ReviewRequest {
    const request = read().find((candidate) => candidate.id === id);
    if (!request) throw new ReviewError(REVIEW_MESSAGES.notFound, 404);
    if (request.status !== 'waiting') throw new ReviewError(REVIEW_MESSAGES.notWaiting, 409);
    if (publishing.has(id)) throw new ReviewError(REVIEW_MESSAGES.busy, 409);
    return request;
  }

  function sendBack(id: string, reviewer: string, comment: string): ReviewRequest {
    waiting(id);
    return update(id, (request) => {
      request.status = 'sent-back';
      request.comment = comment.trim();
      request.decidedBy = reviewer;
      request.decidedAt = now().toISOString();
    });
  }

  /** The note a reviewed change's commit and record carry. */
  function noteFor(request: ReviewRequest, reviewer: string): string {
    return `Asked for by ${request.requestedBy}; approved by ${reviewer}.`;
  }

  /**
   * Publishes the request's snapshot now, `report` hearing each step; a refusal (conflict, mistake,
   * failed build) leaves it waiting. A request not waiting is refused at once (a ReviewError thrown
   * before anything starts), and no one may approve it again while its publish runs.
   */
  function approve(id: string, reviewer: string, report?: StepReporter): Promise<PublishResult> {
    const request = waiting(id);
    publishing.add(id);
    return publishApproved(id, request, reviewer, report);
  }

  async function publishApproved(id: string, request: ReviewRequest, reviewer: string, report?: StepReporter): Promise<PublishResult> {
    try {
      const result = await publisher.publish(
        reviewer,
        { changes: changesOf(filesOf(request)), note: noteFor(request, reviewer), approvedBy: reviewer },
        report,
      );
      if (result.ok) published(id, reviewer, result.record.id);
      return result;
    } finally {
      publishing.delete(id);
    }
  }

  function published(id: string, reviewer: string, publishId: string): void {
    // Called after the publish: a request gone from the file meanwhile has nothing left to mark.
    if (!read().some((candidate) => candidate.id === id)) return;
    update(id, (request) => {
      request.status = 'published';
      request.decidedBy = reviewer;
      request.decidedAt = now().toISOString();
      request.publishId = publishId;
    });
  }

  /** Approved for a later time: the scheduled publish carries the snapshot from here on. */
  function scheduled(id: string, reviewer: string, scheduleId: string): void {
    update(id, (request) => {
      request.status = 'scheduled';
      request.decidedBy = reviewer;
      request.decidedAt = now().toISOString();
      request.scheduleId = scheduleId;
    });
  }

  /** A scheduled approval that did not go live (failed or cancelled) waits for a reviewer again. */
  function unscheduled(id: string): void {
    const request = read().find((candidate) => candidate.id === id);
    if (request?.status !== 'scheduled') return;
    update(id, (found) => {
      found.status = 'waiting';
      delete found.scheduleId;
    });
  }

  /** Open and recent requests, newest first (replaced ones are left out). */
  function list(): ReviewRequest[] {
    return read()
      .filter((request) => request.status !== 'replaced')
      .reverse();
  }

  /**
   * One page of the requests `who` picks: the open ones first (waiting, sent back, scheduled), then
   * the decided ones, each newest first; with how many in all are waiting for a reviewer.
   */
  function page(who: (request: ReviewRequest) => boolean, offset = 0, limit = REVIEW_PAGE_SIZE) {
    const visible = list().filter(who);
    const ordered = [...visible.filter(isOpen), ...visible.filter((request) => !isOpen(request))];
    return {
      requests: ordered.slice(offset, offset + limit),
      waiting: visible.filter((request) => request.status === 'waiting').length,
      nextOffset: offset + limit < ordered.length ? offset + limit : null,
    };
  }

  /** One request, for `who` to open; another's, or one gone, is not found. */
  function find(id: string, who: (request: ReviewRequest) => boolean): ReviewRequest {
    const request = list().find((candidate) => candidate.id === id);
    if (!request || !who(request)) throw new ReviewError(REVIEW_MESSAGES.notFound, 404);
    return request;
  }

  /** The latest open request covering `file`: its comment is shown beside the draft. */
  function latestFor(file: string): ReviewRequest | undefined {
    return list().find(
      (request) => (request.status === 'waiting' || request.status === 'sent-back') && request.files.some((entry) => entry.path === file),
    );
  }

  return { ask, sendBack, approve, waiting, filesOf, noteFor, published, scheduled, unscheduled, list, page, find, latestFor };
}
