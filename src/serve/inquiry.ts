/**
 * `POST /api/inquiry`: the forms' one endpoint. JSON in (the enhanced form)
 * → JSON out: 201 `{id}` or 400 `{errors: {field: message}}`. Form-encoded
 * in (no JavaScript) → 303 to /thanks, or 400 with the form page
 * re-rendered with the values and messages. Validation is the schema the
 * browser runs (src/core/inquiry.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inquirySchema, stripControl, type Inquiry } from '../core/inquiry.js';
import { FORM_FIELDS, type FieldErrors, fillInquiryForm, plainErrorPage } from './form-page.js';
import { safeRoutePath } from './paths.js';
import { type RateLimiter, rateKey } from './rate-limit.js';
import type { StaticSite } from './static.js';
import type { Commit } from './commit-queue.js';

export interface InquiryOptions {
  /** Stores an inquiry; resolves once its row is committed. */
  commit: Commit;
  /** The served site's pages, for the no-JS error page; null under --api-only. */
  site: Pick<StaticSite, 'pageHtml' | 'cspFor'> | null;
  limiter: RateLimiter;
  /** Request body limit in bytes (413 above it). */
  bodyLimit: number;
  /** Submissions faster than this after `_started` are refused (ms). */
  minFillMs: number;
  /** Whether a notification is queued for each inquiry. */
  notify: boolean;
  /** Called after a stored inquiry's response went out (starts the e-mail). */
  onStored?: () => void;
  clientIp(req: IncomingMessage): string;
  /** The host the site is served as (Host, or X-Forwarded-Host behind a trusted proxy). */
  publicHost(req: IncomingMessage): string;
  baseCsp: string;
  thanksPath?: string;
  /** The page re-rendered when the form's own page is unknown. */
  fallbackFormPage?: string;
}

export const MESSAGES = {
  tooFast: 'That was quicker than anyone can fill in the form. Please check your details and send it again.',
  rateLimited: (s: number) => `Too many inquiries from your network in the last minute. Please try again in ${s} seconds.`,
  tooLarge: (limit: number) => `The inquiry is too large (over ${Math.round(limit / 1024)} KB). Please shorten the message.`,
  badJson: 'The request body is not valid JSON: expected an object of form fields.',
  badType: 'Send the form as application/x-www-form-urlencoded or application/json.',
  storeFailed: 'Your inquiry could not be saved just now. Please try again in a minute.',
  crossSite: 'Inquiries are accepted only from the forms of this website.',
  notText: 'Expected text.',
} as const;

type Parsed = { ok: true; fields: Record<string, unknown> } | { ok: false; status: number; error: string };

class TooLarge extends Error {}
/** The client went away before its body was complete: nothing to answer. */
class Aborted extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        // Keep draining (discarding) so the client can read the 413.
        req.resume();
        return reject(new TooLarge());
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => reject(new Aborted()));
    req.on('close', () => {
      if (!req.complete) reject(new Aborted());
    });
  });
}

export function parseBody(contentType: string, body: Buffer): Parsed {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === 'application/json') {
    try {
      const value: unknown = JSON.parse(body.toString('utf8'));
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, status: 400, error: MESSAGES.badJson };
      return { ok: true, fields: value as Record<string, unknown> };
    } catch {
      return { ok: false, status: 400, error: MESSAGES.badJson };
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    const fields: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(body.toString('utf8'))) if (!(k in fields)) fields[k] = v;
    return { ok: true, fields };
  }
  return { ok: false, status: 415, error: MESSAGES.badType };
}

export interface Submission {
  values: Record<string, string>;
  page: string;
  startedMs: number | null;
  honeypot: string;
  /** Which form of the page was sent (hidden `_formid`), for the no-JS error page. */
  formId: string;
}

/** Takes the known fields as text, with control characters stripped; anything else is dropped. */
export function readSubmission(fields: Record<string, unknown>): { submission: Submission; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const text = (key: string): string => {
    const v = fields[key];
    if (v === undefined || v === null) return '';
    if (typeof v === 'string') return stripControl(v);
    if (typeof v === 'number' && key === '_started') return String(v);
    if ((FORM_FIELDS as readonly string[]).includes(key)) errors[key as keyof FieldErrors] = MESSAGES.notText;
    return '';
  };
  const values: Record<string, string> = {};
  for (const f of FORM_FIELDS) values[f] = text(f);
  const started = Number(text('_started'));
  return {
    submission: {
      values,
      page: safeRoutePath(text('page')) ?? '',
      startedMs: text('_started') !== '' && Number.isFinite(started) ? started : null,
      honeypot: text('website').trim(),
      formId: text('_formid').slice(0, 100),
    },
    errors,
  };
}

export function validate(values: Record<string, string>): { inquiry: Inquiry | null; errors: FieldErrors } {
  const result = inquirySchema.safeParse(values);
  if (result.success) return { inquiry: result.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '_form') as keyof FieldErrors;
    errors[field] ??= issue.message;
  }
  return { inquiry: null, errors };
}

