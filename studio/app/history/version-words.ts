// How the history screens word a version: what happened, when (in the person's own time zone), and
// where a version view lives in the studio's address, so a link can be opened in a new tab.
import type { HistoryVersion } from '../api.ts';

export const ACTION_WORDS: Readonly<Record<HistoryVersion['action'], string>> = {
  publish: 'Published',
  undo: 'Undo of a publish',
  restore: 'Restored an older version',
  // A commit the studio's publish log does not name: a developer's, or a publish made by a studio elsewhere.
  commit: 'Changed outside the studio',
};

export const CHANGE_WORDS = { added: 'Added', changed: 'Changed', deleted: 'Deleted' } as const;

export { localTime } from '../local-time.ts';

/** The seven characters of a commit people quote. */
export const shortCommit = (commit: string) => commit.slice(0, 7);

/** What the studio's address says about the history: every publish, one file's versions, or one version of a file. */
export type HistoryView =
  { kind: 'history'; path: string | null } | { kind: 'version'; version: string; path: string; from: string | null };

/** `?history=all`, `?history=<path>`, and a version as `&version=<id>&page=<path>`. */
export function historyViewFromSearch(search: string): HistoryView | null {
  const query = new URLSearchParams(search);
  const history = query.get('history');
  if (history === null) return null;
  const from = history === 'all' || history === '' ? null : history;
  const version = query.get('version');
  const page = query.get('page');
  if (version && page) return { kind: 'version', version, path: page, from };
  return { kind: 'history', path: from };
}

export function historyViewSearch(view: HistoryView): string {
  const query = new URLSearchParams();
  query.set('history', (view.kind === 'history' ? view.path : view.from) ?? 'all');
  if (view.kind === 'version') {
    query.set('version', view.version);
    query.set('page', view.path);
  }
  return `?${query.toString()}`;
}
