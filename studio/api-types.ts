// The shapes the studio server answers with and the browser app reads: one definition for both
// sides, so a field added on the server is a type error where the browser forgets it.

import type { ContentIssue } from '../content-model/content-issue.ts';
import type { ContentKind } from '../content-model/kinds.ts';
import type { DiffHunk } from './server/line-diff.ts';

export type { ContentKind };

/** One file in the navigator. */
export type Entry = {
  path: string;
  kind: ContentKind;
  /** Page title (the search-engine title), article title, or the name of the settings file. */
  title: string;
  /**
   * What the studio calls it: a page by its label in the site's header or footer links, else its
   * first heading (a template says so); anything else by its title. Pages come in the site's order.
   */
  name: string;
  /** The page's address (`/about`) or article's (`/blog/<slug>`). */
  address?: string;
  /** Marked `draft: true` in its YAML (as it would be published). */
  markedDraft: boolean;
  /** Has unpublished edits. */
  edited: boolean;
  /** Its draft is carried by a waiting scheduled publish: it goes live then, and is not offered for publishing meanwhile. */
  scheduled?: boolean;
  /** Exists only as an unpublished draft. */
  isNew: boolean;
  /** The draft deletes it. */
  deleted: boolean;
};

/** One line of .studio/publish-log.jsonl: who published or undid what, when, and the commit. */
export type PublishRecord = {
  id: string;
  action: 'publish' | 'undo' | 'restore';
  user: string;
  at: string;
  files: { path: string; title: string; change: 'added' | 'changed' | 'deleted' }[];
  commit?: string;
  /** Everyone whose change it carried (the people who saved its drafts); missing in records of older publishes. */
  changedBy?: string[];
  /** Who asked for a reviewed change and who approved it, or who scheduled it. */
  note?: string;
  /** Who approved the reviewed change it carried (missing in records of older publishes, whose note names them). */
  approvedBy?: string;
  ms: number;
  /** Where the commit was pushed (a checkout with a git remote), or why it is not there yet. */
  remote?: { name: string; branch: string; pushed: boolean; reason?: string; keptAsDrafts?: string[]; changedThere?: string[] };
  /** Not stored: where the publish has got to beyond this checkout, in plain words, as answered. */
  status?: PublishStatus;
};

/** Whether the deployed site serves a publish (STUDIO_LIVE_URL), in plain words in the server's time zone. */
export type LiveStatus = { state: 'waiting' | 'live' | 'late'; text: string };

/** Whether the team's copy has the publish, or why not yet; "Waiting for the live site…", "Live since 10:42", or that it did not arrive. */
export type PublishStatus = {
  remote?: { pushed: boolean; text: string };
  live?: LiveStatus;
  /** Where each published page can be seen on the live site (its address on STUDIO_LIVE_URL, else SITE_URL). */
  liveLinks?: { name: string; url: string }[];
};

/** A picture in public/images/, as the picker lists it and an upload returns it. */
export type StoredImage = { src: string; width: number; height: number; bytes: number };

/** A content file that links to a page, and where in it, as the form names the place ("Navigation", "Footer", "Block 3, Hero"). */
export type Reference = { path: string; title: string; where: string[] };

/**
 * Who is signed in (a team account's e-mail address, or the local editor's name when the studio runs
 * without accounts), and the token every change must carry.
 */
export type Session = {
  signInRequired: boolean;
  user: string | null;
  csrfToken?: string;
  /** The team's time zone (STUDIO_TIME_ZONE, else the server's): every time on every screen is told in it. */
  timeZone?: string;
};

/** What the sign-in form sends: a team account's e-mail address and its password. */
export type SignInRequest = { email: string; password: string };

/** A content file as the editor opens it: its data (or why it cannot be shown as a form) and its state. */
export type OpenedFile = {
  path: string;
  kind: ContentKind;
  name: string;
  data: unknown;
  parseError?: string;
  deleted: boolean;
  isNew: boolean;
  edited: boolean;
  revision: number;
  diskVersion: string | null;
  issues: ContentIssue[];
  /**
   * The file changed since its draft was started (pushed from elsewhere, or changed on disk): why, and
   * the two versions compared (removed: only in the new version; added: only in the draft).
   */
  diskChanged?: { message: string; hunks: DiffHunk[] };
};

/**
 * How a page or an article appears outside the site, from the text being edited: its search result
 * (the full title, the address without its scheme, the description, and where a search result cuts
 * each) and its social card (drawn by the build from the title, or the page's own picture).
 */
