/**
 * Reads sitemap.xml (and the sitemaps an index lists) with a small strict
 * tokenizer: the sitemap protocol needs well-formed XML, which lenient HTML
 * parsers would hide.
 */
export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
  line: number;
}

export type ParsedSitemap = { ok: true; kind: 'urlset' | 'sitemapindex'; entries: SitemapEntry[] } | { ok: false; error: string; line: number };

const ENTITY = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;

function decode(s: string): string {
  // Most text between tags has no entity: skip the seven replaces (a sitemap has hundreds of thousands of texts).
  if (!s.includes('&')) return s;
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}

export function parseSitemap(xml: string): ParsedSitemap {
  const stack: string[] = [];
  const entries: SitemapEntry[] = [];
  let root: string | null = null;
  let current: { loc: string | null; lastmod: string | null; line: number } | null = null;
  let text = '';
  let line = 1;
  let pos = 0;
  const lineAt = (index: number): number => {
    for (; pos < index; pos++) if (xml.charCodeAt(pos) === 10) line++;
    return line;
  };
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)([^>]*?)(\/?)>|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  const fail = (error: string, index: number): ParsedSitemap => ({ ok: false, error, line: lineAt(index) });
  while ((m = tag.exec(xml))) {
    const between = xml.slice(last, m.index);
    if (between.includes('<')) return fail('a "<" that does not start a tag', last + between.indexOf('<'));
    if (between.includes('&') && ENTITY.test(between)) return fail('an unescaped "&" (write &amp;)', last);
    if (stack.length === 0 && between.trim() !== '') return fail('text outside the root element', last);
    text += decode(between);
    last = tag.lastIndex;
    if (m[0].startsWith('<?') || m[0].startsWith('<!--')) continue;
    if (m[5] !== undefined) {
      text += m[5];
      continue;
    }
    const [, closing, name, , selfClosing] = m;
    const local = name.replace(/^.*:/, '');
    if (closing) {
      const open = stack.pop();
      if (open !== name) return fail(`</${name}> closes <${open ?? 'nothing'}>`, m.index);
      // Only the <url>'s own <loc> and <lastmod>: an extension's (<image:loc> inside <image:image>) names a file, not the page.
      if (current && (local === 'loc' || local === 'lastmod') && stack.length === 2) current[local] = text.trim();
      if (current && (local === 'url' || local === 'sitemap') && stack.length === 1) {
        if (!current.loc) return fail(`<${local}> without <loc>`, m.index);
        entries.push({ loc: current.loc, lastmod: current.lastmod, line: current.line });
        current = null;
      }
    } else {
      if (stack.length === 0) {
        if (root !== null) return fail('a second root element', m.index);
        if (local !== 'urlset' && local !== 'sitemapindex') return fail(`root element <${name}>; expected <urlset> or <sitemapindex>`, m.index);
        root = local;
      }
      if ((local === 'url' || local === 'sitemap') && stack.length === 1) current = { loc: null, lastmod: null, line: lineAt(m.index) };
      if (!selfClosing) stack.push(name);
    }
    text = '';
  }
  const rest = xml.slice(last);
  if (rest.includes('<')) return fail('an unterminated tag', last + rest.indexOf('<'));
  if (stack.length > 0) return fail(`<${stack[stack.length - 1]}> is never closed`, xml.length);
  if (root === null) return fail('no root element', 0);
  return { ok: true, kind: root as 'urlset' | 'sitemapindex', entries };
}
