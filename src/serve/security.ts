/**
 * Security headers of every response, and the Content-Security-Policy of an
 * HTML page: 'self' plus the sha256 hashes of that page's own inline scripts
 * and styles, so the built site runs without 'unsafe-inline'.
 */
import { createHash } from 'node:crypto';
import * as cheerio from 'cheerio';
import { type InlineHashes, originOf } from '../core/http-headers.js';

// Pure parts shared with the build's dist/_headers (build/files/headers-file.ts), which must not load cheerio.
export { type CspExtra, type InlineHashes, NO_INLINE, SECURITY_HEADERS, contentSecurityPolicy } from '../core/http-headers.js';

/** Script types a browser executes; anything else (JSON-LD, importmap-free data blocks) is data, not script. */
const EXECUTABLE_TYPE = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const unique = (xs: string[]): string[] => [...new Set(xs)].sort();

export function inlineHashes(html: string): InlineHashes {
  const $ = cheerio.load(html);
  const scripts: string[] = [];
  const styles: string[] = [];
  const styleAttributes: string[] = [];
  $('script:not([src])').each((_, el) => {
    const type = ($(el).attr('type') ?? '').trim();
    if (EXECUTABLE_TYPE.test(type)) scripts.push(sha256($(el).text()));
  });
  $('style').each((_, el) => void styles.push(sha256($(el).text())));
  $('[style]').each((_, el) => void styleAttributes.push(sha256($(el).attr('style') ?? '')));
  const origins = (selector: string, attr: string) =>
    unique(
      $(selector)
        .toArray()
        .flatMap((el) => originOf($(el).attr(attr))),
    );
  return {
    scripts: unique(scripts),
    styles: unique(styles),
    styleAttributes: unique(styleAttributes),
    origins: { script: origins('script[src]', 'src'), style: origins('link[rel~="stylesheet"][href]', 'href'), img: origins('img[src]', 'src') },
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
