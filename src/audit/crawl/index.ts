/**
 * `site audit URL`: the audit over HTTP. The crawl hands each HTML page to
 * the disk audit's own scanner and page rules (with what its headers add:
 * X-Robots-Tag, Link rel=canonical), the site-wide rules run over the
 * pages found, with the crawl's answers standing in for dist/'s files, and
 * the crawl's own rules add what only HTTP shows.
 */
import { UserError } from '../../core/errors.js';
import { buildReport, sortFindings, type AuditReport } from '../index.js';
import type { CrawlRow } from './section.js';
import { checkPage } from '../page-rules.js';
import { scanPage } from '../scan.js';
import { checkSite } from '../site-rules.js';
import type { Finding, PageFacts, RuleSettings, SiteFacts } from '../types.js';
import { crawlSite, PROBE_PATH, type CrawlResult, type Reference, type UrlRecord } from './crawler.js';
import { canonicalLinks, robotsDirectives } from './headers.js';
import { checkCrawl } from './rules.js';
import { fileKey, pageKey, type Scope } from './scope.js';

export interface CrawlAuditOptions {
  url: string;
  /** The site's declared origin (--origin or config); otherwise the first sitemap entry's. */
  origin?: string;
  settings: RuleSettings;
  concurrency: number;
  maxPages: number;
  timeoutMs: number;
  ignoreRobots: boolean;
  today?: string;
  onPhase?: (phase: string, ms: number) => void;
}

/** The start URL could not be crawled: nothing to audit. */
export class CrawlStartError extends UserError {}

/** Disk rules about dist/'s files, which a crawl has no view of. */
const DISK_ONLY = new Set(['url/folder-redirect', 'url/twin-differs']);

/** Everything a page makes a browser or crawler fetch, as written. */
export function referencesOf(facts: PageFacts): Reference[] {
  const refs: Reference[] = [];
  for (const link of facts.links) if (link.href !== null && !/(^|\s)nofollow(\s|$)/.test(link.rel)) refs.push({ href: link.href, via: 'link' });
  for (const c of facts.canonicals) if (c.href !== '') refs.push({ href: c.href, via: 'canonical' });
  for (const img of facts.images) for (const src of [img.src, ...img.srcset]) if (src) refs.push({ href: src, via: 'image' });
  for (const src of facts.shareImages) if (src) refs.push({ href: src, via: 'image' });
  for (const src of facts.resources) if (src) refs.push({ href: src, via: 'resource' });
  return refs;
}

/**
 * Rewrites a page's relative references root-relative against the URL it
 * was read at, and those naming the crawled origin likewise: the page rules
 * resolve against the page's clean path on the site's origin, which for a
 * folder URL (`/docs/`) is not where a browser resolves `intro.html`.
 */
export function rebase(facts: PageFacts, pageUrl: string, scope: Scope): void {
  const fix = (href: string): string => {
    if (href.startsWith('/') && !href.startsWith('//')) return href;
    if (href.startsWith('#') || (/^[a-z][a-z\d+.-]*:/i.test(href) && !href.startsWith(scope.origin + '/'))) return href;
    try {
      const u = new URL(href, pageUrl);
      return u.origin === scope.origin ? u.pathname + u.search + u.hash : href;
    } catch {
      return href;
    }
  };
  for (const link of facts.links) if (link.href !== null && link.href.trim() !== '') link.href = fix(link.href);
  for (const img of facts.images) {
    if (img.src) img.src = fix(img.src);
    img.srcset = img.srcset.map(fix);
  }
  facts.canonicals = facts.canonicals.map((c) => (c.href === '' ? c : { ...c, href: fix(c.href) }));
  facts.shareImages = facts.shareImages.map(fix);
}

/** What the response headers add to the page's own markup. */
function addHeaderFacts(facts: PageFacts, headers: Record<string, string>): void {
  facts.robots.push(...robotsDirectives(headers['x-robots-tag']));
  for (const href of canonicalLinks(headers.link)) facts.canonicals.push({ href, inHead: true });
}

function row(record: UrlRecord): CrawlRow {
  const referrers = [...record.referrers, ...record.canonicalOf].sort();
  return {
    url: record.url,
    via: record.via,
    status: record.status,
    ...(record.error !== undefined ? { error: record.error } : {}),
    redirects: record.redirects,
    finalUrl: record.finalUrl,
    contentType: record.headers['content-type'] ?? null,
    headers: record.headers,
    bytes: record.bytes,
    referrers: referrers.length,
    firstReferrer: referrers[0] ?? null,
  };
}

/** The stand-in for dist/'s file list: every URL not known to be missing, by the key candidateFiles looks up. */
function filesOf(crawl: CrawlResult): Map<string, number> {
  const files = new Map<string, number>();
  for (const record of crawl.records.values()) {
    // Not fetched (robots.txt, --max-pages, outside the folder) is not missing: nothing is known against it.
    const missing =
      record.loop === true ||
      (record.status === null ? record.blockedBy === undefined && !record.skipped && record.error !== 'outside the crawled folder' : record.status >= 400);
    if (missing) continue;
    const key = fileKey(pageKey(record.url));
    files.set(key, Math.max(files.get(key) ?? 0, record.bytes));
  }
  return files;
}

