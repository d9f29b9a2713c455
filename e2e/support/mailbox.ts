import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mailDirectory } from './auth-peers.js';
import { E2E_DATA_ROOT } from './server.js';

/** One mail the test SMTP server received. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The plain-text body, decoded. */
  text: string;
  /** Every http(s) link in the text. */
  links: string[];
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeBody(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([^\s;]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

function splitPart(part: string): { headers: string; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  if (at < 0) return { headers: part, body: '' };
  return { headers: part.slice(0, at), body: part.slice(at).replace(/^\r?\n\r?\n/, '') };
}

/** The text/plain body of a raw RFC 822 message (single part or multipart, as nodemailer writes them). */
function plainText(raw: string): { subject: string; text: string } {
  const { headers, body } = splitPart(raw);
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^subject:\s*(.*)$/im.exec(unfolded)?.[1]?.trim() ?? '';
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(unfolded)?.[1];
  if (!boundary) return { subject, text: decodeBody(unfolded, body) };
  for (const part of body.split(`--${boundary}`)) {
    const piece = splitPart(part.replace(/^\r?\n/, ''));
    if (/content-type:\s*text\/plain/i.test(piece.headers)) return { subject, text: decodeBody(piece.headers, piece.body) };
  }
  return { subject, text: '' };
}

function readAll(): ReceivedMail[] {
  const directory = process.env.E2E_MAIL_DIR || mailDirectory(E2E_DATA_ROOT);
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const stored = JSON.parse(readFileSync(join(directory, name), 'utf8')) as { to: string[]; raw: string };
      const { subject, text } = plainText(stored.raw);
      return { to: stored.to, subject, text, links: [...new Set(text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? [])] };
    });
}

/**
 * Waits for a mail to `to` (whose subject matches, when given) that was not in `skip`, and returns it.
 * Mail goes out through a job queue, so it can take a few seconds.
 */
export async function waitForMail(
  to: string,
  options: { subject?: RegExp; timeoutMs?: number; skip?: number } = {},
): Promise<ReceivedMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const wanted = to.toLowerCase();
  for (;;) {
    const matching = readAll().filter((m) => m.to.includes(wanted) && (!options.subject || options.subject.test(m.subject)));
    const mail = matching[options.skip ?? 0];
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail to ${to}${options.subject ? ` matching ${options.subject}` : ''} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** How many mails `to` has received so far (to wait for the next one with `skip`). */
export function mailCount(to: string, subject?: RegExp): number {
  const wanted = to.toLowerCase();
  return readAll().filter((m) => m.to.includes(wanted) && (!subject || subject.test(m.subject))).length;
}
