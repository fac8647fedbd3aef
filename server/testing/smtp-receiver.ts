import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

// A real SMTP server on 127.0.0.1 for tests: takes every message (plain SMTP, no STARTTLS), with
// AUTH PLAIN/LOGIN checked against one user, and decodes what it got: the subject (RFC 2047), the
// text and HTML parts (quoted-printable or base64), and the envelope.

export type ReceivedMail = {
  readonly from: string;
  readonly to: string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The message exactly as received. */
  readonly raw: string;
};

export type SmtpReceiver = {
  /** smtp://user:pass@127.0.0.1:<port> */
  readonly url: string;
  readonly mails: ReceivedMail[];
  /** The user names that signed in, in order (a password sent in clear text is one here). */
  readonly authenticated: string[];
  /** Answers every message with a temporary failure while true (the server is up but refuses mail). */
  refusing: boolean;
  waitForMails(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

export const SMTP_TEST_USER = { user: 'notify', pass: 's3cret-smtp-pass' } as const;

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      receiver.authenticated.push(auth.username ?? '');
      if (auth.username === SMTP_TEST_USER.user && auth.password === SMTP_TEST_USER.pass) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (receiver.refusing) {
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelope = session.envelope;
        receiver.mails.push({
          ...decodeMail(raw),
          from: envelope.mailFrom === false ? '' : envelope.mailFrom.address,
          to: envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
        });
        callback();
      });
    },
  });
  // A client that goes away mid-conversation (a server process killed by a test) resets its
  // connection: that is the client's end, not the receiver's, and must not stop the test process.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const receiver: SmtpReceiver = {
    url: `smtp://${SMTP_TEST_USER.user}:${SMTP_TEST_USER.pass}@127.0.0.1:${port}`,
    mails: [],
    authenticated: [],
    refusing: false,
    async waitForMails(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.mails.length < count) {
        if (Date.now() > deadline) throw new Error(`SMTP receiver got ${receiver.mails.length} of ${count} mails within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}

type Part = { headers: Map<string, string>; body: string };

function splitPart(raw: string): Part {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeMail(raw: string): Pick<ReceivedMail, 'subject' | 'text' | 'html'> {
  const top = splitPart(raw);
  const parts = leafParts(top);
  const find = (type: string) => parts.find((part) => (part.headers.get('content-type') ?? 'text/plain').startsWith(type));
  return {
    subject: decodeWords(top.headers.get('subject') ?? ''),
    text: decodeBody(find('text/plain')),
    html: decodeBody(find('text/html')),
  };
}

function leafParts(part: Part): Part[] {
  const boundary = /boundary="?([^";]+)"?/.exec(part.headers.get('content-type') ?? '')?.[1];
  if (boundary === undefined) return [part];
  return part.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((chunk) => leafParts(splitPart(chunk.replace(/^\r\n/, ''))));
}

function decodeBody(part: Part | undefined): string {
  if (part === undefined) return '';
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body.replace(/=\r\n/g, ''));
  return part.body;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const hex = text.slice(index + 1, index + 3);
    if (text[index] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(text[index] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

// RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=); the space between two of them is dropped.
function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_match, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}
