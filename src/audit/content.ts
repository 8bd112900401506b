/**
 * Main-content measures: word count, an exact-duplicate hash and a MinHash
 * signature of word 5-shingles, bucketed by LSH so near duplicates are found
 * without comparing every pair of pages.
 */
import { hash } from 'node:crypto';

export const MINHASH_SIZE = 64;
const BANDS = 8;
const ROWS = MINHASH_SIZE / BANDS;
const SHINGLE = 5;

/**
 * Word separators: whitespace and the ASCII, Latin-1 and general punctuation
 * blocks. A plain (non-/u) class: the Unicode-property version was a visible
 * share of the audit's profile.
 */
const SEPARATOR_RUNS = /[\s!-\/:-@\[-`{-~\u00a0-\u00bf\u2000-\u206f\u3000-\u303f]+/g;

/**
 * The text's words, lower-cased, joined by single spaces: the form the
 * content hash is taken of and the shingles are cut from. (Every whitespace
 * character is a separator, so trim() removes only replaced separators.)
 */
export function normalWords(text: string): string {
  return text.toLowerCase().replace(SEPARATOR_RUNS, ' ').trim();
}

export function words(text: string): string[] {
  const normal = normalWords(text);
  return normal === '' ? [] : normal.split(' ');
}

/** The number of words in normalWords() output. */
export function wordCount(normal: string): number {
  if (normal === '') return 0;
  let count = 1;
  for (let i = normal.indexOf(' '); i !== -1; i = normal.indexOf(' ', i + 1)) count++;
  return count;
}

/** sha1 of the main content's words, so markup and spacing differences do not matter; '' without words. */
export function contentHash(normal: string): string {
  return normal ? hash('sha1', normal) : '';
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/** Bins of the one-permutation hash: the top 6 bits of a shingle's hash pick the bin. */
const BIN_SHIFT = 32 - Math.log2(MINHASH_SIZE);
const VALUE_MASK = (1 << BIN_SHIFT) - 1;

/** Word hashes of the last signature: grown as needed, reused so each page does not allocate one. */
let wordHashes = new Int32Array(4096);
/** Bins of the last signature; EMPTY is above every value a bin keeps. */
const bins = new Int32Array(MINHASH_SIZE);
const EMPTY_BIN = 0x7fffffff;

function pushWordHash(count: number, h: number): void {
  if (count === wordHashes.length) {
    const grown = new Int32Array(count * 2);
    grown.set(wordHashes);
    wordHashes = grown;
  }
  wordHashes[count] = h;
}

/**
 * MinHash signature of the word 5-shingles of normalWords() output, by
 * one-permutation hashing with densification (Li, Owen & Zhang 2012;
 * Shrivastava & Li 2014): each shingle is hashed once and kept as the
 * minimum of its bin, instead of 64 hashes per shingle. Empty bins borrow
 * the next non-empty bin's value. Words are FNV-1a hashed straight from the
 * string, without splitting it; hashes stay int32 so the JIT keeps them in
 * registers. Empty when the text has fewer words than one shingle.
 */
export function signature(normal: string): number[] {
  if (normal === '') return [];
  let count = 0;
  let h = FNV_OFFSET;
  for (let i = 0; i < normal.length; i++) {
    const c = normal.charCodeAt(i);
    if (c !== 32) h = Math.imul(h ^ c, FNV_PRIME);
    else {
      pushWordHash(count++, h);
      h = FNV_OFFSET;
    }
  }
  pushWordHash(count++, h);
  if (count < SHINGLE) return [];
  bins.fill(EMPTY_BIN);
  for (let i = 0; i + SHINGLE <= count; i++) {
    let s = 0;
    for (let j = 0; j < SHINGLE; j++) s = (Math.imul(s ^ wordHashes[i + j], FNV_PRIME) + j) | 0;
    // Murmur3's finaliser: a cheap, well-mixed permutation of 32-bit values.
    s ^= s >>> 16;
    s = Math.imul(s, 0x85ebca6b);
    s ^= s >>> 13;
    s = Math.imul(s, 0xc2b2ae35);
    s ^= s >>> 16;
    const bin = s >>> BIN_SHIFT;
    const value = s & VALUE_MASK;
    if (value < bins[bin]) bins[bin] = value;
  }
  const out = new Array<number>(MINHASH_SIZE);
  for (let k = 0; k < MINHASH_SIZE; k++) {
    out[k] = bins[k];
    if (bins[k] !== EMPTY_BIN) continue;
    for (let d = 1; d < MINHASH_SIZE; d++) {
      const from = bins[(k + d) % MINHASH_SIZE];
      if (from !== EMPTY_BIN) {
        // The distance keeps borrowed values apart from the lender's own.
        out[k] = from + d * (VALUE_MASK + 1);
        break;
      }
    }
  }
  return out;
}

/** The signature of a list of words (without spaces). */
export const minhash = (tokens: readonly string[]): number[] => signature(tokens.join(' '));

/** Estimated Jaccard similarity of two signatures. */
export function similarity(a: readonly number[], b: readonly number[]): number {
  let same = 0;
  for (let k = 0; k < MINHASH_SIZE; k++) if (a[k] === b[k]) same++;
  return same / MINHASH_SIZE;
}

/**
 * A band of a signature as a short string: the band number, then each
 * 32-bit value as two UTF-16 code units. Equal keys mean equal bands, as with
 * joining the numbers, but without formatting eight numbers per band.
 */
function bandKey(sig: readonly number[], band: number): string {
  const o = band * ROWS;
  const v = (k: number): number => sig[o + k];
  return String.fromCharCode(
    band,
    v(0) >>> 16, v(0) & 0xffff, v(1) >>> 16, v(1) & 0xffff, v(2) >>> 16, v(2) & 0xffff, v(3) >>> 16, v(3) & 0xffff,
    v(4) >>> 16, v(4) & 0xffff, v(5) >>> 16, v(5) & 0xffff, v(6) >>> 16, v(6) & 0xffff, v(7) >>> 16, v(7) & 0xffff,
  );
}

/**
 * Pairs of items whose signatures are at least `threshold` similar. LSH with
 * 8 bands of 8 rows makes pairs from about 77 % similarity candidates; each
 * candidate pair is then checked on the whole signature. Large buckets (a
 * shared template) are compared against their first member only, so the
 * cost stays linear.
 */
export function nearDuplicatePairs(
  signatures: ReadonlyArray<readonly number[]>,
  threshold: number,
): Array<[number, number, number]> {
  const buckets = new Map<string, number[]>();
  signatures.forEach((sig, index) => {
    if (sig.length !== MINHASH_SIZE) return;
    for (let b = 0; b < BANDS; b++) {
      const key = bandKey(sig, b);
      const bucket = buckets.get(key);
      if (bucket) bucket.push(index);
      else buckets.set(key, [index]);
    }
  });
  const seen = new Set<string>();
  const pairs: Array<[number, number, number]> = [];
  const consider = (i: number, j: number): void => {
    const key = i < j ? `${i},${j}` : `${j},${i}`;
    if (seen.has(key)) return;
    seen.add(key);
    const s = similarity(signatures[i], signatures[j]);
    if (s >= threshold) pairs.push(i < j ? [i, j, s] : [j, i, s]);
  };
  for (const bucket of buckets.values()) {
    if (bucket.length < 2) continue;
    if (bucket.length <= 50) {
      for (let x = 0; x < bucket.length; x++) for (let y = x + 1; y < bucket.length; y++) consider(bucket[x], bucket[y]);
    } else {
      for (let y = 1; y < bucket.length; y++) consider(bucket[0], bucket[y]);
    }
  }
  return pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}