export async function runCrawlAudit(opts: CrawlAuditOptions): Promise<AuditReport> {
  let mark = performance.now();
  const phase = (name: string): void => {
    const now = performance.now();
    opts.onPhase?.(name, now - mark);
    mark = now;
  };
  const pages = new Map<string, { url: string; site: SiteFacts; headers: Record<string, string>; findings: Finding[] }>();
  const crawl = await crawlSite({
    start: opts.url,
    siteOrigin: opts.origin,
    concurrency: opts.concurrency,
    maxPages: opts.maxPages,
    timeoutMs: opts.timeoutMs,
    ignoreRobots: opts.ignoreRobots,
    onPage: ({ url, html, record, siteOrigin, originKnown, scope }) => {
      const key = pageKey(url);
      const facts = scanPage(html, key, url);
      addHeaderFacts(facts, record.headers);
      const refs = referencesOf(facts);
      // The same page reached again (by a query string, or by a redirect and a link) is read for its links only.
      if (!pages.has(key)) {
        rebase(facts, url, scope);
        const checked = checkPage(facts, { origin: siteOrigin, originKnown, settings: opts.settings });
        // A copy: the facts are slices of the page's text, which would otherwise stay in memory with them.
        pages.set(key, structuredClone({ url, site: checked.site, headers: record.headers, findings: checked.findings }));
      }
      return refs;
    },
  });
  phase(`crawl ${crawl.records.size} URLs, ${crawl.pages} pages`);
  const first = crawl.records.get(crawl.start);
  if (first?.blockedBy !== undefined)
    throw new CrawlStartError(`robots.txt disallows ${crawl.start} ("Disallow: ${first.blockedBy}"); pass --ignore-robots to crawl it anyway`);
  if (first?.status === null && !first.loop) throw new CrawlStartError(`nothing answers at ${crawl.start}: ${first.error}`);

  const sorted = [...pages.values()].sort((a, b) => (a.site.url < b.site.url ? -1 : a.site.url > b.site.url ? 1 : 0));
  const siteFacts = sorted.map((p) => p.site);
  const site = checkSite({
    pages: siteFacts,
    files: filesOf(crawl),
    origin: crawl.siteOrigin,
    originKnown: crawl.originKnown,
    settings: opts.settings,
    sitemaps: crawl.sitemaps.length > 0 ? crawl.sitemaps.map((s) => ({ file: s.url, bytes: s.bytes, parsed: s.parsed })) : null,
    robots: crawl.robots ? { file: crawl.robots.url, parsed: crawl.robots.parsed } : null,
    today: opts.today ?? new Date().toISOString().slice(0, 10),
  });
  const probeFacts = crawl.probe.html === null ? null : scanPage(crawl.probe.html, `/${PROBE_PATH}`, crawl.probe.record.url);
  const probeTitle = probeFacts?.titles[0]?.text ?? null;
  const probeH1 = probeFacts?.headings.find((h) => h.level === 1)?.text ?? null;
  const crawlFindings = checkCrawl({
    records: crawl.records,
    probe: { record: crawl.probe.record, html: crawl.probe.html, title: probeTitle, h1: probeH1 },
    pages,
    settings: opts.settings,
  });
  // links/deep counts clicks from the home page: with a base path the crawl's home is the start folder, which the rule does not know.
  const homeless = crawl.scope.base !== '/';
  const keep = (f: Finding): boolean => !DISK_ONLY.has(f.rule) && !(homeless && f.rule === 'links/deep');
  const findings = sortFindings([...sorted.flatMap((p) => p.findings), ...site.findings, ...crawlFindings].filter(keep));
  // A crawl never has the build's routes: the screen-kind chart and the build's own rules stay out.
  const report = buildReport(
    { dir: opts.url, settings: opts.settings },
    crawl.originKnown ? { origin: crawl.siteOrigin, basePath: crawl.scope.base } : null,
    false,
    findings,
    siteFacts,
    site,
  );
  report.crawl = {
    start: opts.url,
    origin: crawl.scope.origin,
    base: crawl.scope.base,
    siteOrigin: crawl.siteOrigin,
    robots: crawl.robots?.url ?? null,
    robotsObeyed: crawl.robots !== null && !opts.ignoreRobots,
    sitemaps: crawl.sitemaps.map((s) => s.url),
    notFound: { url: crawl.probe.record.url, status: crawl.probe.record.status, redirects: crawl.probe.record.redirects },
    pagesRead: crawl.pages,
    skippedForMaxPages: crawl.skipped,
    urls: [...crawl.records.values()].map(row).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)),
  };
  phase('rules');
  return report;
}
