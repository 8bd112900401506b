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
import { type AddressInfo, isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultClientDir, projectRoot, readAssetRefs } from '../emit/files/assets.js';
import { checkDataDir, type CheckResult } from '../check/run.js';
import { UserError } from '../core/errors.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { contentSecurityPolicy, NO_INLINE, originOf, SECURITY_HEADERS } from '../core/http-headers.js';
import type { SiteConfig } from '../core/schema.js';
import { defaultCacheDir } from '../load/cache.js';
import { contentTypeOf } from '../serve/content-type.js';
import type { InquiryOptions } from '../serve/inquiry.js';
import { parseTarget } from '../serve/paths.js';
import type { InquiryStore } from '../serve/store.js';
import { DEV_CLIENT_JS, DEV_EVENTS_PATH, DEV_PREFIX, DEV_SCRIPT_PATH, errorPage, injectDevScript, overlayItems, renderFailurePage, whereOf } from './client.js';
import { createDevFiles } from './files.js';
import { createLiveReload } from './live.js';
import { type QuickBase, quickCheck, warm } from './quick-check.js';
import { createRenderSource, isRenderSource } from './render-source.js';
import { answerPath, type Checked, htmlHash, pageAt, type SiteView, viewOf, withApi } from './site.js';
import { isEditorNoise, watchFailure, watchTree, type TreeWatcher } from '../load/watch.js';

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
  /** Where inquiries go (the store is opened by the first one). */
  readonly storeDir: string;
  close(): Promise<void>;
}

export const DEV_DEFAULTS = { host: '127.0.0.1', port: 4321, debounceMs: 30 } as const;

/** The forms' endpoint, as `site serve` answers it (its DEFAULTS.inquiryPath; a test holds them equal). */
export const INQUIRY_PATH = '/api/inquiry';

/**
 * The policy of every page, as dist/_headers states it (build/files/headers-file.ts): the pages have no
 * inline script or style; with third-party services configured, none (their hosts are theirs to change).
 */
function pageCsp(site: Pick<SiteConfig, 'inquiryEndpoint' | 'thirdParty'>): string | null {
  if (Object.values(site.thirdParty).some((id) => id.trim() !== '')) return null;
  const endpoint = originOf(site.inquiryEndpoint);
  return contentSecurityPolicy(NO_INLINE, { 'form-action': endpoint, 'connect-src': endpoint });
}

export class DevConfigError extends UserError {
  override name = 'DevConfigError';
}

/**
 * Whether a request's Host names this machine as only a browser on it would: `localhost`, an IP address, or
 * the --host given. A web page elsewhere can make a browser send requests to a loopback server under a name
 * of its own (DNS rebinding) and read the answers; such a name is refused.
 */
export function isAllowedHost(hostHeader: string | undefined, listenHost: string): boolean {
  if (!hostHeader) return false;
  const name = (hostHeader.startsWith('[') ? hostHeader.slice(1, hostHeader.indexOf(']')) : hostHeader.replace(/:\d*$/, '')).toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0 || name === listenHost.toLowerCase();
}

/** A page as rendered for a path, and its fingerprint. */
interface Page {
  status: number;
  html: string;
  hash: string;
}

