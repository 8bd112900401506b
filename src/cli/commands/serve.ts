import type { Command } from 'commander';
import type { CommandContext } from '../index.js';
import { EXIT_USAGE, stderr } from '../output.js';

export function registerServe(program: Command, ctx: CommandContext): void {
  program
    .command('serve')
    .description('serve (not built yet)')
    .action(() => {
      stderr('site serve: not built yet');
      ctx.setExitCode(EXIT_USAGE);
    });
}