export type Appearance = {
  title: string;
  description: string;
  url: string;
  titleLimit: number;
  descriptionLimit: number;
  card: { kind: 'drawn'; title: string; eyebrow?: string } | { kind: 'picture'; src: string; alt: string };
};

/** The unpublished changes this person's publish (or review request) carries, as the publish screen shows them, and whether it may go out. */
export type Changes = {
  files: {
    path: string;
    title: string;
    change: 'added' | 'changed' | 'deleted';
    updatedBy: string;
    /** Everyone whose change the draft holds. */
    changedBy: string[];
    /** The fingerprint of the draft's text: a publish sends it back, and is refused if the draft changed since. */
    fingerprint: string;
    hunks: DiffHunk[];
    /** The file's data as the live site has it (null: the file is new, or cannot be read), for the change list. */
    before: unknown;
    /** The file's data as the draft has it (null: the draft deletes it, or it cannot be read). */
    after: unknown;
  }[];
  /**
   * Drafts already set to go live at a time (a waiting scheduled publish carries them): shown as
   * scheduled, never offered for publishing again.
   */
  scheduled?: ScheduledChange[];
  /** Drafts this person's publish leaves out: where review is required, changes by others, which go out by their review. */
  held: { path: string; title: string; changedBy: string[] }[];
  /** Mistakes: publishing waits until they are fixed. */
  issues: ContentIssue[];
  /** Advice that does not stop publishing. */
  warnings: ContentIssue[];
  publishable: boolean;
};

/** A file a waiting scheduled publish carries, as the publish screen shows it. */
export type ScheduledChange = {
  path: string;
  title: string;
  /** The scheduled publish (cancel it with its id). */
  scheduleId: string;
  /** When it goes live, in the studio's date format and time zone ("Tue 1 Dec, 10:42 (America/Chicago)"). */
  when: string;
  scheduledBy: string;
  mayCancel: boolean;
};

/** What a publish or an undo answers. */
export type PublishAnswer = { ok: true; record: PublishRecord } | { ok: false; reason: string; message: string; issues?: ContentIssue[] };

/** The steps a publish, an undo or a restore goes through, in order (the labels come with each run). */
export type PublishStepKey = 'waiting' | 'checking' | 'building' | 'going-live' | 'saving' | 'sending';

/**
 * A publish, an undo or a restore as it runs: answered at once when asked for, then read again
 * (GET /api/publish-runs/<id>) until `done`, when `answer` is what it came to.
 */
export type PublishRunView = {
  id: string;
  action: 'publish' | 'undo' | 'restore';
  user: string;
  startedAt: string;
  done: boolean;
  /** `now`: the step under way; `stopped`: the step the run ended at without publishing. */
  steps: { key: PublishStepKey; label: string; state: 'done' | 'now' | 'next' | 'stopped' }[];
  answer?: PublishAnswer;
};

/**
 * One version of the site's content in the history: a publish, an undo or a restore made in the
 * studio, or a commit a developer made that changed content files.
 */
export type HistoryVersion = {
  /** The commit (in a git repository), else the publish's id in .studio/publish-log.jsonl. */
  id: string;
  /** `commit`: a developer's commit, made outside the studio. */
  action: 'publish' | 'undo' | 'restore' | 'commit';
  /** Who published, as the studio's publish log records it; for a commit, its author. */
  user: string;
  /** Everyone whose change a publish carried, as the publish log records it. */
  changedBy?: string[];
  at: string;
  /** The commit's first line (or, without git, what the studio would have written there). */
  subject: string;
  /** The commit's whole message, when it has more than its first line (a developer's long message). */
  message?: string;
  commit?: string;
  /** The content files it changed, each named as the studio names it (`Entry.name`). */
  files: { path: string; name: string; change: 'added' | 'changed' | 'deleted' }[];
  /** Who approved the reviewed change it carried, when it carried one. */
  approvedBy?: string;
  /** The entry in words: "Home and About published by Mia, approved by Sam". */
  summary?: string;
};

/** A page of the history, newest first. */
export type HistoryPage = {
  versions: HistoryVersion[];
  /** The newest version when the list was first read: later pages ask from it, so a new publish does not shift them. */
  head: string | null;
  /** Ask with this offset (and `head`) for the older versions; null when there are none. */
  nextOffset: number | null;
  /** Whether the history comes from git (else from the studio's publish log). */
  git: boolean;
};

