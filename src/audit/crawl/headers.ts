/** What response headers say about a page: X-Robots-Tag and `Link: <…>; rel="canonical"`. */

/**
 * The X-Robots-Tag directives that apply to search engines at large or to
 * Googlebot, lower-cased (`googlebot: noindex` names one crawler; `otherbot:
 * noindex` is ignored).
 */
export function robotsDirectives(header: string | undefined): string[] {
  if (!header) return [];
  const out: string[] = [];
  for (const part of header.split(/,(?=\s*[a-z-]+\s*:)|\n/i)) {
    const m = /^\s*([a-z][\w-]*)\s*:\s*(.*)$/i.exec(part);
    // "unavailable_after: <date>" is a directive, not a crawler's name.
    if (
      m &&
      !/^unavailable_after$/i.test(m[1]) &&
      !/^(noindex|nofollow|none|all|noarchive|nosnippet|max-[\w-]+|notranslate|noimageindex|indexifembedded)$/i.test(m[1])
    ) {
      if (m[1].toLowerCase() === 'googlebot') out.push(m[2].toLowerCase().trim());
      continue;
    }
    out.push(part.toLowerCase().trim());
  }
  return out.filter((d) => d !== '');
}

/** The targets of `Link` header entries with rel=canonical. */
export function canonicalLinks(header: string | undefined): string[] {
  if (!header) return [];
  const out: string[] = [];
  const entry = /<([^>]*)>\s*((?:;\s*[^;,]*)*)/g;
  let m: RegExpExecArray | null;
  while ((m = entry.exec(header))) {
    const rel = /;\s*rel\s*=\s*"?([^";,]*)"?/i.exec(m[2]);
    if (rel?.[1].toLowerCase().split(/\s+/).includes('canonical')) out.push(m[1].trim());
  }
  return out;
}
