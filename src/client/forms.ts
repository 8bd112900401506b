/**
 * The inquiry forms (Inquire, InquireSecond, contact), enhanced: validation
 * with the server's own zod schema, messages next to each field, submission as
 * JSON, and nothing the buyer typed ever lost — drafts are kept while typing,
 * and a submission made offline (or when the network fails) waits in an
 * outbox in localStorage and is sent when the browser is back online.
 * Without JavaScript the same forms post normally.
 */
import { inquirySchema, stripControl } from '../core/inquiry.js';
import { STORAGE, THANKS_PATH } from './constants.js';
import type { LoadingBar } from './loading-bar.js';

export type Payload = Record<string, string>;
export type FieldErrors = Record<string, string>;

export interface OutboxItem {
  action: string;
  payload: Payload;
  /** Path of the page it was sent from, and which form on it: to restore a draft if the server refuses it. */
  page: string;
  form: string;
  queuedAt: number;
}

/** Fields that are the form's machinery, not the buyer's words: never restored from a draft. */
const MACHINERY = new Set(['_started', 'page', 'website']);

/** The first message per field, in schema order; `{}` when valid. */
export function validateInquiry(payload: Payload): FieldErrors {
  const result = inquirySchema.safeParse(payload);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/** The form's fields as strings, control characters removed (as the server does). */
export function readForm(form: HTMLFormElement): Payload {
  const payload: Payload = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string') payload[name] = stripControl(value);
  }
  return payload;
}

// ---------------------------------------------------------------- storage

function readJson<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}
function writeJson(key: string, value: unknown): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // private mode or quota: the page still holds the text
  }
}
function removeKey(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // nothing stored, nothing to remove
  }
}

export const readOutbox = (): OutboxItem[] => {
  const items = readJson<unknown>(STORAGE.outbox, []);
  return Array.isArray(items) ? (items as OutboxItem[]) : [];
};
const writeOutbox = (items: OutboxItem[]) => (items.length ? writeJson(STORAGE.outbox, items) : (removeKey(STORAGE.outbox), true));

const draftKey = (page: string, form: string) => `${STORAGE.draftPrefix}${page}#${form}`;

/** Queues a submission, replacing an earlier one from the same form (a second press of Send). */
export function enqueue(item: OutboxItem): boolean {
  const others = readOutbox().filter((i) => !(i.page === item.page && i.form === item.form));
  return writeOutbox([...others, item]);
}

// ---------------------------------------------------------------- field messages

function control(form: HTMLFormElement, name: string): HTMLElement | null {
  const el = form.elements.namedItem(name);
  if (el instanceof RadioNodeList) return (el[0] as HTMLElement | undefined) ?? null;
  return el instanceof HTMLElement ? el : null;
}

function setFieldError(form: HTMLFormElement, name: string, message: string | undefined): void {
  const el = control(form, name);
  const slot = form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(name)}"]`);
  if (slot) {
    slot.textContent = message ?? '';
    slot.hidden = !message;
  }
  if (!el) return;
  const ids = new Set((el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean));
  if (slot?.id) {
    if (message) ids.add(slot.id);
    else ids.delete(slot.id);
  }
  if (ids.size) el.setAttribute('aria-describedby', Array.from(ids).join(' '));
  else el.removeAttribute('aria-describedby');
  if (message) el.setAttribute('aria-invalid', 'true');
  else el.removeAttribute('aria-invalid');
}

/** Shows `errors` (clearing the rest); returns the messages no field could show. */
export function showErrors(form: HTMLFormElement, errors: FieldErrors): string[] {
  const unplaced: string[] = [];
  const names = new Set<string>();
  for (const slot of form.querySelectorAll<HTMLElement>('[data-error-for]')) names.add(slot.dataset.errorFor ?? '');
  for (const name of Object.keys(errors)) names.add(name);
  for (const name of names) {
    // '' is a message about the whole inquiry; a field without a slot (the honeypot) has nowhere else to go.
    const hasSlot = name !== '' && form.querySelector(`[data-error-for="${CSS.escape(name)}"]`) !== null;
    if (errors[name] && !hasSlot) unplaced.push(errors[name]);
    if (name !== '') setFieldError(form, name, errors[name]);
  }
  return unplaced;
}

/** The first invalid control in document order. */
function firstInvalid(form: HTMLFormElement): HTMLElement | null {
  return form.querySelector<HTMLElement>('[aria-invalid="true"]');
}

