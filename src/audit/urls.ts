/**
 * URL arithmetic of a static dist/: clean URLs map to `<path>/index.html`,
 * links resolve against the page's URL on the site's origin.
 */

/** Stand-in origin when none is known: relative links still resolve. */
export const PLACEHOLDER_ORIGIN = 'https://site.invalid';

/** `index.html` → `/`, `a/b/index.html` → `/a/b`, `a/file.html` → `/a/file.html`. */
export function fileToUrl(file: string): string {
  if (file === 'index.html') return '/';
  if (file.endsWith('/index.html')) return '/' + file.slice(0, -'/index.html'.length);
  return '/' + file;
}

export type ResolvedLink =
  | { kind: 'internal'; path: string; fragment: string; sameDocument: boolean; insecure: boolean }
  | { kind: 'external'; url: string }
  | { kind: 'other' }
  | { kind: 'uncrawlable' };

/** Normalises a decoded path: no trailing slash except for the root. */
export function cleanPath(pathname: string): string {
  let path = pathname;
  // Without a '%' there is nothing to decode; most links of a built site have none.
  if (pathname.includes('%')) {
    try {
      path = decodeURIComponent(pathname);
    } catch {
      // A malformed escape stays as written; the target lookup will miss and report it.
    }
  }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Root-relative hrefs without dot segments, backslashes or whitespace: most links of a static site. */
const ROOT_RELATIVE = /^\/(?!\/)[^\\\s]*$/;
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$|[?#])/;

let ownCache: { origin: string; url: URL } | null = null;
function ownUrl(origin: string): URL {
  if (ownCache?.origin !== origin) ownCache = { origin, url: new URL(origin) };
  return ownCache.url;
}

export function resolveLink(href: string | null, pageUrl: string, origin: string): ResolvedLink {
  // Fast path: WHATWG URL parsing dominated the audit's profile, and it would give the same answer here.
  if (href !== null && ROOT_RELATIVE.test(href) && !DOT_SEGMENT.test(href)) {
    const hashAt = href.indexOf('#');
    const beforeHash = hashAt === -1 ? href : href.slice(0, hashAt);
    const queryAt = beforeHash.indexOf('?');
    const path = cleanPath(queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt));
    return {
      kind: 'internal',
      path,
      fragment: hashAt === -1 ? '' : safeDecode(href.slice(hashAt + 1)),
      sameDocument: path === pageUrl && queryAt === -1,
      insecure: false,
    };
  }
  if (href === null || href.trim() === '' || /^\s*javascript:/i.test(href)) return { kind: 'uncrawlable' };
  if (/^(mailto|tel|sms|data):/i.test(href)) return { kind: 'other' };
  let url: URL;
  try {
    url = new URL(href, origin + pageUrl);
  } catch {
    return { kind: 'uncrawlable' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'other' };
  const own = ownUrl(origin);
  if (url.host !== own.host) return { kind: 'external', url: url.href };
  const path = cleanPath(url.pathname);
  return {
    kind: 'internal',
    path,
    fragment: url.hash.length > 1 ? safeDecode(url.hash.slice(1)) : '',
    sameDocument: href.startsWith('#') || (path === pageUrl && !url.search),
    insecure: url.protocol === 'http:' && own.protocol === 'https:',
  };
}

/** Candidate files (relative to dist) that serve a clean path, in the order a static host tries them. */
export function candidateFiles(path: string): string[] {
  if (path === '/' || path === '') return ['index.html'];
  const rel = path.replace(/^\/+/, '');
  return [rel, rel + '/index.html', rel + '.html'];
}
