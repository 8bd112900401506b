/**
 * Main-content measures: word count, an exact-duplicate hash and a MinHash
 * signature of word 5-shingles, bucketed by LSH so near duplicates are found
 * without comparing every pair of pages.
 */
export const MINHASH_SIZE = 64;
const BANDS = 8;
const ROWS = MINHASH_SIZE / BANDS;
const SHINGLE = 5;

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/** Bins of the one-permutation hash: the top 6 bits of a shingle's hash pick the bin. */
const BIN_SHIFT = 32 - Math.log2(MINHASH_SIZE);
const VALUE_MASK = (1 << BIN_SHIFT) - 1;

/**
 * Word separators: whitespace (JavaScript's \s) and the ASCII, Latin-1 and
 * general punctuation blocks, i.e. the class
 * [\s!-\/:-@\[-`{-~\u00a0-\u00bf\u2000-\u206f\u3000-\u303f], tested per UTF-16
 * code unit without a regular expression.
 */
const SEPARATOR = new Uint8Array(0x10000);
for (const [from, to] of [
  [9, 13],
  [32, 47],
  [58, 64],
  [91, 96],
  [123, 126],
  [0xa0, 0xbf],
  [0x1680, 0x1680],
  [0x2000, 0x206f],
  [0x3000, 0x303f],
  [0xfeff, 0xfeff],
])
  SEPARATOR.fill(1, from, to + 1);

/** One table lookup per character (64 KB): the range tests cost more in the per-character loop. */
const isSeparator = (c: number): boolean => SEPARATOR[c] === 1;

/** The text's words, lower-cased. */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    if (i === lower.length || isSeparator(lower.charCodeAt(i))) {
      if (start !== -1) out.push(lower.slice(start, i));
      start = -1;
    } else if (start === -1) start = i;
  }
  return out;
}

/** Word hashes of the page being measured: grown as needed, reused so each page does not allocate one. */
let wordHashes = new Int32Array(4096);
/** Bins of the signature being made; EMPTY_BIN is above every value a bin keeps. */
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

/** Murmur3's finaliser: a cheap, well-mixed permutation of 32-bit values. */
function fmix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 16);
}

const hex8 = (x: number): string => (x >>> 0).toString(16).padStart(8, '0');

/**
 * MinHash signature of the word 5-shingles of the first `count` word
 * hashes, by one-permutation hashing with densification (Li, Owen & Zhang
 * 2012; Shrivastava & Li 2014): each shingle is hashed once and kept as the
 * minimum of its bin, instead of 64 hashes per shingle. Empty bins borrow the
 * next non-empty bin's value. Empty when there are fewer words than one
 * shingle.
 */
function shingleSignature(count: number): number[] {
  if (count < SHINGLE) return [];
  bins.fill(EMPTY_BIN);
  for (let i = 0; i + SHINGLE <= count; i++) {
    let h = 0;
    // Hashes stay int32 so the JIT keeps them in registers; every use reads them modulo 2^32.
    for (let j = 0; j < SHINGLE; j++) h = (Math.imul(h ^ wordHashes[i + j], FNV_PRIME) + j) | 0;
    h = fmix32(h);
    const bin = h >>> BIN_SHIFT;
    const value = h & VALUE_MASK;
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

export interface ContentMeasures {
  words: number;
  /** A 64-bit hash of the words (lower-cased, one space apart), so markup and spacing differences do not matter; '' without words. */
  hash: string;
  /** The MinHash signature, when asked for (see shingleSignature). */
  signature: number[];
}

/** The duplicate-hash lanes of the last readWords() call. */
const lanes = new Int32Array(2);

/**
 * One pass over lower-cased text: each word is FNV-1a hashed as it is read
 * (kept in wordHashes when `keepWords`), lane a runs FNV-1a over the
 * normalised characters (words one space apart) and lane b mixes the word
 * hashes. Returns the word count; the lanes are left in `lanes`. A loop of
 * its own, with nothing after it that V8 has not seen run: with the result
 * object built after the loop, its on-stack-replaced code deoptimised on
 * every page.
 */
function readWords(lower: string, keepWords: boolean): number {
  let count = 0;
  let inWord = false;
  let word = FNV_OFFSET;
  let a = FNV_OFFSET;
  let b = 0x9747b28c | 0;
  // The end of the text counts as a separator, so each word ends in one place.
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 32;
    if (isSeparator(c)) {
      if (inWord) {
        if (keepWords) pushWordHash(count, word);
        count++;
        b = Math.imul(b ^ word, 0x5bd1e995);
        b ^= b >>> 15;
        inWord = false;
        word = FNV_OFFSET;
      }
      continue;
    }
    if (!inWord) {
      inWord = true;
      if (count > 0) a = Math.imul(a ^ 32, FNV_PRIME); // the one space between words
    }
    word = Math.imul(word ^ c, FNV_PRIME);
    a = Math.imul(a ^ c, FNV_PRIME);
  }
  lanes[0] = a;
  lanes[1] = b;
  return count;
}

/**
 * Word count, exact-duplicate hash and near-duplicate signature of a main
 * text in one pass over its characters (readWords), so no word list,
 * normalised copy or sha1 is made (they were a quarter of a worker's time on
 * text-heavy pages).
 */
export function measureContent(text: string, withSignature: boolean): ContentMeasures {
  const count = readWords(text.toLowerCase(), withSignature);
  return {
    words: count,
    hash: count === 0 ? '' : hex8(fmix32(lanes[0] ^ count)) + hex8(fmix32(lanes[1] + count)),
    signature: withSignature ? shingleSignature(count) : [],
  };
}

/** The signature of a list of words, hashed as given. */
export function minhash(tokens: readonly string[]): number[] {
  tokens.forEach((token, index) => {
    let h = FNV_OFFSET;
    for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), FNV_PRIME);
    pushWordHash(index, h);
  });
  return shingleSignature(tokens.length);
}

