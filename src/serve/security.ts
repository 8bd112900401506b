/**
 * Security headers of every response, and the Content-Security-Policy of an
 * HTML page: 'self' plus the sha256 hashes of that page's own inline scripts
 * and styles, so the built site runs without 'unsafe-inline'.
 */
import { createHash } from 'node:crypto';
import * as cheerio from 'cheerio';

/** Extra CSP sources per directive, e.g. `{ 'script-src': ['https://www.googletagmanager.com'] }`. */
export type CspExtra = Readonly<Record<string, readonly string[]>>;

export interface InlineHashes {
  scripts: string[];
  styles: string[];
  /** Hashes of `style="…"` attributes; they need 'unsafe-hashes' to take effect. */
  styleAttributes: string[];
  /**
   * https origins the page itself loads scripts, stylesheets and images from
   * (the third-party scripts site.json configures). Text content cannot add
   * elements (React escapes it), so these come from the templates.
   */
  origins?: { script: string[]; style: string[]; img: string[] };
}

export const NO_INLINE: InlineHashes = { scripts: [], styles: [], styleAttributes: [] };

const originOf = (url: string | undefined): string[] => {
  if (!url || !/^https:\/\//i.test(url)) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
};

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
  const origins = (selector: string, attr: string) => unique($(selector).toArray().flatMap((el) => originOf($(el).attr(attr))));
  return {
    scripts: unique(scripts),
    styles: unique(styles),
    styleAttributes: unique(styleAttributes),
    origins: { script: origins('script[src]', 'src'), style: origins('link[rel~="stylesheet"][href]', 'href'), img: origins('img[src]', 'src') },
  };
}

export function contentSecurityPolicy(hashes: InlineHashes, extra: CspExtra = {}): string {
  const directives = new Map<string, string[]>([
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...(hashes.origins?.script ?? []), ...hashes.scripts]],
    [
      'style-src',
      [
        "'self'",
        ...(hashes.origins?.style ?? []),
        ...hashes.styles,
        ...(hashes.styleAttributes.length > 0 ? ["'unsafe-hashes'", ...hashes.styleAttributes] : []),
      ],
    ],
    ['img-src', ["'self'", 'data:', ...(hashes.origins?.img ?? [])]],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['form-action', ["'self'"]],
    ['base-uri', ["'self'"]],
  ]);
  for (const [name, sources] of Object.entries(extra)) {
    const current = directives.get(name) ?? ["'self'"];
    directives.set(name, [...current, ...sources.filter((s) => !current.includes(s))]);
  }
  return [...directives].map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
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

/** Headers every response carries, whatever its status. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};