/** One content file as a version left it, beside the file today. */
export type PageVersion = {
  version: HistoryVersion;
  path: string;
  kind: ContentKind;
  /** The file's name (`about`), as in `OpenedFile.name`. */
  fileName: string;
  /** What the studio calls it (`Entry.name`). */
  name: string;
  /** Its text in that version; null where the file did not exist in it. */
  text: string | null;
  /** The text's data, as the editor reads it (null without text, or when it cannot be read). */
  data: unknown;
  /** The file's data just before this version (null: the version added it, or it cannot be read): what the version changed. */
  previousData: unknown;
  parseError?: string;
  /** What a restore would change in the live file: today's lines that go (−), this version's that come back (+). */
  hunks: DiffHunk[];
  /** The version of the live file today (null: it does not exist now); a restore sends it back. */
  liveVersion: string | null;
  /** The version is what the site has now. */
  same: boolean;
  /** The file has unpublished changes (a draft), which a restore leaves as they are. */
  hasDraft: boolean;
};
/** One file of a review request as the list names it. */
export type ReviewFileSummary = {
  path: string;
  title: string;
  change: 'added' | 'changed' | 'deleted';
  /** Everyone whose change the file holds (missing for requests made before the studio kept it). */
  changedBy?: string[];
};

/** One file of an opened review request: the change as it will be published, with what the preview draws. */
export type ReviewFileView = ReviewFileSummary & {
  kind: ContentKind;
  name: string;
  /** Lines that go and come; empty for a decided request, whose texts are no longer kept. */
  hunks: DiffHunk[];
  /** The file's data as the form and the preview read it; null for a deleted file or one that cannot be read. */
  data: unknown;
  /**
   * The file's data as the live site has it now, which approving changes (null: a new file, one that
   * cannot be read, or a decided request, whose change is no longer shown); for the change list.
   */
  before: unknown;
};

/** A request to publish changes once a reviewer has looked at them (STUDIO_REVIEW=required), as the list shows it: no texts. */
export type ReviewRequestView = {
  id: string;
  status: 'waiting' | 'sent-back' | 'scheduled' | 'published';
  note: string;
  requestedBy: string;
  requestedAt: string;
  /** The reviewer's comment when sent back. */
  comment?: string;
  decidedBy?: string;
  decidedAt?: string;
  /** When a scheduled approval goes live, in words. */
  scheduledFor?: string;
  files: ReviewFileSummary[];
};

/** GET /api/reviews/request: one request opened, with each file's diff and data. */
export type ReviewRequestDetail = Omit<ReviewRequestView, 'files'> & { files: ReviewFileView[] };

/**
 * GET /api/reviews: what this person may do, and one page of the requests they may see (a
 * reviewer's: all), open ones first, then decided ones, each newest first. No draft text: a
 * request's changes are read when it is opened (GET /api/reviews/request).
 */
export type ReviewsAnswer = {
  /** An editor's changes need a review before they go live. */
  required: boolean;
  mayPublish: boolean;
  mayReview: boolean;
  requests: ReviewRequestView[];
  /** How many of the requests this person may see wait for a reviewer, on every page together. */
  waiting: number;
  /** Ask with this offset for the next page; null when there is none. */
  nextOffset: number | null;
};

/** GET /api/reviews/feedback: the open review request covering one file, shown beside its draft. */
export type ReviewFeedback = {
  feedback: {
    id: string;
    status: 'waiting' | 'sent-back';
    requestedBy: string;
    requestedAt: string;
    comment?: string;
    decidedBy?: string;
    decidedAt?: string;
  } | null;
};

/** One scheduled publish as the studio lists it. */
export type ScheduledView = {
  id: string;
  at: string;
  /** "Tue 1 Dec, 09:00 (Europe/Berlin)". */
  when: string;
  scheduledBy: string;
  status: 'waiting' | 'published' | 'failed' | 'cancelled';
  files: { path: string; title: string }[];
  /** Why it failed. */
  message?: string;
  reviewId?: string;
  cancelledBy?: string;
  /** The person who scheduled it has read the failure. */
  seen: boolean;
  /** This person may cancel it (who scheduled it, or an admin). */
  mayCancel: boolean;
};

/** GET /api/schedule: the site's time zone, the time there now (as a date-and-time field takes it), and the list. */
export type ScheduleAnswer = { timeZone: string; now: string; mayPublish: boolean; scheduled: ScheduledView[] };
