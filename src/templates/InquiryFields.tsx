/**
 * The fields every inquiry form shares (Inquire, InquireSecond, contact),
 * exactly as docs/CONTRACTS.md "Markup the browser code relies on" names
 * them: the browser code validates against src/core/inquiry.ts by field name.
 */
import type { ReactNode } from 'react';
import { INQUIRY_TYPES, INQUIRY_TYPE_LABELS, type InquiryType } from '../core/inquiry-types.js';

export interface InquiryFormProps {
  /** Unique on the page; prefixes every control id. */
  formId: string;
  action: string;
  /** The route path, sent as the hidden `page` field. */
  page: string;
  product?: string;
  type?: InquiryType;
  submitLabel?: string;
  className?: string;
}

function Field({ formId, name, label, required, children }: { formId: string; name: string; label: string; required?: boolean; children: ReactNode }) {
  return (
    <div className="field" data-field={name}>
      <label htmlFor={`${formId}-${name}`}>
        {label}
        {required ? <span className="required"> (required)</span> : null}
      </label>
      {children}
      <p className="field-error" id={`${formId}-${name}-error`} data-error-for={name} hidden></p>
    </div>
  );
}

/** The form; the sections that hold it (Inquire, InquireSecond) are repeated pieces with `page` and `product` as values. */
export function InquiryFormMarkup({ formId, action, page, product = '', type = 'quote', submitLabel = 'Send inquiry', className = '' }: InquiryFormProps) {
  const id = (name: string) => `${formId}-${name}`;
  const err = (name: string) => `${formId}-${name}-error`;
  return (
    <form id={formId} className={`inquiry-form ${className}`.trim()} data-inquiry-form="" action={action} method="post">
      <div className="field-grid">
        <Field formId={formId} name="name" label="Your name" required>
          <input id={id('name')} name="name" type="text" autoComplete="name" required minLength={2} maxLength={100} aria-describedby={err('name')} />
        </Field>
        <Field formId={formId} name="email" label="E-mail" required>
          <input id={id('email')} name="email" type="email" autoComplete="email" required maxLength={254} aria-describedby={err('email')} />
        </Field>
        <Field formId={formId} name="company" label="Company">
          <input id={id('company')} name="company" type="text" autoComplete="organization" maxLength={150} aria-describedby={err('company')} />
        </Field>
        <Field formId={formId} name="country" label="Country">
          <input id={id('country')} name="country" type="text" autoComplete="country-name" maxLength={80} aria-describedby={err('country')} />
        </Field>
        <Field formId={formId} name="phone" label="Phone">
          <input id={id('phone')} name="phone" type="tel" autoComplete="tel" maxLength={40} aria-describedby={err('phone')} />
        </Field>
        <Field formId={formId} name="product" label="Product">
          <input id={id('product')} name="product" type="text" maxLength={1000} defaultValue={product} aria-describedby={err('product')} />
        </Field>
        <Field formId={formId} name="type" label="I would like" required>
          {/* Always holds one of the types (no empty choice), so `required` could never fail, and HTML allows it on a
              select only with an empty placeholder option: aria-required tells assistive technology what the label says. */}
          <select id={id('type')} name="type" aria-required="true" defaultValue={type} aria-describedby={err('type')}>
            {INQUIRY_TYPES.map((t) => (
              <option key={t} value={t}>
                {INQUIRY_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </Field>
        <Field formId={formId} name="quantity" label="Quantity">
          <input id={id('quantity')} name="quantity" type="text" maxLength={60} placeholder="e.g. 25 kg" aria-describedby={err('quantity')} />
        </Field>
      </div>
      <Field formId={formId} name="message" label="Message" required>
        <textarea id={id('message')} name="message" rows={5} required minLength={10} maxLength={5000} aria-describedby={err('message')}></textarea>
      </Field>
      <input type="hidden" name="page" value={page} />
      <input type="hidden" name="_started" value="" />
      {/* Names this form to the server, which re-renders it with the errors when JavaScript is off. */}
      <input type="hidden" name="_formid" value={formId} />
      <div className="hp" aria-hidden="true">
        <label>
          Website
          <input name="website" tabIndex={-1} autoComplete="off" />
        </label>
      </div>
      <button type="submit" className="button button-primary">
        {submitLabel}
      </button>
      <p className="form-status" data-form-status="" role="status" aria-live="polite"></p>
    </form>
  );
}
