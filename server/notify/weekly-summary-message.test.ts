import { describe, expect, it } from 'vitest';
import type { ConversionRow, KeyFigure, SpeedFigures } from '../../console/api-types.ts';
import { summaryPeriod, summaryWeekAt, weeklySummarySchedule } from './weekly-summary.ts';
import { changeWords, weeklySummaryMessage, type WeeklySummaryFacts } from './weekly-summary-message.ts';

// When the weekly summary is due and which days it covers, and what its e-mail says: the same in text
// and HTML, every value from a visitor's link shown as text, absolute links, and how to stop it.

const HOUR = 60 * 60 * 1000;
const SITE_URL = 'https://www.example.com';

describe('the week a summary is for', () => {
  it('is due on Monday at 8:00 in the site’s zone and covers the 7 whole UTC days before', () => {
    // Mon 30 Nov 2026, 8:00 in New York is 13:00 UTC.
    const due = Date.UTC(2026, 10, 30, 13);
    expect(summaryWeekAt(due, 'America/New_York')).toEqual({
      week: '2026-11-30',
      dueAt: due,
      range: { from: '2026-11-23', to: '2026-11-29' },
    });
    // A moment before, the latest week due is the one before.
    expect(summaryWeekAt(due - 1, 'America/New_York')).toMatchObject({
      week: '2026-11-23',
      range: { from: '2026-11-16', to: '2026-11-22' },
    });
    // All week long, the latest due is that Monday's.
    expect(summaryWeekAt(due + 4 * 24 * HOUR, 'America/New_York').week).toBe('2026-11-30');
    expect(summaryWeekAt(due + 7 * 24 * HOUR - 1, 'America/New_York').week).toBe('2026-11-30');
  });

  it('ends with the last UTC day that is over when it is sent, ahead of UTC too', () => {
    // Mon 30 Nov, 8:00 in Tokyo is Sun 29 Nov, 23:00 UTC: that Sunday is not over yet.
    expect(summaryWeekAt(Date.UTC(2026, 10, 29, 23), 'Asia/Tokyo')).toEqual({
      week: '2026-11-30',
      dueAt: Date.UTC(2026, 10, 29, 23),
      range: { from: '2026-11-22', to: '2026-11-28' },
    });
  });

  it('follows the clocks when they change: 8:00 summer time the Monday after', () => {
    // London's clocks went forward on Sun 29 Mar 2026: 8:00 on Mon 30 Mar is 7:00 UTC.
    expect(summaryWeekAt(Date.UTC(2026, 2, 30, 7), 'Europe/London').week).toBe('2026-03-30');
    expect(summaryWeekAt(Date.UTC(2026, 2, 30, 7) - 1, 'Europe/London').week).toBe('2026-03-23');
  });

  it('is queued once per week from one Monday 8:00 to the next, a clock change included', () => {
    const due = Date.UTC(2026, 10, 30, 13);
    expect(summaryPeriod(due + 2 * 24 * HOUR, 'America/New_York')).toEqual({
      key: '2026-11-30',
      start: due,
      end: Date.UTC(2026, 11, 7, 13),
    });
    // London's week of the change is an hour short: 8:00 on Mon 23 Mar is 8:00 UTC, a week later 7:00 UTC.
    expect(summaryPeriod(Date.UTC(2026, 2, 25), 'Europe/London')).toEqual({
      key: '2026-03-23',
      start: Date.UTC(2026, 2, 23, 8),
      end: Date.UTC(2026, 2, 30, 7),
    });
  });

  it('says when it is sent in words', () => {
    expect(weeklySummarySchedule('America/New_York')).toBe('Mondays at 8:00 AM, New York time');
    expect(weeklySummarySchedule('UTC')).toBe('Mondays at 8:00 AM, UTC');
  });
});

const figure = (name: KeyFigure['name'], value: number | null, previous: number | null): KeyFigure => ({
  name,
  value,
  previous,
  change: value === null || previous === null || previous === 0 ? null : (value - previous) / previous,
});

const speed = (overrides: Partial<SpeedFigures> = {}): SpeedFigures => ({
  leads: 10,
  reached: 9,
  medianMinutes: 4.5,
  p90Minutes: 30,
  within5Minutes: 0.6,
  within1Hour: 0.9,
  neverReached: 0.1,
  ...overrides,
});

const conversion = (kind: ConversionRow['kind'], key: string, source: string, delivered: number, booked: number): ConversionRow => ({
  kind,
  key,
  source,
  visitors: 100,
  accepted: delivered + 1,
  delivered,
  booked,
});

