/**
 * The static half of `site serve`: route paths to files of dist/, and files
 * to responses.
 *
 * What a file *is* comes from this server's own index of dist/ (file-index.ts:
 * one walk at start and after each swap of dist/, real non-hidden files only,
 * so a lookup can never reach outside the folder) and its extension
 * (content-type.ts). How it is *sent* is RFC 9110 as http.ts reads it.
 *
 * Files up to `maxEntryBytes` are kept in memory with their br and gzip
 * variants (computed once per file, or read from precompressed `.br`/`.gz`
 * siblings), in an LRU bounded by `cacheBytes`; larger files are streamed.
 * For each variant in memory the whole response head is prepared once, so a
 * plain GET of a URL already answered is one map lookup and one write
 * (`sendCached`).
 */
import { createHash } from 'node:crypto';
import { createReadStream, watch, type FSWatcher } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { contentTypeOf } from './content-type.js';
import { type FileIndex, describeSkipped, indexFolder } from './file-index.js';
import { type Encoding, isCompressible, isNotModified, negotiateEncoding, parseRange } from './http.js';
import { resolveAgainst, type Resolution } from './paths.js';
import { REVALIDATE, cacheControlOf } from '../core/http-headers.js';
import { type CspExtra, NO_INLINE, SECURITY_HEADERS, contentSecurityPolicy, inlineHashes } from './security.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export { IMMUTABLE, REVALIDATE } from '../core/http-headers.js';

export interface StaticOptions {
  /** The built site, normally `dist/`. */
  root: string;
  cspExtra?: CspExtra;
  /** Memory budget of the file cache (identity bodies plus compressed variants). */
  cacheBytes?: number;
  /** Files larger than this are streamed from disk and sent uncompressed. */
  maxEntryBytes?: number;
  /** Re-index when the build swaps dist/ in (default true). */
  watch?: boolean;
  /** Where the index reports what it left out (symbolic links that loop, dangle or lead out of dist/). */
  log?: (line: string) => void;
}

export type { Resolution } from './paths.js';

/** A response prepared whole: its head as a flat [name, value, …] list for writeHead, and its body. */
interface Prepared {
  headers: string[];
  body: Buffer;
}

interface Entry {
  file: string;
  /** The index generation it was loaded in: an entry of an older dist/ is never remembered. */
  generation: number;
  abs: string;
  size: number;
  mtimeMs: number;
  contentType: string;
  etag: string;
  lastModified: string;
  cacheControl: string;
  csp: string;
  /** Null for files above maxEntryBytes: those are streamed. */
  body: Buffer | null;
  compressible: boolean;
  variants: Map<Encoding, Promise<Buffer | null>>;
  /** The 200 responses ready to send, by the encoding negotiated; absent until that variant is in memory. */
  prepared: { identity?: Prepared; br?: Prepared; gzip?: Prepared };
  /** Raw request targets answered with this file (keys of the hot map), dropped with it. */
  urls: string[];
  /** Bytes held (body and variants), and whether the LRU already let go of it. */
  cost: number;
  evicted: boolean;
}

