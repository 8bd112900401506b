/**
 * `site dev`: the site served from memory while it is edited. Start-up checks
 * the catalogue and makes the site model, nothing more; a page is rendered
 * when it is asked for. data/ and the render code are watched: a change is
 * re-checked (or the render code reloaded through Vite), and each open page
 * whose HTML is now different is told to reload over server-sent events. A
 * check error keeps the last good site and shows in an overlay in every open
 * page and in the terminal. Inquiries go through `site serve`'s own handler
 * into an inquiry store.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultClientDir, projectRoot, readAssetRefs } from '../build/files/assets.js';
import { checkDataDir } from '../check/run.js';
import { UserError } from '../core/errors.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { defaultCacheDir } from '../load/cache.js';
import { createCommitQueue } from '../serve/commit-queue.js';
import { contentTypeOf } from '../serve/content-type.js';
import { handleInquiry, type InquiryOptions } from '../serve/inquiry.js';
import { parseTarget } from '../serve/paths.js';
import { createRateLimiter } from '../serve/rate-limit.js';
import { contentSecurityPolicy, inlineHashes, NO_INLINE, SECURITY_HEADERS } from '../serve/security.js';
import { clientIpOf, DEFAULTS, publicHostOf } from '../serve/server.js';
import { type InquiryStore, openStore } from '../serve/store.js';
import { DEV_CLIENT_JS, DEV_EVENTS_PATH, DEV_PREFIX, DEV_SCRIPT_PATH, errorPage, injectDevScript, overlayItems, renderFailurePage, whereOf } from './client.js';
import { createDevFiles } from './files.js';
import { createRenderSource, isRenderSource } from './render-source.js';
import { answerPath, type Checked, htmlHash, pageAt, type SiteView, viewOf, withApi } from './site.js';
import { isEditorNoise, watchTree, type TreeWatcher } from './watch.js';

export interface DevOptions {
  dataDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Where inquiries are stored; default a temporary folder removed on close. */
  storeDir?: string;
  /** The project whose src/render/index.ts renders the pages (default: this package). */
  sourceRoot?: string;
  /** The compiled browser bundle (default build/client of this package). */
  clientDir?: string;
  /** The check cache (default as `site check`); false for none. */
  cacheDir?: string | false;
  /** Quiet time after the last change event before re-checking (ms). */
  debounceMs?: number;
  log?: (line: string) => void;
}

export interface DevServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  readonly store: InquiryStore;
  /** Resolves after the next change has been handled (tests). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export const DEV_DEFAULTS = { host: '127.0.0.1', port: 4321, debounceMs: 30 } as const;

export class DevConfigError extends UserError {
  override name = 'DevConfigError';
}

/** A tab with the dev script open: its page, and the fingerprint of the HTML it shows. */
interface Client {
  res: ServerResponse;
  path: string;
  hash: string;
}

const sse = (res: ServerResponse, event: string, data: unknown): void => void res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

