/**
 * The files besides pages that `site dev` answers, each made from the current
 * view when first asked for and kept with it: the bundle's assets (read from
 * build/client), the images of data/ and their WebP copies, product artwork,
 * the logo and share card, the search index, robots.txt and sitemap.xml.
 * Every one is made by the same function `site build` uses, so a URL answers
 * in dev what it would in dist/ (but sitemap.xml, which lists no photographs);
 * their modules are imported on first use, so that start-up does not pay for them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SiteFile, SiteWriter } from '../emit/output/site-writer.js';
import type { CatalogueImage } from '../core/catalogue.js';
import { LOGO_URL, SHARE_CARD_URL, variantsOf } from '../core/images.js';
import { SEARCH_ENTRY_PATH } from '../core/search-options.js';
import { artworkUrl, logoSvg } from '../model/artwork.js';
import type { SiteView } from './site.js';

export interface FileBody {
  body: Buffer | string;
  /** Content-hashed names (`/assets/*`, the search index file) are cached for good. */
  immutable: boolean;
}

/** Collects what a writer is given, in memory (the build's file makers write through a SiteWriter). */
function memoryWriter(into: Map<string, Buffer | string>): SiteWriter {
  return {
    outDir: '',
    async write(files: readonly SiteFile[]) {
      for (const f of files) into.set(`/${f.path}`, typeof f.contents === 'string' ? f.contents : Buffer.from(f.contents));
      return files.map((f) => f.path);
    },
    async copy() {
      throw new Error('site dev: copy is not used');
    },
  };
}

/** Per-view memo of the things made lazily. */
interface Made {
  search?: Promise<Map<string, Buffer | string>>;
  sitemap?: Promise<Map<string, string>>;
  artwork?: Map<string, string>;
  images?: Map<string, { image: CatalogueImage; variant: boolean }>;
  shareCard?: Promise<Uint8Array>;
}

export interface DevFiles {
  /** The file at a decoded request path, or null when there is none. */
  get(view: SiteView | null, requestPath: string): Promise<FileBody | null>;
}

export function createDevFiles(opts: { clientDir: string; cacheDir?: string }): DevFiles {
  const made = new WeakMap<SiteView, Made>();
  /** WebP copies by the photograph's sha1: they depend on its bytes alone. */
  const copies = new Map<string, Promise<Map<string, Buffer | string>>>();
  const assetsRoot = path.join(opts.clientDir, 'assets');

  const memo = (view: SiteView): Made => {
    let m = made.get(view);
    if (m === undefined) made.set(view, (m = {}));
    return m;
  };

  async function asset(requestPath: string): Promise<FileBody | null> {
    // parseTarget already refused dot segments; the prefix check is the second lock.
    const file = path.join(assetsRoot, ...requestPath.slice('/assets/'.length).split('/'));
    if (!file.startsWith(assetsRoot + path.sep)) return null;
    const body = await readFile(file).catch(() => null);
    return body && { body, immutable: true };
  }

  function searchFiles(view: SiteView): Promise<Map<string, Buffer | string>> {
    const m = memo(view);
    m.search ??= import('../emit/files/search-cache.js')
      .then(({ cachedSearchIndex }) => cachedSearchIndex(view.catalogue, view.routes, opts.cacheDir, view.checkKey))
      .then(
        (out) =>
          new Map(
            out.files.map((f) => [
              `/${f.path}`,
              typeof f.contents === 'string' ? f.contents : Buffer.from(f.contents.buffer, f.contents.byteOffset, f.contents.byteLength),
            ]),
          ),
      );
    return m.search;
  }

  function sitemap(view: SiteView): Promise<Map<string, string>> {
    const m = memo(view);
    m.sitemap ??= import('../emit/files/sitemap.js')
      .then(({ sitemapEntries, sitemapFiles }) =>
        sitemapFiles(view.catalogue.site.origin, sitemapEntries(view.routes.map((r) => view.api.routeFacts(view.model, r)))),
      )
      .then((files) => new Map(files.map((f) => [`/${f.path}`, String(f.contents)])));
    return m.sitemap;
  }

  function imageAt(view: SiteView, requestPath: string): { image: CatalogueImage; variant: boolean } | undefined {
    const m = memo(view);
    if (m.images === undefined) {
      m.images = new Map();
      for (const image of view.catalogue.images) {
        m.images.set(image.url, { image, variant: false });
        for (const v of variantsOf(image)) m.images.set(v.url, { image, variant: true });
      }
    }
    return m.images.get(requestPath);
  }

  async function image(view: SiteView, requestPath: string): Promise<FileBody | null> {
    const found = imageAt(view, requestPath);
    if (found === undefined) return null;
    if (!found.variant) {
      const body = await readFile(found.image.path).catch(() => null);
      return body && { body, immutable: false };
    }
    const key = found.image.digest;
    let made = copies.get(key);
    if (made === undefined) {
      const into = new Map<string, Buffer | string>();
      made = import('../emit/files/images.js').then(({ publishImages }) => publishImages(memoryWriter(into), [found.image], opts.cacheDir)).then(() => into);
      copies.set(key, made);
      made.catch(() => copies.delete(key));
    }
    const body = (await made.catch(() => null))?.get(requestPath);
    return body === undefined ? null : { body, immutable: false };
  }

  function artwork(view: SiteView, requestPath: string): FileBody | null {
    const m = memo(view);
    m.artwork ??= new Map(view.catalogue.products.map((p) => [artworkUrl(p), p.id]));
    const id = m.artwork.get(requestPath);
    const product = id === undefined ? undefined : view.catalogue.products.find((p) => p.id === id);
    return product ? { body: view.api.productArtwork(view.model, product).svg, immutable: false } : null;
  }

  return {
    async get(view, requestPath) {
      if (requestPath.startsWith('/assets/')) return asset(requestPath);
      if (view === null) return null;
      if (requestPath === SEARCH_ENTRY_PATH || requestPath.startsWith('/search/index-')) {
        const body = (await searchFiles(view)).get(requestPath);
        return body === undefined ? null : { body, immutable: requestPath !== SEARCH_ENTRY_PATH };
      }
      if (requestPath === '/robots.txt') {
        const { robotsTxt } = await import('../emit/files/sitemap.js');
        return { body: robotsTxt(view.catalogue.site.origin), immutable: false };
      }
      if (requestPath === '/sitemap.xml' || /^\/sitemap-\d+\.xml$/.test(requestPath)) {
        const body = (await sitemap(view)).get(requestPath);
        return body === undefined ? null : { body, immutable: false };
      }
      if (requestPath === LOGO_URL) return { body: logoSvg(), immutable: false };
      if (requestPath === SHARE_CARD_URL) {
        const m = memo(view);
        m.shareCard ??= import('../emit/files/share-card.js').then(({ shareCardPng }) => shareCardPng(view.catalogue.site));
        return { body: Buffer.from(await m.shareCard), immutable: false };
      }
      if (requestPath.startsWith('/images/products/')) {
        const art = artwork(view, requestPath);
        if (art) return art;
      }
      if (requestPath.startsWith('/images/')) return image(view, requestPath);
      return null;
    },
  };
}
