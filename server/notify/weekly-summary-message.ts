import type { ConversionRow, DayRange, KeyFigure, KeyFigureName, SpeedFigures } from '../../console/api-types.ts';
import { escapeHtml, spokenDay, toOneLine } from './messages.ts';
import type { Message, MessageContext } from './messages.ts';

// The weekly summary e-mail: the key figures of the week against the week before, what converted,
// and the speed to lead, in plain text and simple HTML that say the same. Pure: the job passes in the
// figures. Campaign names and page paths come from visitors' links, so each is put on one line and
// HTML-escaped; no visitor is named, since counts are all it holds.

/** How many campaigns, and how many entry pages, the e-mail lists; the Analytics screen has the rest. */
export const CONVERSIONS_LISTED = 5;

export type WeeklySummaryFacts = {
  readonly range: DayRange;
  readonly previousRange: DayRange;
  readonly figures: readonly KeyFigure[];
  readonly conversions: readonly ConversionRow[];
  /** The speed to lead of the leads received in each week. */
  readonly speed: { readonly week: SpeedFigures; readonly before: SpeedFigures };
};

export const FIGURE_LABELS: Readonly<Record<KeyFigureName, string>> = {
  visitors: 'Visitors',
  accepted: 'Leads accepted',
  delivered: 'Leads the CRM took',
  booked: 'Meetings booked',
  visitToLead: 'Visit-to-lead rate',
};

const count = (value: number) => value.toLocaleString('en');
const percent = (share: number, digits = 0) => `${(share * 100).toFixed(digits)}%`;

function figureValue(name: KeyFigureName, value: number | null): string {
  if (value === null) return 'no visitors';
  return name === 'visitToLead' ? percent(value, 1) : count(value);
}

/** A figure's change in words: "up 25%", "down 10%", "no change", "new", or "–" when there is nothing to compare. */
export function changeWords(figure: KeyFigure): string {
  if (figure.value === null || figure.previous === null) return '–';
  if (figure.change === null) return figure.value === 0 ? 'no change' : 'new';
  const points = Math.round(Math.abs(figure.change) * 100);
  if (points === 0) return figure.change === 0 ? 'no change' : 'about the same';
  return `${figure.change > 0 ? 'up' : 'down'} ${points}%`;
}