export async function startDevServer(opts: DevOptions): Promise<DevServer> {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  // Diagnostics name files under the folder as given (`data/articles/x.json`).
  const dataDir = opts.dataDir;
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) {
    throw new DevConfigError(`the data directory ${opts.dataDir} does not exist or is not a folder: pass the catalogue's folder with --data-dir`);
  }
  const sourceRoot = path.resolve(opts.sourceRoot ?? projectRoot());
  const clientDir = opts.clientDir ?? defaultClientDir();
  const assets = readAssetRefs(clientDir);
  const cacheDir = opts.cacheDir === false ? false : (opts.cacheDir ?? defaultCacheDir());
  const debounceMs = opts.debounceMs ?? DEV_DEFAULTS.debounceMs;
  const listenHost = opts.host ?? DEV_DEFAULTS.host;
  const source = createRenderSource(sourceRoot);
  const files = createDevFiles({ clientDir, cacheDir: cacheDir === false ? undefined : cacheDir });

  // The render code and the check run at once: each is most of the start-up.
  const [api, firstCheck] = await Promise.all([source.current(), checkDataDir(dataDir, { cacheDir })]).catch(async (err: unknown) => {
    await source.close();
    throw err;
  });
  /** The render API that last loaded: a template that does not compile leaves it in place. */
  let renderApi = api;
  let checked: Checked = viewOf(firstCheck, dataDir, api, assets);
  /** The last view without errors: what pages show while the catalogue has errors. */
  let view: SiteView | null = checked.view;
  /** The last check result without errors, which a quick re-check builds on. */
  let base: QuickBase | null = null;
  const keepBase = (result: CheckResult, c: Checked) => {
    base = c.errors.length === 0 && result.catalogue !== null ? { result: result as QuickBase['result'], dataDir } : null;
  };
  keepBase(firstCheck, checked);
  reportCheck(checked.diagnostics, log);

  const ownStore = opts.storeDir === undefined;
  const storeDir = opts.storeDir ?? mkdtempSync(path.join(tmpdir(), 'site-dev-store-'));
  let store: InquiryStore | null = null;
  const baseCsp = contentSecurityPolicy(NO_INLINE);

  /** A page whose template threw: the error on the page (with the dev script, so a fix reloads it) and in the terminal. */
  const failed = (requestPath: string, err: unknown) => {
    log(`site dev: rendering ${requestPath} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return { kind: 'page' as const, status: 500, html: renderFailurePage(requestPath, err) };
  };
  /** What a tab open at `path` shows now, before the dev script is added. */
  function currentPage(requestPath: string): { status: number; html: string } {
    if (view === null) return { status: 500, html: errorPage(checked.errors) };
    try {
      return pageAt(view, requestPath);
    } catch (err) {
      return failed(requestPath, err);
    }
  }
  /**
   * Pages rendered since the last change, by path, with their fingerprints: a tab connecting is compared
   * without rendering again, and the page rendered to decide a tab's reload is the one its reload gets.
   */
  let pages = new Map<string, Page>();
  const remember = (requestPath: string, page: { status: number; html: string }): Page => {
    if (pages.size >= 1000) pages = new Map();
    const kept = { ...page, hash: htmlHash(page.html) };
    pages.set(requestPath, kept);
    return kept;
  };
  const hashAt = (requestPath: string): string => (pages.get(requestPath) ?? remember(requestPath, currentPage(requestPath))).hash;

  const live = createLiveReload(hashAt, () => overlayItems(checked.errors));

  /** `site serve`'s inquiry handler and store, loaded by the first inquiry: they are most of a start-up's imports. */
  let inquiries: Promise<(req: IncomingMessage, res: ServerResponse) => Promise<void>> | null = null;
  const inquiryHandler = () => {
    inquiries ??= (async () => {
      const [{ handleInquiry }, { openStore }, { createCommitQueue }, { createRateLimiter }, serve, { inlineHashes }] = await Promise.all([
        import('../serve/inquiry.js'),
        import('../serve/store.js'),
        import('../serve/commit-queue.js'),
        import('../serve/rate-limit.js'),
        import('../serve/server.js'),
        import('../serve/security.js'),
      ]);
      store = openStore(storeDir, { create: true });
      const options: InquiryOptions = {
        commit: createCommitQueue(store),
        site: {
          async pageHtml(routePath: string) {
            if (view === null) return null;
            const answer = answerPath(view, routePath);
            return answer.kind === 'page' ? answer.html : null;
          },
          cspFor: (html) => contentSecurityPolicy(inlineHashes(html)),
        },
        limiter: createRateLimiter(serve.DEFAULTS.rateLimit),
        bodyLimit: serve.DEFAULTS.bodyLimit,
        minFillMs: serve.DEFAULTS.minFillMs,
        notify: false,
        clientIp: (req) => serve.clientIpOf(req, false),
        publicHost: (req) => serve.publicHostOf(req, false),
        baseCsp,
      };
      return (req: IncomingMessage, res: ServerResponse) => handleInquiry(req, res, options);
    })();
    return inquiries;
  };

  function send(req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string | Buffer, cacheControl = 'no-store'): void {
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': cacheControl });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** The quick re-check's stages, imported once the first page is out and the browser has had its assets. */
  let warming: NodeJS.Timeout | null = null;
  function sendPage(req: IncomingMessage, res: ServerResponse, requestPath: string, page: { status: number; html: string }): void {
    if (warming === null) {
      warming = setTimeout(() => void warm().catch(() => undefined), 500).unref();
      res.once('finish', startWatching);
    }
    const { hash } = remember(requestPath, page);
    const html = injectDevScript(page.html, hash);
    const csp = view === null ? baseCsp : pageCsp(view.catalogue.site);
    if (csp === null) res.removeHeader('Content-Security-Policy');
    else res.setHeader('Content-Security-Policy', csp);
    send(req, res, page.status, 'text/html; charset=utf-8', html);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    res.setHeader('Content-Security-Policy', baseCsp);
    if (!isAllowedHost(req.headers.host, listenHost)) {
      return send(
        req,
        res,
        403,
        'text/plain; charset=utf-8',
        `Forbidden: site dev answers requests for localhost or an IP address, not for ${JSON.stringify(req.headers.host ?? '')}.\n`,
      );
    }
    const target = parseTarget(req.url);
    if (!target.ok) return send(req, res, 400, 'text/plain; charset=utf-8', `Bad request: ${target.reason}.\n`);
    if (target.path === INQUIRY_PATH) {
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        return send(req, res, 405, 'text/plain; charset=utf-8', 'Method not allowed: the inquiry endpoint takes POST.\n');
      }
      return (await inquiryHandler())(req, res);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(req, res, 405, 'text/plain; charset=utf-8', 'Method not allowed.\n');
    }
    if (target.path === DEV_SCRIPT_PATH) return send(req, res, 200, 'text/javascript; charset=utf-8', DEV_CLIENT_JS);
    if (target.path === DEV_EVENTS_PATH) return live.open(req, res, target.search);
    if (target.path.startsWith(DEV_PREFIX)) return sendPage(req, res, target.path, currentPage(target.path));
    if (view === null) return sendPage(req, res, target.path, currentPage(target.path));
    // Only a path that showed a page (200) is one: a 404 kept for a tab may be a file or a redirect to a request.
    const known = pages.get(target.path);
    if (known?.status === 200) return sendPage(req, res, target.path, known);
    let answer: ReturnType<typeof answerPath> | ReturnType<typeof failed>;
    try {
      answer = answerPath(view, target.path);
    } catch (err) {
      answer = failed(target.path, err);
    }
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

  /** After a change: nothing rendered before it stands; the tabs whose page changed reload. */
  function notify(all: boolean): number {
    pages = new Map();
    return live.notify(all);
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
      const quick = base === null ? null : await quickCheck(base, changed);
      const result = quick ?? (await checkDataDir(dataDir, { cacheDir }));
      checked = viewOf(result, dataDir, renderApi, assets);
      keepBase(result, checked);
      if (checked.view !== null) view = checked.view;
      const reloaded = notify(hadErrors && checked.errors.length === 0);
      const what = changed.map((f) => path.relative(process.cwd(), f) || '.').join(', ');
      log(
        `site dev: ${what} changed: ${quick ? 'its files re-checked' : 'checked'} in ${Math.round(performance.now() - started)} ms, ${reloaded} open page${reloaded === 1 ? '' : 's'} reloaded`,
      );
      if (checked.errors.length > 0 || hadErrors) reportCheck(checked.diagnostics, log);
    });

  const onCode = (changed: string[]) =>
    enqueue(async () => {
      const started = performance.now();
      for (const file of changed) source.invalidate(file);
      try {
        renderApi = await source.current();
      } catch (err) {
        // A syntax error mid-edit: the pages keep the code that last loaded, the terminal says why.
        log(`site dev: the render code did not load: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      if (view !== null) {
        view = withApi(view, renderApi, assets);
        if (checked.view !== null) checked = { ...checked, view };
      }
      const reloaded = notify(false);
      const what = changed.map((f) => path.relative(sourceRoot, f)).join(', ');
      log(
        `site dev: ${what} changed: render code reloaded in ${Math.round(performance.now() - started)} ms, ${reloaded} open page${reloaded === 1 ? '' : 's'} reloaded`,
      );
    });

  /**
   * The watchers, set up once the first page is out or soon after listening, whichever comes first: walking
   * data/ for a recursive watch takes 100 ms on Node 20, which the first page need not wait for.
   */
  const watchers: TreeWatcher[] = [];
  let watching = false;
  function startWatching(): void {
    if (watching) return;
    watching = true;
    clearTimeout(watchSoon);
    const onError = (dir: string) => (err: NodeJS.ErrnoException) => log(`site dev: ${watchFailure(dir, err)}`);
    const data = path.resolve(dataDir);
    watchers.push(watchTree(data, debounceMs, (f) => !isEditorNoise(f), onData, { onError: onError(data) }));
    const srcDir = path.join(sourceRoot, 'src');
    if (existsSync(srcDir))
      watchers.push(watchTree(srcDir, debounceMs, (f) => !isEditorNoise(f) && isRenderSource(sourceRoot, f), onCode, { onError: onError(srcDir) }));
  }
  let watchSoon: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? DEV_DEFAULTS.port, listenHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
    watchSoon = setTimeout(startWatching, 200);
  } catch (err) {
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
    storeDir,
    close() {
      closing ??= (async () => {
        watching = true; // none starts now
        clearTimeout(watchSoon);
        for (const w of watchers) w.close();
        if (warming) clearTimeout(warming);
        live.close();
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await done;
        await queue;
        await source.close();
        (store as InquiryStore | null)?.close();
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
