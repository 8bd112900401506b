/**
 * zod schemas of every file in `data/`. They are the contract between the
 * catalogue (as the CMS exports it) and the rest of the pipeline; the types
 * every stage uses are inferred from them.
 *
 * Layout of `data/`:
 *   site.json                 SiteConfig
 *   routes.json               RouteRecord[]   (the route registry)
 *   categories/<slug>.json    Category
 *   products/<slug>.json      Product
 *   articles/<slug>.json      Article        (knowledge library)
 *   news/<slug>.json          NewsItem
 *   pages/<name>.json         Page           (home, about-us, contact-us, knowledge, news, search, search-404, thanks)
 *
 * Only shapes live here; cross-file rules (ids that must exist, paths, page
 * counts) are the check stage's job so that they can be reported as
 * diagnostics with their own codes.
 */
import { z } from 'zod';

/** A calendar date, `YYYY-MM-DD`; dates drive sitemap lastmod, so no times. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  // 2024-02-30 has the shape but no day: it would reach the sitemap and structured data as an invalid date.
  .refine((d) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) return true; // the regex has said so
    const t = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
  }, 'expected a real calendar date (a month from 01 to 12, a day that month has)');

/** 32 lower-case hex characters (the CMS's node ids). */
export const hexId = z.string().regex(/^[0-9a-f]{32}$/, 'expected a 32-character lower-case hex node id');

/**
 * A node id as the registry has it: usually 32 hex, in legacy cases a name
 * (the check stage warns about those). Must be non-empty.
 */
export const nodeId = z.string().min(1, 'expected a node id');

const nonEmpty = z.string().trim().min(1, 'expected non-empty text');

/** Inline text: plain text or a link. `href` is checked for safe schemes at render time. */
export const inline = z.union([z.string(), z.object({ text: nonEmpty, href: z.string().min(1) }).strict()]);
export type Inline = z.infer<typeof inline>;

const rich = z.union([z.string(), z.array(inline).min(1)]);
export type RichText = z.infer<typeof rich>;

/** Body blocks of articles, news and pages. Content is never raw HTML. */
export const block = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), level: z.union([z.literal(2), z.literal(3)]), text: nonEmpty }).strict(),
  z.object({ type: z.literal('paragraph'), text: rich }).strict(),
  z.object({ type: z.literal('list'), ordered: z.boolean().optional(), items: z.array(rich).min(1) }).strict(),
  z
    .object({
      type: z.literal('table'),
      caption: z.string().optional(),
      head: z.array(z.string()).min(1),
      rows: z.array(z.array(z.string())).min(1),
    })
    .strict(),
  z.object({ type: z.literal('quote'), text: nonEmpty, cite: z.string().optional() }).strict(),
]);
export type Block = z.infer<typeof block>;

