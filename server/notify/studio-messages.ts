import type { StudioNoticeFacts, StudioNoticeKind } from '../../back-office/studio-notices.ts';
import { noticePages } from '../../back-office/studio-notices.ts';
import { escapeHtml, toOneLine } from './messages.ts';
import type { Message } from './messages.ts';
import { listWords } from '../../back-office/list-words.ts';

// What the content studio's e-mails say (see back-office/studio-notices.ts): who did what to which
// pages, the note or comment as it was written, and a link that opens it in the studio. Plain words
// for people who never see the files: pages are named as the site's links name them. Pure: the
// notifier passes in the facts stored with the notification. Team members' texts (a note, a comment)
// keep their lines, quoted, and are escaped in the HTML part; names and pages go on one line each.

/** The longest note or comment the studio keeps; a longer stored text is cut here too. */
const TEXT_MAX_CHARS = 2000;
// Subjects stay short enough for a phone's inbox list.
const SUBJECT_MAX_CHARS = 150;

// Direction controls and control characters but the line break: a note keeps its lines, nothing else.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const UNWANTED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A team member's text with its lines, without control characters, cut to the studio's limit. */
function keptLines(text: string): string {
  const clean = text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(UNWANTED, '')
    .trim();
  return clean.length > TEXT_MAX_CHARS ? `${clean.slice(0, TEXT_MAX_CHARS - 1)}…` : clean;
}

/** "Home", "Home and About", "Home, About and Pricing". */
export function pageList(pages: readonly string[]): string {
  const names = pages.map((page) => toOneLine(page));
  if (names.length === 0) return 'the site';
  return listWords(names);
}

type Letter = {
  readonly subject: string;
  /** The opening sentences. */
  readonly intro: string;
  /** A team member's text, quoted, with the words that introduce it. */
  readonly quote?: { readonly label: string; readonly text: string };
  /** What the link does, then the link. */
  readonly linkLabel: string;
  readonly link: string;
};

function write(letter: Letter): Message {
  const quoted = letter.quote === undefined ? '' : keptLines(letter.quote.text);
  const quoteLines = quoted === '' ? [] : [`${letter.quote!.label}`, ...quoted.split('\n').map((line) => `> ${line}`), ''];
  const text = [letter.intro, '', ...quoteLines, `${letter.linkLabel}:`, letter.link, ''].join('\n');
  const html = [
    `<p>${escapeHtml(letter.intro)}</p>`,
    ...(quoted === ''
      ? []
      : [
          `<p>${escapeHtml(letter.quote!.label)}</p>`,
          `<blockquote style="white-space: pre-wrap">${escapeHtml(quoted).replace(/\n/g, '<br>')}</blockquote>`,
        ]),
    `<p><a href="${escapeHtml(letter.link)}">${escapeHtml(letter.linkLabel)}</a></p>`,
  ].join('\n');
  const subject = toOneLine(letter.subject, SUBJECT_MAX_CHARS);
  return { email: { subject, text, html }, webhook: { text: `${subject}\n${letter.intro}\n${letter.link}` } };
}

/** The e-mail about one studio event, from the facts stored with it. */
export function studioNoticeMessage(kind: StudioNoticeKind, facts: StudioNoticeFacts): Message {
  const pages = pageList(noticePages(facts.pages));
  const by = toOneLine(facts.by);
  const when = facts.when === undefined ? '' : toOneLine(facts.when);
  switch (kind) {
    case 'studio-review-asked':
      return write({
        subject: `Review asked for: ${pages}, by ${by}`,
        intro: `${by} asked for a review of their changes to ${pages}. Nothing goes live until you or another admin approves them.`,
        quote: { label: 'Their note:', text: facts.text },
        linkLabel: 'Open the request in the studio',
        link: facts.link,
      });
    case 'studio-review-sent-back':
      return write({
        subject: `Your changes to ${pages} were sent back`,
        intro: `${by} sent back your changes to ${pages}: they are not live. Change what the comment asks, then ask for a review again.`,
        quote: { label: 'Their comment:', text: facts.text },
        linkLabel: 'Open your changes in the studio',
        link: facts.link,
      });
    case 'studio-review-approved':
      return facts.outcome === 'scheduled'
        ? write({
            subject: `Your changes to ${pages} are approved for ${when}`,
            intro: `${by} approved your changes to ${pages}. They go live ${when ? `on ${when}` : 'at the time set'}.`,
            linkLabel: 'See the scheduled publish in the studio',
            link: facts.link,
          })
        : write({
            subject: `Your changes to ${pages} are live`,
            intro: `${by} approved your changes to ${pages} and published them: they are on the live site now.`,
            linkLabel: 'See the publish in the studio',
            link: facts.link,
          });
    case 'studio-schedule-failed':
      return write({
        subject: `Your scheduled publish did not happen: ${pages}`,
        intro: `Your publish of ${pages}${when ? `, scheduled for ${when},` : ''} did not happen. The live site is unchanged, and the changes are kept in the studio.`,
        quote: { label: 'Why:', text: facts.text },
        linkLabel: 'Open the studio to schedule or publish them again',
        link: facts.link,
      });
  }
}
