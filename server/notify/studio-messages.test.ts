import { describe, expect, it } from 'vitest';
import type { StudioNoticeFacts } from '../../back-office/studio-notices.ts';
import { jargonIn } from '../../studio/app/testing/plain-words.ts';
import { pageList, studioNoticeMessage } from './studio-messages.ts';

// The content studio's e-mails, word for word where it matters: who did what to which pages, the
// note or comment as written, and the link into the studio; plain words, and a team member's text
// never turned into markup.

const facts = (overrides: Partial<StudioNoticeFacts> = {}): StudioNoticeFacts => ({
  accountId: 'account-1',
  eventId: 'request-1',
  pages: 'Home\nAbout us',
  by: 'maria@example.com',
  link: 'https://studio.example.com/?review=request-1',
  text: '',
  ...overrides,
});

/** The words of an e-mail a person reads, without its link (an address is no sentence). */
const words = (text: string, link: string) => text.replace(link, '');

describe("the studio's e-mails", () => {
  it('names the pages as a list in words', () => {
    expect(pageList(['Home'])).toBe('Home');
    expect(pageList(['Home', 'About us'])).toBe('Home and About us');
    expect(pageList(['Home', 'About us', 'Pricing'])).toBe('Home, About us and Pricing');
  });

  it('asks an admin to review, with the editor, the pages, their note and the link to the request', () => {
    const { email } = studioNoticeMessage('studio-review-asked', facts({ text: 'New heading.\nPlease check the picture too.' }));
    expect(email.subject).toBe('Review asked for: Home and About us, by maria@example.com');
    expect(email.text).toBe(
      [
        'maria@example.com asked for a review of their changes to Home and About us. Nothing goes live until you or another admin approves them.',
        '',
        'Their note:',
        '> New heading.',
        '> Please check the picture too.',
        '',
        'Open the request in the studio:',
        'https://studio.example.com/?review=request-1',
        '',
      ].join('\n'),
    );
    expect(email.html).toContain('<a href="https://studio.example.com/?review=request-1">Open the request in the studio</a>');
    expect(email.html).toContain('New heading.<br>Please check the picture too.');
  });

  it('leaves out the note when the editor wrote none', () => {
    const { email } = studioNoticeMessage('studio-review-asked', facts());
    expect(email.text).not.toContain('Their note');
    expect(email.html).not.toContain('blockquote');
  });

  it("tells the editor their request was sent back, with the reviewer's comment", () => {
    const { email } = studioNoticeMessage(
      'studio-review-sent-back',
      facts({ by: 'ana@example.com', text: 'Make the heading shorter.', link: 'https://studio.example.com/?publish' }),
    );
    expect(email.subject).toBe('Your changes to Home and About us were sent back');
    expect(email.text).toContain(
      'ana@example.com sent back your changes to Home and About us: they are not live. Change what the comment asks, then ask for a review again.',
    );
    expect(email.text).toContain('Their comment:\n> Make the heading shorter.\n');
    expect(email.text).toContain('Open your changes in the studio:\nhttps://studio.example.com/?publish\n');
  });

  it('tells the editor their request is live, or when it will be', () => {
    const live = studioNoticeMessage('studio-review-approved', facts({ by: 'ana@example.com', outcome: 'published', pages: 'Home' })).email;
    expect(live.subject).toBe('Your changes to Home are live');
    expect(live.text).toContain('ana@example.com approved your changes to Home and published them: they are on the live site now.');
    const later = studioNoticeMessage(
      'studio-review-approved',
      facts({ by: 'ana@example.com', outcome: 'scheduled', pages: 'Home', when: 'Tue 1 Dec, 09:00 (Europe/Berlin)' }),
    ).email;
    expect(later.subject).toBe('Your changes to Home are approved for Tue 1 Dec, 09:00 (Europe/Berlin)');
    expect(later.text).toContain('ana@example.com approved your changes to Home. They go live on Tue 1 Dec, 09:00 (Europe/Berlin).');
  });

  it('tells whoever scheduled a publish that it did not happen, and why', () => {
    const { email } = studioNoticeMessage(
      'studio-schedule-failed',
      facts({
        pages: 'Pricing',
        when: 'Tue 1 Dec, 09:00 (Europe/Berlin)',
        text: 'Someone else published Pricing after this was scheduled.',
        link: 'https://studio.example.com/?publish',
      }),
    );
    expect(email.subject).toBe('Your scheduled publish did not happen: Pricing');
    expect(email.text).toContain(
      'Your publish of Pricing, scheduled for Tue 1 Dec, 09:00 (Europe/Berlin), did not happen. The live site is unchanged, and the changes are kept in the studio.',
    );
    expect(email.text).toContain('Why:\n> Someone else published Pricing after this was scheduled.\n');
  });

  it('says every kind in plain words', () => {
    for (const kind of ['studio-review-asked', 'studio-review-sent-back', 'studio-review-approved', 'studio-schedule-failed'] as const) {
      for (const outcome of ['published', 'scheduled'] as const) {
        const given = facts({ outcome, when: 'Tue 1 Dec, 09:00 (America/Chicago)', text: 'A note.' });
        const { email } = studioNoticeMessage(kind, given);
        expect(jargonIn(`${email.subject}\n${words(email.text, given.link)}`), kind).toEqual([]);
      }
    }
  });

  it("keeps a team member's text as text: escaped in the HTML part, and no line of ours faked in a subject", () => {
    const { email } = studioNoticeMessage(
      'studio-review-sent-back',
      facts({
        by: 'ana@example.com\r\nBcc: all@example.com',
        pages: '<b>Home</b>',
        text: '<script>alert(1)</script>\r\nSecond line\u202e',
      }),
    );
    expect(email.subject).toBe('Your changes to <b>Home</b> were sent back');
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<b>Home</b>');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;<br>Second line');
    expect(email.text).toContain('ana@example.com Bcc: all@example.com sent back');
    expect(email.text).toContain('> Second line\n');
  });
});
