/**
 * The main inquiry section (`#inquire`): product pages link their calls to
 * action here, the contact page shows it as its form.
 */
import type { InquiryType } from '../core/inquiry-types.js';
import { InquiryFormMarkup } from './InquiryFields.js';

export interface InquireProps {
  action: string;
  page: string;
  product?: string;
  type?: InquiryType;
  heading?: string;
  intro?: string;
  formId?: string;
}

export function Inquire({ action, page, product, type, heading = 'Send us an inquiry', intro, formId = 'inquire' }: InquireProps) {
  const text =
    intro ??
    (product
      ? `Ask for a quote, a custom specification, a free sample, private labelling or bulk and wholesale supply of ${product}. We answer within one working day.`
      : 'Ask for a quote, a custom specification, a free sample, private labelling or bulk and wholesale supply. We answer within one working day.');
  return (
    <section className="inquire" aria-labelledby={`${formId}-heading`}>
      <h2 id={`${formId}-heading`}>{heading}</h2>
      <p className="inquire-intro">{text}</p>
      <InquiryFormMarkup formId={formId} action={action} page={page} product={product ?? ''} type={type} />
    </section>
  );
}