const FACTS: WeeklySummaryFacts = {
  range: { from: '2026-11-23', to: '2026-11-29' },
  previousRange: { from: '2026-11-16', to: '2026-11-22' },
  figures: [
    figure('visitors', 1250, 1000),
    figure('accepted', 20, 16),
    figure('delivered', 18, 18),
    figure('booked', 3, 0),
    figure('visitToLead', 0.016, 0.016),
  ],
  conversions: [
    conversion('campaign', '<script>alert("x")</script>', 'news & views', 7, 2),
    conversion('campaign', 'spring', 'linkedin', 5, 0),
    conversion('campaign', 'nothing', 'google', 0, 0),
    conversion('entry', '/pricing', '', 9, 1),
    conversion('entry', '', '', 2, 0),
  ],
  speed: { week: speed(), before: speed({ leads: 0, reached: 0, medianMinutes: null, within5Minutes: 0, neverReached: 0 }) },
};

describe('the weekly summary e-mail', () => {
  const { email } = weeklySummaryMessage(FACTS, { siteUrl: SITE_URL });

  it('has the key figures of the week against the week before, with their change in words', () => {
    expect(email.subject).toBe('Weekly summary, Mon 23 Nov to Sun 29 Nov: 18 leads the CRM took, 3 meetings booked');
    const lines = email.text.split('\n');
    expect(lines[0]).toBe(
      'Your weekly summary for Mon 23 Nov to Sun 29 Nov, against the 7 days before (Mon 16 Nov to Sun 22 Nov). Days are counted in UTC, as on the Analytics screen.',
    );
    expect(lines).toContain('Visitors            1,250      1,000        up 25%');
    expect(lines).toContain('Leads accepted      20         16           up 25%');
    expect(lines).toContain('Leads the CRM took  18         18           no change');
    expect(lines).toContain('Meetings booked     3          0            new');
    expect(lines).toContain('Visit-to-lead rate  1.6%       1.6%         no change');
  });

  it('lists what converted, ranked, without rows that converted nothing', () => {
    expect(email.text).toContain(
      'Campaigns:\n- <script>alert("x")</script> (news & views): 7 leads the CRM took, 2 meetings booked, 8 leads from 100 visitors\n' +
        '- spring (linkedin): 5 leads the CRM took, 0 meetings booked, 6 leads from 100 visitors\n',
    );
    expect(email.text).toContain(
      'Entry pages:\n- /pricing: 9 leads the CRM took, 1 meeting booked, 10 leads from 100 visitors\n- (unknown page):',
    );
    expect(email.text).not.toContain('nothing (google)');
  });

  it('shows a campaign name from a visitor’s link as text in the HTML, never as markup', () => {
    expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; (news &amp; views)');
    expect(email.html).not.toContain('<script');
    expect(email.html).not.toContain('news & views');
  });

  it('shows words from a visitor’s link short and without a web address, so a lead cannot write a sentence with a link to the owner', () => {
    const phishing = 'Action needed: re-verify your console login at https://evil.example/login';
    const { email: mail } = weeklySummaryMessage(
      { ...FACTS, conversions: [conversion('campaign', phishing, 'www.evil.example', 3, 0)] },
      { siteUrl: SITE_URL },
    );
    expect(mail.text).toContain('- Action needed: re-verify your console l… (evil.example): 3 leads the CRM took');
    for (const body of [mail.text, mail.html]) {
      expect(body).not.toContain('https://evil');
      expect(body).not.toContain('www.evil');
    }
  });

  it('has the speed to lead of both weeks', () => {
    expect(email.text).toContain('Median time to first touch  4.5 min    no leads');
    expect(email.text).toContain('Reached within 5 minutes    60%        no leads');
    expect(email.text).toContain('Never reached               10%        no leads');
    expect(email.html).toContain('<th align="left">Median time to first touch</th><td align="right">4.5 min</td>');
  });

  it('links to the Analytics screen for those days and says how to stop it, in both parts', () => {
    const analytics = `${SITE_URL}/console/analytics?from=2026-11-23&to=2026-11-29`;
    expect(email.text).toContain(`See more on the Analytics screen: ${analytics}`);
    expect(email.html).toContain(`<a href="${analytics.replace('&', '&amp;')}">`);
    const stop = `To stop it, switch it off in the console's Settings: ${SITE_URL}/console/settings`;
    expect(email.text).toContain(stop);
    expect(email.html).toContain(`${SITE_URL}/console/settings</a>`);
  });

  it('says so when nothing converted', () => {
    const quiet = weeklySummaryMessage({ ...FACTS, conversions: [] }, { siteUrl: SITE_URL }).email;
    expect(quiet.text).toContain('No lead the CRM took and no meeting booked came from a campaign or page this week.');
  });

  it('words each change', () => {
    expect(changeWords(figure('visitors', 90, 100))).toBe('down 10%');
    expect(changeWords(figure('visitors', 0, 0))).toBe('no change');
    expect(changeWords(figure('visitors', 1001, 1000))).toBe('about the same');
    expect(changeWords(figure('visitToLead', null, 0.5))).toBe('–');
  });
});