export interface StaticSite {
  readonly root: string;
  /** The CSP of responses that are not HTML pages. */
  readonly baseCsp: string;
  resolve(path: string): Resolution;
  /**
   * Answers a GET or HEAD for a file that `resolve` returned. With `target`
   * (the raw request target, when it has no query) later plain requests for
   * it can be answered by `sendCached`.
   */
  send(req: IncomingMessage, res: ServerResponse, file: string, status?: number, target?: string): Promise<void>;
  /**
   * Answers a GET or HEAD at once from memory when its target was answered
   * before and nothing in the request needs more than the prepared response
   * (no Range, no conditional headers); false when it has not answered.
   */
  sendCached(req: IncomingMessage, res: ServerResponse): boolean;
  /** Answers with dist/404.html and status 404. */
  sendNotFound(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Answers with dist/500.html and status 500 (a request that failed on our side). */
  sendError(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The built HTML of a route path, or null when there is none. */
  pageHtml(routePath: string): Promise<string | null>;
  /** The CSP for a given HTML document (hashes of its inline scripts). */
  cspFor(html: string): string;
  reload(): void;
  close(): void;
}

const contentEtag = (body: Buffer): string => `"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
const statEtag = (size: number, mtimeMs: number): string => `"${size.toString(36)}-${Math.floor(mtimeMs).toString(36)}"`;
const variantEtag = (etag: string, enc: Encoding): string => `${etag.slice(0, -1)}-${enc}"`;

export function createStaticSite(opts: StaticOptions): StaticSite {
  /** dist/ as named; it may be a symlink that a deploy swaps, so its real path is looked up again on reload. */
  const root = resolve(opts.root);
  const log = opts.log ?? (() => undefined);
  const indexOf = (): FileIndex => {
    const next = indexFolder(root);
    if (next.skipped.length > 0) log(`site serve: ${root}: ${describeSkipped(next.skipped)}`);
    return next;
  };
  let index = indexOf();
  const has = (file: string): boolean => index.files.has(file);
  /**
   * The real path of an indexed file, or null when it is not indexed or now
   * (replaced since the walk) leads outside dist/.
   */
  const inside = async (file: string): Promise<string | null> => {
    const indexed = index.files.get(file);
    if (indexed === undefined) return null;
    const { realRoot } = index;
    const abs = await realpath(indexed).catch(() => null);
    return abs?.startsWith(realRoot + sep) ? abs : null;
  };
  const cacheBytes = opts.cacheBytes ?? 128 * 1024 * 1024;
  const maxEntryBytes = opts.maxEntryBytes ?? 8 * 1024 * 1024;
  const baseCsp = contentSecurityPolicy(NO_INLINE, opts.cspExtra);
  const securityHeaders = Object.entries(SECURITY_HEADERS).flat();
  /** Resolutions of paths that exist; misses are not kept (an attacker could fill memory with them). */
  let resolutions = new Map<string, Resolution>();
  let cachedBytes = 0;
  let generation = 0;

  const resolveUncached = (path: string): Resolution => resolveAgainst(has, path);

  function resolvePath(path: string): Resolution {
    const known = resolutions.get(path);
    if (known) return known;
    const r = resolveUncached(path);
    if (r.kind !== 'missing') {
      if (resolutions.size > 100_000) resolutions.clear();
      resolutions.set(path, r);
    }
    return r;
  }

  async function loadEntry(file: string): Promise<Entry | null> {
    const gen = generation;
    const abs = await inside(file);
    if (!abs) return null;
    const st = await stat(abs);
    const body = st.size <= maxEntryBytes ? await readFile(abs) : null;
    const contentType = contentTypeOf(file);
    const isHtml = contentType.startsWith('text/html');
    const entry: Entry = {
      file,
      generation: gen,
      abs,
      size: body ? body.length : st.size,
      mtimeMs: st.mtimeMs,
      contentType,
      // A content hash keeps ETags (and 304s) stable across rebuilds that did not change the file.
      etag: body ? contentEtag(body) : statEtag(st.size, st.mtimeMs),
      lastModified: st.mtime.toUTCString(),
      cacheControl: cacheControlOf(file),
      csp: isHtml && body ? contentSecurityPolicy(inlineHashes(body.toString('utf8')), opts.cspExtra) : baseCsp,
      body,
      compressible: body !== null && body.length >= 256 && isCompressible(contentType),
      variants: new Map(),
      prepared: {},
      urls: [],
      cost: 0,
      evicted: false,
    };
    if (body) entry.prepared.identity = prepare(entry, null, body);
    return entry;
  }

  /** The 200 response of an entry in one encoding: the headers `send` gives it, in one list. */
  function prepare(entry: Entry, encoding: Encoding | null, body: Buffer): Prepared {
    const headers = [
      ...securityHeaders,
      'Content-Security-Policy',
      entry.csp,
      'Content-Type',
      entry.contentType,
      'Cache-Control',
      entry.cacheControl,
      'Last-Modified',
      entry.lastModified,
      ...(entry.compressible ? ['Vary', 'Accept-Encoding'] : []),
      'Accept-Ranges',
      'bytes',
      'ETag',
      encoding ? variantEtag(entry.etag, encoding) : entry.etag,
      ...(encoding ? ['Content-Encoding', encoding] : []),
      'Content-Length',
      String(body.length),
    ];
    return { headers, body };
  }

  /** Raw request targets known to name a file, to the entry that answers them. Only entries in the LRU are here. */
  let hot = new Map<string, Entry>();

  function remember(target: string, entry: Entry): void {
    if (entry.evicted || entry.generation !== generation || hot.get(target) === entry) return;
    // Percent-encoding gives one file many spellings: a client must not make this map grow without end.
    if (hot.size >= 100_000) {
      hot.clear();
      for (const e of lru.values()) e.urls = [];
    }
    hot.set(target, entry);
    entry.urls.push(target);
  }

  /** Accept-Encoding values seen, negotiated once each (browsers send a handful of spellings). */
  const negotiated = new Map<string, Encoding | null>();
  function encodingFor(acceptEncoding: string | undefined): Encoding | null {
    if (acceptEncoding === undefined) return null;
    let enc = negotiated.get(acceptEncoding);
    if (enc === undefined) {
      enc = negotiateEncoding(acceptEncoding);
      if (negotiated.size >= 256) negotiated.clear();
      negotiated.set(acceptEncoding, enc);
    }
    return enc;
  }

  /** Loaded entries in LRU order (a hit moves its entry to the end); their costs add up to cachedBytes. */
  let lru = new Map<string, Entry>();
  /** Loads under way, so that concurrent first requests read a file once. */
  let loading = new Map<string, Promise<Entry | null>>();

  function account(entry: Entry, bytes: number): void {
    if (entry.evicted) return;
    entry.cost += bytes;
    cachedBytes += bytes;
    for (const [key, old] of lru) {
      if (cachedBytes <= cacheBytes) break;
      lru.delete(key);
      old.evicted = true;
      cachedBytes -= old.cost;
      for (const url of old.urls) if (hot.get(url) === old) hot.delete(url);
    }
  }

  /** Marks an entry as the most recently used. */
  function touch(entry: Entry): void {
    lru.delete(entry.file);
    lru.set(entry.file, entry);
  }

  function getEntry(file: string): Promise<Entry | null> {
    const hit = lru.get(file);
    if (hit) {
      touch(hit);
      return Promise.resolve(hit);
    }
    const pending = loading.get(file);
    if (pending) return pending;
    const [gen, lruNow, loadingNow] = [generation, lru, loading];
    const p = loadEntry(file).finally(() => loadingNow.delete(file));
    loadingNow.set(file, p);
    p.then(
      (e) => {
        if (!e || gen !== generation) return;
        lruNow.set(file, e);
        account(e, e.body?.length ?? 0);
      },
      () => undefined,
    );
    return p;
  }

  async function compress(entry: Entry, enc: Encoding): Promise<Buffer | null> {
    const body = entry.body!;
    const sibling = `${entry.file}.${enc === 'br' ? 'br' : 'gz'}`;
    if (has(sibling)) {
      const abs = await inside(sibling);
      if (abs) return readFile(abs);
    }
    const out =
      enc === 'br'
        ? await brotli(body, {
            params: {
              [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
              // The best ratio for pages and bundles; a large file (search index) would keep its first reader waiting for seconds.
              [zlibConstants.BROTLI_PARAM_QUALITY]: body.length <= 512 * 1024 ? 11 : 6,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : await gzipAsync(body, { level: 9 });
    return out.length < body.length ? out : null;
  }

  function variant(entry: Entry, enc: Encoding): Promise<Buffer | null> {
    let p = entry.variants.get(enc);
    if (!p) {
      p = compress(entry, enc);
      entry.variants.set(enc, p);
      const gen = generation;
      p.then(
        (b) => {
          if (b && gen === generation) account(entry, b.length);
          // Not smaller compressed: the identity response is what this encoding gets.
          entry.prepared[enc] = b ? prepare(entry, enc, b) : entry.prepared.identity;
        },
        () => entry.variants.delete(enc),
      );
    }
    return p;
  }

  function sendCached(req: IncomingMessage, res: ServerResponse): boolean {
    const entry = hot.get(req.url!);
    if (entry === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const h = req.headers;
    if (h.range !== undefined || h['if-none-match'] !== undefined || h['if-modified-since'] !== undefined) return false;
    const encoding = entry.compressible ? encodingFor(h['accept-encoding']) : null;
    const prepared = encoding ? entry.prepared[encoding] : entry.prepared.identity;
    if (prepared === undefined) return false;
    touch(entry);
    res.writeHead(200, prepared.headers);
    res.end(req.method === 'HEAD' ? undefined : prepared.body);
    return true;
  }

  async function send(req: IncomingMessage, res: ServerResponse, file: string, status = 200, target?: string): Promise<void> {
    const entry = await getEntry(file);
    if (entry && status === 200 && target !== undefined && entry.body) remember(target, entry);
    if (!entry) {
      // The file vanished (dist/ swapped under us): look again from a fresh index.
      scheduleReload(0);
      if (status === 404 || status === 500) return sendPlain(res, status);
      return sendNotFound(req, res);
    }
    res.setHeader('Content-Type', entry.contentType);
    // An error is never cached: the next request may well succeed.
    res.setHeader('Cache-Control', status === 500 ? 'no-store' : entry.cacheControl);
    res.setHeader('Last-Modified', entry.lastModified);
    res.setHeader('Content-Security-Policy', entry.csp);
    if (entry.compressible) res.setHeader('Vary', 'Accept-Encoding');
    const normal = status === 200;
    if (normal) res.setHeader('Accept-Ranges', 'bytes');
    const range = normal ? req.headers.range : undefined;
    // Ranges are served from the identity representation; its ETag differs from the encoded ones.
    let encoding = entry.compressible && range === undefined ? encodingFor(req.headers['accept-encoding']) : null;
    let body = entry.body;
    if (encoding) {
      const encoded = await variant(entry, encoding);
      if (encoded) body = encoded;
      else encoding = null;
    }
    const etag = encoding ? variantEtag(entry.etag, encoding) : entry.etag;
    res.setHeader('ETag', etag);
    if (encoding) res.setHeader('Content-Encoding', encoding);
    const validators = { etag, mtimeMs: entry.mtimeMs };

    if (normal && isNotModified(req.headers, validators)) {
      res.removeHeader('Content-Type');
      res.writeHead(304);
      return void res.end();
    }
    const r = normal ? parseRange(range, entry.size, req.headers['if-range'] as string | undefined, validators) : ({ kind: 'full' } as const);
    if (r.kind === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${entry.size}`);
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.writeHead(416);
      return void res.end(req.method === 'HEAD' ? undefined : 'Range Not Satisfiable\n');
    }
    const [start, end] = r.kind === 'partial' ? [r.start, r.end] : [0, (body ? body.length : entry.size) - 1];
    if (r.kind === 'partial') res.setHeader('Content-Range', `bytes ${start}-${end}/${entry.size}`);
    res.setHeader('Content-Length', Math.max(0, end - start + 1));
    res.writeHead(r.kind === 'partial' ? 206 : status);
    if (req.method === 'HEAD') return void res.end();
    if (body) return void res.end(r.kind === 'partial' ? body.subarray(start, end + 1) : body);
    await new Promise<void>((done) => {
      const stream = createReadStream(entry.abs, { start, end });
      stream.on('error', () => {
        res.destroy();
        done();
      });
      res.on('close', () => {
        stream.destroy();
        done();
      });
      stream.pipe(res);
    });
  }

  /** An error page's words without the page: its file is missing (or vanished with a swap of dist/). */
  function sendPlain(res: ServerResponse, status: 404 | 500): void {
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', status === 404 ? REVALIDATE : 'no-store');
    res.setHeader('Content-Security-Policy', baseCsp);
    res.writeHead(status);
    res.end(status === 404 ? 'This page could not be found.\n' : 'Internal server error.\n');
  }

  async function sendNotFound(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!has('/404.html')) return sendPlain(res, 404);
    return send(req, res, '/404.html', 404);
  }

  async function sendError(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!has('/500.html')) return sendPlain(res, 500);
    return send(req, res, '/500.html', 500);
  }

  async function pageHtml(routePath: string): Promise<string | null> {
    const r = resolvePath(routePath);
    if (r.kind !== 'file' || !r.file.endsWith('.html')) return null;
    const entry = await getEntry(r.file);
    return entry?.body ? entry.body.toString('utf8') : null;
  }

  function reload(): void {
    let next: FileIndex;
    try {
      next = indexOf();
    } catch {
      // dist/ is missing for a moment (between the build's two renames): keep the old index, look again soon.
      scheduleReload(1000);
      return;
    }
    generation++;
    index = next;
    hot = new Map();
    resolutions = new Map();
    lru = new Map();
    loading = new Map();
    cachedBytes = 0;
  }

  let timer: NodeJS.Timeout | null = null;
  /** Coalesces reload requests (a burst of watch events, requests for files that vanished). */
  function scheduleReload(delayMs: number): void {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      reload();
    }, delayMs);
    timer.unref();
  }

  let watcher: FSWatcher | null = null;
  if (opts.watch !== false) {
    // The build renames a finished dist/ into place (a deploy may swap a symlink): watch its parent for that.
    try {
      watcher = watch(dirname(root), { persistent: false }, (_event, name) => {
        if (name === basename(root)) scheduleReload(200);
      });
      watcher.on('error', () => undefined);
    } catch {
      watcher = null;
    }
  }

  return {
    root,
    baseCsp,
    resolve: resolvePath,
    send,
    sendCached,
    sendNotFound,
    sendError,
    pageHtml,
    cspFor: (html) => contentSecurityPolicy(inlineHashes(html), opts.cspExtra),
    reload,
    close() {
      watcher?.close();
      if (timer) clearTimeout(timer);
    },
  };
}
