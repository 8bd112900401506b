/**
 * URL arithmetic of a static site on disk, as a static host serves it: the
 * site sits at a base path of its origin (`/` or e.g. `/docs/15/`), a
 * folder's index.html is served at the folder's URL, and links resolve
 * against the URL the page is served at (or its <base href>).
 *
 * A page is known by its key: the clean path (no trailing slash, no
 * `/index.html`), so `/dir`, `/dir/` and `/dir/index.html` name one page.
 */

/** Stand-in origin when none is known: relative links still resolve. */
export const PLACEHOLDER_ORIGIN = 'https://site.invalid';

/** Where the audited folder is served: an origin and a base path that starts and ends with '/'. */
export interface SiteBase {
  origin: string;
  basePath: string;
}

/** A base path as given (`/docs/15`, `docs/15/`, ``) with one leading and one trailing '/'. */
export function normaliseBasePath(path: string): string {
  const inner = path.replace(/^\/+|\/+$/g, '');
  return inner === '' ? '/' : `/${inner}/`;
}

/** The key of the site's root page: `/` or the base path without its trailing slash. */
export function homeKey(basePath: string): string {
  return basePath === '/' ? '/' : basePath.slice(0, -1);
}

/** `index.html` → `/`, `a/b/index.html` → `/a/b`, `a/file.html` → `/a/file.html` (under the base path). */
export function fileToUrl(file: string, basePath = '/'): string {
  if (file === 'index.html') return homeKey(basePath);
  if (file.endsWith('/index.html')) return basePath + file.slice(0, -'/index.html'.length);
  return basePath + file;
}

/**
 * The path a host serves a page file at, which relative links resolve
 * against: a folder's index.html at the folder with its trailing slash,
 * unless the page has a `.html` twin (then hosts serve the clean URL from
 * the twin, and the build's links are root-relative).
 */
export function servedPath(file: string, basePath: string, hasTwin: boolean): string {
  if (file === 'index.html') return basePath;
  if (file.endsWith('/index.html')) return basePath + file.slice(0, -'index.html'.length - (hasTwin ? 1 : 0));
  return basePath + file;
}

export type ResolvedLink =
  /** `slashed`: the path is written in folder form (`dir/`, `dir/index.html`), which no host redirects. */
  | { kind: 'internal'; path: string; fragment: string; sameDocument: boolean; insecure: boolean; slashed: boolean }
  | { kind: 'external'; url: string }
  | { kind: 'other' }
  | { kind: 'uncrawlable' };

/** Normalises a decoded path to a page key: no trailing slash except for the root, `…/index.html` as its folder. */
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
  if (path.endsWith('/index.html')) path = path.slice(0, -'index.html'.length);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}

/** Whether a key lies under the base path (every key does when the site is served from the root). */
export function insideBase(key: string, basePath: string): boolean {
  return basePath === '/' || key.startsWith(basePath) || key === basePath.slice(0, -1);
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

/** Schemes that name no document to fetch: not links to check, not uncrawlable either. */
const OTHER_SCHEME = /^(mailto|tel|sms|data|ftp|news|irc|xmpp|geo|skype|callto|fax):/i;

/**
 * Resolves a reference of the page known as `pageKey`, against `base` (the
 * absolute URL the page is served at, or its <base href>). Internal targets
 * are keys under the site's base path; a same-origin URL outside the base
 * path is outside the audited site and reported as external.
 */
export function resolveLink(href: string | null, base: string, pageKey: string, site: SiteBase): ResolvedLink {
  // Fast path: WHATWG URL parsing dominated the audit's profile, and it would give the same answer here.
  if (href !== null && ROOT_RELATIVE.test(href) && !DOT_SEGMENT.test(href)) {
    const hashAt = href.indexOf('#');
    const beforeHash = hashAt === -1 ? href : href.slice(0, hashAt);
    const queryAt = beforeHash.indexOf('?');
    const pathname = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
    const path = cleanPath(pathname);
    if (!insideBase(path, site.basePath)) return { kind: 'external', url: site.origin + beforeHash };
    return {
      kind: 'internal',
      path,
      fragment: hashAt === -1 ? '' : safeDecode(href.slice(hashAt + 1)),
      sameDocument: path === pageKey && queryAt === -1,
      insecure: false,
      slashed: isFolderForm(pathname),
    };
  }
  if (href === null || /^\s*javascript:/i.test(href)) return { kind: 'uncrawlable' };
  if (OTHER_SCHEME.test(href.trim())) return { kind: 'other' };
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return { kind: 'uncrawlable' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'other' };
  const own = ownUrl(site.origin);
  if (url.host !== own.host) return { kind: 'external', url: url.href };
  const path = cleanPath(url.pathname);
  if (!insideBase(path, site.basePath)) return { kind: 'external', url: url.href };
  const trimmed = href.trim();
  return {
    kind: 'internal',
    path,
    fragment: url.hash.length > 1 ? safeDecode(url.hash.slice(1)) : '',
    // An empty href is the document itself.
    sameDocument: trimmed === '' || trimmed.startsWith('#') || (path === pageKey && !url.search),
    insecure: url.protocol === 'http:' && own.protocol === 'https:',
    slashed: isFolderForm(url.pathname),
  };
}

const isFolderForm = (pathname: string): boolean => pathname.endsWith('/') || pathname.endsWith('/index.html');
