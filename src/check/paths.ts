/**
 * Route path rules. A route path becomes a folder under `dist/`, so anything
 * that could leave `dist/`, be read differently by a server, or not exist on
 * every file system is an error; legacy shapes that still work are warnings.
 */
import type { Severity } from '../core/diagnostics.js';
import { severityOf, type CheckCode } from '../core/codes.js';
import { ERROR_PAGE_PATTERN } from '../core/error-pages.js';

export interface PathProblem {
  code: CheckCode;
  severity: Severity;
  message: string;
}

// Characters a path segment may hold: RFC 3986 unreserved. Everything else
// needs percent-encoding in a URL or is unsafe in a file name somewhere.
const SEGMENT_CHAR = /^[A-Za-z0-9._~-]$/;
// Top-level names that emit writes itself; a route there would clash with them.
const RESERVED_FIRST_SEGMENT = new RegExp(`^(assets|images|${ERROR_PAGE_PATTERN}|robots\\.txt|sitemap(-[\\w-]+)?\\.xml|favicon\\.ico|index\\.html)$`, 'i');
const MAX_SEGMENT_BYTES = 255;

/** Every problem of one route path: its errors, or when it has none its warnings; empty when the path is fine. */
export function pathProblems(path: string): PathProblem[] {
  if (isPlainPath(path)) return [];
  const errors: PathProblem[] = [];
  const warnings: PathProblem[] = [];
  const err = (code: CheckCode, message: string) => errors.push({ code, severity: severityOf(code), message });
  const warn = (code: CheckCode, message: string) => warnings.push({ code, severity: severityOf(code), message });

  if (!path.startsWith('/')) err('check/path-not-absolute', `Route path "${printable(path)}" must start with "/".`);
  if (path.includes('\\')) err('check/path-traversal', `Route path "${printable(path)}" contains a backslash, which some servers and file systems read as a folder separator; use "/" or a hyphen.`);
  const encodedTraversal = /%(2e|2f|5c|00)/i.test(path);
  if (encodedTraversal) {
    err('check/path-traversal', `Route path "${printable(path)}" contains a percent-encoded dot, slash, backslash or NUL that could leave dist/ once decoded; write the path decoded, with letters, digits and hyphens only.`);
  }
  const bad = [...new Set(path)].filter((c) => c !== '/' && c !== '\\' && !SEGMENT_CHAR.test(c) && !(c === '%' && encodedTraversal));
  if (bad.length > 0) {
    const what = bad.map((c) =>
      c === '?' ? 'a query ("?")' : c === '#' ? 'a fragment ("#")' : c === '%' ? 'a percent-encoding ("%")' : /[\u0000-\u001f\u007f]/.test(c) ? `the control character U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}` : /\s/.test(c) ? 'white space' : `"${c}"`,
    );
    err('check/path-invalid-char', `Route path "${printable(path)}" contains ${what.join(', ')}; a route path may use only letters, digits, "-", ".", "_" and "~" between slashes.`);
  }

  const body = path.replace(/^\/+/, '');
  const segments = body === '' ? [] : body.replace(/\/$/, '').split('/');
  segments.forEach((segment, i) => {
    if (segment === '') err('check/path-empty-segment', `Route path "${printable(path)}" has an empty segment ("//"); remove the extra slash.`);
    else if (segment === '.' || segment === '..') err('check/path-traversal', `Route path "${printable(path)}" has a "${segment}" segment, which would leave its folder (or dist/); give the page a real name.`);
    else {
      if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) err('check/path-too-long', `Route path segment "${segment.slice(0, 40)}…" is longer than ${MAX_SEGMENT_BYTES} bytes, the limit of file names; shorten the slug.`);
      if (i === 0 && RESERVED_FIRST_SEGMENT.test(segment)) err('check/path-reserved', `Route path "${path}" would clash with /${segment}, which the build writes itself; choose another path.`);
      if (/[A-Z]/.test(segment)) warn('check/path-legacy-case', `Route path "${path}" has capital letters ("${segment}"); it is kept as declared, but lower-case paths are the convention (and safer on case-insensitive hosts).`);
      if (segment.startsWith('-') || segment.endsWith('-')) warn('check/path-edge-hyphen', `Route path "${path}" has a segment starting or ending with a hyphen ("${segment}"); it is kept as declared, but new slugs should not.`);
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
const PLAIN_PATH = new RegExp(
  `^(?:\\/(?!(?:assets|images|index\\.html|favicon\\.ico|robots\\.txt|${ERROR_PAGE_PATTERN}|sitemap[\\w-]*\\.xml)(?:\\/|$))[a-z0-9](?:[a-z0-9._~-]{0,200}[a-z0-9])?(?:\\/[a-z0-9](?:[a-z0-9._~-]{0,200}[a-z0-9])?)*|\\/)$`,
);

function isPlainPath(path: string): boolean {
  return PLAIN_PATH.test(path) && !path.includes('..');
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
