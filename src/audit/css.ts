/**
 * The files a stylesheet names: url(…) values and @import strings, as
 * written. Comments are dropped first so that a commented-out rule is not
 * checked; data: URIs and bare fragments (SVG filter ids) name no file.
 */

const COMMENT = /\/\*[\s\S]*?\*\//g;
const URL_FUNCTION = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)/gi;
const IMPORT_STRING = /@import\s+(?:"([^"]*)"|'([^']*)')/gi;

export function cssReferences(css: string): string[] {
  const text = css.replace(COMMENT, '');
  const out: string[] = [];
  for (const re of [URL_FUNCTION, IMPORT_STRING]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const ref = (m[1] ?? m[2] ?? m[3] ?? '').trim();
      if (ref === '' || ref.startsWith('#') || /^data:/i.test(ref)) continue;
      out.push(ref);
    }
  }
  return out;
}