/** Minutes as people say them: "4 min", "2.5 min", "1 h 5 min". */
function minutesWords(minutes: number | null): string {
  if (minutes === null) return 'nobody reached';
  if (minutes < 60) return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)} min`;
  const hours = Math.floor(minutes / 60);
  const rest = Math.round(minutes % 60);
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

const speedRows = (speed: WeeklySummaryFacts['speed']): [string, string, string][] => {
  const none = (figures: SpeedFigures, text: string) => (figures.leads === 0 ? 'no leads' : text);
  return [
    ['Leads received', count(speed.week.leads), count(speed.before.leads)],
    [
      'Median time to first touch',
      none(speed.week, minutesWords(speed.week.medianMinutes)),
      none(speed.before, minutesWords(speed.before.medianMinutes)),
    ],
    [
      'Reached within 5 minutes',
      none(speed.week, percent(speed.week.within5Minutes)),
      none(speed.before, percent(speed.before.within5Minutes)),
    ],
    ['Never reached', none(speed.week, percent(speed.week.neverReached)), none(speed.before, percent(speed.before.neverReached))],
  ];
};

/**
 * Campaign words and page paths come from visitors' links: anyone can send a lead with any words in
 * them. The e-mail shows them short and without a web address, so nobody can write a sentence with a
 * link into the owner's inbox; the Analytics screen has them whole.
 */
const SHOWN_WORD_MAX = 40;
function shownWord(text: string): string {
  const line = toOneLine(text).replace(/[a-z][a-z0-9+.-]*:\/\/|www\./gi, '');
  return line.length > SHOWN_WORD_MAX ? `${line.slice(0, SHOWN_WORD_MAX - 1)}…` : line;
}

function conversionName(row: ConversionRow): string {
  if (row.kind === 'entry') return row.key === '' ? '(unknown page)' : shownWord(row.key);
  const name = row.key === '' ? '(no campaign)' : shownWord(row.key);
  return `${name} (${row.source === '' ? 'direct' : shownWord(row.source)})`;
}

function plural(value: number, one: string, many: string): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

function conversionWords(row: ConversionRow): string {
  return [
    plural(row.delivered, 'lead the CRM took', 'leads the CRM took'),
    plural(row.booked, 'meeting booked', 'meetings booked'),
    `${plural(row.accepted, 'lead', 'leads')} from ${plural(row.visitors, 'visitor', 'visitors')}`,
  ].join(', ');
}

function analyticsUrl(context: MessageContext, range: DayRange): string {
  return `${context.siteUrl}/console/analytics?from=${range.from}&to=${range.to}`;
}

function settingsUrl(context: MessageContext): string {
  return `${context.siteUrl}/console/settings`;
}

const spokenRange = (range: DayRange) => `${spokenDay(range.from)} to ${spokenDay(range.to)}`;

/** Text columns, each as wide as its widest cell plus two spaces. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, index) => Math.max(...rows.map((row) => row[index]?.length ?? 0)) + 2) ?? [];
  return rows.map((row) =>
    row
      .map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
      .join('')
      .trimEnd(),
  );
}

function htmlTable(caption: string, header: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = header.map((cell, index) => `<th align="${index === 0 ? 'left' : 'right'}">${escapeHtml(cell)}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((cell, index) => (index === 0 ? `<th align="left">` : `<td align="right">`) + escapeHtml(cell) + (index === 0 ? '</th>' : '</td>')).join('')}</tr>`,
    )
    .join('');
  return `<table cellpadding="4"><caption align="top">${escapeHtml(caption)}</caption><tr>${head}</tr>${body}</table>`;
}

export function weeklySummaryMessage(facts: WeeklySummaryFacts, context: MessageContext): Message {
  const delivered = facts.figures.find((figure) => figure.name === 'delivered')?.value ?? 0;
  const booked = facts.figures.find((figure) => figure.name === 'booked')?.value ?? 0;
  const subject = toOneLine(
    `Weekly summary, ${spokenRange(facts.range)}: ${plural(delivered, 'lead the CRM took', 'leads the CRM took')}, ${plural(booked, 'meeting booked', 'meetings booked')}`,
    150,
  );
  const intro = `Your weekly summary for ${spokenRange(facts.range)}, against the 7 days before (${spokenRange(facts.previousRange)}). Days are counted in UTC, as on the Analytics screen.`;
  const header = ['', 'This week', 'Week before', 'Change'];
  const figureRows = facts.figures.map((figure) => [
    FIGURE_LABELS[figure.name],
    figureValue(figure.name, figure.value),
    figureValue(figure.name, figure.previous),
    changeWords(figure),
  ]);
  const campaigns = facts.conversions
    .filter((row) => row.kind === 'campaign' && row.delivered + row.booked > 0)
    .slice(0, CONVERSIONS_LISTED);
  const entries = facts.conversions.filter((row) => row.kind === 'entry' && row.delivered + row.booked > 0).slice(0, CONVERSIONS_LISTED);
  const speedHeader = ['', 'This week', 'Week before'];
  const speed = speedRows(facts.speed);
  const analyticsLink = analyticsUrl(context, facts.range);
  const stop = `You get this e-mail because you switched on "Weekly summary by e-mail". To stop it, switch it off in the console's Settings:`;
  const nothingConverted = 'No lead the CRM took and no meeting booked came from a campaign or page this week.';

  const listText = (title: string, rows: readonly ConversionRow[]) =>
    rows.length === 0 ? [] : [title, ...rows.map((row) => `- ${conversionName(row)}: ${conversionWords(row)}`), ''];
  const text = [
    intro,
    '',
    'KEY FIGURES',
    ...columns([header, ...figureRows]),
    '',
    'WHAT CONVERTED (ranked by leads the CRM took, then meetings booked)',
    ...(campaigns.length + entries.length === 0 ? [nothingConverted, ''] : []),
    ...listText('Campaigns:', campaigns),
    ...listText('Entry pages:', entries),
    'SPEED TO LEAD (business hours, leads received in each week)',
    ...columns([speedHeader, ...speed]),
    '',
    `See more on the Analytics screen: ${analyticsLink}`,
    '',
    `${stop} ${settingsUrl(context)}`,
    '',
  ].join('\n');

  const listHtml = (title: string, rows: readonly ConversionRow[]) =>
    rows.length === 0
      ? ''
      : `<p>${escapeHtml(title)}</p><ul>${rows.map((row) => `<li><b>${escapeHtml(conversionName(row))}</b>: ${escapeHtml(conversionWords(row))}</li>`).join('')}</ul>`;
  const link = (url: string) => `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    htmlTable('Key figures', header, figureRows),
    `<h3>What converted</h3><p>Ranked by leads the CRM took, then meetings booked.</p>`,
    campaigns.length + entries.length === 0 ? `<p>${escapeHtml(nothingConverted)}</p>` : '',
    listHtml('Campaigns', campaigns),
    listHtml('Entry pages', entries),
    htmlTable('Speed to lead (business hours, leads received in each week)', speedHeader, speed),
    `<p>See more on the Analytics screen: ${link(analyticsLink)}</p>`,
    `<p>${escapeHtml(stop)} ${link(settingsUrl(context))}</p>`,
  ]
    .filter((part) => part !== '')
    .join('\n');

  return { email: { subject, text, html }, webhook: { text } };
}
