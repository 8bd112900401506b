/**
 * Route meta (title, description, keywords) written the way an SEO editor
 * would: titles 30-60 characters, descriptions 70-155, shared keywords that
 * advertise the GMP factory, free samples and bulk wholesale.
 */
import type { Meta } from '../../src/core/schema.js';

/** Neutral placeholder brand: short, so that " - Verdanta" titles stay under 60 characters. */
export const BRAND = 'Verdanta';
export const TITLE_SUFFIX = ` - ${BRAND}`;

export const SHARED_KEYWORDS = 'GMP factory, free sample, bulk wholesale';

/** Cuts at a word boundary so the text fits `max` characters, ending cleanly. */
export function fit(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const at = cut.lastIndexOf(' ');
  return cut.slice(0, at > 40 ? at : cut.length).replace(/[,;:.\s-]+$/, '') + '.';
}

/** Whole sentences from the start of `text` that fit `max` characters (at least the first, cut to fit). */
export function firstSentences(text: string, max: number): string {
  let out = '';
  for (const s of text.split(/(?<=\.) /)) {
    if ((out === '' ? s : `${out} ${s}`).length > max) break;
    out = out === '' ? s : `${out} ${s}`;
  }
  return out === '' ? fit(text, max) : out;
}

/** The first candidate whose length is within 30-60 characters, else the closest one. */
export function bestTitle(candidates: string[]): string {
  const ok = candidates.find((c) => c.length >= 30 && c.length <= 60);
  if (ok) return ok;
  return [...candidates].sort((a, b) => dist(a) - dist(b))[0];
}
const dist = (s: string) => (s.length < 30 ? 30 - s.length : s.length > 60 ? s.length - 60 : 0);

/** The terms, then the shared ones, lower-cased, each once: a keyword list that repeats itself reads as stuffing. */
export function keywords(...terms: string[]): string {
  const all = [...terms.map((t) => t.toLowerCase()), ...SHARED_KEYWORDS.split(', ')];
  return all.filter((t, i) => all.findIndex((u) => u.toLowerCase() === t.toLowerCase()) === i).join(', ');
}

/** "bulk X", unless the name already says bulk ("Bulk Curcumin Powder", "L-Leucine Bulk"). */
export const saysBulk = (name: string): boolean => /\bbulk\b/i.test(name);

export const EMPTY_META: Meta = { title: '', description: '', keywords: '' };
