/** Redirect arithmetic: which statuses redirect, which are permanent, and what a hop changes. */

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
export const PERMANENT_STATUSES: ReadonlySet<number> = new Set([301, 308]);

export interface Hop {
  url: string;
  status: number;
  /** The Location header as sent. */
  location: string;
}

/**
 * What a redirect from `from` to `to` changes: only the scheme to https,
 * only a trailing slash (added or dropped), or something else.
 */
export function redirectKind(from: string, to: string): 'https' | 'trailing-slash' | 'other' {
  let a: URL;
  let b: URL;
  try {
    a = new URL(from);
    b = new URL(to, from);
  } catch {
    return 'other';
  }
  if (a.protocol === 'http:' && b.protocol === 'https:' && a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search) return 'https';
  if (a.origin === b.origin && a.search === b.search && a.pathname !== b.pathname) {
    const strip = (p: string): string => (p.endsWith('/') ? p.slice(0, -1) : p);
    if (strip(a.pathname) === strip(b.pathname)) return 'trailing-slash';
  }
  return 'other';
}
