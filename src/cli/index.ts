/**
 * The `site` command line: a thin layer over the stage modules. Every command
 * module imports its stage lazily so that `site --help` stays fast.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError, stderr } from './output.js';
import { registerCheck } from './commands/check.js';
import { registerBuild } from './commands/build.js';
import { registerAudit } from './commands/audit.js';
import { registerServe } from './commands/serve.js';
import { registerInquiries } from './commands/inquiries.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Each command's action stores its exit code here; commander's own errors map to 2. */
export interface CommandContext {
  setExitCode(code: number): void;
}

export function createProgram(ctx: CommandContext): Command {
  const program = new Command('site')
    .description('Check, build, audit and serve the static catalogue website.')
    .version(version(), '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run `site --help` for usage)')
    .allowExcessArguments(false)
    .exitOverride();
  program.configureOutput({
    writeOut: (s) => process.stdout.write(s),
    writeErr: (s) => process.stderr.write(s),
  });
  registerCheck(program, ctx);
  registerBuild(program, ctx);
  registerAudit(program, ctx);
  registerServe(program, ctx);
  registerInquiries(program, ctx);
  for (const cmd of program.commands) cmd.exitOverride().allowExcessArguments(false);
  return program;
}

/** Runs the CLI and returns the exit code (0 ok, 1 problems found, 2 usage or configuration error). */
export async function main(argv: string[]): Promise<number> {
  let code = EXIT_OK;
  const program = createProgram({ setExitCode: (c) => (code = c) });
  try {
    await program.parseAsync(argv);
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (err instanceof UsageError) {
      stderr(`site: ${err.message}`);
      return EXIT_USAGE;
    }
    stderr(`site: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return EXIT_PROBLEMS;
  }
}
