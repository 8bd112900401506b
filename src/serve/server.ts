/**
 * `site serve`: dist/ as static files and the inquiry endpoint, on node:http.
 * Every response carries the security headers; only GET and HEAD reach the
 * files, only POST reaches the endpoint.
 */
import { UserError } from '../core/errors.js';
import { existsSync, statSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MIN_FILL_MS } from '../core/inquiry-types.js';
import { createCommitQueue } from './commit-queue.js';
import { type Mailer, type Notifier, smtpMailer, startNotifier } from './notify.js';
import { parseTarget } from './paths.js';
import { createRateLimiter } from './rate-limit.js';
import { type CspExtra, SECURITY_HEADERS, NO_INLINE, contentSecurityPolicy } from './security.js';
import { type StaticSite, createStaticSite } from './static.js';
import { type InquiryStore, openStore } from './store.js';

export interface ServeOptions {
  /** The built site (dist/). Ignored with apiOnly. */
  dir: string;
  apiOnly?: boolean;
  dataDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Accepted inquiries per client per minute; 0 turns the limit off (benchmarks). */
  rateLimit?: number;
  bodyLimit?: number;
  minFillMs?: number;
  /** Take the client address from X-Forwarded-For (behind a reverse proxy). */
  trustProxy?: boolean;
  cspExtra?: CspExtra;
  inquiryPath?: string;
  /** Notification: an SMTP URL or a ready transport (tests), and the recipient. */
  smtpUrl?: string;
  mailer?: Mailer;
  notifyTo?: string;
  notifyFrom?: string;
  /** Retry schedule of notifications (tests shorten it). */
  notifyBaseDelayMs?: number;
  notifyPollMs?: number;
  notifyMaxAttempts?: number;
  /** Grace period for in-flight requests on shutdown (ms). */
  shutdownGraceMs?: number;
  log?: (line: string) => void;
  /** Re-index dist/ when the build swaps it in (default true). */
  watch?: boolean;
  /** File cache budget and the largest file kept in memory (bytes); see static.ts. */
  cacheBytes?: number;
  maxEntryBytes?: number;
  /** How long an idle keep-alive connection is kept open (ms). */
  keepAliveTimeoutMs?: number;
  /** How long a client may take to send a request's headers, and the whole request (ms). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  readonly store: InquiryStore;
  readonly site: StaticSite | null;
  /** Stops accepting, lets in-flight requests finish, closes the store. */
  close(): Promise<void>;
}

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 8080,
  dataDir: '.site-data',
  rateLimit: 5,
  bodyLimit: 32 * 1024,
  minFillMs: MIN_FILL_MS,
  inquiryPath: '/api/inquiry',
  /**
   * Longer than the idle time-outs of the proxies in front (nginx 60 s upstream and 75 s
   * client, cloud load balancers 60 s): the proxy or crawler closes an idle connection
   * first, so none sends a request on a connection this server is closing.
   */
  keepAliveTimeoutMs: 90_000,
  /** Slow clients must not hold connections for ever. */
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 30_000,
} as const;

/**
 * How often node:http looks for requests past their time-outs: a request is
 * cut at most this long after its time-out (node's own default, 30 s, cut a
 * header that never ends after 20-50 s instead of 20).
 */
export const timeoutCheckIntervalMs = (headersTimeoutMs: number): number => Math.max(10, Math.min(1000, Math.floor(headersTimeoutMs / 4)));

export class ServeConfigError extends UserError {
  override name = 'ServeConfigError';
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(text.endsWith('\n') ? text : `${text}\n`);
}