function setStatus(form: HTMLFormElement, text: string, state: string): void {
  const status = form.querySelector<HTMLElement>('[data-form-status]');
  if (status) status.textContent = text;
  form.dataset.state = state;
}

// ---------------------------------------------------------------- sending

type SendResult = { kind: 'sent' } | { kind: 'invalid'; errors: FieldErrors } | { kind: 'failed'; status: number } | { kind: 'offline' };

export async function send(action: string, payload: Payload): Promise<SendResult> {
  if (!navigator.onLine) return { kind: 'offline' };
  let res: Response;
  try {
    res = await fetch(action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(payload),
      credentials: 'same-origin',
    });
  } catch {
    return { kind: 'offline' }; // DNS, connection or CORS failure: treat like offline and retry later
  }
  if (res.ok) return { kind: 'sent' };
  if (res.status === 400) {
    const body = (await res.json().catch(() => null)) as { errors?: unknown } | null;
    const errors: FieldErrors = {};
    if (body && typeof body.errors === 'object' && body.errors !== null) {
      for (const [k, v] of Object.entries(body.errors)) if (typeof v === 'string') errors[k] = v;
    }
    return { kind: 'invalid', errors: Object.keys(errors).length ? errors : { '': 'The server could not accept this inquiry.' } };
  }
  return { kind: 'failed', status: res.status };
}

const withLock = <T>(fn: () => Promise<T>): Promise<T> =>
  // Two open tabs must not send the same queued inquiry twice.
  'locks' in navigator && navigator.locks ? (navigator.locks.request('site-inquiry-outbox', fn) as Promise<T>) : fn();

/**
 * Sends what the outbox holds. Returns the items sent; stops at the first
 * network failure (still offline) and keeps the rest.
 */
export function flushOutbox(): Promise<OutboxItem[]> {
  return withLock(async () => {
    const sent: OutboxItem[] = [];
    let queue = readOutbox();
    for (const item of [...queue]) {
      const result = await send(item.action, item.payload);
      if (result.kind === 'offline') break;
      if (result.kind === 'failed' && result.status >= 500) break; // the server is down: try on the next `online`
      queue = queue.filter((i) => i !== item);
      writeOutbox(queue);
      if (result.kind === 'sent') {
        removeKey(draftKey(item.page, item.form));
        sent.push(item);
      } else {
        // Refused: give the text back as a draft so the buyer can correct it on that page.
        writeJson(draftKey(item.page, item.form), item.payload);
      }
    }
    return sent;
  });
}

// ---------------------------------------------------------------- wiring

function formKey(form: HTMLFormElement, index: number): string {
  return form.id || `form-${index}`;
}

function restoreDraft(form: HTMLFormElement, key: string): boolean {
  const draft = readJson<Payload | null>(key, null);
  if (!draft || typeof draft !== 'object') return false;
  let restored = false;
  for (const [name, value] of Object.entries(draft)) {
    if (MACHINERY.has(name) || typeof value !== 'string' || value === '') continue;
    const el = form.elements.namedItem(name);
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
      if (el.type === 'hidden' || el.value === value) continue;
      // Never overwrite what the page filled in (the product) unless it is empty, nor a choice made on this
      // visit (a call to action picked the inquiry type, see inquiry-choice.ts).
      if (el instanceof HTMLSelectElement ? Array.from(el.options).some((o) => o.selected !== o.defaultSelected) : el.value !== '') continue;
      el.value = value;
      restored = true;
    }
  }
  return restored;
}

/** True when the buyer changed any field from what the page rendered. */
function edited(form: HTMLFormElement): boolean {
  for (const el of Array.from(form.elements)) {
    if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) || MACHINERY.has(el.name)) continue;
    if (el instanceof HTMLSelectElement) {
      if (Array.from(el.options).some((o) => o.selected !== o.defaultSelected)) return true;
    } else if (el.type !== 'hidden' && el.value !== el.defaultValue) return true;
  }
  return false;
}

