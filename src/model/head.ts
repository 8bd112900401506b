/**
 * Everything the head of a page says about it (issue 3 §2): title,
 * description, keywords with their content-made fallbacks, canonical,
 * robots, neighbours in a list, Open Graph image and JSON-LD. Pure data;
 * the Head template only prints it, and routeFacts() reports it.
 */
import type { Product, RouteRecord } from '../core/schema.js';
import { isSvgUrl } from '../core/social.js';
import { artworkUrl, ARTWORK_SIZE, SHARE_CARD } from './artwork.js';
import { type JsonLd, articleLd, breadcrumbList, collectionPage, organization, productLd } from './json-ld.js';
import { type SiteModel, articleHref, listPageIndex, newsHref, productHref, screenHref } from './model.js';
import { absoluteUrl, firstParagraph, laterDate, photoUrls, safeHref, siteUrl, trimToSentences } from './text.js';
import { squash } from '../core/search-text.js';
import type { Crumb, View } from './view.js';
import { extended } from '../core/objects.js';

export type MetaField = 'title' | 'description' | 'keywords';

export interface OgImage {
  url: string;
  width?: number;
  height?: number;
  alt: string;
}

export interface HeadData {
  title: string;
  description: string;
  keywords: string;
  /** Fields whose registry meta was empty and were made from the content. */
  metaFallback: MetaField[];
  canonical: string;
  indexable: boolean;
  /** The page's own content date (sitemap lastmod), never the build time. */
  lastmod: string;
  /** Absolute URLs of the neighbouring pages of a list. */
  prev?: string;
  next?: string;
  ogType: 'website' | 'article' | 'product';
  /** The page's own image (structured data names it). */
  image?: OgImage;
  /** The image of its social preview (og:image, twitter:image): see shareImageOf. */
  shareImage?: OgImage;
  published?: string;
  modified?: string;
  jsonLd: JsonLd[];
}

/** Screens that must stay out of search results. */
const NOINDEX = new Set(['thanks', 'search', 'search-not-found']);

/** Keywords every page may fall back on: what the supplier's shared keyword strings advertise. */
const SHARED_KEYWORDS = ['GMP factory', 'free sample', 'bulk wholesale'];

const suffix = (model: SiteModel, text: string): string => `${text} - ${model.site.brand}`;
const pageLabel = (n: number): string => (n > 1 ? ` - Page ${n}` : '');
const joinKeywords = (words: Array<string | undefined>): string => {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of words) {
    const k = squash(w ?? '');
    if (k && !seen.has(k.toLowerCase())) {
      seen.add(k.toLowerCase());
      out.push(k);
    }
  }
  return out.join(', ');
};

interface Derived {
  title: string;
  description: string;
  keywords: string;
}

/** Meta made from the content, used field by field where the registry's meta is empty. */
function derivedMeta(model: SiteModel, view: View): Derived {
  const { site } = model;
  switch (view.screen) {
    case 'product': {
      const p = view.product;
      return {
        title: suffix(model, `${p.name} Supplier`),
        // Name and specification first: a snippet should say what is sold before the background.
        description: `${p.name}${p.specification ? `, ${p.specification}` : ''}. ${p.summary || firstParagraph(p.description)}`,
        keywords: joinKeywords([p.name, `${p.name} supplier`, `bulk ${p.name}`, p.latinName, view.category.name, ...SHARED_KEYWORDS]),
      };
    }
    case 'products':
    case 'category':
      return {
        title: suffix(model, `${view.category.name}${pageLabel(view.pageNo)}`),
        description: view.category.summary || site.description,
        keywords: joinKeywords([view.category.name, `${view.category.name} supplier`, ...SHARED_KEYWORDS]),
      };
    case 'article': {
      const a = view.article;
      return {
        title: suffix(model, a.headline),
        description: a.summary || firstParagraph(a.body),
        keywords: joinKeywords([a.headline, a.category]),
      };
    }
    case 'news-detail':
      return {
        title: suffix(model, view.item.title),
        description: view.item.summary || firstParagraph(view.item.body),
        keywords: joinKeywords([view.item.title, site.brand]),
      };
    case 'home':
      return {
        title: suffix(model, site.tagline || view.page.heading),
        description: view.page.intro || firstParagraph(view.page.body) || site.description,
        keywords: joinKeywords([site.brand, ...SHARED_KEYWORDS]),
      };
    default: {
      const pageNo = view.screen === 'knowledge' || view.screen === 'news' ? view.pageNo : 1;
      return {
        title: suffix(model, `${view.page.heading}${pageLabel(pageNo)}`),
        description: view.page.intro || firstParagraph(view.page.body) || site.description,
        keywords: joinKeywords([view.page.heading, site.brand, ...SHARED_KEYWORDS]),
      };
    }
  }
}

