/**
 * Colour for reports printed to a terminal. Whether to paint is the CLI's
 * decision (colorEnabled in src/cli/output.ts); the stages only format.
 */
export interface Painter {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function painter(enabled: boolean): Painter {
  const wrap = (open: number, close: number) => (s: string) => (enabled ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return { red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}
