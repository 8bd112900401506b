/**
 * The no-JavaScript error path of the inquiry forms: the built page the form
 * was on, with the buyer's values filled back in and each field's message
 * in its `[data-error-for]` element (docs/CONTRACTS.md, "Inquiry forms").
 * cheerio escapes every value it writes. It is loaded on the first such page
 * (some 300 ms to import), not when the server starts.
 */
import { createRequire } from 'node:module';
import { escapeHtml } from '../core/html/escape.js';
import { INQUIRY_FIELDS, type Inquiry } from '../core/inquiry.js';

export const FORM_FIELDS = INQUIRY_FIELDS;
export type FormField = keyof Inquiry;

/** Field messages by field name; `_form` is a message about the submission as a whole. */
export type FieldErrors = Partial<Record<FormField | '_form', string>>;

/**
 * Fills the inquiry form of `html` whose id is `formId` (a page can have two,
 * Inquire and InquireSecond; the form may say which it was in a hidden
 * `_formid` field), else the first. Returns null when the page has no
 * inquiry form (then the caller falls back to another page).
 */
export function fillInquiryForm(html: string, values: Partial<Record<string, string>>, errors: FieldErrors, formId = ''): string | null {
  const cheerio = createRequire(import.meta.url)('cheerio') as typeof import('cheerio');
  const $ = cheerio.load(html);
  const forms = $('form[data-inquiry-form]');
  const named = formId ? forms.filter((_, el) => $(el).attr('id') === formId) : forms.slice(0, 0);
  const form = (named.length > 0 ? named : forms).first();
  if (form.length === 0) return null;
  let firstInvalid: ReturnType<typeof form.find> | null = null;
  for (const name of FORM_FIELDS) {
    const control = form.find(`[name="${name}"]`).first();
    if (control.length === 0) continue;
    const value = values[name] ?? '';
    if (control.is('textarea')) control.text(value);
    else if (control.is('select')) {
      control.find('option').each((_, o) => {
        const option = $(o);
        if ((option.attr('value') ?? option.text()) === value) option.attr('selected', '');
        else option.removeAttr('selected');
      });
    } else if (control.attr('type') !== 'radio' && control.attr('type') !== 'checkbox') control.attr('value', value);
    const message = errors[name];
    const slot = form.find(`[data-error-for="${name}"]`).first();
    if (message) {
      control.attr('aria-invalid', 'true');
      if (slot.length > 0) {
        slot.text(message).removeAttr('hidden');
        const id = slot.attr('id');
        if (id) {
          const described = (control.attr('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
          if (!described.includes(id)) control.attr('aria-describedby', [...described, id].join(' '));
        }
      }
      firstInvalid ??= control;
    } else {
      control.removeAttr('aria-invalid');
      slot.text('').attr('hidden', '');
    }
  }
  // Brings the browser straight to the first field to fix.
  firstInvalid?.attr('autofocus', '');
  const status = form.find('[data-form-status]').first();
  status.text(errors._form ?? 'Please correct the marked fields and send the form again.');
  const title = $('title').first();
  if (title.length > 0 && !title.text().startsWith('Error: ')) title.text(`Error: ${title.text()}`);
  return $.html();
}

/** A self-contained page listing the messages, for a site without any form page to re-render. */
export function plainErrorPage(errors: FieldErrors, back: string): string {
  const items = Object.entries(errors)
    .map(([field, msg]) => `<li>${field === '_form' ? '' : `<strong>${escapeHtml(field)}</strong>: `}${escapeHtml(msg ?? '')}</li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Error: your inquiry was not sent</title></head><body><main><h1>Your inquiry was not sent</h1><ul>${items}</ul><p><a href="${escapeHtml(back)}">Go back to the form</a></p></main></body></html>`;
}
