/** What the bench sections share: reading their flags and taking medians. */

/** `--name=value`; a bare `--name` gives ''. */
export function flag(args: string[], name: string): string | undefined {
  for (const a of args) {
    if (a === name) return '';
    if (a.startsWith(name + '=')) return a.slice(name.length + 1);
  }
  return undefined;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
