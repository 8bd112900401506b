/**
 * Response headers of the site: the security headers of every response, the
 * Content-Security-Policy of a page, and the cache lifetime of each file.
 * Pure, shared by `site serve` (src/serve) and the build's `dist/_headers`
 * (build/files/headers-file.ts), so that a static host sends what the server sends.
 */

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

/** The origin of an https URL, or nothing. */
export const originOf = (url: string | undefined): string[] => {
  if (!url || !/^https:\/\//i.test(url)) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
};

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

/** Headers every response carries, whatever its status. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Files whose names carry a hash of their content: Vite's bundles and the search index (build/files/search-index.ts). */
export const IMMUTABLE_PATHS = ['/assets/*', '/search/index-*'] as const;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
/** IMMUTABLE_PATHS as one test of a URL path, each `*` matching anything, as the hosts read them. */
const IMMUTABLE_FILE = new RegExp(`^(?:${IMMUTABLE_PATHS.map((path) => path.split('*').map(escapeRegExp).join('.*')).join('|')})$`);

/** Cache-Control of a published file by its URL path: a year for hashed names, else revalidate on every use. */
export function cacheControlOf(urlPath: string): string {
  return IMMUTABLE_FILE.test(urlPath) ? IMMUTABLE : REVALIDATE;
}
