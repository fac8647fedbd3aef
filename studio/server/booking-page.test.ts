// Where the booking page points decides who receives every new lead's name and e-mail address, so
// with team accounts only someone whose role may read the leads (an admin) can make a change of it
// live, however it goes live: a publish, a scheduled publish (checked when it runs), an approved
// review (the approver's role counts), a restore of an older version, an undo. The booking texts
// stay open to editors, and one person's studio without accounts is not held at all.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishAnswer, ReviewsAnswer } from '../api-types.ts';
import { bookingPageRefused, changesBookingPage } from './booking-page.ts';
import { ADMIN, EDITOR, startReviewStudio, type Person, type ReviewStudio } from '../testing/review-studio.ts';
import { followRunToEnd } from '../testing/publish-run.ts';

const SITE = 'content/site.yaml';
const HOUR = 60 * 60 * 1000;
const ELSEWHERE = 'https://bookings.example.net/grab-every-lead';

let studio: ReviewStudio | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

async function setup(options: Parameters<typeof startReviewStudio>[0] = {}) {
  studio = await startReviewStudio({ review: 'off', ...options });
  return studio;
}

type SiteData = { bookingUrl: string; booking: { provider?: string; pickTime: string } };

/** Changes the site settings in a draft, as the Site settings form would. */
async function editSite(person: Person, change: (data: SiteData) => SiteData) {
  const opened = (await studio!.get(person, `/api/file?path=${SITE}`)).json() as { data: SiteData; revision: number; diskVersion: string };
  const saved = await studio!.app.inject({
    method: 'PUT',
    url: '/api/file',
    headers: { ...person.headers, 'x-csrf-token': person.csrf },
    payload: { path: SITE, data: change(opened.data), revision: opened.revision, diskVersion: opened.diskVersion },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

const pointElsewhere = (data: SiteData): SiteData => ({ ...data, bookingUrl: ELSEWHERE });
const liveSite = () => studio!.project.read(SITE);

/** Starts a run (an undo) and follows it to its end, as the publish screen does. */
async function run(person: Person, url: string, payload: object = {}): Promise<{ statusCode: number; answer: PublishAnswer }> {
  const started = await studio!.post(person, url, payload);
  if (started.statusCode !== 202) return { statusCode: started.statusCode, answer: started.json() as PublishAnswer };
  const ended = await followRunToEnd(studio!.app, { ...person.headers, 'x-csrf-token': person.csrf }, started);
  return { statusCode: started.statusCode, answer: ended.answer! };
}

async function waitFor(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('which changes move the booking page', () => {
  it('compares the settings as read, not as written: the address and the service count, the texts and the layout do not', () => {
    const before = 'bookingUrl: https://cal.com/us\nbooking:\n  provider: cal\n  pickTime: Pick a time now\n';
    const check = (after: string | null) => changesBookingPage({ path: SITE, before, after });
    expect(check(before.replace('Pick a time now', 'Choose a slot'))).toBe(false);
    expect(check(`# Our calendar\nbooking: { pickTime: "Pick a time now", provider: cal }\nbookingUrl: "https://cal.com/us"\n`)).toBe(
      false,
    );
    expect(check(before.replace('https://cal.com/us', ELSEWHERE))).toBe(true);
    expect(check(before.replace('provider: cal', 'provider: calendly'))).toBe(true);
    expect(check('bookingUrl: [unclosed')).toBe(true);
    expect(check(null)).toBe(true);
    expect(changesBookingPage({ path: 'content/pages/home.yaml', before, after: 'bookingUrl: https://elsewhere.example' })).toBe(false);
  });
});

describe('an editor, where editors publish directly', () => {
  it('cannot publish a new booking page address or service: refused with the reason, and the live file unchanged', async () => {
    await setup();
    const maria = await studio!.signIn(EDITOR);
    const shipped = liveSite();
    await editSite(maria, pointElsewhere);

    const refused = await studio!.publish(maria);
    expect(refused.statusCode).toBe(403);
    expect(refused.answer).toEqual({ ok: false, reason: 'booking-page', message: bookingPageRefused('publish') });
    expect(bookingPageRefused('publish')).toMatch(/^Only an admin can change the booking page: it receives each visitor’s name and e-mail/);
    expect(liveSite()).toBe(shipped);

    // The service alone is the same: the page on our own domain would be read by another provider.
    await studio!.discard(maria, SITE);
    await editSite(maria, (data) => ({ ...data, booking: { ...data.booking, provider: 'calendly' } }));
    expect((await studio!.publish(maria)).statusCode).toBe(403);
    expect(liveSite()).toBe(shipped);
  });

  it('publishes a change of the booking button’s words', async () => {
    await setup();
    const maria = await studio!.signIn(EDITOR);
    await editSite(maria, (data) => ({ ...data, booking: { ...data.booking, pickTime: 'Book a call now' } }));
    const published = await studio!.publish(maria);
    expect(published.answer, JSON.stringify(published.answer)).toMatchObject({ ok: true, record: { user: EDITOR } });
    expect(liveSite()).toContain('pickTime: Book a call now');
  });

  it('cannot schedule it, and a scheduled one fails when it runs if its author may no longer change the booking page', async () => {
    await setup();
    const maria = await studio!.signIn(EDITOR);
    const ana = await studio!.signIn(ADMIN);
    const shipped = liveSite();
    await editSite(maria, pointElsewhere);
    const refused = await studio!.schedule(maria, '2026-12-01T09:00');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: bookingPageRefused('schedule') });

    // Scheduled by an admin, who has become an editor by the time it runs.
    expect((await studio!.schedule(ana, '2026-12-01T09:00')).statusCode).toBe(200);
    await studio!.team!.store.setAccountRole(ADMIN, 'editor', Date.now());
    studio!.clock.advance(21 * HOUR);
    const scheduled = () =>
      (
        JSON.parse(readFileSync(path.join(studio!.project.root, '.studio', 'schedule.json'), 'utf8')) as {
          scheduled: { status: string; message?: string }[];
        }
      ).scheduled[0];
    await waitFor(() => scheduled()?.status !== 'waiting');
    expect(scheduled()).toMatchObject({ status: 'failed', message: bookingPageRefused('publish') });
    expect(liveSite()).toBe(shipped);
  });

  it('cannot restore an older version with another booking page, nor undo an admin’s change of it', async () => {
    await setup();
    const maria = await studio!.signIn(EDITOR);
    const ana = await studio!.signIn(ADMIN);
    const shipped = studio!.project.git('rev-parse', 'HEAD').trim();
    await editSite(ana, pointElsewhere);
    expect((await studio!.publish(ana)).answer).toMatchObject({ ok: true });
    const adminsPage = liveSite();
    expect(adminsPage).toContain(ELSEWHERE);

    const restore = await run(maria, '/api/history/restore', { version: shipped, path: SITE });
    expect(restore.statusCode).toBe(403);
    expect(restore.answer).toEqual({ ok: false, reason: 'booking-page', message: bookingPageRefused('restore') });
    const undo = await run(maria, '/api/undo');
    expect(undo.answer).toEqual({ ok: false, reason: 'booking-page', message: bookingPageRefused('undo') });
    expect(liveSite()).toBe(adminsPage);

    // The admin may do both.
    expect((await run(ana, '/api/undo')).answer).toMatchObject({ ok: true, record: { action: 'undo' } });
    expect(liveSite()).not.toContain(ELSEWHERE);
  });
});

describe('an admin', () => {
  it('publishes a new booking page address', async () => {
    await setup();
    const ana = await studio!.signIn(ADMIN);
    await editSite(ana, pointElsewhere);
    expect((await studio!.publish(ana)).answer).toMatchObject({ ok: true, record: { user: ADMIN } });
    expect(liveSite()).toContain(`bookingUrl: ${ELSEWHERE}`);
  });

  it('approves an editor’s review request that changes it, and it goes live', async () => {
    await setup({ review: 'required' });
    const maria = await studio!.signIn(EDITOR);
    const ana = await studio!.signIn(ADMIN);
    await editSite(maria, pointElsewhere);
    expect((await studio!.post(maria, '/api/reviews', { note: 'Our new calendar' })).statusCode).toBe(200);
    const [request] = ((await studio!.get(ana, '/api/reviews')).json() as ReviewsAnswer).requests;
    const approved = await studio!.approve(ana, request!.id);
    expect(approved.answer, JSON.stringify(approved.answer)).toMatchObject({ ok: true, record: { user: ADMIN, changedBy: [EDITOR] } });
    expect(liveSite()).toContain(`bookingUrl: ${ELSEWHERE}`);
  });
});

describe('one person’s studio, without accounts', () => {
  it('publishes a new booking page address as before', async () => {
    await setup({ accounts: false });
    const me = await studio!.signIn();
    await editSite(me, pointElsewhere);
    expect((await studio!.publish(me)).answer).toMatchObject({ ok: true });
    expect(liveSite()).toContain(`bookingUrl: ${ELSEWHERE}`);
  });
});
