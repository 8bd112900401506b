/**
 * What the crawl may fetch: the origin of the URL the user named and the
 * paths under its folder (the base path). Links to the site's declared
 * origin (its sitemap's or --origin) name the same pages: they are mapped
 * onto the crawled origin, so a site served on localhost is crawled as the
 * site it will be. Every other host is left alone.
 */
import { cleanPath } from '../urls.js';

/**
 * A root-relative path (and query) made only of characters the WHATWG URL
 * parser keeps as written in an http(s) URL's path and query: for these
 * `origin + href` is what `new URL(href, page).href` gives, at a fraction
 * of the cost (a crawl resolves some 60 references per page).
 */
const PLAIN_ROOT_RELATIVE = /^\/(?!\/)[A-Za-z0-9\-._~!$&()*+,;=:@/%?]*$/;
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$|\?)/;

export interface Scope {
  /** The crawled origin, `http://127.0.0.1:8080`. */
  origin: string;
  /** The folder of the start URL, ending in '/': only paths under it are fetched. */
  base: string;
  /** Host of the site's declared origin, whose URLs map onto `origin`; null when none is known or it is the crawled one. */
  siteHost: string | null;
}

export function makeScope(start: string, siteOrigin: string | null): Scope {
  const url = new URL(start);
  const base = url.pathname.endsWith('/') ? url.pathname : url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);
  const siteHost = siteOrigin === null ? null : new URL(siteOrigin).host;
  return { origin: url.origin, base, siteHost: siteHost === url.host ? null : siteHost };
}

/**
 * The absolute URL to fetch for a reference (without its fragment), or
 * null when it names another host, another scheme on the crawled host,
 * or no http(s) URL at all.
 */
export function crawlUrl(href: string, pageUrl: string, scope: Scope): string | null {
  // Fast path: most references of a site are root-relative paths the URL parser would leave as they are.
  const hash = href.indexOf('#');
  const bare = hash === -1 ? href : href.slice(0, hash);
  if (PLAIN_ROOT_RELATIVE.test(bare) && !DOT_SEGMENT.test(bare)) return scope.origin + bare;
  let url: URL;
  try {
    url = new URL(href.trim(), pageUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  if (url.origin === scope.origin) return url.href;
  if (scope.siteHost !== null && url.host === scope.siteHost) return scope.origin + url.pathname + url.search;
  return null;
}

/** The path and query of a URL as the URL parser writes it (`href`): `http://h:1/a?b` → `/a?b`. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start === -1 ? '/' : url.slice(start);
}

export function inScope(url: string, scope: Scope): boolean {
  return url.startsWith(scope.origin + '/') && pathOf(url).startsWith(scope.base);
}

/** The page key of a crawled URL (as `href` writes it): its decoded path without trailing slash, as the disk audit keys pages. */
export function pageKey(url: string): string {
  const path = pathOf(url);
  const query = path.indexOf('?');
  return cleanPath(query === -1 ? path : path.slice(0, query));
}

/** The key of the stand-in `files` map the site-wide rules look targets up in (see candidateFiles). */
export function fileKey(path: string): string {
  return path === '/' || path === '' ? 'index.html' : path.replace(/^\/+/, '');
}