/**
 * The canonical path of a route: itself, except `/x/page-1`, which shows
 * the same items as `/x` and points there when the registry declares both.
 */
export function canonicalPath(model: SiteModel, route: RouteRecord): string {
  if (route.page === 1) {
    const bare = model.lists.get(route.nodeid)?.bare;
    if (bare) return bare;
  }
  return route.path;
}

/** The image a product shows first: a real one from data/ when named, else its artwork. */
export function productImage(product: Product): OgImage {
  const real = product.images.find((img) => safeHref(img.src) !== null);
  if (real) return { url: real.src, width: real.width, height: real.height, alt: real.alt || product.name };
  return { url: artworkUrl(product), ...ARTWORK_SIZE, alt: product.name };
}

const absolute = (model: SiteModel, url: string): string => siteUrl(model.site.origin, url);

/** Every image of a product for its structured data: all its photographs (Google picks among several shapes for results), else its artwork. */
function productImages(model: SiteModel, product: Product): string[] {
  const own = photoUrls(model.site.origin, product.images);
  return own.length > 0 ? own : [absoluteUrl(model.site.origin, artworkUrl(product))];
}

/**
 * A page's social preview image: its own when it is a raster image, else the
 * site's share card (SHARE_CARD). Facebook, LinkedIn, X and WhatsApp show no
 * preview for an SVG, and the catalogue's product artwork is SVG.
 */
export function shareImageOf(model: SiteModel, image: OgImage | undefined): OgImage {
  if (image !== undefined && !isSvgUrl(image.url)) return image;
  return { url: SHARE_CARD.url, width: SHARE_CARD.width, height: SHARE_CARD.height, alt: `${model.site.brand}: ${model.site.tagline}` };
}

function ogImage(model: SiteModel, view: View): OgImage | undefined {
  const featured = (): OgImage | undefined => {
    const home = model.pageOfKind.get('home');
    const banner = home?.banners.find((b) => b.image && safeHref(b.image.src));
    if (banner?.image) return { url: banner.image.src, width: banner.image.width, height: banner.image.height, alt: banner.image.alt };
    const first = home?.featuredProducts.map((id) => model.products.get(id)).find(Boolean) ?? model.productsIn.get(model.allCategory?.id ?? '')?.[0];
    return first ? productImage(first) : undefined;
  };
  switch (view.screen) {
    case 'product':
      return productImage(view.product);
    case 'products':
    case 'category':
      return view.items[0] ? productImage(view.items[0]) : featured();
    case 'article': {
      const p = view.article.relatedProducts.map((id) => model.products.get(id)).find(Boolean);
      return p ? productImage(p) : featured();
    }
    case 'news-detail': {
      const img = view.item.image;
      return img && safeHref(img.src) ? { url: img.src, width: img.width, height: img.height, alt: img.alt || view.item.title } : featured();
    }
    default:
      return featured();
  }
}

/** The page's own content date. Lists take their newest item; pages their own `updated`. */
function lastmodOf(model: SiteModel, view: View): string {
  const newest = (dates: string[]): string => dates.reduce(laterDate, '') || model.newestDate;
  switch (view.screen) {
    case 'product':
      return view.product.updated;
    case 'products':
    case 'category':
      return newest(view.items.map((p) => p.updated));
    case 'article':
      return view.article.updated ?? view.article.date;
    case 'news-detail':
      return view.item.date;
    case 'knowledge':
      return laterDate(view.page.updated, newest(view.items.map((a) => a.updated ?? a.date)));
    case 'news':
      return laterDate(view.page.updated, newest(view.items.map((n) => n.date)));
    default:
      return view.page.updated;
  }
}

