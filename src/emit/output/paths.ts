/**
 * The guard that keeps every write inside the output folder. The check stage
 * already leaves unsafe route paths out of the build; this is the second line
 * of defence, because a write outside `dist/` is the one mistake a
 * static-site build must never make.
 */
import path from 'node:path';
import { ERROR_PAGES } from '../../core/error-pages.js';

/** An output file that cannot be written safely; the message names it and why. */
export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
}

/**
 * Checks an output file relative to the output folder (`herb-extract/index.html`):
 * forward slashes, no empty, `.` or `..` segments, no backslash, NUL or control
 * characters. Returns it unchanged.
 */
export function safeOutputFile(file: string): string {
  // Every page write asks, three times a page taken over: the common answer in one pass, without a split or a regex.
  if (isPlainRelative(file)) return file;
  if (file === '' || file.startsWith('/')) throw new UnsafePathError(`output file "${file}" must be a relative path`);
  for (const s of file.split('/')) {
    if (s === '' || s === '.' || s === '..' || s.includes('\\') || /[\u0000-\u001f\u007f]/.test(s)) {
      throw new UnsafePathError(
        `output file "${file.replace(/[\u0000-\u001f\u007f]/g, '?')}" has an unsafe segment "${s.replace(/[\u0000-\u001f\u007f]/g, '?')}"`,
      );
    }
  }
  return file;
}

/** Whether safeOutputFile accepts `file`: segments (between '/') not empty, `.` or `..`, and no '\\' or control character. */
function isPlainRelative(file: string): boolean {
  const length = file.length;
  if (length === 0) return false;
  let start = 0; // of the current segment
  for (let i = 0; i <= length; i++) {
    const c = i === length ? 47 : file.charCodeAt(i);
    if (c === 47) {
      const size = i - start;
      if (size === 0) return false;
      if (file.charCodeAt(start) === 46 && (size === 1 || (size === 2 && file.charCodeAt(start + 1) === 46))) return false;
      start = i + 1;
    } else if (c < 32 || c === 127 || c === 92) return false;
  }
  return true;
}

/** The last root insideRoot resolved: a build asks for one or two roots, a page at a time. */
let resolved: { root: string; abs: string } | undefined;

/** Joins a relative output file onto `root`, refusing anything that resolves outside it. */
export function insideRoot(root: string, relative: string): string {
  if (resolved?.root !== root) resolved = { root, abs: path.resolve(root) };
  const absRoot = resolved.abs;
  const file = safeOutputFile(relative);
  // A safe file (no empty, `.` or `..` segment) on an absolute folder is resolved as it stands: no path.resolve,
  // which was more than a second of a 100,000-page take-over (docs/PERFORMANCE.md).
  const target = path.sep === '/' && absRoot !== '/' ? `${absRoot}/${file}` : path.resolve(absRoot, file);
  if (!target.startsWith(absRoot + path.sep)) {
    throw new UnsafePathError(`"${relative}" resolves outside the output folder`);
  }
  return target;
}

/**
 * The `.html` twin of a page file: `herb-extract/index.html` →
 * `herb-extract.html`; null for the home page and anything that is not a
 * folder's index.html.
 *
 * GitHub Pages, Netlify and Cloudflare Pages answer `/herb-extract`, when
 * only the folder `herb-extract/` exists, with a redirect to
 * `/herb-extract/`: every canonical URL of the site would be a redirect
 * there, pointing at a page that names the redirecting URL as canonical.
 * With the twin beside the folder they all serve the page at its clean URL
 * (Netlify then redirects `/herb-extract/` to it), as do Vercel and Render;
 * servers that look for the folder's index.html (nginx with try_files,
 * `site serve`) never read it. See slorber/trailing-slash-guide for each
 * host's behaviour.
 */
export function twinFileOf(file: string): string | null {
  return file.endsWith('/index.html') ? `${file.slice(0, -'/index.html'.length)}.html` : null;
}

/** The page folder a twin stands beside: `herb-extract.html` → `herb-extract`; null for a name that is not `<something>.html`. */
export function folderOfTwin(file: string): string | null {
  return file.endsWith('.html') && file.length > '.html'.length ? file.slice(0, -'.html'.length) : null;
}

/**
 * Adds the folders `file` (relative, forward slashes) is in to `into`, the
 * deepest first; a folder already there ends it, its own folders being there
 * too (as they are when every file goes through here).
 */
export function addFoldersOf(file: string, into: Set<string>): void {
  for (let at = file.lastIndexOf('/'); at > 0; at = file.lastIndexOf('/', at - 1)) {
    const dir = file.slice(0, at);
    if (into.has(dir)) break;
    into.add(dir);
  }
}

/** The folders of `files` (relative paths), each listed once, in the order the files name them; not the root. */
export function foldersOf(files: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const file of files) addFoldersOf(file, folders);
  return folders;
}

/** Files the build writes itself at the top of the output folder that a twin could be named like. */
const SITE_HTML_FILES = ['index.html', ...ERROR_PAGES];

/**
 * The twin of every page file that can have one. A twin whose name is
 * already taken, by another page's file or folder (a route `/a` beside a
 * route `/a.html/b`) or by a file the build writes (a route `/404`), is left
 * out and reported in `clashes`.
 */
export function planTwins(files: readonly string[]): { twins: Map<string, string>; clashes: Array<{ file: string; twin: string }> } {
  const taken = new Set<string>(SITE_HTML_FILES);
  for (const file of files) {
    taken.add(file);
    addFoldersOf(file, taken);
  }
  const twins = new Map<string, string>();
  const clashes: Array<{ file: string; twin: string }> = [];
  for (const file of files) {
    const twin = twinFileOf(file);
    if (twin === null) continue;
    if (taken.has(twin)) clashes.push({ file, twin });
    else twins.set(file, twin);
  }
  return { twins, clashes };
}