/**
 * Too fast means a script. The check compares the browser's clock with ours,
 * so only an elapsed time in [0, min) counts: a client clock running ahead
 * gives a negative time that proves nothing, and a real buyer is never refused
 * for it.
 */
export function filledTooFast(startedMs: number | null, nowMs: number, minFillMs: number): boolean {
  if (startedMs === null) return false;
  const elapsed = nowMs - startedMs;
  return elapsed >= 0 && elapsed < minFillMs;
}

/**
 * Another site's page posting its own form to us (visitors' browsers as a
 * spam relay, around the per-IP limit). Browsers name the page's origin on
 * every POST; JSON from another origin is already stopped by CORS, a plain
 * form post is not. An absent or "null" Origin (privacy settings) is let through.
 */
export function isCrossSite(origin: string | undefined, host: string): boolean {
  if (!origin || origin === 'null') return false;
  try {
    return new URL(origin).host.toLowerCase() !== host.toLowerCase();
  } catch {
    return true;
  }
}

export function wantsJson(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) return true;
  const accept = (req.headers.accept ?? '').toLowerCase();
  return accept.includes('application/json') && !accept.includes('text/html');
}

export async function handleInquiry(req: IncomingMessage, res: ServerResponse, opts: InquiryOptions): Promise<void> {
  const json = wantsJson(req);
  res.setHeader('Cache-Control', 'no-store');

  let formId = '';
  const fail = async (status: number, errors: FieldErrors, values: Record<string, string> = {}, page = ''): Promise<void> => {
    if (json) return sendJson(res, status, { errors });
    return sendFormPage(res, status, errors, values, page, formId, opts);
  };

  if (isCrossSite(req.headers.origin, opts.publicHost(req))) return fail(403, { _form: MESSAGES.crossSite });

  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > opts.bodyLimit) {
    res.setHeader('Connection', 'close');
    return fail(413, { _form: MESSAGES.tooLarge(opts.bodyLimit) });
  }
  let body: Buffer;
  try {
    body = await readBody(req, opts.bodyLimit);
  } catch (err) {
    if (err instanceof TooLarge) {
      res.setHeader('Connection', 'close');
      return fail(413, { _form: MESSAGES.tooLarge(opts.bodyLimit) });
    }
    if (err instanceof Aborted) return void res.destroy();
    throw err;
  }
  const parsed = parseBody(req.headers['content-type'] ?? '', body);
  if (!parsed.ok) return fail(parsed.status, { _form: parsed.error });

  const { submission, errors: typeErrors } = readSubmission(parsed.fields);
  const { values, page } = submission;
  formId = submission.formId;
  const { inquiry, errors } = validate(values);
  const allErrors = { ...errors, ...typeErrors };
  if (!inquiry || Object.keys(typeErrors).length > 0) return fail(400, allErrors, values, page);
  if (filledTooFast(submission.startedMs, Date.now(), opts.minFillMs)) return fail(400, { _form: MESSAGES.tooFast }, values, page);

  const ip = opts.clientIp(req);
  const slot = opts.limiter.take(rateKey(ip));
  if (!slot.ok) {
    res.setHeader('Retry-After', String(slot.retryAfterSeconds));
    return fail(429, { _form: MESSAGES.rateLimited(slot.retryAfterSeconds) }, values, page);
  }

  let id: string;
  try {
    // Honeypot hits are kept, flagged, because browser autofill sometimes fills hidden fields
    // of real buyers; `site inquiries --all` shows them. They get the same answer as anyone.
    const record = await opts.commit({
      inquiry,
      page,
      userAgent: stripControl(String(req.headers['user-agent'] ?? '')),
      ip,
      spam: submission.honeypot !== '' ? 'honeypot' : null,
      notify: opts.notify,
    });
    id = record.id;
  } catch (err) {
    process.stderr.write(`site serve: could not store an inquiry: ${err instanceof Error ? err.message : String(err)}\n`);
    res.setHeader('Retry-After', '60');
    return fail(503, { _form: MESSAGES.storeFailed }, values, page);
  }
  // The row is committed (synchronous=FULL): now the answer may say so.
  if (json) sendJson(res, 201, { id });
  else {
    res.writeHead(303, { Location: opts.thanksPath ?? '/thanks', 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Thank you: your inquiry was received.\n');
  }
  if (submission.honeypot === '') res.once('finish', () => opts.onStored?.());
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

async function sendFormPage(
  res: ServerResponse,
  status: number,
  errors: FieldErrors,
  values: Record<string, string>,
  page: string,
  formId: string,
  opts: InquiryOptions,
): Promise<void> {
  const fallback = opts.fallbackFormPage ?? '/contact-us';
  let html: string | null = null;
  for (const candidate of [page, fallback]) {
    if (!candidate || !opts.site) continue;
    const source = await opts.site.pageHtml(candidate);
    html = source ? fillInquiryForm(source, values, errors, candidate === page ? formId : '') : null;
    if (html) break;
  }
  const csp = html && opts.site ? opts.site.cspFor(html) : opts.baseCsp;
  html ??= plainErrorPage(errors, page || fallback);
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Content-Security-Policy': csp,
  });
  res.end(html);
}
