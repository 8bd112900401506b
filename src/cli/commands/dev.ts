import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { UserError } from '../../core/errors.js';
import { wholeNumber } from '../flags.js';
import { EXIT_OK, stderr, untilStopped } from '../output.js';

interface DevFlags {
  dataDir: string;
  port: string;
  host: string;
  storeDir?: string;
  sourceRoot?: string;
}

export function registerDev(program: Command, ctx: CommandContext): void {
  program
    .command('dev')
    .description('serve the catalogue from memory while you edit it: pages render on request and reload when data/ or a template changes')
    .option('--data-dir <dir>', 'the catalogue', 'data')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '4321')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--store-dir <dir>', 'where inquiries sent from the pages are stored (default: a temporary folder, removed on exit)')
    .option('--source-root <dir>', 'the project whose src/render/index.ts renders the pages (default: this package)')
    .action(async (flags: DevFlags) => {
      const { startDevServer } = await import('../../dev/server.js');
      const port = wholeNumber(flags.port, '--port', 0, 65535);
      let running: Awaited<ReturnType<typeof startDevServer>>;
      try {
        running = await startDevServer({ dataDir: flags.dataDir, port, host: flags.host, storeDir: flags.storeDir, sourceRoot: flags.sourceRoot });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UserError(`port ${port} on ${flags.host} is in use: pass another --port`);
        throw err;
      }
      // Listening before saying so: whoever reads the line may signal at once.
      const stopped = untilStopped();
      stderr(`site dev: ${flags.dataDir} on ${running.url} (inquiries into ${running.storeDir}); Ctrl-C stops`);
      const signal = await stopped;
      stderr(`site dev: ${signal}: stopping`);
      await running.close();
      ctx.setExitCode(EXIT_OK);
    });
}
