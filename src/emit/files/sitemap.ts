/**
 * sitemap.xml (and, past 50,000 URLs, a sitemap index with numbered parts)
 * and robots.txt. Entries carry content dates only, so a rebuild of unchanged
 * content produces the same bytes. The sitemap package (some 50 ms to import)
 * is loaded only when a file is not in the build cache.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { cachedBytes } from '../cache-files.js';
import type { SiteFile, SiteWriter } from '../output/site-writer.js';

export interface SitemapEntry {
  /** Absolute canonical URL. */
  url: string;
  /** YYYY-MM-DD, the page's own content date. */
  lastmod: string;
  /** Absolute URLs of the page's photographs (Google's image extension), if it has any. */
  images?: readonly string[];
}

/** The protocol's limit per file (sitemaps.org). */
export const SITEMAP_LIMIT = 50_000;

/** Indexable pages → unique canonical URLs, in first-seen order (a route declared twice appears once). */
export function sitemapEntries(pages: Iterable<{ indexable: boolean; canonical: string; lastmod: string; images?: readonly string[] }>): SitemapEntry[] {
  const byUrl = new Map<string, SitemapEntry>();
  for (const p of pages) {
    if (!p.indexable) continue;
    const seen = byUrl.get(p.canonical);
    // Two routes sharing a canonical URL: the newer content date is the URL's lastmod.
    if (seen === undefined) byUrl.set(p.canonical, { url: p.canonical, lastmod: p.lastmod, ...(p.images?.length ? { images: p.images } : {}) });
    else if (p.lastmod > seen.lastmod) seen.lastmod = p.lastmod;
  }
  return [...byUrl.values()];
}

/**
 * A urlset's bytes, from the build cache when the same entries made one
 * before: the sitemap package takes a tenth of a millisecond a URL, which a
 * rebuild that changed a few pages should not pay for every page again.
 */
async function urlset(entries: readonly SitemapEntry[], cacheDir?: string): Promise<Uint8Array> {
  if (cacheDir === undefined) return freshUrlset(entries);
  const h = createHash('sha256').update(`${FORMAT}\0`);
  for (const e of entries) h.update(JSON.stringify([e.url, e.lastmod, e.images ?? null])).update('\n');
  return cachedBytes(path.join(cacheDir, 'sitemaps', `${h.digest('hex').slice(0, 32)}.xml`), KEEP, () => freshUrlset(entries));
}

const FORMAT = 'site-sitemap/1';
/** Urlsets kept: those of a few catalogues and their recent versions. */
const KEEP = 32;

async function freshUrlset(entries: readonly SitemapEntry[]): Promise<Buffer> {
  // The image namespace only where a page has photographs: a catalogue without any keeps its bytes.
  const image = entries.some((e) => e.images !== undefined);
  const { SitemapStream, streamToPromise } = await import('sitemap');
  const stream = new SitemapStream({ lastmodDateOnly: true, xmlns: { news: false, xhtml: false, image, video: false } });
  const done = streamToPromise(stream);
  for (const e of entries) stream.write({ url: e.url, lastmod: e.lastmod, ...(e.images && { img: e.images.map((url) => ({ url })) }) });
  stream.end();
  return done;
}

/**
 * `sitemap.xml`; past `limit` URLs it becomes an index of `sitemap-1.xml`,
 * `sitemap-2.xml`, ….
 */
export async function sitemapFiles(origin: string, entries: readonly SitemapEntry[], limit = SITEMAP_LIMIT, cacheDir?: string): Promise<SiteFile[]> {
  if (entries.length <= limit) return [{ path: 'sitemap.xml', contents: await urlset(entries, cacheDir) }];
  const parts: SiteFile[] = [];
  const { SitemapIndexStream, streamToPromise } = await import('sitemap');
  const index = new SitemapIndexStream({ lastmodDateOnly: true });
  const indexDone = streamToPromise(index);
  for (let start = 0, n = 1; start < entries.length; start += limit, n++) {
    const part = entries.slice(start, start + limit);
    const name = `sitemap-${n}.xml`;
    parts.push({ path: name, contents: await urlset(part, cacheDir) });
    const lastmod = part.reduce((max, e) => (e.lastmod > max ? e.lastmod : max), part[0].lastmod);
    index.write({ url: `${origin}/${name}`, lastmod });
  }
  index.end();
  return [{ path: 'sitemap.xml', contents: await indexDone }, ...parts];
}

/** Writes sitemapFiles (through the build cache in `cacheDir`, when given); returns the files written, relative to the output folder. */
export async function writeSitemap(
  writer: SiteWriter,
  origin: string,
  entries: readonly SitemapEntry[],
  limit = SITEMAP_LIMIT,
  cacheDir?: string,
): Promise<string[]> {
  return writer.write(await sitemapFiles(origin, entries, limit, cacheDir));
}

/** Allows everything that is published and names the sitemap; noindex pages say so in their own head. */
export function robotsTxt(origin: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`;
}