export const image = z
  .object({
    src: z.string().min(1),
    alt: z.string(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  })
  .strict();
export type Image = z.infer<typeof image>;

export const meta = z
  .object({
    title: z.string(),
    description: z.string(),
    keywords: z.string(),
  })
  .strict();
export type Meta = z.infer<typeof meta>;

// ---------------------------------------------------------------- site.json

/**
 * A third-party service's id: empty (the service is off) or of the shape the
 * service issues. The build URL-encodes ids either way; a mistyped one would
 * load nothing, and nobody would notice until the analytics stayed empty.
 */
const configuredId = (shape: RegExp, expected: string) =>
  z
    .string()
    .refine((v) => v.trim() === '' || shape.test(v.trim()), `expected ${expected}, or "" to leave it out`)
    .default('');

const httpsUrl = z.url({ protocol: /^https$/, error: 'expected an https: URL' });

export const siteConfig = z
  .object({
    /** Brand name; page titles of products, articles and news end with " - " + brand. */
    brand: nonEmpty,
    /** Absolute origin for canonical URLs, sitemap and Open Graph, without trailing slash. */
    origin: z.url({ protocol: /^https?$/ }).refine((u) => !u.endsWith('/'), 'expected an origin without a trailing slash'),
    language: z.string().default('en'),
    tagline: z.string(),
    /** Default description used where nothing more specific exists. */
    description: z.string(),
    contact: z
      .object({
        company: nonEmpty,
        email: z.email(),
        phone: nonEmpty,
        whatsapp: z.string().optional(),
        address: nonEmpty,
        country: nonEmpty,
        hours: z.string().optional(),
      })
      .strict(),
    itemsPerPage: z
      .object({
        products: z.number().int().positive(),
        articles: z.number().int().positive(),
        news: z.number().int().positive(),
      })
      .strict(),
    /** Where the inquiry forms post; `site serve` answers it. */
    inquiryEndpoint: z
      .string()
      .regex(/^(?:\/(?![/\\])\S*|https:\/\/\S+)$/, 'expected a path on this site such as /api/inquiry, or an https: URL')
      .default('/api/inquiry'),
    /** Optional third-party scripts: emitted (deferred) only when an id is set. */
    thirdParty: z
      .object({
        analyticsId: configuredId(/^(?:G|UA|AW|DC)-[A-Z0-9-]+$/i, 'a Google tag id such as G-ABC123XYZ9'),
        tagManagerId: configuredId(/^GTM-[A-Z0-9]+$/i, 'a Google Tag Manager container id such as GTM-ABC1234'),
        chatWidgetId: configuredId(/^[A-Za-z0-9]+\/[A-Za-z0-9]+$/, 'a Tawk.to property and widget id such as 5f0c2d7a9e8b1c0012345678/1e3a4b5c6'),
        errorReportingDsn: configuredId(
          /^https:\/\/[A-Za-z0-9]+@[A-Za-z0-9.-]+(?::\d+)?(?:\/[\w.-]+)*\/\d+$/,
          'a Sentry DSN such as https://<public key>@o123.ingest.sentry.io/456',
        ),
      })
      .strict(),
    /**
     * Parent ids that group categories without being a category themselves
     * (the spec's shared parent ids).
     */
    categoryGroups: z.array(z.object({ id: hexId, name: nonEmpty }).strict()).default([]),
    social: z.object({ linkedin: httpsUrl.optional(), facebook: httpsUrl.optional(), x: httpsUrl.optional() }).strict().default({}),
    /**
     * Size limits on data/: a file over fileBytes (routes.json: routesBytes) is an error, a text over textChars a warning. The load stage reads
     * them from site.json's bytes before validating anything (src/load/limits.ts, which has the defaults); here they
     * are only validated.
     */
    limits: z
      .object({
        fileBytes: z.number().int().positive().optional(),
        routesBytes: z.number().int().positive().optional(),
        textChars: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type SiteConfig = z.infer<typeof siteConfig>;

// ---------------------------------------------------------------- categories

export const category = z
  .object({
    id: hexId,
    slug: nonEmpty,
    /** The listing path, e.g. `/herb-extract` (`/products` for all products). */
    path: z.string().startsWith('/'),
    name: nonEmpty,
    /** A category id or a `categoryGroups` id; null for top-level categories. */
    parentId: hexId.nullable(),
    /** Display order in navigation. */
    order: z.number().int(),
    summary: z.string(),
    /** Colour of the generated product artwork, `#rrggbb`. */
    color: z.string().regex(/^#[0-9a-f]{6}$/i, 'expected a colour as #rrggbb'),
    /** True for the all-products list: it lists every product. */
    all: z.boolean().optional(),
  })
  .strict();
export type Category = z.infer<typeof category>;

// ---------------------------------------------------------------- products

export const product = z
  .object({
    id: nodeId,
    slug: nonEmpty,
    name: nonEmpty,
    /** The category the product belongs to; its id is the detail route's grandId. */
    category: hexId,
    /** Further categories whose lists also show the product. */
    listedIn: z.array(hexId).default([]),
    latinName: z.string(),
    /** Specification or assay, e.g. "98% peptide", "10:1". */
    specification: nonEmpty,
    appearance: nonEmpty,
    certifications: z.array(nonEmpty),
    package: z.array(nonEmpty).min(1),
    delivery: nonEmpty,
    moq: nonEmpty,
    freeSample: z.boolean(),
    /** One line for cards and fallback meta descriptions. */
    summary: nonEmpty,
    description: z.array(block).min(1),
    applications: z.array(nonEmpty),
    /** Text claims that belong to this product (spec section 9). */
    claims: z.array(nonEmpty).default([]),
    images: z.array(image).default([]),
    relatedProducts: z.array(nodeId).default([]),
    relatedArticles: z.array(nodeId).default([]),
    /** Last content change; the sitemap's lastmod. */
    updated: isoDate,
    /** Order in lists (higher first), then name. */
    featured: z.boolean().optional(),
  })
  .strict();
export type Product = z.infer<typeof product>;

// ---------------------------------------------------------------- articles

export const article = z
  .object({
    id: nodeId,
    slug: nonEmpty,
    headline: nonEmpty,
    date: isoDate,
    updated: isoDate.optional(),
    /** Topic shown on the article, e.g. "Amino Acids". */
    category: nonEmpty,
    author: nonEmpty,
    summary: nonEmpty,
    body: z.array(block).min(1),
    relatedProducts: z.array(nodeId).default([]),
  })
  .strict();
export type Article = z.infer<typeof article>;

// ---------------------------------------------------------------- news

export const newsItem = z
  .object({
    id: nodeId,
    slug: nonEmpty,
    title: nonEmpty,
    date: isoDate,
    summary: nonEmpty,
    body: z.array(block).min(1),
    image: image.optional(),
  })
  .strict();
export type NewsItem = z.infer<typeof newsItem>;

// ---------------------------------------------------------------- pages

export const banner = z.object({ heading: nonEmpty, text: z.string(), link: z.string().min(1), linkText: nonEmpty, image: image.optional() }).strict();

/** Content of the non-catalogue screens. `kind` says which template shows it. */
export const page = z
  .object({
    id: nodeId,
    kind: z.enum(['home', 'about', 'contact', 'knowledge', 'news', 'search', 'search-not-found', 'thanks']),
    heading: nonEmpty,
    intro: z.string().default(''),
    body: z.array(block).default([]),
    banners: z.array(banner).default([]),
    /** Home: featured category and product ids. */
    featuredCategories: z.array(hexId).default([]),
    featuredProducts: z.array(nodeId).default([]),
    /** Trust points (home, about). */
    highlights: z.array(z.object({ title: nonEmpty, text: nonEmpty }).strict()).default([]),
    updated: isoDate,
  })
  .strict();
export type Page = z.infer<typeof page>;

// ---------------------------------------------------------------- routes

/**
 * The screen kinds a route can name. Kept as a list (not a schema enum) so
 * that an unknown kind is a check diagnostic ("Unknown middleware {name}")
 * rather than a schema failure.
 */
export const SCREENS = [
  'home',
  'products', // all-products list, bare and paged
  'category', // category list, bare and paged
  'product', // product detail
  'about',
  'knowledge', // knowledge list, bare and paged
  'article', // knowledge article
  'news', // news list
  'news-detail',
  'contact',
  'search',
  'search-not-found',
  'thanks',
] as const;
export type Screen = (typeof SCREENS)[number];

export const routeRecord = z
  .object({
    path: z.string().min(1),
    screen: z.string().min(1),
    /** The route name of spec section 3 (productsclass, productsdetail, …, or the node id on paged lists). */
    name: z.string(),
    nodeid: nodeId,
    /** Parent category id on product detail routes; absent or empty elsewhere. */
    grandId: z.string().optional(),
    type: z.string(),
    page: z.number().int().positive().optional(),
    meta,
  })
  .strict();
export type RouteRecord = z.infer<typeof routeRecord>;

export const routeRegistry = z.array(routeRecord);
