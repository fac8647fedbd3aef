import type { LeadRecord } from '../store/inbox/inbox-store.ts';

// What each notification says. Pure: the notifier passes in the lead and the facts. Visitor text
// (name, company, e-mail) goes into new-lead e-mails only: on one line each (a line break typed into
// a field cannot fake a line of ours), HTML-escaped in the HTML part, and never in a subject as typed
// (control characters, CR and LF among them, become spaces; direction controls are dropped). Alerts name no person: they may go to
// a chat channel, and the console link leads to the rest.

export type EmailMessage = {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Who receives it; NOTIFY_TO when not set (the ladder's notices name their own people). */
  readonly to?: readonly string[];
};
export type WebhookMessage = { readonly text: string };
export type Message = { readonly email: EmailMessage; readonly webhook: WebhookMessage };

export type MessageContext = {
  /** The site's origin, for links into the console (no trailing slash). */
  readonly siteUrl: string;
};

// Subjects stay short enough for a phone's inbox list.
const SUBJECT_MAX_CHARS = 150;
// A field value shown in a notification; the console holds the whole text.
const VALUE_MAX_CHARS = 200;

// Direction controls (marks, embeddings, overrides, isolates): `Bob\u202Egnp.exe` would read
// "Bobexe.png" in a subject or a mail list, so they are dropped from one-line values.
const DIRECTION_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Direction controls go; control characters (CR and LF among them) become one space; trimmed and cut. */
export function toOneLine(text: string, maxChars: number = VALUE_MAX_CHARS): string {
  const line = text
    .replace(DIRECTION_CONTROLS, '')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Slack-compatible text treats <…> as links and & as an entity start.
function escapeSlack(text: string): string {
  return text.replace(/[&<>]/g, (char) => HTML_ESCAPES[char] ?? char);
}

export function consoleLeadUrl(siteUrl: string, leadId: string): string {
  return `${siteUrl}/console/leads/${encodeURIComponent(leadId)}`;
}

/** The console's Spam view of one UTC day (YYYY-MM-DD): the leads received that day that are spam. */
export function consoleSpamDayUrl(siteUrl: string, day: string): string {
  return `${siteUrl}/console/spam?from=${day}&to=${day}`;
}

function payloadText(lead: LeadRecord, field: string): string {
  const value = lead.payload[field];
  return typeof value === 'string' ? toOneLine(value) : '';
}

const isoTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function minutesBetween(from: number, to: number): number {
  return Math.max(0, Math.floor((to - from) / 60_000));
}

type Block = { readonly title: string; readonly intro: string; readonly rows: readonly [string, string][]; readonly link: string };

// One layout for every e-mail: a sentence, a few labelled lines (if any), the link. Text and HTML say the same.
function renderEmail(subject: string, block: Block): EmailMessage {
  const width = Math.max(...block.rows.map(([label]) => label.length)) + 2;
  const lines = block.rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`);
  const text = [block.intro, '', ...lines, ...(lines.length > 0 ? [''] : []), block.link, ''].join('\n');
  const rows = block.rows.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`);
  const html = [
    `<p>${escapeHtml(block.intro)}</p>`,
    ...(rows.length > 0 ? [`<table cellpadding="4">${rows.join('')}</table>`] : []),
    `<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.link)}</a></p>`,
  ].join('\n');
  return { subject: toOneLine(subject, SUBJECT_MAX_CHARS), text, html };
}

function renderWebhook(title: string, block: Block): WebhookMessage {
  const rows = block.rows.map(([label, value]) => `${label}: ${value}`);
  return { text: escapeSlack([`*${title}*`, block.intro, ...rows, block.link].join('\n')) };
}

function render(subject: string, block: Block): Message {
  return { email: renderEmail(subject, block), webhook: renderWebhook(subject, block) };
}

/** The new-lead e-mail: who, from which form, when, and the link to the lead in the console. */
export function newLeadMessage(lead: LeadRecord, context: MessageContext): Message {
  const name = payloadText(lead, 'name') || '(no name)';
  const company = payloadText(lead, 'company');
  const form = toOneLine(lead.source);
  return render(`New lead: ${name}${company === '' ? '' : ` (${company})`} via ${form}`, {
    title: 'New lead',
    intro: `A new lead came in through the ${form}.`,
    rows: [
      ['Form', form],
      ['Name', name],
      ['Company', company || '(none given)'],
      ['E-mail', payloadText(lead, 'email') || toOneLine(lead.email)],
      ['Received', isoTime(lead.receivedAt)],
    ],
    link: consoleLeadUrl(context.siteUrl, lead.id),
  });
}

/** A lead that failed for good: it stays in the console to be retried. */
export function leadFailedMessage(lead: LeadRecord, context: MessageContext): Message {
  return render(`Alert: a lead from the ${toOneLine(lead.source)} could not be delivered to the CRM`, {
    title: 'Lead not delivered',
    intro: 'The CRM did not take this lead and no more attempts are left. It is kept in the console: retry it there once the CRM is fixed.',
    rows: [
      ['Lead', lead.id],
      ['Form', toOneLine(lead.source)],
      ['Received', isoTime(lead.receivedAt)],
      ['Attempts', String(lead.attempts)],
      ['Last answer', toOneLine(lead.lastStatus === undefined ? (lead.lastError ?? 'no answer') : `HTTP ${lead.lastStatus}`)],
    ],
    link: consoleLeadUrl(context.siteUrl, lead.id),
  });
}

/** The CRM said the request was only a test: its workflow is in draft, so the lead reached nobody. */
export function leadTestMessage(lead: LeadRecord, context: MessageContext): Message {
  return render(`Alert: the CRM took a lead from the ${toOneLine(lead.source)} only as a test`, {
    title: 'Lead reached no live workflow',
    intro:
      'The CRM answered that this request was only a test: its workflow is probably still in draft, so the lead reached no one. ' +
      'Publish the workflow, then open the lead in the console and choose "Send again".',
    rows: [
      ['Lead', lead.id],
      ['Form', toOneLine(lead.source)],
      ['Received', isoTime(lead.receivedAt)],
    ],
    link: consoleLeadUrl(context.siteUrl, lead.id),
  });
}

export function incidentOpenedMessage(
  incident: { since: number; lastError: string | undefined; now: number },
  context: MessageContext,
): Message {
  const minutes = minutesBetween(incident.since, incident.now);
  return render(`Alert: no lead has reached the CRM for ${minutes} minutes`, {
    title: 'CRM deliveries failing',
    intro:
      'Every delivery to the CRM has failed since the time below. Leads are kept and retried on their schedule; ' +
      'you will get one notice when a delivery succeeds again.',
    rows: [
      ['Failing since', isoTime(incident.since)],
      ['Last error', toOneLine(incident.lastError ?? 'unknown')],
    ],
    link: `${context.siteUrl}/console`,
  });
}

export function incidentRecoveredMessage(incident: { since: number; recoveredAt: number }, context: MessageContext): Message {
  return render('Recovered: leads reach the CRM again', {
    title: 'CRM deliveries recovered',
    intro: `A delivery to the CRM succeeded again after ${minutesBetween(incident.since, incident.recoveredAt)} minutes of failures.`,
    rows: [
      ['Failing since', isoTime(incident.since)],
      ['Recovered at', isoTime(incident.recoveredAt)],
    ],
    link: `${context.siteUrl}/console`,
  });
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A UTC day (YYYY-MM-DD) as people say it: "Fri 27 Nov". */
export function spokenDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
}

/**
 * The day's count of spam, sent the next day: a real lead judged spam reaches no one until someone
 * marks it "Not spam", so the count and a link to exactly those leads go where the team looks. It
 * names no person: it may go to a chat channel.
 */
export function spamDailyMessage(spam: { day: string; count: number }, context: MessageContext): Message {
  const when = `yesterday (${spokenDay(spam.day)})`;
  const intro =
    spam.count === 1
      ? `1 lead was judged spam ${when}. Look it over in case it is a real one:`
      : `${spam.count} leads were judged spam ${when}. Look them over in case a real one is among them:`;
  return render(`Spam ${when}: ${spam.count === 1 ? '1 lead' : `${spam.count} leads`}`, {
    title: 'Spam yesterday',
    intro,
    rows: [],
    link: consoleSpamDayUrl(context.siteUrl, spam.day),
  });
}

export function testMessage(now: number, context: MessageContext): Message {
  return render('Test notification from the lead console', {
    title: 'Test notification',
    intro: 'This is a test: notifications from the lead console reach you here.',
    rows: [['Sent', isoTime(now)]],
    link: `${context.siteUrl}/console`,
  });
}

/** What an escalation notice knows besides the lead: how long it waited, and whose it is. */
export type WaitingFacts = {
  /** Business minutes since the clock started, when the step was taken. */
  readonly minutes: number;
  /** The owner's address (the one told, or the one who had it before a reassignment), if any. */
  readonly owner: string | undefined;
  /** Set on a reassignment: the new owner's address, or undefined when nobody else was available. */
  readonly newOwner?: string | undefined;
};

function waited(minutes: number): string {
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const hoursText = hours === 1 ? '1 hour' : `${hours} hours`;
  return rest === 0 ? hoursText : `${hoursText} ${rest} min`;
}

// The ladder's notices name the form and the owner (a colleague), never the visitor: they may go to a
// chat channel, and the console link leads to the rest. The waiting time is in business minutes.

/** First step: the owner is told their lead is waiting. */
export function leadWaitingMessage(lead: LeadRecord, facts: WaitingFacts, context: MessageContext): Message {
  const form = toOneLine(lead.source);
  return render(`A lead has waited ${waited(facts.minutes)} for a call: ${form}`, {
    title: 'Lead waiting',
    intro: `Nobody has called or written to this lead yet. ${facts.owner === undefined ? 'It has no owner: anyone in sales can take it.' : `It is ${toOneLine(facts.owner)}'s.`} Open it, then call or write.`,
    rows: [
      ['Form', form],
      ['Waiting', `${waited(facts.minutes)} of business hours`],
      ['Owner', facts.owner === undefined ? 'nobody yet' : toOneLine(facts.owner)],
      ['Received', isoTime(lead.receivedAt)],
    ],
    link: consoleLeadUrl(context.siteUrl, lead.id),
  });
}

/** Second step: the whole sales team is told. */
export function leadWaitingTeamMessage(lead: LeadRecord, facts: WaitingFacts, context: MessageContext): Message {
  const form = toOneLine(lead.source);
  return render(`Still nobody has called: a lead from the ${form} has waited ${waited(facts.minutes)}`, {
    title: 'Lead still waiting',
    intro:
      facts.owner === undefined
        ? 'This lead has no owner and nobody has called or written yet. Whoever is free: open it and call.'
        : `${toOneLine(facts.owner)} has not called or written to this lead yet. If you are free, open it and call, or ask them.`,
    rows: [
      ['Form', form],
      ['Waiting', `${waited(facts.minutes)} of business hours`],
      ['Owner', facts.owner === undefined ? 'nobody yet' : toOneLine(facts.owner)],
      ['Received', isoTime(lead.receivedAt)],
    ],
    link: consoleLeadUrl(context.siteUrl, lead.id),
  });
}

/** Third step: the lead went to the next available person (or nobody else was available). */
export function leadReassignedMessage(lead: LeadRecord, facts: WaitingFacts, context: MessageContext): Message {
  const form = toOneLine(lead.source);
  const before = facts.owner === undefined ? 'nobody' : toOneLine(facts.owner);
  if (facts.newOwner === undefined) {
    return render(`Nobody else is available for a lead from the ${form} that waited ${waited(facts.minutes)}`, {
      title: 'Lead waiting, nobody else available',
      intro: `Nobody has called or written to this lead, and no other sales person is available to take it over. It stays with ${before}.`,
      rows: [
        ['Form', form],
        ['Waiting', `${waited(facts.minutes)} of business hours`],
        ['Received', isoTime(lead.receivedAt)],
      ],
      link: consoleLeadUrl(context.siteUrl, lead.id),
    });
  }
  const after = toOneLine(facts.newOwner);
  return render(`A lead is now yours: ${form}, waited ${waited(facts.minutes)}`, {
    title: 'Lead reassigned',
    intro: `Nobody called or wrote to this lead in time, so it moved from ${before} to ${after}. Call or write now.`,
    rows: [
      ['Form', form],
      ['Waiting', `${waited(facts.minutes)} of business hours`],
      ['New owner', after],
      ['Before', before],
      ['Received', isoTime(lead.receivedAt)],
    ],
    link: consoleLeadUrl(context.siteUrl, lead.id),
  });
}
