/**
 * The text the site search indexes for one product, article or news item.
 * It lives here, not in emit/, because the load stage computes it too: a
 * large catalogue is loaded lean (src/load/lean.ts), each body dropped as
 * soon as its file is validated, and the search index is then made from this
 * text kept in its place. One function for both, so that a lean build and a
 * whole-catalogue one index exactly the same words.
 */
import type { Article, Block, NewsItem, Product, RichText } from './schema.js';

/** The kinds of entity that have a detail page and a search document. */
export type BodyKind = 'product' | 'article' | 'news';

const richText = (text: RichText): string => (typeof text === 'string' ? text : text.map((i) => (typeof i === 'string' ? i : i.text)).join(''));

/**
 * A line of text as a sentence. Squashed, lines run together in a result's
 * snippet: "80 mesh Light yellow powder About Ginseng Root Powder Milled…"
 * read as one phrase until each line ended with a stop.
 */
export function asSentence(line: string): string {
  const text = line.trimEnd();
  return text === '' || /[.!?:;…]$/.test(text) ? text : `${text}.`;
}

/** Plain text of body blocks, one sentence-ended line per block (per item of a list, per row of a table). */
export function blocksText(blocks: readonly Block[]): string {
  return blocks
    .map((b) => {
      switch (b.type) {
        case 'heading':
        case 'quote':
          return asSentence(b.text);
        case 'paragraph':
          return asSentence(richText(b.text));
        case 'list':
          return b.items.map((item) => asSentence(richText(item))).join('\n');
        case 'table':
          return [b.caption ?? '', b.head.join(' '), ...b.rows.map((r) => r.join(' '))].filter(Boolean).map(asSentence).join('\n');
      }
    })
    .join('\n');
}

/** Collapses runs of whitespace so that trimmed text measures what a reader sees. */
export function squash(text: string): string {
  // Most text is already squashed: no whitespace but single spaces, none at either end (\s and trim() know the same characters).
  if (!/[^\S ]| {2}|^ | $/.test(text)) return text;
  return text.replace(/\s+/g, ' ').trim();
}

/** The first `max` characters, cut at a space so no word is indexed half. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return text.slice(0, cut > max / 2 ? cut : max);
}

/**
 * `capText(squash(raw), max)` without squashing all of a long text: squash of
 * a prefix is a prefix of squash of the whole, and capText reads only the
 * first max + 1 characters, so once a prefix squashes to more than that the
 * rest cannot change the result. (Squashing whole article bodies was a tenth
 * of the index's cost.)
 */
export function cappedSquash(raw: string, max: number): string {
  for (let take = 2 * max + 64; take < raw.length; take *= 4) {
    const head = squash(raw.slice(0, take));
    if (head.length > max + 1) return capText(head, max);
  }
  return capText(squash(raw), max);
}

/**
 * Indexed text per document, after the title, when the catalogue is small.
 * The whole index is one download for /search; past the first few hundred
 * words an article's text adds size (and build time) far faster than it adds
 * findable words.
 */
export const INDEXED_TEXT_CHARS = 4000;

/**
 * All documents together index at most about this much text. The shipped
 * catalogue (1,291 documents, 2.7 million characters) is well inside
 * it, so each of its documents keeps INDEXED_TEXT_CHARS; a catalogue of
 * 90,000 documents gets the opening of each text instead of an index (and a
 * download for every visitor of /search) of hundreds of megabytes.
 */
export const INDEXED_TEXT_BUDGET = 8_000_000;

/** However many documents there are, each keeps at least this much: the summary's opening, at least. */
export const MIN_INDEXED_TEXT_CHARS = 160;

/**
 * Indexed characters per document for a catalogue of `documents` products,
 * articles and news items: a pure function of that count, which the load
 * stage knows from the file listing before it reads a file.
 */
export function indexedTextChars(documents: number): number {
  if (documents <= 0) return INDEXED_TEXT_CHARS;
  return Math.max(MIN_INDEXED_TEXT_CHARS, Math.min(INDEXED_TEXT_CHARS, Math.floor(INDEXED_TEXT_BUDGET / documents)));
}

/**
 * The body without the summary's words, which the indexed text already
 * opens with: an article's summary is its first paragraph and a product's
 * the opening of its About section, and indexed twice they filled the
 * result snippet with the same sentence twice.
 */
function withoutSummary(summary: string, body: string): string {
  const said = summary.replace(/\.$/, '');
  const at = said === '' ? -1 : body.indexOf(said);
  if (at < 0) return body;
  // The sentence may go on past the summary ("…its colour; the dried rhizome…"): what is left starts one now.
  const rest = body
    .slice(at + said.length)
    .replace(/^[.;,:]/, '')
    .replace(/^(\s*)(\p{Ll})/u, (_, space: string, letter: string) => space + letter.toUpperCase());
  return body.slice(0, at) + rest;
}

/** The indexed text of one entity, capped at `max` characters (see indexedTextChars). */
export function entitySearchText(kind: BodyKind, entity: Product | Article | NewsItem, max: number): string {
  let parts: string[];
  if (kind === 'product') {
    const p = entity as Product;
    parts = [
      p.summary,
      p.latinName,
      p.specification,
      p.appearance,
      withoutSummary(p.summary, blocksText(p.description)),
      p.applications.join(', '),
      ...p.claims,
      p.certifications.join(', '),
    ].map(asSentence);
  } else if (kind === 'article') {
    const a = entity as Article;
    parts = [a.summary, withoutSummary(a.summary, blocksText(a.body)), asSentence(a.category)];
  } else {
    const n = entity as NewsItem;
    parts = [n.summary, withoutSummary(n.summary, blocksText(n.body))];
  }
  return cappedSquash(parts.filter(Boolean).join('\n'), max);
}
