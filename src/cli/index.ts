/**
 * The `site` command line: a thin layer over the stage modules. Every command
 * module imports its stage lazily so that `site --help` stays fast, and a run
 * of one command loads only that command's module.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { CommandContext } from './context.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, errorText, stderr } from './output.js';
import { UserError } from '../core/errors.js';

type Register = (program: Command, ctx: CommandContext) => void;

/** Every command, in the order `site --help` lists them. */
const COMMANDS: Record<string, () => Promise<Register>> = {
  check: async () => (await import('./commands/check.js')).registerCheck,
  build: async () => (await import('./commands/build.js')).registerBuild,
  audit: async () => (await import('./commands/audit.js')).registerAudit,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  dev: async () => (await import('./commands/dev.js')).registerDev,
  inquiries: async () => (await import('./commands/inquiries.js')).registerInquiries,
};

/**
 * The commands `argv` needs: only the one it names (`site check …`, `site
 * check --help`); all of them for `site --help`, `site help`, a typo (commander
 * suggests the nearest name) or anything else.
 */
export function commandsFor(argv: readonly string[]): string[] {
  const first = argv[2];
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function createProgram(ctx: CommandContext, commands: readonly string[] = Object.keys(COMMANDS)): Promise<Command> {
  const registers = await Promise.all(commands.map((name) => COMMANDS[name]()));
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
  for (const register of registers) register(program, ctx);
  for (const cmd of program.commands) cmd.exitOverride().allowExcessArguments(false);
  return program;
}

/** Runs the CLI and returns the exit code (0 ok, 1 problems found, 2 usage or configuration error). */
export async function main(argv: string[]): Promise<number> {
  let code = EXIT_OK;
  try {
    const program = await createProgram({ setExitCode: (c) => (code = c) }, commandsFor(argv));
    await program.parseAsync(argv);
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    stderr(`site: ${errorText(err)}`);
    return err instanceof UserError ? EXIT_USAGE : EXIT_PROBLEMS;
  }
}
