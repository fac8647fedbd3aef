import { describe, expect, it } from 'vitest';
import type { SpeedRow } from '../store/sales/sales-store.ts';
import { groupSpeed, speedCsv, speedFigures } from './speed-figures.ts';
import type { WeeklyHours } from './working-time.ts';

/** Mon-Fri 9:00-18:00 in New York; in June 2026 New York is UTC-4. */
const HOURS: WeeklyHours = {
  timeZone: 'America/New_York',
  windows: [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 540, endMinute: 1080 })),
};
const at = (iso: string) => Date.parse(iso);
const NOW = at('2026-06-09T00:00:00Z');

const row = (
  leadId: string,
  clockStartsAt: string,
  firstTouchAt: string | undefined,
  facts: { ownerId?: string; source: string; campaign?: string },
): SpeedRow => ({
  leadId,
  receivedAt: at(clockStartsAt),
  clockStartsAt: at(clockStartsAt),
  firstTouchAt: firstTouchAt === undefined ? undefined : at(firstTouchAt),
  source: facts.source,
  campaign: facts.campaign,
  ownerId: facts.ownerId,
});

// Business minutes to the first touch, by hand:
// r1 Mon 1 June 10:00 → 10:03                               3
// r2 Mon 10:00 → 10:05                                      5
// r3 Mon 17:50 → Tue 9:20: 10 on Monday + 20 on Tuesday    30
// r4 Tue 11:00 → 12:00                                     60
// r5 Fri 17:00 → Mon 8 June 10:30: 60 + 90               150
// r6 never touched
// r7 touched on 10 June, after "now": not reached yet
// r8 called on Sunday before the clock started Monday 9:00  0
const ROWS: SpeedRow[] = [
  row('r1', '2026-06-01T14:00:00Z', '2026-06-01T14:03:00Z', { ownerId: '1', source: 'Form A', campaign: 'spring' }),
  row('r2', '2026-06-01T14:00:00Z', '2026-06-01T14:05:00Z', { ownerId: '1', source: 'Form A' }),
  row('r3', '2026-06-01T21:50:00Z', '2026-06-02T13:20:00Z', { ownerId: '2', source: 'Form B', campaign: 'spring' }),
  row('r4', '2026-06-02T15:00:00Z', '2026-06-02T16:00:00Z', { ownerId: '2', source: 'Form A', campaign: 'spring' }),
  row('r5', '2026-06-05T21:00:00Z', '2026-06-08T14:30:00Z', { ownerId: '1', source: 'Form B' }),
  row('r6', '2026-06-03T15:00:00Z', undefined, { source: 'Form A' }),
  row('r7', '2026-06-03T13:00:00Z', '2026-06-10T13:00:00Z', { ownerId: '2', source: 'Form B' }),
  row('r8', '2026-06-01T13:00:00Z', '2026-05-31T15:00:00Z', { ownerId: '1', source: 'Form A' }),
];

describe('speedFigures', () => {
  it('matches the hand computation', () => {
    // Reached, sorted: 0, 3, 5, 30, 60, 150 (six of eight).
    // Median: between the 3rd and 4th, (5 + 30) / 2 = 17.5.
    // 90th percentile: position 0.9 × 5 = 4.5, halfway from 60 to 150 = 105.
    // Within 5 minutes: 0, 3, 5 = 3 of 8; within an hour: 5 of 8; never reached: r6 and r7, 2 of 8.
    expect(speedFigures(ROWS, HOURS, NOW)).toEqual({
      leads: 8,
      reached: 6,
      medianMinutes: 17.5,
      p90Minutes: 105,
      within5Minutes: 0.375,
      within1Hour: 0.625,
      neverReached: 0.25,
    });
  });

  it('counts business time only: the same touches measured in clock time would be far slower', () => {
    const everyHour: WeeklyHours = { timeZone: 'America/New_York', windows: [] };
    // r5 alone: Friday 17:00 to Monday 10:30 is 65.5 hours of clock time, 150 business minutes.
    expect(speedFigures([ROWS[4]!], HOURS, NOW).medianMinutes).toBe(150);
    expect(speedFigures([ROWS[4]!], everyHour, NOW).medianMinutes).toBe(3930);
  });

  it('has no median and no shares for no leads', () => {
    expect(speedFigures([], HOURS, NOW)).toEqual({
      leads: 0,
      reached: 0,
      medianMinutes: null,
      p90Minutes: null,
      within5Minutes: 0,
      within1Hour: 0,
      neverReached: 0,
    });
  });
});

