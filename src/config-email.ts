// The e-mail settings (contract §16): where to send (`SMTP_URL`), as whom (`EMAIL_FROM`), and how
// many messages one address gets an hour (`EMAIL_PER_RECIPIENT_PER_HOUR`), read and checked for
// config.ts.
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { readInteger } from './config-values.js';

export interface EmailConfig {
  /** `smtp://user:pass@host:port` or `smtps://…`; never logged (it may hold a password). */
  smtpUrl: string;
  /** The sender, `Name <address>` or `address`, as nodemailer takes it. */
  from: string;
  /** Messages to one address an hour at the most (docs/api.md, "Limits"). */
  perRecipientPerHour: number;
}

export const DEFAULT_EMAILS_PER_RECIPIENT_PER_HOUR = 10;

/** The e-mail settings; undefined when `SMTP_URL` is unset (no e-mail is sent). */
export function readEmail(env: NodeJS.ProcessEnv, problems: string[]): EmailConfig | undefined {
  const perRecipientPerHour = readInteger(
    env,
    'EMAIL_PER_RECIPIENT_PER_HOUR',
    DEFAULT_EMAILS_PER_RECIPIENT_PER_HOUR,
    { min: 1, max: 100_000 },
    problems,
  );
  const smtpUrl = env.SMTP_URL?.trim() ?? '';
  const from = env.EMAIL_FROM?.trim() ?? '';
  if (smtpUrl === '') {
    if (from !== '') problems.push('EMAIL_FROM is set but SMTP_URL is not: set SMTP_URL to send e-mail, or unset both');
    return undefined;
  }
  const urlProblem = smtpUrlProblem(smtpUrl);
  if (urlProblem) problems.push(urlProblem);
  if (from === '')
    problems.push('EMAIL_FROM is required with SMTP_URL: the sender of every e-mail, e.g. Acme <book@acme.example>');
  else if (!isOneAddress(from))
    problems.push(
      `EMAIL_FROM must be one e-mail address with an optional name, e.g. Acme <book@acme.example>; got "${oneLine(from)}"`,
    );
  return { smtpUrl, from, perRecipientPerHour };
}

/** What is wrong with `SMTP_URL`, without echoing it (it may hold a password); undefined for nothing. */
function smtpUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'SMTP_URL must be smtp://user:pass@host:port or smtps://user:pass@host:port; it is not a URL';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    return `SMTP_URL must be smtp://user:pass@host:port or smtps://user:pass@host:port; got ${url.protocol}…`;
  if (url.hostname === '') return 'SMTP_URL must name the SMTP server host, e.g. smtp://mail.example.com:587';
  return undefined;
}

/** `book@acme.example` or `Acme <book@acme.example>`: exactly one address, with a domain, on one line. */
function isOneAddress(value: string): boolean {
  if (/[\r\n]/.test(value)) return false;
  const parsed = addressparser(value, { flatten: true });
  if (parsed.length !== 1) return false;
  return /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(parsed[0]!.address);
}

/** The domain of `EMAIL_FROM`'s address: what each message's `Message-ID` ends with. */
export function fromDomain(from: string): string {
  const [address] = addressparser(from, { flatten: true });
  return address!.address.split('@')[1]!;
}

function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}