export async function startDevServer(opts: DevOptions): Promise<DevServer> {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const dataDir = path.resolve(opts.dataDir);
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) {
    throw new DevConfigError(`the data directory ${opts.dataDir} does not exist or is not a folder: pass the catalogue's folder with --data-dir`);
  }
  const sourceRoot = path.resolve(opts.sourceRoot ?? projectRoot());
  const clientDir = opts.clientDir ?? defaultClientDir();
  const assets = readAssetRefs(clientDir);
  const cacheDir = opts.cacheDir === false ? false : (opts.cacheDir ?? defaultCacheDir());
  const debounceMs = opts.debounceMs ?? DEV_DEFAULTS.debounceMs;
  const source = createRenderSource(sourceRoot);
  const files = createDevFiles({ clientDir, cacheDir: cacheDir === false ? undefined : cacheDir });

  // The render code and the check run at once: each is most of the start-up.
  const [api, firstCheck] = await Promise.all([source.current(), checkDataDir(dataDir, { cacheDir })]);
  let checked: Checked = viewOf(firstCheck, dataDir, api, assets);
  /** The last view without errors: what pages show while the catalogue has errors. */
  let view: SiteView | null = checked.view;
  reportCheck(checked.diagnostics, log);

  const ownStore = opts.storeDir === undefined;
  const storeDir = opts.storeDir ?? mkdtempSync(path.join(tmpdir(), 'site-dev-store-'));
  const store = openStore(storeDir, { create: true });
  const baseCsp = contentSecurityPolicy(NO_INLINE);
  const cspFor = (html: string) => contentSecurityPolicy(inlineHashes(html));

  /** What a tab open at `path` shows now, before the dev script is added. */
  function currentPage(requestPath: string): { status: number; html: string } {
    if (view === null) return { status: 500, html: errorPage(checked.errors) };
    try {
      return pageAt(view, requestPath);
    } catch (err) {
      log(`site dev: rendering ${requestPath} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return { status: 500, html: renderFailurePage(requestPath, err) };
    }
  }
  /** Fingerprints of pages rendered since the last change, by path: a tab connecting is compared without rendering again. */
  let hashes = new Map<string, string>();
  const hashAt = (requestPath: string): string => {
    let h = hashes.get(requestPath);
    if (h === undefined) hashes.set(requestPath, (h = htmlHash(currentPage(requestPath).html)));
    return h;
  };

  const clients = new Set<Client>();

  const inquiryOptions: InquiryOptions = {
    commit: createCommitQueue(store),
    site: {
      async pageHtml(routePath: string) {
        if (view === null) return null;
        const answer = answerPath(view, routePath);
        return answer.kind === 'page' ? answer.html : null;
      },
      cspFor,
    },
    limiter: createRateLimiter(DEFAULTS.rateLimit),
    bodyLimit: DEFAULTS.bodyLimit,
    minFillMs: DEFAULTS.minFillMs,
    notify: false,
    clientIp: (req) => clientIpOf(req, false),
    publicHost: (req) => publicHostOf(req, false),
    baseCsp,
  };

  function send(req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string | Buffer, cacheControl = 'no-store'): void {
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': cacheControl });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function sendPage(req: IncomingMessage, res: ServerResponse, requestPath: string, page: { status: number; html: string }): void {
    const hash = htmlHash(page.html);
    hashes.set(requestPath, hash);
    const html = injectDevScript(page.html, hash);
    res.setHeader('Content-Security-Policy', cspFor(html));
    send(req, res, page.status, 'text/html; charset=utf-8', html);
  }

  function openEvents(req: IncomingMessage, res: ServerResponse, search: string): void {
    const params = new URLSearchParams(search);
    const target = parseTarget(params.get('path') ?? '/');
    const client: Client = { res, path: target.ok ? target.path : '/', hash: params.get('hash') ?? '' };
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    res.write('retry: 300\n\n');
    sse(res, 'errors', overlayItems(checked.errors));
    clients.add(client);
    req.on('close', () => clients.delete(client));
    // A change between the page's answer and this connection: the tab is already behind.
    if (hashAt(client.path) !== client.hash) sse(res, 'reload', {});
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    res.setHeader('Content-Security-Policy', baseCsp);
    const target = parseTarget(req.url);
    if (!target.ok) return send(req, res, 400, 'text/plain; charset=utf-8', `Bad request: ${target.reason}.\n`);
    if (target.path === DEFAULTS.inquiryPath) {
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        return send(req, res, 405, 'text/plain; charset=utf-8', 'Method not allowed: the inquiry endpoint takes POST.\n');
      }
      return handleInquiry(req, res, inquiryOptions);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(req, res, 405, 'text/plain; charset=utf-8', 'Method not allowed.\n');
    }
    if (target.path === DEV_SCRIPT_PATH) return send(req, res, 200, 'text/javascript; charset=utf-8', DEV_CLIENT_JS);
    if (target.path === DEV_EVENTS_PATH) return openEvents(req, res, target.search);
    if (target.path.startsWith(DEV_PREFIX)) return sendPage(req, res, target.path, currentPage(target.path));
    if (view === null) return sendPage(req, res, target.path, currentPage(target.path));
    const answer = answerPath(view, target.path);
    if (answer.kind === 'redirect') {
      // Not 301: a browser keeps a permanent redirect, and routes move while a catalogue is edited.
      res.writeHead(302, { Location: encodeURI(answer.location) + target.search, 'Cache-Control': 'no-store' });
      return void res.end();
    }
    if (answer.kind === 'page') return sendPage(req, res, target.path, answer);
    const file = await files.get(view, target.path);
    if (file !== null) {
      return send(req, res, 200, contentTypeOf(target.path), file.body, file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    }
    return sendPage(req, res, target.path, currentPage(target.path));
  }

  const server = createServer();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((err: unknown) => {
      log(`site dev: ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (res.headersSent) return void res.destroy();
      res.setHeader('Content-Security-Policy', baseCsp);
      send(req, res, 500, 'text/html; charset=utf-8', renderFailurePage(req.url ?? '/', err));
    });
  });

  /** Tells each open tab whose page changed to reload; with `all`, every tab (its overlay was just resolved). */
  function notify(all: boolean): number {
    hashes = new Map();
    let reloaded = 0;
    const errors = overlayItems(checked.errors);
    for (const client of clients) {
      sse(client.res, 'errors', errors);
      if (all || hashAt(client.path) !== client.hash) {
        sse(client.res, 'reload', {});
        reloaded++;
      }
    }
    return reloaded;
  }

  // Changes are handled one at a time, in order; a change during a re-check is handled after it.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: () => Promise<void>): void => {
    queue = queue.then(work).catch((err: unknown) => log(`site dev: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
  };

  const onData = (changed: string[]) =>
    enqueue(async () => {
      const started = performance.now();
      const hadErrors = checked.errors.length > 0;
      checked = viewOf(await checkDataDir(dataDir, { cacheDir }), dataDir, await source.current(), assets);
      if (checked.view !== null) view = checked.view;
      const reloaded = notify(hadErrors && checked.errors.length === 0);
      const what = changed.map((f) => path.relative(process.cwd(), f) || '.').join(', ');
      log(`site dev: ${what} changed: checked in ${Math.round(performance.now() - started)} ms, ${reloaded} open page${reloaded === 1 ? '' : 's'} reloaded`);
      if (checked.errors.length > 0 || hadErrors) reportCheck(checked.diagnostics, log);
    });

  const onCode = (changed: string[]) =>
    enqueue(async () => {
      const started = performance.now();
      for (const file of changed) source.invalidate(file);
      let api: Awaited<ReturnType<typeof source.current>>;
      try {
        api = await source.current();
      } catch (err) {
        // A syntax error mid-edit: the pages keep the code that last loaded, the terminal says why.
        log(`site dev: the render code did not load: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      if (view !== null) {
        view = withApi(view, api, assets);
        if (checked.view !== null) checked = { ...checked, view };
      }
      const reloaded = notify(false);
      const what = changed.map((f) => path.relative(sourceRoot, f)).join(', ');
      log(
        `site dev: ${what} changed: render code reloaded in ${Math.round(performance.now() - started)} ms, ${reloaded} open page${reloaded === 1 ? '' : 's'} reloaded`,
      );
    });

  const watchers: TreeWatcher[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? DEV_DEFAULTS.port, opts.host ?? DEV_DEFAULTS.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    watchers.push(watchTree(dataDir, debounceMs, (f) => !isEditorNoise(f), onData));
    const srcDir = path.join(sourceRoot, 'src');
    if (existsSync(srcDir)) watchers.push(watchTree(srcDir, debounceMs, (f) => !isEditorNoise(f) && isRenderSource(sourceRoot, f), onCode));
  } catch (err) {
    for (const w of watchers) w.close();
    store.close();
    if (ownStore) rmSync(storeDir, { recursive: true, force: true });
    await source.close();
    throw err;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    server,
    store,
    settled: async () => {
      await new Promise((r) => setTimeout(r, debounceMs * 2));
      await queue;
    },
    close() {
      closing ??= (async () => {
        for (const w of watchers) w.close();
        for (const client of clients) client.res.end();
        clients.clear();
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await done;
        await queue;
        await source.close();
        store.close();
        if (ownStore) rmSync(storeDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/** The check's errors one a line, as an editor's problem matcher reads them, and a count of the warnings. */
function reportCheck(diagnostics: readonly Diagnostic[], log: (line: string) => void): void {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const warnings = diagnostics.length - errors.length;
  for (const d of errors) log(`${whereOf(d)}: error ${d.code}${d.pointer ? ` at ${d.pointer}` : ''}: ${d.message}`);
  log(
    errors.length > 0
      ? `site dev: the catalogue has ${errors.length} error${errors.length === 1 ? '' : 's'}; pages show the last version without errors`
      : `site dev: the catalogue checks without errors (${warnings} warning${warnings === 1 ? '' : 's'}; \`site check\` lists them)`,
  );
}