/** Estimated Jaccard similarity of two signatures. */
export function similarity(a: readonly number[], b: readonly number[]): number {
  let same = 0;
  for (let k = 0; k < MINHASH_SIZE; k++) if (a[k] === b[k]) same++;
  return same / MINHASH_SIZE;
}

/** A hash of one band of a signature (a small integer, so the bucket map needs no string keys). */
function bandHash(sig: readonly number[], band: number): number {
  let h = band;
  for (let k = band * ROWS; k < (band + 1) * ROWS; k++) h = Math.imul(h ^ (sig[k] | 0), FNV_PRIME);
  return fmix32(h) & 0x3fffffff;
}

function sameBand(a: readonly number[], b: readonly number[], band: number): boolean {
  for (let k = band * ROWS; k < (band + 1) * ROWS; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * The items of one hash bucket split into groups with exactly equal bands,
 * each in item order: a hash collision must not make a candidate pair.
 */
function exactGroups(signatures: ReadonlyArray<readonly number[]>, items: readonly number[], band: number): number[][] {
  const groups: number[][] = [];
  for (const item of items) {
    const group = groups.find((g) => sameBand(signatures[g[0]], signatures[item], band));
    if (group) group.push(item);
    else groups.push([item]);
  }
  return groups;
}

/**
 * Pairs of items whose signatures are at least `threshold` similar. LSH with
 * 8 bands of 8 rows makes pairs from about 77 % similarity candidates; each
 * candidate pair is then checked on the whole signature. Large buckets (a
 * shared template) are compared against their first member only, so the
 * cost stays linear. Buckets are found by a hash of the band, then split by
 * exact equality.
 */
export function nearDuplicatePairs(signatures: ReadonlyArray<readonly number[]>, threshold: number): Array<[number, number, number]> {
  const buckets: number[][] = [];
  for (let b = 0; b < BANDS; b++) {
    const byHash = new Map<number, number[]>();
    signatures.forEach((sig, index) => {
      if (sig.length !== MINHASH_SIZE) return;
      const key = bandHash(sig, b);
      const items = byHash.get(key);
      if (items) items.push(index);
      else byHash.set(key, [index]);
    });
    for (const items of byHash.values()) if (items.length > 1) buckets.push(...exactGroups(signatures, items, b));
  }
  const seen = new Set<string>();
  const pairs: Array<[number, number, number]> = [];
  const consider = (i: number, j: number): void => {
    const key = i < j ? `${i},${j}` : `${j},${i}`;
    if (seen.has(key)) return;
    seen.add(key);
    const s = similarity(signatures[i], signatures[j]);
    if (s >= threshold) pairs.push(i < j ? [i, j, s] : [j, i, s]);
  };
  for (const bucket of buckets) {
    if (bucket.length < 2) continue;
    if (bucket.length <= 50) {
      for (let x = 0; x < bucket.length; x++) for (let y = x + 1; y < bucket.length; y++) consider(bucket[x], bucket[y]);
    } else {
      for (let y = 1; y < bucket.length; y++) consider(bucket[0], bucket[y]);
    }
  }
  return pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}
