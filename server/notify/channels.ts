import type { Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { maskEmail } from '../../lead/mask.ts';
import type { NotificationChannel } from '../store/notifications/notification-store.ts';
import type { Message } from './messages.ts';

// The two ways a notification leaves: e-mail through the configured SMTP server (nodemailer: STARTTLS
// required on smtp://, TLS from the start on smtps://) and a Slack-compatible webhook (POST {"text"}). A send answers a value, never throws; its error text names what went
// wrong without the SMTP password or the webhook's address (it may carry a token).

export type SendOutcome = { readonly ok: true } | { readonly ok: false; readonly error: string };

export type Channel = {
  readonly name: NotificationChannel;
  send(message: Message): Promise<SendOutcome>;
  close(): void;
};

// A slow or silent server fails the try within these; the notifier's lease outlives them all.
export const SEND_TIMEOUTS_MS = { connect: 10_000, greeting: 10_000, socket: 20_000, webhook: 10_000 } as const;

export type EmailChannelOptions = {
  readonly smtpUrl: string;
  readonly from: string;
  readonly to: readonly string[];
  /** SMTP_ALLOW_PLAINTEXT: send over smtp:// without encryption when the server offers none. */
  readonly allowPlaintext?: boolean;
  /** One limit for connecting, the greeting and each later step (tests); production uses SEND_TIMEOUTS_MS. */
  readonly timeoutMs?: number;
  /** Opens the connection instead of nodemailer (tests: a configured host name reaches a local server). */
  readonly openSocket?: () => Socket;
};

// Loopback names and addresses: mail to a server on this machine never crosses a network.
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Whether an smtp:// connection must be upgraded with STARTTLS before the password and any lead
 * are sent: always, unless the server is on this machine or SMTP_ALLOW_PLAINTEXT says so.
 * smtps:// is encrypted from the start.
 */
export function requiresStartTls(smtpUrl: string, allowPlaintext: boolean): boolean {
  const url = new URL(smtpUrl);
  return url.protocol === 'smtp:' && !allowPlaintext && !LOOPBACK_HOST.test(url.hostname);
}

export function createEmailChannel({ smtpUrl, from, to, allowPlaintext = false, timeoutMs, openSocket }: EmailChannelOptions): Channel {
  const requireTLS = requiresStartTls(smtpUrl, allowPlaintext);
  // Nodemailer lets settings in the URL's query override the ones given here, encryption among
  // them; the configuration refuses a query, and the transport is given the URL without one as well.
  const url = new URL(smtpUrl);
  url.search = '';
  const transport = nodemailer.createTransport({
    url: url.href,
    requireTLS,
    ...(openSocket
      ? {
          getSocket: (_options: unknown, callback: (error: Error | null, socket: object) => void) =>
            callback(null, { connection: openSocket() }),
        }
      : {}),
    connectionTimeout: timeoutMs ?? SEND_TIMEOUTS_MS.connect,
    greetingTimeout: timeoutMs ?? SEND_TIMEOUTS_MS.greeting,
    socketTimeout: timeoutMs ?? SEND_TIMEOUTS_MS.socket,
    logger: false,
  });
  return {
    name: 'email',
    async send({ email }) {
      try {
        await transport.sendMail({ from, to: [...(email.to ?? to)], subject: email.subject, text: email.text, html: email.html });
        return { ok: true };
      } catch (error) {
        return { ok: false, error: requireTLS && isStartTlsRefusal(error) ? NO_STARTTLS_ERROR : describeSmtpError(error, smtpUrl) };
      }
    },
    close: () => transport.close(),
  };
}

const NO_STARTTLS_ERROR =
  'the mail server offers no encryption (STARTTLS), so nothing was sent: use smtps://, a server that offers STARTTLS, ' +
  'or set SMTP_ALLOW_PLAINTEXT=true if the network to it is private';

function isStartTlsRefusal(error: unknown): boolean {
  return (error as { command?: unknown } | undefined)?.command === 'STARTTLS';
}

// An address inside a server's answer ("550 <ana@example.com>: no such user").
const ADDRESS_IN_TEXT = /[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g;

// The error is logged and shown in the console: addresses in it are masked like every logged address.
export function describeSmtpError(error: unknown, smtpUrl: string): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(ADDRESS_IN_TEXT, maskEmail);
  const password = URL.canParse(smtpUrl) ? decodeURIComponent(new URL(smtpUrl).password) : '';
  // Nodemailer does not put the password in its messages; this makes sure no wording ever does.
  return password === '' ? message : message.split(password).join('***');
}

export function createWebhookChannel(url: string, timeoutMs: number = SEND_TIMEOUTS_MS.webhook): Channel {
  return {
    name: 'webhook',
    async send({ webhook }) {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: webhook.text }),
          signal: AbortSignal.timeout(timeoutMs),
          // ALERT_WEBHOOK_URL is checked to be https (or http on this machine); a redirect could send
          // the alert anywhere, in clear text too, so it is a failed try, never followed.
          redirect: 'manual',
        });
        await response.body?.cancel();
        if (response.ok) return { ok: true };
        if (response.status >= 300 && response.status < 400) {
          return {
            ok: false,
            error: `the webhook answered with a redirect (HTTP ${response.status}), which is not followed: set ALERT_WEBHOOK_URL to the address it names`,
          };
        }
        return { ok: false, error: `the webhook answered HTTP ${response.status}` };
      } catch (error) {
        return { ok: false, error: describeFetchError(error, timeoutMs) };
      }
    },
    close: () => {},
  };
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `the webhook did not answer within ${timeoutMs} ms`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? `network error: ${cause.code}` : 'network error';
}