export function clientIpOf(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    // The rightmost address is the one our own proxy saw; those left of it are client claims.
    const forwarded = String(req.headers['x-forwarded-for'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (forwarded.length > 0) return forwarded[forwarded.length - 1];
  }
  return req.socket.remoteAddress ?? '';
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** The transport for notifications, null when they are not configured; bad settings are a ServeConfigError. */
async function notificationMailer(opts: ServeOptions): Promise<Mailer | null> {
  const addresses = [
    ['recipient (SITE_NOTIFY_TO, --notify-to)', opts.notifyTo],
    ['sender (SITE_NOTIFY_FROM, --notify-from)', opts.notifyFrom],
  ] as const;
  for (const [name, address] of addresses) {
    if (address !== undefined && !EMAIL.test(address)) {
      throw new ServeConfigError(`e-mail notification: the ${name} ${JSON.stringify(address)} is not an e-mail address`);
    }
  }
  if (!opts.notifyTo || !(opts.mailer || opts.smtpUrl)) return null;
  try {
    return opts.mailer ?? (await smtpMailer(opts.smtpUrl!));
  } catch (err) {
    throw new ServeConfigError(`e-mail notification: ${err instanceof Error ? err.message : String(err)} (SITE_SMTP_URL or --smtp-url)`);
  }
}

export function publicHostOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy
    ? String(req.headers['x-forwarded-host'] ?? '')
        .split(',')[0]
        .trim()
    : '';
  return forwarded || String(req.headers.host ?? '');
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const inquiryPath = opts.inquiryPath ?? DEFAULTS.inquiryPath;
  const baseCsp = contentSecurityPolicy(NO_INLINE, opts.cspExtra);

  // Configuration first: a mistake must not leave a half-started server behind.
  const mailer = await notificationMailer(opts);
  if (!opts.apiOnly && (!existsSync(opts.dir) || !statSync(opts.dir).isDirectory())) {
    throw new ServeConfigError(`${opts.dir} does not exist or is not a folder: run \`site build\` first, or pass --dir (or --api-only)`);
  }
  if (!mailer && (opts.notifyTo || opts.smtpUrl)) {
    log('site serve: e-mail notification needs both an SMTP URL (SITE_SMTP_URL) and a recipient (SITE_NOTIFY_TO); it stays off');
  }

  const store = openStore(opts.dataDir, { create: true });
  const site = opts.apiOnly
    ? null
    : createStaticSite({ root: opts.dir, cspExtra: opts.cspExtra, watch: opts.watch, cacheBytes: opts.cacheBytes, maxEntryBytes: opts.maxEntryBytes, log });
  const notifier: Notifier | null = mailer
    ? startNotifier(store, mailer, {
        to: opts.notifyTo!,
        from: opts.notifyFrom,
        baseDelayMs: opts.notifyBaseDelayMs,
        pollMs: opts.notifyPollMs,
        maxAttempts: opts.notifyMaxAttempts,
        onError: (id, error, retry) => log(`site serve: e-mail for inquiry ${id} failed (${error})${retry ? '; will retry' : '; giving up'}`),
      })
    : null;

  const limiter = createRateLimiter(opts.rateLimit ?? DEFAULTS.rateLimit);
  const inquiryOptions = {
    commit: createCommitQueue(store),
    site,
    limiter,
    bodyLimit: opts.bodyLimit ?? DEFAULTS.bodyLimit,
    minFillMs: opts.minFillMs ?? DEFAULTS.minFillMs,
    notify: notifier !== null,
    onStored: notifier ? () => void notifier!.drain() : undefined,
    clientIp: (req: IncomingMessage) => clientIpOf(req, opts.trustProxy === true),
    publicHost: (req: IncomingMessage) => publicHostOf(req, opts.trustProxy === true),
    baseCsp: site?.baseCsp ?? baseCsp,
  };

  let inquiryHandler: Promise<typeof import('./inquiry.js')> | undefined;
  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    res.setHeader('Content-Security-Policy', inquiryOptions.baseCsp);
    const target = parseTarget(req.url);
    if (!target.ok) return plain(res, 400, `Bad request: ${target.reason}.`);
    if (target.path === inquiryPath) {
      if (req.method !== 'POST') return plain(res, 405, 'Method not allowed: the inquiry endpoint takes POST.', { Allow: 'POST' });
      // Loaded with the first inquiry (its schema is zod's), not before the first page can be served.
      const { handleInquiry } = await (inquiryHandler ??= import('./inquiry.js'));
      return handleInquiry(req, res, inquiryOptions);
    }
    if (!site) return plain(res, 404, 'Not found: this server only answers the inquiry endpoint (--api-only).');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed.', { Allow: 'GET, HEAD' });
    const r = site.resolve(target.path);
    if (r.kind === 'redirect') {
      // The resolution is a decoded path: encoded again, a non-ASCII slug makes a valid header.
      res.writeHead(301, { Location: encodeURI(r.location) + target.search, 'Cache-Control': 'public, max-age=3600' });
      return void res.end();
    }
    // A target without a query is the key under which sendCached finds this file next time.
    if (r.kind === 'file') return site.send(req, res, r.file, 200, target.search === '' ? req.url : undefined);
    return site.sendNotFound(req, res);
  }

  let closing: Promise<void> | null = null;
  const inFlight = new Set<ServerResponse>();
  /** Shutting down: this response finishes, then its connection goes instead of idling in keep-alive. */
  const lastOnConnection = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
  };
  const headersTimeout = opts.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs;
  const server = createServer({
    headersTimeout,
    requestTimeout: opts.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    connectionsCheckingInterval: timeoutCheckIntervalMs(headersTimeout),
  });
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? DEFAULTS.keepAliveTimeoutMs;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // A page answered before, from memory, in one write: nothing in flight to track.
    if (site !== null && closing === null && site.sendCached(req, res)) return;
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    if (closing) lastOnConnection(res);
    route(req, res).catch(async (err: unknown) => {
      log(`site serve: ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (res.headersSent) return void res.destroy();
      // A page request gets the site's error page (dist/500.html); the inquiry endpoint and the rest, plain text.
      const page = site !== null && (req.method === 'GET' || req.method === 'HEAD') && !(req.url ?? '').startsWith(inquiryPath);
      try {
        if (page) await site.sendError(req, res);
        else plain(res, 500, 'Internal server error.');
      } catch {
        if (!res.headersSent) plain(res, 500, 'Internal server error.');
        else res.destroy();
      }
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? DEFAULTS.port, opts.host ?? DEFAULTS.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await notifier?.stop();
    site?.close();
    store.close();
    throw err;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  function close(): Promise<void> {
    closing ??= (async () => {
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const res of inFlight) lastOnConnection(res);
      // Responses sendCached wrote just before are not in flight: their connections go once idle.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const grace = setTimeout(() => server.closeAllConnections(), opts.shutdownGraceMs ?? 10_000);
      await done;
      clearInterval(sweep);
      clearTimeout(grace);
      await notifier?.stop();
      site?.close();
      store.close();
    })();
    return closing;
  }

  return { url: `http://${host}:${address.port}`, port: address.port, server, store, site, close };
}
