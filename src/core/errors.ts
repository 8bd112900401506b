/**
 * A problem the user fixes by changing how the command is called or what it
 * is pointed at (a flag, a missing folder, a configuration file, a port in
 * use), not by changing content: every stage throws this one type for such
 * problems, and the CLI maps it to exit code 2 in one place (src/cli/index.ts).
 * Content problems are diagnostics, never exceptions.
 */
export class UserError extends Error {
  override name = 'UserError';
}
