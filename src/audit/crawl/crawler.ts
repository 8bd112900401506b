/**
 * The crawl: robots.txt first (obeyed unless told not to), then the
 * sitemaps it names (or /sitemap.xml), a made-up URL to see how missing
 * pages are answered, and then every page and reference reachable from the
 * start URL and the sitemaps, inside the scope, at most `concurrency`
 * requests at a time. Each URL is fetched once; its redirects are followed
 * hop by hop and recorded. What a page references comes from `onPage`, so
 * the page is read once, by the audit's own scanner.
 */
import { blockedBy, googlebotRules, parseRobots, type ParsedRobots } from '../robots.js';
import { parseSitemap, type ParsedSitemap } from '../sitemap.js';
import { createHttpClient, type HttpClient } from './http.js';
import { REDIRECT_STATUSES, type Hop } from './redirects.js';
import { crawlUrl, inScope, makeScope, pathOf, type Scope } from './scope.js';

/** How a URL was found; pages are followed, resources only fetched. */
export type Via = 'start' | 'sitemap' | 'link' | 'canonical' | 'image' | 'resource';
const PAGE_VIAS: ReadonlySet<Via> = new Set(['start', 'sitemap', 'link', 'canonical']);

export interface Reference {
  href: string;
  via: Via;
}

export interface UrlRecord {
  url: string;
  via: Via[];
  /** Final status after the redirects; null when it was not fetched or got no answer. */
  status: number | null;
  /** Why there is no status: the network error, or why it was not fetched. */
  error?: string;
  /** Set when robots.txt forbids fetching it. */
  blockedBy?: string;
  /** Left unfetched because --max-pages was reached. */
  skipped?: boolean;
  redirects: Hop[];
  loop?: boolean;
  finalUrl: string;
  /** Recorded headers of the final answer. */
  headers: Record<string, string>;
  bytes: number;
  /** Final URLs of the pages that link to it or load it, and of those that name it canonical. */
  referrers: Set<string>;
  canonicalOf: Set<string>;
}

export interface CrawlOptions {
  start: string;
  /** The site's declared origin; otherwise taken from the first sitemap entry. */
  siteOrigin?: string;
  concurrency: number;
  maxPages: number;
  timeoutMs: number;
  ignoreRobots: boolean;
  userAgent?: string;
  /** Reads a fetched HTML page (at its final URL) and returns what it references. */
  onPage(page: { url: string; html: string; record: UrlRecord; siteOrigin: string; originKnown: boolean; scope: Scope }): Reference[];
}

export interface CrawlResult {
  /** The start URL as fetched (no fragment). */
  start: string;
  scope: Scope;
  siteOrigin: string;
  originKnown: boolean;
  records: Map<string, UrlRecord>;
  robots: { url: string; text: string; parsed: ParsedRobots } | null;
  sitemaps: Array<{ url: string; bytes: number; parsed: ParsedSitemap }>;
  /** The made-up URL's answer, and its body when HTML. */
  probe: { record: UrlRecord; html: string | null };
  /** HTML pages read. */
  pages: number;
  /** Page URLs left unfetched for --max-pages. */
  skipped: number;
}

export const USER_AGENT = 'site-audit';
/** A path no site has: how the server answers it tells whether missing pages get a 404. */
export const PROBE_PATH = 'site-audit-no-such-page-4b1e7d';
const MAX_HOPS = 10;

export const isHtml = (type: string): boolean => /^\s*(text\/html|application\/xhtml\+xml)/i.test(type);
const isText = (type: string): boolean => isHtml(type) || /^\s*(text\/|application\/(xml|[\w.+-]*\+xml))/i.test(type) || type === '';

function newRecord(url: string, via: Via): UrlRecord {
  return { url, via: [via], status: null, redirects: [], finalUrl: url, headers: {}, bytes: 0, referrers: new Set(), canonicalOf: new Set() };
}

