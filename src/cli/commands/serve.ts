import { relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { UserError } from '../../core/errors.js';
import { collect, wholeNumber } from '../flags.js';
import { EXIT_OK, stderr, untilStopped } from '../output.js';

interface ServeFlags {
  dir: string;
  port?: string;
  host: string;
  dataDir: string;
  apiOnly?: boolean;
  rateLimit: string;
  bodyLimit: string;
  keepAliveTimeout?: string;
  trustProxy?: boolean;
  csp?: string[];
  smtpUrl?: string;
  notifyTo?: string;
  notifyFrom?: string;
}

export function registerServe(program: Command, ctx: CommandContext): void {
  program
    .command('serve')
    .description('serve the built site (dist/) and receive its inquiry forms')
    .option('--dir <dir>', 'the built site', 'dist')
    .option('--port <port>', 'port to listen on; 0 picks a free one (default: $PORT or 8080)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data-dir <dir>', 'where inquiries are stored (outside dist/)', '.site-data')
    .option('--api-only', 'answer only POST /api/inquiry (dist/ is served by another host)')
    .option('--rate-limit <n>', 'accepted inquiries per client and minute; 0 turns the limit off', '5')
    .option('--body-limit <bytes>', 'largest inquiry body accepted', '32768')
    .option('--keep-alive-timeout <seconds>', 'how long an idle connection stays open (default: 90); keep it above the idle time-out of a proxy in front')
    .option('--trust-proxy', 'take the client address from X-Forwarded-For (behind a reverse proxy)')
    .option(
      '--csp <directive:source>',
      'allow a third-party source in the Content-Security-Policy, e.g. script-src:https://www.googletagmanager.com (repeatable)',
      collect,
    )
    .option('--smtp-url <url>', 'SMTP server for e-mail notification of inquiries (default: $SITE_SMTP_URL)')
    .option('--notify-to <address>', 'who is e-mailed about each inquiry (default: $SITE_NOTIFY_TO)')
    .option('--notify-from <address>', 'sender of those e-mails (default: $SITE_NOTIFY_FROM or the recipient)')
    .action(async (flags: ServeFlags) => {
      const { startServer } = await import('../../serve/server.js');
      const { parseCspOptions } = await import('../../serve/security.js');
      const portText = flags.port ?? process.env.PORT ?? '8080';
      const port = wholeNumber(portText, flags.port !== undefined ? '--port' : 'PORT', 0, 65535);
      const csp = parseCspOptions(flags.csp ?? []);
      if (csp.errors.length > 0) throw new UserError(csp.errors.join('\n'));
      const dist = resolve(flags.dir);
      const data = resolve(flags.dataDir);
      if (!flags.apiOnly && (data === dist || data.startsWith(dist + sep))) {
        throw new UserError(`--data-dir ${flags.dataDir} is inside --dir ${flags.dir}: the inquiry store would be published; choose a folder outside it`);
      }
      // A build killed during its swap may have left dist/ missing: put it right before serving it (build/output/atomic.ts).
      if (!flags.apiOnly) await (await import('../../emit/output/atomic.js')).recoverOutput(dist);
      let running: Awaited<ReturnType<typeof startServer>>;
      try {
        running = await startServer({
          dir: flags.dir,
          apiOnly: flags.apiOnly === true,
          dataDir: flags.dataDir,
          host: flags.host,
          port,
          rateLimit: wholeNumber(flags.rateLimit, '--rate-limit', 0, 1_000_000),
          bodyLimit: wholeNumber(flags.bodyLimit, '--body-limit', 1024, 16 * 1024 * 1024),
          keepAliveTimeoutMs: flags.keepAliveTimeout === undefined ? undefined : wholeNumber(flags.keepAliveTimeout, '--keep-alive-timeout', 1, 3600) * 1000,
          trustProxy: flags.trustProxy === true,
          cspExtra: csp.extra,
          smtpUrl: flags.smtpUrl ?? (process.env.SITE_SMTP_URL || undefined),
          notifyTo: flags.notifyTo ?? (process.env.SITE_NOTIFY_TO || undefined),
          notifyFrom: flags.notifyFrom ?? (process.env.SITE_NOTIFY_FROM || undefined),
        });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UserError(`port ${port} on ${flags.host} is in use: pass another --port`);
        throw err;
      }
      const what = flags.apiOnly ? 'the inquiry endpoint' : relative(process.cwd(), dist) || '.';
      const stopped = untilStopped();
      stderr(`site serve: ${what} on ${running.url} (inquiries in ${relative(process.cwd(), running.store.file)})`);
      const signal = await stopped;
      stderr(`site serve: ${signal}: finishing requests in flight, then closing the store`);
      await running.close();
      ctx.setExitCode(EXIT_OK);
    });
}
