/** The URLs of a srcset value, in order: `a.png 1x, b.png 2x` → `['a.png', 'b.png']`; absent or empty → `[]`. */
export function srcsetUrls(srcset: string | undefined): string[] {
  if (!srcset) return [];
  return srcset
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0])
    .filter((u): u is string => Boolean(u));
}
