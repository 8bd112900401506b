/**
 * Small deterministic helpers the generator shares: a seeded PRNG, node ids,
 * slugs, word counts and shingle similarity. Nothing here reads the clock or
 * the environment, so the same input always gives byte-identical data.
 */
import { createHash } from 'node:crypto';

/** 32 lower-case hex characters, stable for a stable key (the CMS's node id shape). */
export function nodeIdFor(key: string): string {
  return createHash('md5').update(key).digest('hex');
}

/** mulberry32: tiny, fast and good enough to vary wording or to pick a test's edits; the same seed, the same numbers. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** mulberry32 seeded by a key, per use, so the order of calls elsewhere cannot shift it. */
export function prng(seed: string): () => number {
  return mulberry32(parseInt(nodeIdFor(seed).slice(0, 8), 16));
}

export function pick<T>(rand: () => number, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[Math.floor(rand() * items.length)];
}

/** Picks n distinct items, keeping their original order (stable, readable output). */
export function pickSome<T>(rand: () => number, items: readonly T[], n: number): T[] {
  const idx = items.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx
    .slice(0, Math.min(n, items.length))
    .sort((a, b) => a - b)
    .map((i) => items[i]);
}

/** Hyphenated lower-case slug of a headline or name; only [a-z0-9-] survives. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A calendar date `YYYY-MM-DD` from a day offset after `start` (UTC arithmetic, no clock). */
export function addDays(start: string, days: number): string {
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9%.-]+/g, ' ')
    .split(' ')
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((w) => w.length > 0);
}

export function wordCount(text: string): number {
  return words(text).length;
}

/** 5-word shingles, hashed to numbers so that pairwise Jaccard over ~1,000 texts stays cheap. */
export function shingles(text: string, size = 5): Set<string> {
  const w = words(text);
  const out = new Set<string>();
  for (let i = 0; i + size <= w.length; i++) out.add(w.slice(i, i + size).join(' '));
  return out;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let inter = 0;
  for (const s of small) if (large.has(s)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Upper-cases the first letter; used when a fact fragment starts a sentence. */
export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "a, b and c" */
export function joinList(items: readonly string[], conj = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conj} ${items[items.length - 1]}`;
}

/** Words of product and ingredient names that stay capitalised mid-sentence. */
const PROPER = new Set(['St.', 'John’s', 'Jerusalem', 'Siberian', 'Korean', 'Japanese', 'Chinese', 'Tongkat', 'Ali', 'Montmorency']);

/** The name as it reads mid-sentence: "curcumin", "NMN", "L-theanine", "vitamin B12". */
export function mid(name: string): string {
  return name
    .split(' ')
    .map((w) => {
      if (/^[A-Z0-9-]{2,}$/.test(w) || /^[A-Z]\d*\)?$/.test(w) || /^Q10$/.test(w) || /^5-HTP$/.test(w) || PROPER.has(w)) return w;
      if (w.startsWith('L-') || w.startsWith('D-')) return w.slice(0, 2) + w.slice(2).toLowerCase();
      if (w.startsWith('(') && /^\([A-Z][a-z]/.test(w)) return '(' + w.slice(1).toLowerCase();
      return w.toLowerCase();
    })
    .join(' ');
}
