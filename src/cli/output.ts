/**
 * Conventions every command shares: results on stdout, progress on stderr,
 * colour only on a TTY and never under NO_COLOR, CI or --json.
 */
import { UserError } from '../core/errors.js';

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

/** `s` ending in one newline, as every line printed does. */
const line = (s: string): string => (s.endsWith('\n') ? s : s + '\n');

export const stdout = (s: string): void => void process.stdout.write(line(s));
export const stderr = (s: string): void => void process.stderr.write(line(s));

/**
 * Writes a line and settles once the stream has handed all of it to the system. A pipe takes 64 KB at once and
 * the rest only when the event loop turns: a process that works on synchronously after printing (`site build
 * --watch` writing its cache) would otherwise hold back the end of the line until it is done.
 */
export const printed = (stream: NodeJS.WritableStream, s: string): Promise<void> => new Promise((done) => void stream.write(line(s), () => done()));

/** An error as a command prints it: a UserError's message (the user can act on it), anything else with its stack. */
export const errorText = (err: unknown): string => (err instanceof UserError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err));

/**
 * Settles with the first SIGINT or SIGTERM from now on. A command that runs until stopped asks for it before
 * saying it is up: whoever reads that line may signal at once.
 */
export function untilStopped(): Promise<'SIGINT' | 'SIGTERM'> {
  return new Promise((done) => {
    process.once('SIGTERM', () => done('SIGTERM'));
    process.once('SIGINT', () => done('SIGINT'));
  });
}
