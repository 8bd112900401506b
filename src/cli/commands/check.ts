import type { Command } from 'commander';
import type { CommandContext } from '../index.js';
import { EXIT_USAGE, stderr } from '../output.js';

export function registerCheck(program: Command, ctx: CommandContext): void {
  program
    .command('check')
    .description('check (not built yet)')
    .action(() => {
      stderr('site check: not built yet');
      ctx.setExitCode(EXIT_USAGE);
    });
}
