import type { Command } from 'commander';
import type { CommandContext } from '../index.js';
import { EXIT_USAGE, stderr } from '../output.js';

export function registerInquiries(program: Command, ctx: CommandContext): void {
  program
    .command('inquiries')
    .description('list and export received inquiries (not built yet)')
    .action(() => {
      stderr('site inquiries: not built yet');
      ctx.setExitCode(EXIT_USAGE);
    });
}
