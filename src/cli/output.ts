/**
 * Conventions every command shares: results on stdout, progress on stderr,
 * colour only on a TTY and never under NO_COLOR, CI or --json.
 */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

export interface OutputOptions {
  json?: boolean;
}

export function colorEnabled(stream: NodeJS.WriteStream, opts: OutputOptions = {}): boolean {
  if (opts.json) return false;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false') return false;
  return Boolean(stream.isTTY);
}

export const stdout = (s: string): void => void process.stdout.write(s.endsWith('\n') ? s : s + '\n');
export const stderr = (s: string): void => void process.stderr.write(s.endsWith('\n') ? s : s + '\n');
