/**
 * Result snippets: a window of the stored excerpt around the first matched
 * word, split into plain and highlighted segments. The page turns segments
 * into text nodes and <mark> elements, never HTML strings.
 */
import { processTerm, WORD } from '../core/search-options.js';

export interface Segment {
  text: string;
  mark: boolean;
}

/** Segments of `text` with every word whose processed form is in `terms` marked. */
export function highlight(text: string, terms: ReadonlySet<string>): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(WORD)) {
    const term = processTerm(m[0]);
    if (term === null || !terms.has(term)) continue;
    if (m.index > last) out.push({ text: text.slice(last, m.index), mark: false });
    out.push({ text: m[0], mark: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), mark: false });
  return out;
}

/** A window of about `size` characters starting a little before the first matched word, cut at spaces. */
export function snippetWindow(text: string, terms: ReadonlySet<string>, size: number): string {
  if (text.length <= size) return text;
  let first = 0;
  for (const m of text.matchAll(WORD)) {
    const term = processTerm(m[0]);
    if (term !== null && terms.has(term)) {
      first = m.index;
      break;
    }
  }
  let start = Math.max(0, first - Math.floor(size / 4));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < first ? space + 1 : start;
  }
  let end = Math.min(text.length, start + size);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start) end = space;
  }
  return (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
}