describe('groupSpeed', () => {
  const names: Record<string, string> = { '1': 'ana@example.com', '2': '=1+1', '': 'Nobody' };

  it('gives each owner their figures, most leads first', () => {
    // Ana (r1, r2, r5, r8): 0, 3, 5, 150. Median (3 + 5) / 2 = 4; 90th: position 2.7, 5 + 0.7 × 145 = 106.5.
    // Owner 2 (r3, r4, r7): 30, 60 reached of 3. Median 45; 90th: 30 + 0.9 × 30 = 57.
    // Nobody (r6): 1 lead, not reached.
    const groups = groupSpeed(ROWS, 'owner', (key) => names[key]!, HOURS, NOW);
    expect(groups).toEqual([
      {
        key: '1',
        label: 'ana@example.com',
        leads: 4,
        reached: 4,
        medianMinutes: 4,
        p90Minutes: 106.5,
        within5Minutes: 0.75,
        within1Hour: 0.75,
        neverReached: 0,
      },
      {
        key: '2',
        label: '=1+1',
        leads: 3,
        reached: 2,
        medianMinutes: 45,
        p90Minutes: 57,
        within5Minutes: 0,
        within1Hour: 2 / 3,
        neverReached: 1 / 3,
      },
      {
        key: '',
        label: 'Nobody',
        leads: 1,
        reached: 0,
        medianMinutes: null,
        p90Minutes: null,
        within5Minutes: 0,
        within1Hour: 0,
        neverReached: 1,
      },
    ]);
  });

  it('groups by form and by campaign, a lead without a campaign under the empty key', () => {
    const byForm = groupSpeed(ROWS, 'form', (key) => key, HOURS, NOW);
    expect(byForm.map((group) => [group.key, group.leads, group.medianMinutes])).toEqual([
      ['Form A', 5, 4],
      ['Form B', 3, 90],
    ]);
    const byCampaign = groupSpeed(ROWS, 'campaign', (key) => key || 'No campaign', HOURS, NOW);
    expect(byCampaign.map((group) => [group.key, group.label, group.leads])).toEqual([
      ['', 'No campaign', 5],
      ['spring', 'spring', 3],
    ]);
  });

  it('is empty for no rows', () => {
    expect(groupSpeed([], 'owner', String, HOURS, NOW)).toEqual([]);
  });
});

describe('speedCsv', () => {
  it('writes a header and one line per group, a label that looks like a formula made harmless', () => {
    const groups = groupSpeed(ROWS, 'owner', (key) => ({ '1': 'ana@example.com', '2': '=1+1', '': 'Nobody' })[key]!, HOURS, NOW);
    expect(speedCsv(groups, 'owner')).toBe(
      [
        'Owner,Leads,Reached,Median minutes to first touch,90th percentile minutes to first touch,Reached within 5 minutes,Reached within 1 hour,Never reached',
        'ana@example.com,4,4,4,106.5,75%,75%,0%',
        "'=1+1,3,2,45,57,0%,66.7%,33.3%",
        'Nobody,1,0,,,0%,0%,100%',
        '',
      ].join('\r\n'),
    );
  });

  it('is the header alone for no groups', () => {
    expect(speedCsv([])).toBe(
      'Group,Leads,Reached,Median minutes to first touch,90th percentile minutes to first touch,Reached within 5 minutes,Reached within 1 hour,Never reached\r\n',
    );
  });
});
