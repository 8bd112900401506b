import type { Command } from 'commander';
import type { CommandContext } from '../index.js';
import { EXIT_USAGE, stderr } from '../output.js';

export function registerBuild(program: Command, ctx: CommandContext): void {
  program
    .command('build')
    .description('build (not built yet)')
    .action(() => {
      stderr('site build: not built yet');
      ctx.setExitCode(EXIT_USAGE);
    });
}
