/**
 * Route path rules. A route path becomes a folder under `dist/`, so anything
 * that could leave `dist/`, be read differently by a server, or not exist on
 * every file system is an error; legacy shapes that still work are warnings.
 */
import type { Severity } from '../core/diagnostics.js';
import { severityOf, type CheckCode } from '../core/codes.js';
import { ERROR_PAGE_PATTERN, ERROR_PAGES } from '../core/error-pages.js';

export interface PathProblem {
  code: CheckCode;
  severity: Severity;
  message: string;
}

// Characters a path segment may hold: RFC 3986 unreserved. Everything else
// needs percent-encoding in a URL or is unsafe in a file name somewhere.
const SEGMENT_CHAR = /^[A-Za-z0-9._~-]$/;
/**
 * Paths the build writes itself, or under which it writes its own files, and
 * why a route there cannot be served: matched against the whole path, in any
 * letter case (case-insensitive hosts), up to a "/" or the end.
 */
const RESERVED: ReadonlyArray<[RegExp, string]> = [
  [/^\/(assets|images)(\/|$)/i, 'a folder the build fills with its own files (the bundle, the images)'],
  [/^\/search\/(entry\.json|index-[^/]*\.json)(\/|$)/i, 'the file of the search index the build writes there'],
  [/^\/_headers(\/|$)/i, 'the file of response headers the build writes for Netlify and Cloudflare Pages'],
  [
    new RegExp(`^\\/(${ERROR_PAGE_PATTERN}|${ERROR_PAGES.map((f) => f.replace(/\.html$/, '')).join('|')})(\\/|$)`, 'i'),
    'an error page the build writes (hosts serve it for its name with and without ".html")',
  ],
  [/^\/(robots\.txt|sitemap[\w-]*\.xml)(\/|$)/i, 'a file for search engines the build writes'],
  [/^\/index\.html(\/|$)/i, "the home page's file"],
  [/^\/favicon\.ico(\/|$)/i, 'the icon browsers ask every site for'],
];
const MAX_SEGMENT_BYTES = 255;

/** Every problem of one route path: its errors, or when it has none its warnings; empty when the path is fine. */
export function pathProblems(path: string): PathProblem[] {
  if (isPlainPath(path)) return [];
  const errors: PathProblem[] = [];
  const warnings: PathProblem[] = [];
  const err = (code: CheckCode, message: string) => errors.push({ code, severity: severityOf(code), message });
  const warn = (code: CheckCode, message: string) => warnings.push({ code, severity: severityOf(code), message });

  if (!path.startsWith('/')) err('check/path-not-absolute', `Route path "${printable(path)}" must start with "/".`);
  if (path.includes('\\'))
    err(
      'check/path-traversal',
      `Route path "${printable(path)}" contains a backslash, which some servers and file systems read as a folder separator; use "/" or a hyphen.`,
    );
  const encodedTraversal = /%(2e|2f|5c|00)/i.test(path);
  if (encodedTraversal) {
    err(
      'check/path-traversal',
      `Route path "${printable(path)}" contains a percent-encoded dot, slash, backslash or NUL that could leave dist/ once decoded; write the path decoded, with letters, digits and hyphens only.`,
    );
  }
  const bad = [...new Set(path)].filter((c) => c !== '/' && c !== '\\' && !SEGMENT_CHAR.test(c) && !(c === '%' && encodedTraversal));
  if (bad.length > 0) {
    const what = bad.map((c) =>
      c === '?'
        ? 'a query ("?")'
        : c === '#'
          ? 'a fragment ("#")'
          : c === '%'
            ? 'a percent-encoding ("%")'
            : /[\u0000-\u001f\u007f]/.test(c)
              ? `the control character U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`
              : /\s/.test(c)
                ? 'white space'
                : `"${c}"`,
    );
    err(
      'check/path-invalid-char',
      `Route path "${printable(path)}" contains ${what.join(', ')}; a route path may use only letters, digits, "-", ".", "_" and "~" between slashes.`,
    );
  }

  const body = path.replace(/^\/+/, '');
  const segments = body === '' ? [] : body.replace(/\/$/, '').split('/');
  const reserved = reservedClash(path);
  if (reserved !== null) err('check/path-reserved', `Route path "${printable(path)}" would clash with ${reserved.at}, ${reserved.why}; choose another path.`);
  segments.forEach((segment) => {
    if (segment === '') err('check/path-empty-segment', `Route path "${printable(path)}" has an empty segment ("//"); remove the extra slash.`);
    else if (segment === '.' || segment === '..')
      err(
        'check/path-traversal',
        `Route path "${printable(path)}" has a "${segment}" segment, which would leave its folder (or dist/); give the page a real name.`,
      );
    else if (segment.startsWith('.')) {
      err(
        'check/path-dot-segment',
        `Route path "${printable(path)}" has a segment starting with "." ("${printable(segment)}"): most hosts, and site serve, do not serve such hidden names, so the page would answer 404; give it a name starting with a letter or digit.`,
      );
    } else {
      if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
        err(
          'check/path-too-long',
          `Route path segment "${segment.slice(0, 40)}…" is longer than ${MAX_SEGMENT_BYTES} bytes, the limit of file names; shorten the slug.`,
        );
      if (/[A-Z]/.test(segment))
        warn(
          'check/path-legacy-case',
          `Route path "${path}" has capital letters ("${segment}"); it is kept as declared, but lower-case paths are the convention (and safer on case-insensitive hosts).`,
        );
      if (segment.startsWith('-') || segment.endsWith('-'))
        warn(
          'check/path-edge-hyphen',
          `Route path "${path}" has a segment starting or ending with a hyphen ("${segment}"); it is kept as declared, but new slugs should not.`,
        );
    }
  });
  if (path.length > 1 && path.endsWith('/')) {
    warn('check/path-trailing-slash', `Route path "${path}" ends with "/"; write it without (it is built as ${outputFileOf(path)} either way).`);
  }
  // One diagnostic per kind of problem: "/../../x" is one fault, not two.
  // Style warnings about a path that must change anyway would only be noise.
  const seen = new Set<string>();
  return (errors.length > 0 ? errors : warnings).filter((p) => !seen.has(p.message) && seen.add(p.message));
}

/**
 * The shape nearly every route has: lower-case words joined by hyphens, no
 * edge hyphens, short segments, nothing reserved. Checked with one regular
 * expression so that a registry of thousands of routes costs next to nothing.
 */
const PLAIN_PATH = /^(?:\/[a-z0-9](?:[a-z0-9._~-]{0,200}[a-z0-9])?(?:\/[a-z0-9](?:[a-z0-9._~-]{0,200}[a-z0-9])?)*|\/)$/;

function isPlainPath(path: string): boolean {
  return PLAIN_PATH.test(path) && !path.includes('..') && reservedClash(path) === null;
}

/** The path of the build's own that a route path would clash with, and why; null when none. */
function reservedClash(path: string): { at: string; why: string } | null {
  for (const [pattern, why] of RESERVED) {
    const m = pattern.exec(path);
    if (m !== null) return { at: printable(m[0].replace(/\/$/, '')), why };
  }
  return null;
}

/** True when the path can be written under dist/ without escaping it. */
export function isSafePath(path: string): boolean {
  return pathProblems(path).every((p) => p.severity !== 'error');
}

/**
 * The file a route is written to, relative to `dist/`: `index.html` for `/`,
 * `<path>/index.html` otherwise, so that `/a` and `/a/` are the same file.
 */
export function outputFileOf(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? 'index.html' : `${trimmed}/index.html`;
}

/** Control characters shown as escapes so that a message never carries them raw. */
function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
