/**
 * The site files phase: sitemap (with each page's photographs), robots.txt,
 * _headers, the logo and the share card, written once every page is.
 */
import type { Catalogue } from '../core/catalogue.js';
import { LOGO_MARK, logoSvg, SHARE_CARD } from '../model/artwork.js';
import { photoUrls } from '../model/text.js';
import { headersFile, HEADERS_FILE } from './files/headers-file.js';
import { robotsTxt, sitemapEntries, writeSitemap } from './files/sitemap.js';
import type { SiteWriter } from './output/site-writer.js';
import type { PageFacts } from './threads/protocol.js';
import type { PlannedRoute } from './types.js';
import { extended } from '../core/objects.js';

/** Writes the site files; resolves with every file written, relative to the output folder. */
export async function writeSiteFiles(
  writer: SiteWriter,
  catalogue: Catalogue,
  plan: readonly PlannedRoute[],
  facts: readonly PageFacts[],
  shareCard: Uint8Array,
  cacheDir?: string,
): Promise<string[]> {
  const origin = catalogue.site.origin;
  const photos = photosByEntity(catalogue);
  const [sitemapFiles, siteFiles] = await Promise.all([
    writeSitemap(writer, origin, sitemapEntries(plan.map((p) => withPhotos(facts[p.index], p.route, photos))), undefined, cacheDir),
    writer.write([
      { path: 'robots.txt', contents: robotsTxt(origin) },
      { path: HEADERS_FILE, contents: headersFile(catalogue.site) },
      { path: LOGO_MARK.url.slice(1), contents: logoSvg() },
      { path: SHARE_CARD.url.slice(1), contents: shareCard },
    ]),
  ]);
  return [...sitemapFiles, ...siteFiles];
}

/**
 * The photographs of each product and news item (not the generated artwork, which says nothing to an
 * image search), absolute, by entity id: what the sitemap's image extension lists for their pages.
 */
function photosByEntity(catalogue: Catalogue): Map<string, string[]> {
  const photos = new Map<string, string[]>();
  const { origin } = catalogue.site;
  for (const p of catalogue.products) if (p.images.length > 0) photos.set(p.id, photoUrls(origin, p.images));
  for (const n of catalogue.news) if (n.image) photos.set(n.id, photoUrls(origin, [n.image]));
  return photos;
}

/** A page's sitemap facts with the photographs of the product or news item it shows. */
function withPhotos<T extends object>(facts: T, route: { screen: string; nodeid: string }, photos: ReadonlyMap<string, string[]>): T & { images?: string[] } {
  const images = route.screen === 'product' || route.screen === 'news-detail' ? photos.get(route.nodeid) : undefined;
  return images?.length ? extended(facts, { images }) : facts;
}
