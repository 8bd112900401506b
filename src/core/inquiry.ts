/**
 * The inquiry form's schema, shared by the browser (client-side validation)
 * and `site serve` (the authority). zod/mini keeps the browser bundle small.
 */
import * as z from 'zod/mini';
import { INQUIRY_TYPES } from './inquiry-types.js';

export * from './inquiry-types.js';

/** Characters that have no place in a form field (C0/C1 controls except tab and newlines). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
export const stripControl = (s: string): string => s.replace(CONTROL, '');

export const inquirySchema = z.object({
  name: z.string().check(z.trim(), z.minLength(2, 'Please enter your name.'), z.maxLength(100, 'Please keep your name under 100 characters.')),
  email: z
    .string()
    .check(
      z.trim(),
      z.maxLength(254, 'Please keep the e-mail address under 254 characters.'),
      z.email('Please enter a valid e-mail address, like name@company.com.'),
    ),
  company: z.optional(z.string().check(z.trim(), z.maxLength(150, 'Please keep the company name under 150 characters.'))),
  country: z.optional(z.string().check(z.trim(), z.maxLength(80, 'Please keep the country under 80 characters.'))),
  phone: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(40, 'Please keep the phone number under 40 characters.'),
        z.regex(/^$|^\+?[0-9][0-9 ()./-]{5,38}$/, 'Please enter a phone number with digits only, optionally starting with +.'),
      ),
  ),
  product: z.optional(z.string().check(z.trim(), z.maxLength(1000, 'Please keep the product names under 1000 characters.'))),
  type: z.enum(INQUIRY_TYPES, 'Please choose what you would like to ask for.'),
  quantity: z.optional(z.string().check(z.trim(), z.maxLength(60, 'Please keep the quantity under 60 characters.'))),
  message: z
    .string()
    .check(
      z.trim(),
      z.minLength(10, 'Please tell us a little more (at least 10 characters).'),
      z.maxLength(5000, 'Please keep the message under 5000 characters.'),
    ),
});
export type Inquiry = z.infer<typeof inquirySchema>;

/** The form's field names, in form order; the server reads exactly these (plus page, _started, website). */
export const INQUIRY_FIELDS = Object.keys(inquirySchema.shape) as Array<keyof Inquiry>;
