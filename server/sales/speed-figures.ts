import type { SpeedFigures, SpeedGroup } from '../../console/api-types.ts';
import type { SpeedRow } from '../store/sales/sales-store.ts';
import { toCsvCell } from '../leads/lead-export.ts';
import { workingMsBetween, type WeeklyHours } from './working-time.ts';

// Speed to lead: how long leads waited for their first human touch, in business minutes (time
// inside the site's business hours from the moment the lead's clock started to the first logged
// call, e-mail, meeting or status change), so a lead sent on Saturday and called first thing
// Monday counts as answered at once.
// - The median and the 90th percentile are over the leads somebody reached, computed as a
//   spreadsheet's MEDIAN and PERCENTILE.INC do (interpolating between the two nearest leads), to
//   one decimal, so the CSV can be checked by hand.
// - The shares are of ALL leads in the range: a lead nobody reached counts against "within
//   5 minutes" and "within 1 hour" and for "never reached", so ignoring leads cannot improve them.
// - A touch recorded after `now` has not happened yet: figures are as of `now`.

const MINUTE = 60_000;

export function speedFigures(rows: readonly SpeedRow[], hours: WeeklyHours, now: number): SpeedFigures {
  const minutes: number[] = [];
  for (const row of rows) {
    if (row.firstTouchAt === undefined || row.firstTouchAt > now) continue;
    minutes.push(workingMsBetween(hours, row.clockStartsAt, row.firstTouchAt) / MINUTE);
  }
  minutes.sort((a, b) => a - b);
  const leads = rows.length;
  const share = (count: number) => (leads === 0 ? 0 : count / leads);
  return {
    leads,
    reached: minutes.length,
    medianMinutes: percentile(minutes, 0.5),
    p90Minutes: percentile(minutes, 0.9),
    within5Minutes: share(minutes.filter((value) => value <= 5).length),
    within1Hour: share(minutes.filter((value) => value <= 60).length),
    neverReached: share(leads - minutes.length),
  };
}

/** PERCENTILE.INC of sorted values, to one decimal; null for none. */
function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const rank = (sorted.length - 1) * fraction;
  const below = Math.floor(rank);
  const above = Math.min(below + 1, sorted.length - 1);
  const value = sorted[below]! + (sorted[above]! - sorted[below]!) * (rank - below);
  return Math.round(value * 10) / 10;
}

export type SpeedDimension = 'owner' | 'form' | 'campaign';

/** The key a row is grouped by: the owner's account number, the form, the campaign; '' for none. */
function keyOf(row: SpeedRow, by: SpeedDimension): string {
  switch (by) {
    case 'owner':
      return row.ownerId === undefined ? '' : String(row.ownerId);
    case 'form':
      return row.source;
    case 'campaign':
      return row.campaign ?? '';
  }
}

/** The figures of each owner, form or campaign, most leads first (ties by label). */
export function groupSpeed(
  rows: readonly SpeedRow[],
  by: SpeedDimension,
  label: (key: string) => string,
  hours: WeeklyHours,
  now: number,
): SpeedGroup[] {
  const groups = new Map<string, SpeedRow[]>();
  for (const row of rows) {
    const key = keyOf(row, by);
    const members = groups.get(key);
    if (members) members.push(row);
    else groups.set(key, [row]);
  }
  return [...groups]
    .map(([key, members]) => ({ key, label: label(key), ...speedFigures(members, hours, now) }))
    .sort((a, b) => b.leads - a.leads || a.label.localeCompare(b.label));
}

const HEADINGS: Readonly<Record<SpeedDimension, string>> = { owner: 'Owner', form: 'Form', campaign: 'Campaign' };

/** The groups as CSV (CRLF lines, a header first), every cell neutralised as the leads export does. */
export function speedCsv(groups: readonly SpeedGroup[], by?: SpeedDimension): string {
  const header = [
    by ? HEADINGS[by] : 'Group',
    'Leads',
    'Reached',
    'Median minutes to first touch',
    '90th percentile minutes to first touch',
    'Reached within 5 minutes',
    'Reached within 1 hour',
    'Never reached',
  ];
  const lines = groups.map((group) => [
    group.label,
    group.leads,
    group.reached,
    group.medianMinutes ?? '',
    group.p90Minutes ?? '',
    percent(group.within5Minutes),
    percent(group.within1Hour),
    percent(group.neverReached),
  ]);
  return [header, ...lines].map((cells) => `${cells.map(toCsvCell).join(',')}\r\n`).join('');
}

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}