/** Fetches `record.url`, following redirects inside the crawled origin; returns the final body when kept. */
async function fetchInto(client: HttpClient, record: UrlRecord, scope: Scope, keep: (type: string) => boolean): Promise<string | null> {
  let current = record.url;
  const seen = new Set([current]);
  for (let hop = 0; ; hop++) {
    const r = await client.get(current, keep);
    record.finalUrl = current;
    if (!r.ok) {
      record.error = r.error;
      return null;
    }
    record.status = r.status;
    record.headers = r.headers;
    record.bytes = r.bytes;
    const location = r.headers.location;
    if (!REDIRECT_STATUSES.has(r.status) || location === undefined) return r.body;
    record.redirects.push({ url: current, status: r.status, location });
    let next: string;
    try {
      next = new URL(location, current).href.replace(/#.*$/, '');
    } catch {
      record.error = `Location "${location}" is not a URL`;
      return null;
    }
    record.finalUrl = next;
    if (seen.has(next)) {
      record.loop = true;
      return null;
    }
    // Another host or scheme: the hop is recorded, the target is not ours to fetch.
    if (!next.startsWith(scope.origin + '/')) return null;
    if (hop + 1 >= MAX_HOPS) {
      record.error = `more than ${MAX_HOPS} redirects`;
      return null;
    }
    seen.add(next);
    current = next;
  }
}

/** The rules this crawler obeys: its own group, else `*`. */
function ownRules(robots: ParsedRobots) {
  const group = robots.groups.get(USER_AGENT) ?? robots.groups.get('*') ?? [];
  return googlebotRules({ ...robots, groups: new Map([['googlebot', group]]) });
}

export async function crawlSite(opts: CrawlOptions): Promise<CrawlResult> {
  const client = createHttpClient({ sockets: opts.concurrency, timeoutMs: opts.timeoutMs, userAgent: opts.userAgent ?? USER_AGENT });
  try {
    return await crawlWith(client, opts);
  } finally {
    client.close();
  }
}

async function crawlWith(client: HttpClient, opts: CrawlOptions): Promise<CrawlResult> {
  const start = new URL(opts.start);
  start.hash = '';
  let scope = makeScope(start.href, opts.siteOrigin ?? null);

  // robots.txt: always at the origin's root.
  const robotsRecord = newRecord(`${scope.origin}/robots.txt`, 'resource');
  const robotsText = await fetchInto(client, robotsRecord, scope, isText);
  const robots = robotsRecord.status === 200 && robotsText !== null ? { url: robotsRecord.url, text: robotsText, parsed: parseRobots(robotsText) } : null;
  const rules = robots && !opts.ignoreRobots ? ownRules(robots.parsed) : [];
  const blocked = (url: string): string | null => (rules.length === 0 ? null : blockedBy(rules, pathOf(url)));

  // Sitemaps: those robots.txt names (their paths, on the crawled origin), else /sitemap.xml; indexes are followed.
  const sitemaps: CrawlResult['sitemaps'] = [];
  const sitemapQueue = (robots?.parsed.sitemaps ?? []).map((s) => s.url);
  if (sitemapQueue.length === 0) sitemapQueue.push(`${scope.origin}${scope.base}sitemap.xml`);
  const sitemapSeen = new Set<string>();
  const sitemapEntries: string[] = [];
  while (sitemapQueue.length > 0) {
    let url: string;
    try {
      const u = new URL(sitemapQueue.shift()!);
      url = scope.origin + u.pathname + u.search;
    } catch {
      continue; // robots/sitemap-not-absolute reports it
    }
    if (sitemapSeen.has(url) || sitemapSeen.size >= 1000) continue;
    sitemapSeen.add(url);
    const record = newRecord(url, 'resource');
    const text = await fetchInto(client, record, scope, isText);
    if (record.status !== 200 || text === null) continue;
    const parsed = parseSitemap(text);
    sitemaps.push({ url, bytes: Buffer.byteLength(text), parsed });
    if (!parsed.ok) continue;
    for (const entry of parsed.entries) (parsed.kind === 'sitemapindex' ? sitemapQueue : sitemapEntries).push(entry.loc);
  }
  let siteOrigin = opts.siteOrigin ?? null;
  if (siteOrigin === null) {
    for (const loc of sitemapEntries) {
      try {
        siteOrigin = new URL(loc).origin;
        break;
      } catch {
        // a bad <loc>: the sitemap rules report it
      }
    }
  }
  const originKnown = siteOrigin !== null;
  scope = makeScope(start.href, siteOrigin);
  siteOrigin ??= scope.origin;

  // How a missing page is answered.
  const probe = newRecord(`${scope.origin}${scope.base}${PROBE_PATH}`, 'link');
  const probeHtml = await fetchInto(client, probe, scope, isHtml);

  const records = new Map<string, UrlRecord>();
  const queue: UrlRecord[] = [];
  let head = 0; // queue[head…] wait to be fetched
  let pageBudget = opts.maxPages;
  let pages = 0;
  let skipped = 0;

  const enqueue = (url: string, via: Via, from: string | null): void => {
    let record = records.get(url);
    if (record) {
      if (!record.via.includes(via)) record.via.push(via);
      // A page first seen as a resource (an image link to an HTML file) is still only fetched once.
    } else {
      record = newRecord(url, via);
      records.set(url, record);
      const pageLike = PAGE_VIAS.has(via);
      const pattern = blocked(url);
      if (pattern !== null) {
        record.blockedBy = pattern;
        record.error = `robots.txt "Disallow: ${pattern}"`;
      } else if (pageLike && !inScope(url, scope)) {
        record.error = 'outside the crawled folder';
      } else if (pageLike && pageBudget <= 0) {
        record.skipped = true;
        record.error = `not fetched: --max-pages ${opts.maxPages} reached`;
        skipped++;
      } else {
        if (pageLike) pageBudget--;
        queue.push(record);
      }
    }
    if (from !== null) (via === 'canonical' ? record.canonicalOf : record.referrers).add(from);
  };

  const visit = async (record: UrlRecord): Promise<void> => {
    const followed = record.via.some((v) => PAGE_VIAS.has(v));
    const body = await fetchInto(client, record, scope, followed ? isHtml : () => false);
    if (body === null || record.status !== 200 || !isHtml(record.headers['content-type'] ?? '') || !inScope(record.finalUrl, scope)) return;
    pages++;
    const refs = opts.onPage({ url: record.finalUrl, html: body, record, siteOrigin: siteOrigin!, originKnown, scope });
    for (const ref of refs) {
      const url = crawlUrl(ref.href, record.finalUrl, scope);
      if (url !== null && url !== record.finalUrl) enqueue(url, ref.via, record.finalUrl);
    }
  };

  enqueue(start.href, 'start', null);
  for (const loc of sitemapEntries) {
    const url = crawlUrl(loc, start.href, scope);
    if (url !== null) enqueue(url, 'sitemap', null);
  }

  await new Promise<void>((resolve, reject) => {
    let running = 0;
    const pump = (): void => {
      while (running < opts.concurrency && head < queue.length) {
        running++;
        const record = queue[head];
        queue[head++] = undefined!; // let the record go with the crawl's result, not the queue
        visit(record).then(() => {
          running--;
          pump();
        }, reject);
      }
      if (running === 0 && head >= queue.length) resolve();
    };
    pump();
  });

  return { start: start.href, scope, siteOrigin, originKnown, records, robots, sitemaps, probe: { record: probe, html: probeHtml }, pages, skipped };
}
