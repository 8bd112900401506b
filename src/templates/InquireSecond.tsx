/**
 * The second inquiry piece: a call-to-action band at the end of lists,
 * articles and news, text beside the form (stacked on small screens).
 */
import type { InquiryType } from '../core/inquiry-types.js';
import { InquiryFormMarkup } from './InquiryFields.js';

export function InquireSecond({ action, page, product, type = 'bulk-wholesale' }: { action: string; page: string; product?: string; type?: InquiryType }) {
  return (
    <section className="inquire-second" aria-labelledby="inquire-second-heading">
      <div className="inquire-second-text">
        <h2 id="inquire-second-heading">Need a bulk quote or a free sample?</h2>
        <p>Lab-tested purity from our GMP factory, delivered in 1-2 working days. Tell us what you need and we reply within one working day.</p>
      </div>
      <InquiryFormMarkup
        formId="inquire-second"
        action={action}
        page={page}
        product={product ?? ''}
        type={type}
        submitLabel="Request quote"
        className="inquire-second-form"
      />
    </section>
  );
}
