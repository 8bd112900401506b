/**
 * The inquiry form's constants without its schema (inquiry.ts): the kinds
 * of inquiry, their labels and the shortest time to fill the form in. The
 * templates and a starting server need only these, and importing zod would
 * cost every render worker ~70 ms and `site serve`'s start ~100 ms.
 */
export const INQUIRY_TYPES = ['quote', 'custom-quote', 'free-sample', 'private-label', 'bulk-wholesale', 'contact'] as const;
export type InquiryType = (typeof INQUIRY_TYPES)[number];

export const INQUIRY_TYPE_LABELS: Record<InquiryType, string> = {
  quote: 'Ask for a quote',
  'custom-quote': 'Custom quote',
  'free-sample': 'Free sample',
  'private-label': 'Private labelling',
  'bulk-wholesale': 'Bulk and wholesale',
  contact: 'General question',
};

/** A submission faster than this after the form was shown (`_started`) is refused as a script's. */
export const MIN_FILL_MS = 3000;