function structuredData(model: SiteModel, view: View, crumbs: readonly Crumb[], head: Omit<HeadData, 'jsonLd'>): JsonLd[] {
  const trail = crumbs.length > 0 ? [breadcrumbList(model, crumbs)] : [];
  const collection = (items: Array<{ name: string; path: string }>): JsonLd => {
    const list = 'list' in view ? view : undefined;
    return collectionPage(model, {
      name: head.title,
      url: head.canonical,
      description: head.description,
      offset: list?.offset ?? 0,
      total: list?.total ?? items.length,
      items,
    });
  };
  switch (view.screen) {
    case 'home':
      return organization(model, screenHref(model, 'search'));
    case 'product':
      return [
        productLd(model, {
          name: view.product.name,
          url: head.canonical,
          image: productImages(model, view.product),
          description: head.description,
          sku: view.product.id || view.product.slug,
          category: view.category.name,
        }),
        ...trail,
      ];
    case 'article':
    case 'news-detail':
      return [
        articleLd(model, {
          type: view.screen === 'article' ? 'Article' : 'NewsArticle',
          headline: view.screen === 'article' ? view.article.headline : view.item.title,
          url: head.canonical,
          description: head.description,
          datePublished: head.published!,
          dateModified: head.modified!,
          author: view.screen === 'article' ? view.article.author : model.site.contact.company,
          image: head.image ? absolute(model, head.image.url) : undefined,
          section: view.screen === 'article' ? view.article.category : undefined,
        }),
        ...trail,
      ];
    case 'products':
    case 'category':
      return [collection(view.items.map((p) => ({ name: p.name, path: productHref(model, p) }))), ...trail];
    case 'knowledge':
      return [collection(view.items.map((a) => ({ name: a.headline, path: articleHref(model, a) }))), ...trail];
    case 'news':
      return [collection(view.items.map((n) => ({ name: n.title, path: newsHref(model, n) }))), ...trail];
    default:
      return trail;
  }
}

export function computeHead(model: SiteModel, route: RouteRecord, view: View, crumbs: readonly Crumb[]): HeadData {
  // Made only when the registry leaves a field empty (rare): it reads and joins the content.
  let derived: Derived | undefined;
  const metaFallback: MetaField[] = [];
  const pick = (field: MetaField, given: string): string => {
    if (given.trim() !== '') return squash(given);
    metaFallback.push(field);
    const made = (derived ??= derivedMeta(model, view))[field];
    return field === 'description' ? trimToSentences(made) : squash(made);
  };
  const origin = model.site.origin;
  const list = 'list' in view ? view : undefined;
  const neighbour = (n: number): string | undefined => {
    const path = list === undefined ? undefined : listPageIndex(list.list.pages).pathOf.get(n);
    return path === undefined ? undefined : absoluteUrl(origin, path);
  };
  const dates =
    view.screen === 'article'
      ? { published: view.article.date, modified: view.article.updated ?? view.article.date }
      : view.screen === 'news-detail'
        ? { published: view.item.date, modified: view.item.date }
        : {};
  const image = ogImage(model, view);
  const base = {
    title: pick('title', route.meta.title),
    description: pick('description', route.meta.description),
    keywords: pick('keywords', route.meta.keywords),
    metaFallback,
    canonical: absoluteUrl(origin, canonicalPath(model, route)),
    indexable: !NOINDEX.has(view.screen),
    lastmod: lastmodOf(model, view),
    prev: list ? neighbour(list.pageNo - 1) : undefined,
    next: list ? neighbour(list.pageNo + 1) : undefined,
    ogType: (view.screen === 'product' ? 'product' : view.screen === 'article' || view.screen === 'news-detail' ? 'article' : 'website') as HeadData['ogType'],
    image,
    shareImage: shareImageOf(model, image),
    ...dates,
  };
  return extended(base, { jsonLd: structuredData(model, view, crumbs, base) });
}

/** Head of the 404 page: never indexed, canonical to nothing. */
export function notFoundHead(model: SiteModel): HeadData {
  return errorHead(model, 'Page not found', 'This page could not be found.');
}

/** The head of an error page: noindex, no canonical (it answers for URLs that are not its own). */
export function errorHead(model: SiteModel, title: string, description: string): HeadData {
  return {
    title: suffix(model, title),
    description,
    keywords: '',
    metaFallback: [],
    canonical: '',
    indexable: false,
    lastmod: model.newestDate,
    ogType: 'website',
    jsonLd: [],
  };
}
