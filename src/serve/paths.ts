/**
 * Request-target parsing for `site serve`. A request path is turned into a
 * clean, decoded route path or refused before any file lookup happens, so
 * that no encoding trick (double encoding, encoded separators, overlong
 * UTF-8, NUL, backslashes, dot segments) can name a file outside dist/.
 */

export type ParsedTarget = { ok: true; path: string; search: string } | { ok: false; reason: string };

/** Raw (still encoded) sequences that no page of the site needs and that only traversal attempts use. */
const RAW_FORBIDDEN = [
  { re: /%2f/i, reason: 'an encoded slash (%2F)' },
  { re: /%5c/i, reason: 'an encoded backslash (%5C)' },
  { re: /%00/, reason: 'an encoded NUL (%00)' },
  { re: /%25/, reason: 'a double-encoded character (%25)' },
  { re: /\\/, reason: 'a backslash' },
];

/** Decoded characters that never appear in a route path: controls, backslash, a leftover percent. */
// eslint-disable-next-line no-control-regex
const DECODED_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\\%]/;

/**
 * Splits `req.url` into a decoded path and its raw query string. Only the
 * origin form (`/path?query`) is accepted: absolute and authority forms are
 * for proxies, and `//host` would turn a trailing-slash redirect into an open
 * redirect.
 */
export function parseTarget(url: string | undefined): ParsedTarget {
  if (url?.[0] !== '/') return { ok: false, reason: 'the request target must start with "/"' };
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q);
  for (const { re, reason } of RAW_FORBIDDEN) {
    if (re.test(rawPath)) return { ok: false, reason: `the path contains ${reason}` };
  }
  let path: string;
  try {
    // decodeURIComponent rejects overlong and otherwise malformed UTF-8 (%c0%ae …) with a URIError.
    path = decodeURIComponent(rawPath);
  } catch {
    return { ok: false, reason: 'the path is not valid percent-encoded UTF-8' };
  }
  if (DECODED_FORBIDDEN.test(path)) return { ok: false, reason: 'the path contains a control character, backslash or percent sign' };
  const segments = path.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    // An empty segment is only allowed last (the trailing slash, which redirects).
    if (s === '' && i < segments.length - 1) return { ok: false, reason: 'the path contains an empty segment ("//")' };
    if (s === '.' || s === '..') return { ok: false, reason: 'the path contains a dot segment' };
  }
  return { ok: true, path, search };
}

/** True for paths with a segment starting with a dot (`.env`, `.git/…`): never served. */
export function isHiddenPath(path: string): boolean {
  return /\/\./.test(path);
}

/**
 * A route path as the inquiry form's hidden `page` field carries it: the
 * page the buyer was on. Validated strictly because the no-JS error path
 * reads that page's HTML back from dist/.
 */
export function safeRoutePath(value: string | undefined): string | null {
  if (!value || value.length > 300) return null;
  if (!/^\/[A-Za-z0-9\-._~/]*$/.test(value)) return null;
  const parsed = parseTarget(value);
  if (!parsed.ok || parsed.search !== '' || isHiddenPath(parsed.path)) return null;
  return parsed.path;
}

export type Resolution = { kind: 'file'; file: string } | { kind: 'redirect'; location: string } | { kind: 'missing' };

/**
 * How a static host answers a decoded request path over the files it has
 * (`has('/x/index.html')`): `/x` is the page, `/x/`, `/x/index.html` and the
 * twin `/x.html` redirect to it. Pure: `site dev` answers over its planned
 * routes the same way.
 */
export function resolveAgainst(has: (file: string) => boolean, path: string): Resolution {
  if (path === '/') return has('/index.html') ? { kind: 'file', file: '/index.html' } : { kind: 'missing' };
  if (isHiddenPath(path)) return { kind: 'missing' };
  if (path.endsWith('/index.html')) {
    const dir = path.slice(0, -'index.html'.length);
    return has(path) ? { kind: 'redirect', location: dir === '/' ? '/' : dir.slice(0, -1) } : { kind: 'missing' };
  }
  if (path.endsWith('/')) {
    const bare = path.slice(0, -1);
    return resolveAgainst(has, bare).kind === 'file' ? { kind: 'redirect', location: bare } : { kind: 'missing' };
  }
  // A page's twin (`x.html` beside `x/`, written for hosts that redirect folders): the page's own URL is /x.
  if (path.endsWith('.html')) {
    const bare = path.slice(0, -'.html'.length);
    if (bare !== '' && has(`${bare}/index.html`)) return { kind: 'redirect', location: bare };
  }
  // Precompressed siblings are variants of their file, not pages of their own.
  const sibling = /\.(br|gz)$/.exec(path);
  if (sibling && has(path.slice(0, -sibling[0].length))) return { kind: 'missing' };
  if (has(path)) return { kind: 'file', file: path };
  const folderIndex = `${path}/index.html`;
  if (has(folderIndex)) return { kind: 'file', file: folderIndex };
  return { kind: 'missing' };
}
