/**
 * E-mail notification of new inquiries. The notification is queued in the
 * store's outbox in the same transaction as the inquiry, and sent after the
 * response; a failed send is retried with exponential backoff across
 * restarts, and never touches the stored inquiry.
 */
import { INQUIRY_TYPE_LABELS } from '../core/inquiry-types.js';
import type { InquiryRecord, InquiryStore } from './store.js';

export interface MailMessage {
  from: string;
  to: string;
  replyTo: string;
  subject: string;
  text: string;
}

/** What the notifier needs of a mail transport (nodemailer's Transporter fits). */
export interface Mailer {
  sendMail(message: MailMessage): Promise<unknown>;
}

export interface NotifierOptions {
  to: string;
  from?: string;
  /** Backoff: base delay, doubled per attempt, capped (ms). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxAttempts?: number;
  /** How often the outbox is polled for due retries (ms). */
  pollMs?: number;
  onError?: (inquiryId: string, error: string, willRetry: boolean) => void;
}

export interface Notifier {
  /** Sends what is due now; resolves when this round is done. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/** Header values must be one line: a newline in a subject would be header injection. */
const oneLine = (s: string, max = 200): string =>
  s
    .replace(/[\r\n\t]+/g, ' ')
    .trim()
    .slice(0, max);

export function notificationMessage(r: InquiryRecord, to: string, from: string): MailMessage {
  const label = INQUIRY_TYPE_LABELS[r.type] ?? r.type;
  const about = r.product || r.page || 'the website';
  const lines = [
    `${label} from ${r.name}${r.company ? ` (${r.company})` : ''}`,
    '',
    ...(
      [
        ['Type', label],
        ['Name', r.name],
        ['E-mail', r.email],
        ['Company', r.company],
        ['Country', r.country],
        ['Phone', r.phone],
        ['Product', r.product],
        ['Quantity', r.quantity],
        ['Page', r.page],
        ['Received', r.receivedAt],
        ['Inquiry id', r.id],
      ] as const
    )
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}: ${oneLine(v, 500)}`),
    '',
    r.message,
    '',
    `site inquiries show ${r.id}`,
  ];
  return {
    from,
    to,
    replyTo: oneLine(r.email, 254),
    subject: oneLine(`New inquiry: ${label} — ${about}`),
    // Plain text only: nothing the buyer typed can become markup in the mail client.
    text: lines.join('\n'),
  };
}

export function backoffDelay(attempt: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.max(0, attempt - 1));
}

export function startNotifier(store: InquiryStore, mailer: Mailer, opts: NotifierOptions): Notifier {
  const base = opts.baseDelayMs ?? 30_000;
  const max = opts.maxDelayMs ?? 3_600_000;
  const maxAttempts = opts.maxAttempts ?? 20;
  const from = opts.from ?? opts.to;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function round(): Promise<void> {
    for (const item of store.dueNotifications(Date.now(), 20)) {
      if (stopped) return;
      const record = store.get(item.inquiryId);
      if (!record) continue;
      try {
        await mailer.sendMail(notificationMessage(record, opts.to, from));
        store.markSent(item.inquiryId);
      } catch (err) {
        const attempt = item.attempts + 1;
        const message = err instanceof Error ? err.message : String(err);
        const retry = attempt < maxAttempts;
        store.markAttemptFailed(item.inquiryId, message, retry ? Date.now() + backoffDelay(attempt, base, max) : null);
        opts.onError?.(item.inquiryId, message, retry);
      }
    }
  }

  function drain(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await round();
      } while (again && !stopped);
    })().finally(() => (running = null));
    return running;
  }

  const timer = setInterval(() => void drain(), opts.pollMs ?? 15_000);
  timer.unref();
  void drain();

  return {
    drain,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** A nodemailer transport from an SMTP URL (smtp://user:pass@host:587, smtps://…). */
export async function smtpMailer(url: string): Promise<Mailer> {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || !/^smtps?:$/.test(parsed.protocol) || !parsed.hostname) {
    throw new Error('the SMTP URL must look like smtp://user:password@host:587 or smtps://user:password@host:465');
  }
  const nodemailer = await import('nodemailer');
  return (nodemailer.default ?? nodemailer).createTransport(url) as unknown as Mailer;
}
