/**
 * Which HTML files of the audited folder are not pages: `--exclude` globs
 * (and the config's `exclude`), matched against paths relative to the
 * folder, plus defaults for generators' fragments that are HTML files but
 * no pages (Doxygen's search-result frames). An excluded file still exists:
 * links to it are not broken; it is only not audited as a page.
 */

/** Doxygen writes search/all_0.html, classes_1.html…, nomatches.html: frames of its search box, each with an empty title. */
export const DEFAULT_EXCLUDES: readonly string[] = ['**/search/*_[0-9a-f]*.html', '**/search/nomatches.html'];

/**
 * A glob as a regular expression over a relative path: `**` any run of
 * folders (`**\/` also none), `*` any run within one name, `?` one
 * character of a name, `[…]` a character class; everything else literal.
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) out += '\\[';
      else {
        const body = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
        out += body.startsWith('!') ? `[^/${body.slice(1)}]` : `[${body}]`;
        i = close;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/**
 * A test for file paths relative to the audited folder, as .gitignore
 * reads patterns: one without '/' matches a name in any folder, and a
 * pattern that matches a folder excludes what is in it.
 */
export function excludeMatcher(globs: readonly string[]): (path: string) => boolean {
  const patterns = globs.map((g) => g.replace(/^\.?\//, '').replace(/\/$/, '')).map((g) => globToRegExp(g.includes('/') ? g : `**/${g}`));
  if (patterns.length === 0) return () => false;
  return (path) => {
    for (let end = path.indexOf('/'); end !== -1; end = path.indexOf('/', end + 1)) {
      const folder = path.slice(0, end);
      if (patterns.some((re) => re.test(folder))) return true;
    }
    return patterns.some((re) => re.test(path));
  };
}
