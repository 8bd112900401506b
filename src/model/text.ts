/**
 * Small text and URL helpers shared by the model, the head and the templates.
 * Content in data/ is untrusted: every URL taken from it goes through
 * `safeHref` before it becomes an attribute.
 */
import type { Block, Inline, RichText } from '../core/schema.js';
import { judgeContentUrl } from '../core/content-url.js';
import { squash } from '../core/search-text.js';

/**
 * Returns the href (trimmed) when it is safe to emit, otherwise null: the
 * judgement of src/core/content-url.ts, which the check applies too, so a
 * link the check passes is never dropped here. Browsers drop whitespace and
 * control characters inside a scheme ("java\tscript:"); that judgement reads
 * the scheme as they do.
 */
export function safeHref(href: string): string | null {
  const judged = judgeContentUrl(href);
  return judged.ok ? judged.url : null;
}

/** Characters a URL path may carry as they are; everything else is percent-encoded. */
const NOT_IN_PATH = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/;
const NOT_IN_PATH_ALL = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g;
export function encodePath(path: string): string {
  return NOT_IN_PATH.test(path) ? path.replace(NOT_IN_PATH_ALL, (c) => encodeURIComponent(c)) : path;
}

/** The absolute URL of a site path (`/` for home). `origin` has no trailing slash (schema rule). */
export function absoluteUrl(origin: string, path: string): string {
  return origin + encodePath(path.startsWith('/') ? path : '/' + path);
}

/** An image or link URL made absolute on the site: one already absolute (http or https) is kept as it is. */
export const siteUrl = (origin: string, url: string): string => (/^https?:\/\//i.test(url) ? url : absoluteUrl(origin, url));

/**
 * The images among `images` that content names (a product's photographs, a news item's image; never the
 * generated artwork), absolute and each once: what structured data and the sitemap's image extension name.
 */
export function photoUrls(origin: string, images: ReadonlyArray<{ src: string }>): string[] {
  const safe = images.map((img) => safeHref(img.src)).filter((src): src is string => src !== null);
  return [...new Set(safe.map((src) => siteUrl(origin, src)))];
}

/** Plain text of rich text (for descriptions, snippets and JSON-LD). */
export function richToText(text: RichText): string {
  if (typeof text === 'string') return text;
  return text.map((part: Inline) => (typeof part === 'string' ? part : part.text)).join('');
}

/** The first paragraph of a body, as plain text, or '' when there is none. */
export function firstParagraph(blocks: readonly Block[]): string {
  for (const block of blocks) if (block.type === 'paragraph') return richToText(block.text);
  return '';
}

/**
 * Shortens text to at most `max` characters at a word boundary, adding an
 * ellipsis when something was cut (search engines show about 155 characters).
 */
/** Words whose full stop does not end a sentence: "95% min. (HPLC)", "Malpighia emarginata DC. Acerola". */
const ABBREVIATION =
  /(?:^|[\s(])(?:[A-Za-z]|min|max|approx|ca|no|vs|etc|e\.g|i\.e|DC|Mill|Merr|Willd|Lam|Thunb|Benth|Hook|Maxim|Sieb|Zucc|Nakai|Pers|Fisch|Bge|Franch|Kuntze|Rupr|Sw)\.$/;

/**
 * A description of at most `max` characters: the whole sentences (or
 * clauses up to a semicolon, which then ends the text with a full stop)
 * that fit, when they come to `min` characters or more, so that a snippet
 * does not stop mid-phrase; else trimAtWord's cut with its ellipsis.
 */
export function trimToSentences(text: string, max = 155, min = 70): string {
  const clean = squash(text);
  if (clean.length <= max) return clean;
  let end = -1;
  const boundary = /[.!?](?= [A-Z0-9“"(])|;(?= )/g;
  for (let m = boundary.exec(clean); m !== null && m.index < max; m = boundary.exec(clean)) {
    if (m[0] === '.' && ABBREVIATION.test(clean.slice(Math.max(0, m.index - 8), m.index + 1))) continue;
    end = m.index;
  }
  if (end + 1 < min) return trimAtWord(clean, max);
  return clean[end] === ';' ? `${clean.slice(0, end)}.` : clean.slice(0, end + 1);
}

export function trimAtWord(text: string, max = 155): string {
  const clean = squash(text);
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  const base = space > max * 0.6 ? cut.slice(0, space) : cut;
  return base.replace(/[\s,;:.\-–—]+$/, '') + '…';
}

/** `2024-03-05` → `5 March 2024`; fixed locale and time zone so builds are identical anywhere. */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const formatted = new Map<string, string>();
export function formatDate(iso: string): string {
  // A catalogue has a few thousand distinct dates, and every card and article prints one.
  let text = formatted.get(iso);
  if (text === undefined) {
    const [y, m, d] = iso.split('-').map(Number);
    text = `${d} ${MONTHS[m - 1]} ${y}`;
    if (formatted.size >= 10_000) formatted.clear();
    formatted.set(iso, text);
  }
  return text;
}

/** Later of two ISO dates ('' counts as earliest). */
export const laterDate = (a: string, b: string): string => (b > a ? b : a);