function enhanceForm(form: HTMLFormElement, key: string, bar: LoadingBar | null): void {
  const page = location.pathname;
  const draft = draftKey(page, key);
  const started = form.elements.namedItem('_started');
  // main.ts stamps it at page load; stamp here only if this ran without it.
  if (started instanceof HTMLInputElement && started.value === '') started.value = String(Date.now());
  form.noValidate = true; // our messages replace the browser's bubbles
  if (restoreDraft(form, draft)) setStatus(form, 'We restored what you typed earlier.', 'restored');
  if (readOutbox().some((i) => i.page === page && i.form === key)) {
    setStatus(form, 'Your inquiry is saved and will be sent when you are back online.', 'queued');
  }

  // Only a form the buyer touched has a draft worth keeping.
  let dirty = false;
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  const saveDraft = () => {
    dirty = true;
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => form.dataset.state !== 'sent' && writeJson(draft, readForm(form)), 250);
  };
  form.addEventListener('input', (event) => {
    saveDraft();
    // After a first attempt, a corrected field clears its message as the buyer types.
    const name = (event.target as HTMLInputElement | null)?.name;
    if (form.dataset.validated === 'true' && name) setFieldError(form, name, validateInquiry(readForm(form))[name]);
  });
  form.addEventListener('change', saveDraft);
  // This code loads on the first touch, so fast typing can come before it: keep that too.
  if (edited(form)) saveDraft();
  // Leaving the page mid-typing: write now, not after the timer.
  window.addEventListener('pagehide', () => {
    clearTimeout(saveTimer);
    if (dirty && form.dataset.state !== 'sent') writeJson(draft, readForm(form));
  });

  let busy = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    const payload = readForm(form);
    form.dataset.validated = 'true';
    const unplaced = showErrors(form, validateInquiry(payload));
    const invalid = firstInvalid(form);
    if (invalid || unplaced.length) {
      setStatus(form, unplaced.join(' ') || 'Please correct the marked fields.', 'invalid');
      invalid?.focus();
      return;
    }
    writeJson(draft, payload);
    busy = true;
    form.setAttribute('aria-busy', 'true');
    setStatus(form, 'Sending…', 'sending');
    bar?.start();
    const result = await send(form.action, payload);
    busy = false;
    form.removeAttribute('aria-busy');
    bar?.finish(result.kind !== 'sent');
    if (result.kind === 'sent') {
      clearTimeout(saveTimer);
      form.dataset.state = 'sent';
      removeKey(draft);
      // The inquiry list (inquiry-list.ts) lets go of the products this inquiry asked about.
      form.dispatchEvent(new CustomEvent('site:inquiry-sent', { bubbles: true, detail: { product: payload.product } }));
      location.assign(THANKS_PATH);
    } else if (result.kind === 'invalid') {
      const left = showErrors(form, result.errors);
      setStatus(form, left.join(' ') || 'Please correct the marked fields.', 'invalid');
      firstInvalid(form)?.focus();
    } else if (result.kind === 'offline') {
      const kept = enqueue({ action: form.action, payload, page, form: key, queuedAt: Date.now() });
      setStatus(
        form,
        kept
          ? 'You are offline. Your inquiry is saved in this browser and will be sent as soon as you are back online.'
          : 'You are offline and this browser cannot store the inquiry. Please keep this page open and press Send again when you are back online.',
        'queued',
      );
    } else {
      console.warn(`site: the inquiry endpoint answered ${result.status}`);
      setStatus(form, failedMessage(result.status, form.ownerDocument), 'failed');
    }
  });
}

/**
 * What a buyer reads when the endpoint refused or failed: no bare status code, the way the other is likely to
 * go (a server error may pass, anything else will not), and the company's address from the footer, so the
 * inquiry can still be sent.
 */
export function failedMessage(status: number, doc: Document): string {
  const mail = doc.querySelector<HTMLAnchorElement>('.site-footer a[href^="mailto:"]')?.href.slice('mailto:'.length).split('?')[0];
  const email = mail ? decodeURIComponent(mail) : '';
  const retry = status >= 500 ? 'please try again in a few minutes' : 'please send it again later';
  return `Sorry, your inquiry could not be sent. Your text is kept here; ${retry}${email ? `, or e-mail it to ${email}` : ''}.`;
}

export function initForms(doc: Document, bar: LoadingBar | null): void {
  const forms = Array.from(doc.querySelectorAll<HTMLFormElement>('form[data-inquiry-form]'));
  forms.forEach((form, i) => enhanceForm(form, formKey(form, i), bar));

  const flush = async () => {
    if (!navigator.onLine || readOutbox().length === 0) return;
    const sent = await flushOutbox();
    // The buyer is still on the page they sent from: finish their journey.
    if (sent.some((item) => item.page === location.pathname) && forms.length > 0) location.assign(THANKS_PATH);
  };
  window.addEventListener('online', () => void flush());
  void flush();
}
