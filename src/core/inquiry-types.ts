/**
 * The kinds of inquiry and their labels, without the schema: the templates
 * need only these, and importing zod would cost every render worker ~70 ms.
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
