/**
 * Pure pieces of HTTP semantics (RFC 9110) that the static sender needs:
 * content negotiation, conditional requests and byte ranges.
 */

export type Encoding = 'br' | 'gzip';

/** Picks br, then gzip, among the codings the client accepts with q > 0. */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q=([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip') || (q.get('x-gzip') ?? 0) > 0) return 'gzip';
  return null;
}

/** If-None-Match uses the weak comparison: `W/"x"` matches `"x"`. */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  if (ifNoneMatch.trim() === '*') return true;
  const target = bare(etag);
  return ifNoneMatch.split(',').some((t) => bare(t) === target);
}

export interface Validators {
  etag: string;
  /** Modification time in ms. */
  mtimeMs: number;
}

/** True when a GET/HEAD may be answered 304 (If-None-Match wins over If-Modified-Since). */
export function isNotModified(headers: { 'if-none-match'?: string; 'if-modified-since'?: string }, v: Validators): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) return etagMatches(inm, v.etag);
  const ims = headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  // HTTP dates have whole seconds.
  return Number.isFinite(since) && Math.floor(v.mtimeMs / 1000) * 1000 <= since;
}

export type RangeResult =
  /** No usable Range: send the whole representation (200). */
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * Interprets a Range header for a representation of `size` bytes. Only one
 * `bytes` range is honoured; several ranges, other units or syntax errors
 * are ignored (a server MAY ignore Range) and the whole body is sent.
 * If-Range that does not match the current validator also means the whole body.
 */
export function parseRange(range: string | undefined, size: number, ifRange: string | undefined, v: Validators): RangeResult {
  if (range === undefined) return { kind: 'full' };
  if (ifRange !== undefined && !ifRangeMatches(ifRange, v)) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(range);
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  let start: number;
  let end: number;
  if (m[1] === '') {
    // Suffix range: the last N bytes.
    const n = Number(m[2]);
    if (n === 0) return { kind: 'unsatisfiable' };
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return { kind: 'full' };
  }
  if (start >= size || size === 0) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

/** If-Range needs a strong ETag match or an exact date (RFC 9110 13.1.5). */
function ifRangeMatches(ifRange: string, v: Validators): boolean {
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return !value.startsWith('W/') && value === v.etag;
  const date = Date.parse(value);
  return Number.isFinite(date) && date === Math.floor(v.mtimeMs / 1000) * 1000;
}

/** Types worth compressing: text and the structured-text application types. */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(javascript|json|xml|manifest\+json|[a-z.+-]*\+(json|xml))|image\/svg\+xml)/i.test(contentType);
}
