import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCrmReceiver } from '../testing/crm-receiver.ts';
import type { CrmReceiver } from '../testing/crm-receiver.ts';
import { SMTP_TEST_USER, startSmtpReceiver } from '../testing/smtp-receiver.ts';
import type { SmtpReceiver } from '../testing/smtp-receiver.ts';
import { createEmailChannel, createWebhookChannel, requiresStartTls } from './channels.ts';
import type { Message } from './messages.ts';

// The channels against real servers on 127.0.0.1: an SMTP server that offers no STARTTLS (so a
// password would cross the network in clear text) and a webhook receiver that answers redirects.

const MESSAGE: Message = {
  email: { subject: 'New lead: Ana', text: 'Ana Lima, ana@example.com', html: '<p>Ana Lima, ana@example.com</p>' },
  webhook: { text: 'Deliveries to the CRM are failing' },
};

let smtp: SmtpReceiver;
let hook: CrmReceiver;
let elsewhere: CrmReceiver;
beforeEach(async () => {
  [smtp, hook, elsewhere] = await Promise.all([startSmtpReceiver(), startCrmReceiver(), startCrmReceiver()]);
});
afterEach(async () => {
  await Promise.all([smtp.close(), hook.close(), elsewhere.close()]);
});

/** The receiver's URL with another host name; the connection still reaches the receiver. */
function smtpUrlAt(host: string): { smtpUrl: string; openSocket: () => ReturnType<typeof connect> } {
  const url = new URL(smtp.url);
  const port = Number(url.port);
  url.hostname = host;
  return { smtpUrl: url.href, openSocket: () => connect({ host: '127.0.0.1', port }) };
}

describe('e-mail over smtp://', () => {
  it('sends nothing, not even the password, to a server on the network that offers no STARTTLS, and says why', async () => {
    const channel = createEmailChannel({
      ...smtpUrlAt('mail.example.com'),
      from: 'no-reply@example.com',
      to: ['sales@example.com'],
      timeoutMs: 2_000,
    });
    try {
      const outcome = await channel.send(MESSAGE);
      expect(outcome).toEqual({
        ok: false,
        error:
          'the mail server offers no encryption (STARTTLS), so nothing was sent: use smtps://, a server that offers STARTTLS, ' +
          'or set SMTP_ALLOW_PLAINTEXT=true if the network to it is private',
      });
      expect(smtp.mails).toHaveLength(0);
      expect(smtp.authenticated).toEqual([]);
    } finally {
      channel.close();
    }
  });

  it('keeps requiring STARTTLS when the URL asks for no encryption in its query', async () => {
    const { smtpUrl, openSocket } = smtpUrlAt('mail.example.com');
    const channel = createEmailChannel({
      smtpUrl: `${smtpUrl}?requireTLS=false&ignoreTLS=true&tls.rejectUnauthorized=false`,
      openSocket,
      from: 'no-reply@example.com',
      to: ['sales@example.com'],
      timeoutMs: 2_000,
    });
    try {
      expect(await channel.send(MESSAGE)).toMatchObject({ ok: false, error: expect.stringContaining('offers no encryption (STARTTLS)') });
      expect(smtp.mails).toHaveLength(0);
      expect(smtp.authenticated).toEqual([]);
    } finally {
      channel.close();
    }
  });

  it('sends in clear text to such a server when SMTP_ALLOW_PLAINTEXT says so', async () => {
    const channel = createEmailChannel({
      ...smtpUrlAt('mail.example.com'),
      from: 'no-reply@example.com',
      to: ['sales@example.com'],
      allowPlaintext: true,
      timeoutMs: 2_000,
    });
    try {
      expect(await channel.send(MESSAGE)).toEqual({ ok: true });
      expect(smtp.mails.map((mail) => mail.subject)).toEqual(['New lead: Ana']);
      expect(smtp.authenticated).toEqual([SMTP_TEST_USER.user]);
    } finally {
      channel.close();
    }
  });

  it.each(['127.0.0.1', 'localhost'])('sends to a server on this machine (%s) without encryption', async (host) => {
    const channel = createEmailChannel({ ...smtpUrlAt(host), from: 'no-reply@example.com', to: ['sales@example.com'], timeoutMs: 2_000 });
    try {
      expect(await channel.send(MESSAGE)).toEqual({ ok: true });
      expect(smtp.mails).toHaveLength(1);
    } finally {
      channel.close();
    }
  });

  it.each([
    ['smtp://u:p@mail.example.com:587', false, true],
    ['smtp://u:p@10.0.0.5:25', false, true],
    ['smtp://u:p@localhost.example.com:25', false, true],
    ['smtp://u:p@mail.example.com:587', true, false],
    ['smtps://u:p@mail.example.com:465', false, false],
    ['smtp://u:p@127.0.0.1:25', false, false],
    ['smtp://u:p@127.1.2.3:25', false, false],
    ['smtp://u:p@LOCALHOST:25', false, false],
    ['smtp://u:p@[::1]:25', false, false],
  ] as const)('%s with plain text allowed=%s requires STARTTLS: %s', (url, allowPlaintext, expected) => {
    expect(requiresStartTls(url, allowPlaintext)).toBe(expected);
  });
});

describe('webhook', () => {
  it.each([301, 302, 307, 308])('never follows a %s redirect: the try fails and says so', async (status) => {
    hook.respond = () => ({ status, headers: { location: elsewhere.url } });
    const outcome = await createWebhookChannel(hook.url, 2_000).send(MESSAGE);
    expect(outcome).toEqual({
      ok: false,
      error: `the webhook answered with a redirect (HTTP ${status}), which is not followed: set ALERT_WEBHOOK_URL to the address it names`,
    });
    expect(hook.received()).toBe(1);
    expect(elsewhere.received()).toBe(0);
  });
});
