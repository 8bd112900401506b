/**
 * What the crawl may fetch: the origin of the URL the user named and the
 * paths under its folder (the base path). Links to the site's declared
 * origin (its sitemap's or --origin) name the same pages: they are mapped
 * onto the crawled origin, so a site served on localhost is crawled as the
 * site it will be. Every other host is left alone.
 */
import { cleanPath } from '../urls.js';

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

export function inScope(url: string, scope: Scope): boolean {
  return url.startsWith(scope.origin + '/') && new URL(url).pathname.startsWith(scope.base);
}

/** The page key of a crawled URL: its decoded path without trailing slash, as the disk audit keys pages. */
export function pageKey(url: string): string {
  return cleanPath(new URL(url).pathname);
}

/** The key of the stand-in `files` map the site-wide rules look targets up in (see candidateFiles). */
export function fileKey(path: string): string {
  return path === '/' || path === '' ? 'index.html' : path.replace(/^\/+/, '');
}
