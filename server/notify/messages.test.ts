import { describe, expect, it } from 'vitest';
import type { LeadRecord } from '../store/inbox/inbox-store.ts';
import { describeSmtpError } from './channels.ts';
import { escapeHtml, leadFailedMessage, newLeadMessage, spamDailyMessage, spokenDay, toOneLine } from './messages.ts';

// What visitors typed can neither add a header, fake a line of ours, nor run in an HTML mail reader.

const CONTEXT = { siteUrl: 'https://www.example.com' };

function lead(payload: Record<string, unknown>): LeadRecord {
  return {
    id: 'lead-1',
    receivedAt: Date.UTC(2025, 0, 2, 3, 4, 5),
    source: 'Contact Page Form',
    email: 'ana@example.com',
    payload,
    spamReason: undefined,
    state: 'failed',
    attempts: 9,
    nextAttemptAt: undefined,
    lastStatus: 503,
    lastError: undefined,
    updatedAt: 0,
    name: typeof payload.name === 'string' ? payload.name : undefined,
    company: typeof payload.company === 'string' ? payload.company : undefined,
    campaign: undefined,
    utmSource: undefined,
  };
}

describe('newLeadMessage', () => {
  const hostile = lead({
    name: 'Ana\r\nBcc: everyone@example.com',
    company: '<img src=x onerror=alert(1)> & "Co"',
    email: 'ana@example.com',
  });
  const { email } = newLeadMessage(hostile, CONTEXT);

  it('keeps the subject on one line whatever the visitor typed', () => {
    expect(email.subject).toBe('New lead: Ana Bcc: everyone@example.com (<img src=x onerror=alert(1)> & "Co") via Contact Page Form');
    expect(email.subject).not.toMatch(/[\r\n]/);
  });

  it('drops direction controls, so a typed name cannot read as something else in the subject or the text', () => {
    const reversed = newLeadMessage(lead({ name: 'Bob\u202Egnp.exe\u2066', company: 'Acme\u200F', email: 'bob@example.com' }), CONTEXT);
    expect(reversed.email.subject).toBe('New lead: Bobgnp.exe (Acme) via Contact Page Form');
    for (const text of [reversed.email.subject, reversed.email.text, reversed.email.html]) {
      expect(text).not.toMatch(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    }
  });

  it('puts each value on its own line in the text, so a typed line break cannot fake a line of ours', () => {
    expect(email.text.split('\n')).toEqual([
      'A new lead came in through the Contact Page Form.',
      '',
      'Form:     Contact Page Form',
      'Name:     Ana Bcc: everyone@example.com',
      'Company:  <img src=x onerror=alert(1)> & "Co"',
      'E-mail:   ana@example.com',
      'Received: 2025-01-02T03:04:05Z',
      '',
      'https://www.example.com/console/leads/lead-1',
      '',
    ]);
  });

  it('escapes visitor text in the HTML part', () => {
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
    expect(email.html).not.toContain('<img');
  });
});

describe('leadFailedMessage', () => {
  it('names no person: alerts may go to a chat channel', () => {
    const message = leadFailedMessage(lead({ name: 'Ana Díaz', email: 'ana@example.com', phone: '+1 555 123 4567' }), CONTEXT);
    const everything = JSON.stringify(message);
    for (const personal of ['Ana', 'ana@example.com', '4567']) expect(everything).not.toContain(personal);
    expect(message.webhook.text).toContain('Last answer: HTTP 503');
    expect(message.webhook.text).toContain('https://www.example.com/console/leads/lead-1');
  });
});

describe('spamDailyMessage', () => {
  it("says how many leads were judged spam yesterday and links to that day's Spam view", () => {
    const message = spamDailyMessage({ day: '2026-11-27', count: 3 }, CONTEXT);
    expect(message.email.subject).toBe('Spam yesterday (Fri 27 Nov): 3 leads');
    expect(message.email.text.split('\n')).toEqual([
      '3 leads were judged spam yesterday (Fri 27 Nov). Look them over in case a real one is among them:',
      '',
      'https://www.example.com/console/spam?from=2026-11-27&to=2026-11-27',
      '',
    ]);
    expect(message.email.html).toContain('<a href="https://www.example.com/console/spam?from=2026-11-27&amp;to=2026-11-27">');
    expect(message.email.html).not.toContain('<table');
  });

  it('speaks of one lead as one', () => {
    const message = spamDailyMessage({ day: '2026-03-01', count: 1 }, CONTEXT);
    expect(message.email.subject).toBe('Spam yesterday (Sun 1 Mar): 1 lead');
    expect(message.webhook.text).toContain('1 lead was judged spam yesterday (Sun 1 Mar). Look it over in case it is a real one:');
  });

  it.each([
    ['2026-11-27', 'Fri 27 Nov'],
    ['2024-02-29', 'Thu 29 Feb'],
    ['2027-01-03', 'Sun 3 Jan'],
  ])('spokenDay(%j) is %j', (day, spoken) => {
    expect(spokenDay(day)).toBe(spoken);
  });
});

describe('text helpers', () => {
  it.each([
    ['a\r\nb', 'a b'],
    ['  tab\tand\u2028separator ', 'tab and separator'],
    ['\u0000\u001b[31mred', '[31mred'],
  ])('toOneLine(%j) is %j', (input, expected) => {
    expect(toOneLine(input)).toBe(expected);
  });

  it('cuts long text with an ellipsis', () => {
    expect(toOneLine('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('describeSmtpError', () => {
  it('masks addresses and hides the password in what a mail server answered', () => {
    const error = new Error("Can't send mail - all recipients were rejected: 550 5.1.1 <sales@example.com>: unknown (s3cret)");
    expect(describeSmtpError(error, 'smtp://notify:s3cret@mail.example.com:587')).toBe(
      "Can't send mail - all recipients were rejected: 550 5.1.1 <s***@example.com>: unknown (***)",
    );
  });
});
