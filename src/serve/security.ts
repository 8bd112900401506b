/**
 * Security headers of every response, and the Content-Security-Policy of an
 * HTML page: 'self' plus the sha256 hashes of that page's own inline scripts
 * and styles, so the built site runs without 'unsafe-inline'.
 */
import { createHash } from 'node:crypto';
import { decodeEntities } from '../core/html/entities.js';
import { attributeBounds, findEndTag, nameIs, nextAttribute, tokenize } from '../core/html/tokenize.js';
import { type InlineHashes, originOf } from '../core/http-headers.js';

// Pure parts shared with the build's dist/_headers (build/files/headers-file.ts).
export { type CspExtra, type InlineHashes, NO_INLINE, SECURITY_HEADERS, contentSecurityPolicy } from '../core/http-headers.js';

/** Script types a browser executes; anything else (JSON-LD, importmap-free data blocks) is data, not script. */
const EXECUTABLE_TYPE = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i;

/** Elements whose content an HTML parser reads as text, not tags (raw text and RCDATA; noscript as a browser with scripting on reads it). */
const TEXT_ONLY = ['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript'];

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const unique = (xs: string[]): string[] => [...new Set(xs)].sort();

/** The attributes inlineHashes reads, first occurrence kept (as an HTML parser keeps it), entities decoded. */
const READ = ['style', 'src', 'type', 'rel', 'href'] as const;

/**
 * The hashes of a page's inline scripts, style elements and style
 * attributes, and the origins its scripts, stylesheets and images load from.
 * Read with the shared tokenizer (src/core/html/), as the build's link check
 * and the audit read pages: `site serve` does this on each page's first
 * request, where parsing the page into a tree took 4 ms a page
 * (docs/PERFORMANCE.md, "Serve").
 */
export function inlineHashes(html: string): InlineHashes {
  const scripts: string[] = [];
  const styles: string[] = [];
  const styleAttributes: string[] = [];
  const origins = { script: [] as string[], style: [] as string[], img: [] as string[] };
  const b = attributeBounds();
  const attrs = new Map<(typeof READ)[number], string>();
  /** Where the content of a text-only element starting at `from` ends: its end tag, or the end of the page. */
  const textEnd = (from: number, name: string): number => {
    const close = findEndTag(html, from, name);
    return close === -1 ? html.length : close;
  };
  tokenize(html, {
    text: () => undefined,
    endTag: () => undefined,
    startTag(nameStart, nameEnd, _hash, gt) {
      attrs.clear();
      for (let i = nextAttribute(html, nameEnd, gt, b); i !== -1; i = nextAttribute(html, i, gt, b)) {
        const name = READ.find((n) => nameIs(html, b[0], b[1], n));
        if (name !== undefined && !attrs.has(name)) attrs.set(name, b[2] === -1 ? '' : decodeEntities(html.slice(b[2], b[3])));
      }
      const style = attrs.get('style');
      if (style !== undefined) styleAttributes.push(sha256(style));
      const tag = html.slice(nameStart, nameEnd).toLowerCase();
      const src = attrs.get('src');
      if (tag === 'script') {
        const end = textEnd(gt + 1, 'script');
        if (src !== undefined) origins.script.push(...originOf(src));
        else if (EXECUTABLE_TYPE.test((attrs.get('type') ?? '').trim())) scripts.push(sha256(html.slice(gt + 1, end)));
        return end;
      }
      if (tag === 'style') {
        const end = textEnd(gt + 1, 'style');
        styles.push(sha256(html.slice(gt + 1, end)));
        return end;
      }
      if (
        tag === 'link' &&
        (attrs.get('rel') ?? '')
          .toLowerCase()
          .split(/[\t\n\f\r ]+/)
          .includes('stylesheet')
      ) {
        const href = attrs.get('href');
        if (href !== undefined) origins.style.push(...originOf(href));
      }
      if (tag === 'img' && src !== undefined) origins.img.push(...originOf(src));
      return TEXT_ONLY.includes(tag) ? textEnd(gt + 1, tag) : gt + 1;
    },
  });
  return {
    scripts: unique(scripts),
    styles: unique(styles),
    styleAttributes: unique(styleAttributes),
    origins: { script: unique(origins.script), style: unique(origins.style), img: unique(origins.img) },
  };
}

/**
 * Parses `--csp directive:source` options. Sources are host expressions or
 * schemes; quotes, semicolons and commas are refused so that an option can
 * only add a source, never a directive or a keyword like 'unsafe-inline'.
 */
export function parseCspOptions(values: readonly string[]): { extra: Record<string, string[]>; errors: string[] } {
  const extra: Record<string, string[]> = {};
  const errors: string[] = [];
  for (const value of values) {
    const m = /^([a-z-]+-src|frame-ancestors|form-action):(\S+)$/.exec(value);
    if (!m || /[;,'"]/.test(m[2])) {
      errors.push(`--csp ${JSON.stringify(value)}: expected "<directive>:<source>", e.g. "script-src:https://www.googletagmanager.com"`);
      continue;
    }
    (extra[m[1]] ??= []).push(m[2]);
  }
  return { extra, errors };
}
