/**
 * The rules only a crawl can see: statuses, redirects, how missing pages
 * are answered, and what response headers say. Pure: they read the crawl's
 * records and the pages' facts and return findings.
 */
import { findingEmitter, isNoindex } from '../page-rules.js';
import type { Finding, RuleSettings, SiteFacts } from '../types.js';
import type { UrlRecord } from './crawler.js';
import { robotsDirectives } from './headers.js';
import { PERMANENT_STATUSES, redirectKind } from './redirects.js';
import { pageKey } from './scope.js';

export interface CrawlRuleInput {
  records: ReadonlyMap<string, UrlRecord>;
  probe: { record: UrlRecord; html: string | null; title: string | null; h1: string | null };
  /** Analysed pages by key, with the final URL each was read at and the headers it came with. */
  pages: ReadonlyMap<string, { url: string; site: SiteFacts; headers: Record<string, string> }>;
  settings: RuleSettings;
}

const NOT_FOUND_TEXT = /\b(404|not found|page (is )?missing|does not exist|doesn't exist|no longer (exists|available)|could not be found|can't be found)\b/i;

/** Whether a page's title or H1 says it is a not-found page. */
export function looksLikeNotFound(title: string | null, h1: string | null): boolean {
  return NOT_FOUND_TEXT.test(title ?? '') || NOT_FOUND_TEXT.test(h1 ?? '');
}

const sorted = (set: ReadonlySet<string>): string[] => [...set].sort();

function examples(urls: readonly string[], max = 3): string {
  const shown = urls.slice(0, max).map((u) => pageKeyOrUrl(u));
  return shown.join(', ') + (urls.length > max ? ` and ${urls.length - max} more` : '');
}

function pageKeyOrUrl(url: string): string {
  try {
    return pageKey(url);
  } catch {
    return url;
  }
}

function origins(record: UrlRecord): string {
  const refs = sorted(record.referrers);
  const parts: string[] = [];
  if (refs.length > 0) parts.push(`linked from ${refs.length === 1 ? examples(refs) : `${refs.length} pages (${examples(refs)})`}`);
  const canonicalOf = sorted(record.canonicalOf);
  if (canonicalOf.length > 0)
    parts.push(`the canonical of ${canonicalOf.length === 1 ? examples(canonicalOf) : `${canonicalOf.length} pages (${examples(canonicalOf)})`}`);
  if (record.via.includes('sitemap')) parts.push('listed in the sitemap');
  if (record.via.includes('start')) parts.push('the start URL');
  return parts.join(', ');
}

export function checkCrawl(input: CrawlRuleInput): Finding[] {
  const findings: Finding[] = [];
  const { settings } = input;
  /** Findings about a URL sit on the first page (in URL order) that references it, or on the URL itself. */
  const about = (record: UrlRecord, referrers: ReadonlySet<string> = record.referrers) => {
    const first = sorted(referrers)[0] ?? sorted(record.canonicalOf)[0];
    return first !== undefined ? findingEmitter(settings, findings, pageKey(first), first) : findingEmitter(settings, findings, null, record.url);
  };

  for (const record of [...input.records.values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))) {
    if (record.blockedBy !== undefined || record.skipped) continue;
    const where = origins(record);
    const emit = about(record);
    if (record.loop) {
      emit(
        'http/redirect-loop',
        `${record.url} redirects in a loop: ${[...record.redirects.map((h) => `${h.url} (${h.status})`), record.finalUrl].join(' → ')}; ${where}.`,
      );
    } else if (record.status === null && record.error !== undefined && record.error !== 'outside the crawled folder') {
      emit('http/unreachable', `${record.url} got no answer (${record.error}); ${where}.`);
    } else if (record.status !== null && record.status >= 400) {
      const shown = record.finalUrl !== record.url ? `${record.url} (redirected to ${record.finalUrl})` : record.url;
      emit(record.status >= 500 ? 'http/server-error' : 'http/client-error', `${shown} answered ${record.status}; ${where}.`);
    }
    if (record.redirects.length === 0 || record.loop) continue;
    const chain = [...record.redirects.map((h) => `${h.url} (${h.status})`), record.finalUrl].join(' → ');
    if (record.redirects.length > 1) emit('http/redirect-chain', `${record.url} takes ${record.redirects.length} redirects: ${chain}; ${where}.`);
    const temporary = record.redirects.filter((h) => !PERMANENT_STATUSES.has(h.status));
    if (temporary.length > 0) {
      emit('http/temporary-redirect', `${temporary[0].url} redirects with ${temporary[0].status} (temporary) to ${temporary[0].location}; ${where}.`);
    }
    const first = record.redirects[0];
    const kind = redirectKind(first.url, first.location);
    if (kind === 'https') emit('http/https-redirect', `${first.url} redirects to https; ${where}.`);
    else if (kind === 'trailing-slash')
      emit(
        'http/trailing-slash-redirect',
        `${first.url} redirects to ${new URL(first.location, first.url).pathname}, which differs only in its trailing slash; ${where}.`,
      );
    else if (record.via.some((v) => v === 'link' || v === 'image' || v === 'resource'))
      emit('http/linked-redirect', `${record.url} redirects to ${record.finalUrl}; ${where}.`);
    if (record.canonicalOf.size > 0) {
      about(record, record.canonicalOf)(
        'http/canonical-redirects',
        `The canonical ${record.url} redirects to ${record.finalUrl}${record.canonicalOf.size > 1 ? ` (canonical of ${record.canonicalOf.size} pages: ${examples(sorted(record.canonicalOf))})` : ''}.`,
      );
    }
  }

  // How a URL that names no page is answered.
  const probe = input.probe.record;
  const atProbe = findingEmitter(settings, findings, null, probe.url);
  if (probe.status !== null && probe.status !== 404 && probe.status !== 410) {
    const notFoundPage = probe.status === 200 && looksLikeNotFound(input.probe.title, input.probe.h1);
    const via = probe.redirects.length > 0 ? ` after ${probe.redirects.length} redirect${probe.redirects.length > 1 ? 's' : ''} to ${probe.finalUrl}` : '';
    if (probe.status === 200 && !notFoundPage) {
      atProbe(
        'http/soft-404',
        `${probe.url}, a made-up URL, answered 200${via} with a page (${input.probe.title ? `"${input.probe.title}"` : 'untitled'}): every mistyped or removed URL looks like a page to search engines.`,
      );
    } else if (!(probe.status >= 500) || notFoundPage) {
      atProbe(
        'http/not-found-status',
        `${probe.url}, a made-up URL, answered ${probe.status}${via}${notFoundPage ? ' with a not-found page' : ''} instead of 404.`,
      );
    }
  }

  // Pages: headers and not-found pages answered 200.
  for (const [key, { url, site, headers }] of [...input.pages].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const emit = findingEmitter(settings, findings, key, url);
    const header = headers['x-robots-tag'];
    if (header !== undefined && isNoindex(robotsDirectives(header))) emit('http/noindex-header', `${key} is noindex by its X-Robots-Tag header ("${header}").`);
    if (looksLikeNotFound(site.title, site.h1)) emit('http/soft-404', `${key} answered 200 with a not-found page ("${site.title ?? site.h1}").`);
  }
  return findings;
}
