import type { Command } from 'commander';
import type { CommandContext } from '../index.js';
import { EXIT_USAGE, stderr } from '../output.js';

export function registerAudit(program: Command, ctx: CommandContext): void {
  program
    .command('audit')
    .description('audit (not built yet)')
    .action(() => {
      stderr('site audit: not built yet');
      ctx.setExitCode(EXIT_USAGE);
    });
}
