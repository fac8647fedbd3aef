import { afterEach, expect, it } from 'vitest';
import { startConsoleServer, type ConsoleTestServer } from '../testing/console-client.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../testing/smtp-receiver.ts';
import { spokenDay } from './messages.ts';
import { summaryWeekAt } from './weekly-summary.ts';

// The weekly summary as the server runs it: switched on in the console, it arrives by e-mail on
// Monday at 8:00 in the site's zone (the fixture's business hours are New York's), with absolute
// links from SITE_URL. The clock is fake; the test waits only for the mail server.

const SITE_URL = 'https://www.example.com';
// The console stamps the choice with the real time: the summary is the first one due after it.
const NEXT = summaryWeekAt(Date.now() + 7 * 24 * 60 * 60_000, 'America/New_York');
const MONDAY_8 = NEXT.dueAt;

let server: ConsoleTestServer | undefined;
let smtp: SmtpReceiver | undefined;
afterEach(async () => {
  await server?.close();
  await smtp?.close();
});

it('sends the summary to the person who switched it on, on Monday at 8:00, and to nobody else', async () => {
  smtp = await startSmtpReceiver();
  let clock = MONDAY_8 - 60 * 60_000;
  server = await startConsoleServer({
    env: { SMTP_URL: smtp.url, NOTIFY_TO: 'sales@example.com', SITE_URL },
    appOptions: { notifyTuning: { now: () => clock, pollIntervalMs: 20, sendTimeoutMs: 2_000 } },
  });
  await server.addAccount('ana@example.com', 'admin');
  await server.addAccount('bo@example.com', 'admin');
  const ana = await server.signedIn('ana@example.com');
  expect((await server.change(ana, 'PUT', '/console/api/me/weekly-summary', { enabled: true })).statusCode).toBe(200);

  clock = MONDAY_8;
  await smtp.waitForMails(1);
  const [mail] = smtp.mails;
  expect(mail?.to).toEqual(['ana@example.com']);
  const { from, to } = NEXT.range;
  expect(mail?.subject).toBe(`Weekly summary, ${spokenDay(from)} to ${spokenDay(to)}: 0 leads the CRM took, 0 meetings booked`);
  expect(mail?.text).toContain(`${SITE_URL}/console/analytics?from=${from}&to=${to}`);
  expect(mail?.text).toContain(`switch it off in the console's Settings: ${SITE_URL}/console/settings`);
  // Once the notifier has stopped (its pass under way recorded), one e-mail was sent, and recorded as sent.
  await server.app.notifier.stop();
  expect(smtp.mails).toHaveLength(1);
  expect((await server.store.listNotifications()).map((row) => [row.kind, row.state])).toEqual([['weekly-summary', 'sent']]);
});
