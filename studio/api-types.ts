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
  ms: number;
  /** Where the commit was pushed (a checkout with a git remote), or why it is not there yet. */
  remote?: { name: string; branch: string; pushed: boolean; reason?: string; keptAsDrafts?: string[] };
  /** Not stored: where the publish has got to beyond this checkout, in plain words, as answered. */
  status?: PublishStatus;
};

/** Whether the deployed site serves a publish (STUDIO_LIVE_URL), in plain words in the server's time zone. */
export type LiveStatus = { state: 'waiting' | 'live' | 'late'; text: string };

/** "Pushed to origin/main" or why not yet; "Waiting for the live site…", "Live since 10:42", or that it did not arrive. */
export type PublishStatus = { remote?: { pushed: boolean; text: string }; live?: LiveStatus };

/** A picture in public/images/, as the picker lists it and an upload returns it. */
export type StoredImage = { src: string; width: number; height: number; bytes: number };

/** A content file that links to a page, and where in it ("navigation", "footer", "block 3 (hero)"). */
export type Reference = { path: string; title: string; where: string[] };

/**
 * Who is signed in (a team account's e-mail address, or the local editor's name when the studio runs
 * without accounts), and the token every change must carry.
 */
export type Session = { signInRequired: boolean; user: string | null; csrfToken?: string };

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

/** Every unpublished change, as the review screen shows it, and whether it may be published. */
export type Changes = {
  files: { path: string; title: string; change: 'added' | 'changed' | 'deleted'; updatedBy: string; hunks: DiffHunk[] }[];
  /** Mistakes: publishing waits until they are fixed. */
  issues: ContentIssue[];
  /** Advice that does not stop publishing. */
  warnings: ContentIssue[];
  publishable: boolean;
};

/** What a publish or an undo answers. */
export type PublishAnswer = { ok: true; record: PublishRecord } | { ok: false; reason: string; message: string; issues?: ContentIssue[] };
