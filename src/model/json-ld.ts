/**
 * schema.org structured data. Products are sold on quotation: a plain
 * Product (name, image, description, brand, sku), never an invented offer
 * or price. Everything here is data; `serializeJsonLd` is the only way it
 * reaches a page.
 */
import { LOGO_MARK } from './artwork.js';
import type { SiteModel } from './model.js';
import { absoluteUrl } from './text.js';
import type { Crumb } from './view.js';

export type JsonLd = Record<string, unknown>;

const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/;
const UNSAFE_IN_SCRIPT_ALL = /[<>&\u2028\u2029]/g;

/**
 * JSON for a `<script type="application/ld+json">` body. `<`, `>` and `&`
 * are written as \u escapes so that content can never close the script tag
 * or open a comment; U+2028/2029 because older parsers end lines there.
 * The result is still the same JSON value.
 */
export function serializeJsonLd(data: unknown): string {
  const json = JSON.stringify(data);
  return UNSAFE_IN_SCRIPT.test(json) ? json.replace(UNSAFE_IN_SCRIPT_ALL, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) : json;
}

const orgId = (model: SiteModel): string => `${model.site.origin}/#organization`;
const siteId = (model: SiteModel): string => `${model.site.origin}/#website`;

export function organization(model: SiteModel, searchPath: string): JsonLd[] {
  const { site } = model;
  const sameAs = Object.values(site.social).filter((u): u is string => typeof u === 'string' && /^https?:\/\//.test(u));
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'Organization',
      '@id': orgId(model),
      name: site.contact.company,
      alternateName: site.brand,
      url: absoluteUrl(site.origin, '/'),
      logo: absoluteUrl(site.origin, LOGO_MARK.url),
      email: site.contact.email,
      telephone: site.contact.phone,
      address: { '@type': 'PostalAddress', streetAddress: site.contact.address, addressCountry: site.contact.country },
      ...(sameAs.length > 0 ? { sameAs } : {}),
    },
    {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      '@id': siteId(model),
      url: absoluteUrl(site.origin, '/'),
      name: site.brand,
      inLanguage: site.language,
      publisher: { '@id': orgId(model) },
      potentialAction: {
        '@type': 'SearchAction',
        target: { '@type': 'EntryPoint', urlTemplate: `${absoluteUrl(site.origin, searchPath)}?q={search_term_string}` },
        'query-input': 'required name=search_term_string',
      },
    },
  ];
}

export function breadcrumbList(model: SiteModel, crumbs: readonly Crumb[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      item: absoluteUrl(model.site.origin, c.path),
    })),
  };
}

export interface ProductLd {
  name: string;
  url: string;
  image: string[];
  description: string;
  sku: string;
  category: string;
}

export function productLd(model: SiteModel, p: ProductLd): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    url: p.url,
    image: p.image,
    description: p.description,
    sku: p.sku,
    category: p.category,
    brand: { '@type': 'Brand', name: model.site.brand },
    manufacturer: { '@id': orgId(model) },
  };
}

export interface ArticleLd {
  type: 'Article' | 'NewsArticle';
  headline: string;
  url: string;
  description: string;
  datePublished: string;
  dateModified: string;
  author: string;
  image?: string;
  section?: string;
}

/** Bylines such as "Verdanta Editorial Team" name an organisation, not a person. */
export function authorLd(model: SiteModel, author: string): JsonLd {
  const organisation = /\b(team|lab|laboratory|department|editorial|staff|desk|office)\b/i.test(author) || author.includes(model.site.brand);
  return { '@type': organisation ? 'Organization' : 'Person', name: author };
}

export function articleLd(model: SiteModel, a: ArticleLd): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': a.type,
    // Google shows at most 110 characters of a headline.
    headline: a.headline.length > 110 ? a.headline.slice(0, 109) + '…' : a.headline,
    description: a.description,
    url: a.url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': a.url },
    datePublished: a.datePublished,
    dateModified: a.dateModified,
    author: authorLd(model, a.author),
    publisher: { '@type': 'Organization', '@id': orgId(model), name: model.site.contact.company, url: absoluteUrl(model.site.origin, '/') },
    ...(a.image ? { image: [a.image] } : {}),
    ...(a.section ? { articleSection: a.section } : {}),
    inLanguage: model.site.language,
  };
}

export interface CollectionLd {
  name: string;
  url: string;
  description: string;
  /** First position shown (lists continue their numbering across pages). */
  offset: number;
  total: number;
  items: Array<{ name: string; path: string }>;
}

export function collectionPage(model: SiteModel, c: CollectionLd): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'CollectionPage',
    name: c.name,
    url: c.url,
    description: c.description,
    isPartOf: { '@id': siteId(model) },
    mainEntity: {
      '@type': 'ItemList',
      numberOfItems: c.total,
      itemListElement: c.items.map((item, i) => ({
        '@type': 'ListItem',
        position: c.offset + i + 1,
        name: item.name,
        url: absoluteUrl(model.site.origin, item.path),
      })),
    },
  };
}
