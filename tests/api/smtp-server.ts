// A real SMTP server for the API tests (the smtp-server package on a free local port): it records
// every mail that arrives, decoded enough to read the subject, the text and the HTML part, and can
// be told to refuse the next few mails or to demand a login.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** the SMTP login used, if any */
  user: string | null;
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
}

export interface TestSmtpServer {
  port: number;
  mails: ReceivedMail[];
  /** refuse the next `n` mails with a temporary error (451) */
  refuseNext(n: number): void;
  /** resolves when `count` mails have arrived in total */
  waitForMails(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const unfolded = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < unfolded.length; i++) {
    const ch = unfolded[i];
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(unfolded.slice(i + 1, i + 3))) {
      bytes.push(parseInt(unfolded.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const at = raw.indexOf('\r\n\r\n');
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? '' : raw.slice(at + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return part.body;
}

/** The leaf parts of a (possibly multipart) message. */
function leaves(part: Part): Part[] {
  const type = part.headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part];
  const pieces = part.body.split(`--${boundary}`).slice(1);
  return pieces.filter((p) => !p.startsWith('--')).flatMap((p) => leaves(splitPart(p.replace(/^\r\n/, ''))));
}

export function parseMail(raw: string, envelope: { from: string; to: string[]; user: string | null }): ReceivedMail {
  const message = splitPart(raw);
  const parts = leaves(message);
  const find = (mime: string) => parts.find((p) => (p.headers['content-type'] ?? 'text/plain').toLowerCase().startsWith(mime));
  const text = find('text/plain');
  const html = find('text/html');
  return {
    ...envelope,
    headers: message.headers,
    subject: decodeWords(message.headers.subject ?? ''),
    text: text ? decodeBody(text).replace(/\r\n/g, '\n') : '',
    html: html ? decodeBody(html).replace(/\r\n/g, '\n') : '',
  };
}

export async function startSmtpServer(options: { user?: string; pass?: string } = {}): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  let refuse = 0;
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    secure: false,
    // plain text on a loopback port: the tests use smtp_encryption none
    disabledCommands: options.user ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.user,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.pass) return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuse > 0) {
          refuse--;
          const error = new Error('Try again later') as Error & { responseCode: number };
          error.responseCode = 451;
          return callback(error);
        }
        const user = typeof session.user === 'string' ? session.user : null;
        mails.push(
          parseMail(Buffer.concat(chunks).toString('utf8'), {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user,
          }),
        );
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    refuseNext(n) {
      refuse = n;
    },
    async waitForMails(count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} mails, got ${mails.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Points a panel's SMTP settings at a test server (plain text, optional login), and gives the panel
 * the public address mail links need (mail is off without one).
 */
export async function useSmtpServer(
  settings: { set(key: string, value: string | number): Promise<void> },
  smtp: TestSmtpServer,
  login: { user: string; pass: string } | null = null,
): Promise<void> {
  await settings.set('smtp_host', '127.0.0.1');
  await settings.set('smtp_port', smtp.port);
  await settings.set('smtp_encryption', 'none');
  await settings.set('smtp_user', login?.user ?? '');
  await settings.set('smtp_pass', login?.pass ?? '');
  await settings.set('smtp_from', 'Orepanel Tests <panel@example.com>');
  await settings.set('app_url', 'https://panel.example.com');
}

/** Waits until `count` mails are queued, runs the mail job once and returns what arrived. */
export async function deliverQueued(
  panel: { services: { mailer: { runQueue(now?: Date): Promise<string> }; database: { db: import('kysely').Kysely<import('../../sdk/server').CoreDatabase> } } },
  smtp: TestSmtpServer,
  count: number,
): Promise<ReceivedMail[]> {
  const before = smtp.mails.length;
  const deadline = Date.now() + 5_000;
  for (;;) {
    const row = await panel.services.database.db
      .selectFrom('mail_queue')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= count) break;
    if (Date.now() > deadline) throw new Error(`expected ${count} queued mails, found ${String(row.n)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await panel.services.mailer.runQueue();
  return (await smtp.waitForMails(before + count)).slice(before);
}

/** The first link in a mail's text part that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const found = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in: ${mail.text}`);
  return found;
}
