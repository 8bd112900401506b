/**
 * A small in-memory catalogue for template tests, parsed through the real
 * schemas so that defaults apply exactly as the load stage applies them.
 */
import type { Catalogue } from '../../src/core/catalogue.js';
import { article, category, newsItem, page, product, routeRecord, siteConfig, type RouteRecord } from '../../src/core/schema.js';
import { createSiteModel, type AssetRefs, type SiteModel } from '../../src/model/model.js';

export const ASSETS: AssetRefs = { css: '/assets/styles-abc123.css', js: '/assets/main-def456.js', search: '/assets/search-789abc.js' };

const hex = (n: number): string => n.toString(16).padStart(32, '0');
export const ID = {
  all: hex(1),
  herb: hex(2),
  monomer: hex(3),
  api: hex(4),
  group: hex(5),
  amino: hex(6),
  curcumin: hex(11),
  quercetin: hex(12),
  berberine: hex(13),
  newer: hex(14),
  a1: hex(21),
  a2: hex(22),
  a3: hex(23),
  n1: hex(31),
  n2: hex(32),
  home: hex(41),
  about: hex(42),
  contact: hex(43),
  knowledge: hex(44),
  news: hex(45),
  search: hex(46),
  search404: hex(47),
  thanks: hex(48),
};

const meta = (title = '', description = '', keywords = '') => ({ title, description, keywords });

export interface FixtureOptions {
  productName?: string;
  productHref?: string;
  thirdParty?: Record<string, string>;
}

export function fixtureCatalogue(opts: FixtureOptions = {}): Catalogue {
  const site = siteConfig.parse({
    brand: 'Herbline',
    origin: 'https://www.example.com',
    tagline: 'Herb extracts supplier',
    description: 'Herb extracts, powders and ingredients from a GMP factory.',
    contact: { company: 'Herbline Biotech Co., Ltd.', email: 'sales@example.com', phone: '+86 29 1234 5678', address: '1 Science Road, Xi’an', country: 'CN' },
    itemsPerPage: { products: 2, articles: 2, news: 10 },
    thirdParty: { analyticsId: '', tagManagerId: '', chatWidgetId: '', errorReportingDsn: '' },
    categoryGroups: [{ id: ID.group, name: 'Nutrition' }],
  });
  // Set past the schema, which refuses ids not of their service's shape: templates must stay safe with any value.
  site.thirdParty = { ...site.thirdParty, ...opts.thirdParty };
  const categories = [
    {
      id: ID.all,
      slug: 'products',
      path: '/products',
      name: 'Products',
      parentId: null,
      order: 0,
      summary: 'Every product we make.',
      color: '#1d4d2b',
      all: true,
    },
    { id: ID.herb, slug: 'herb-extract', path: '/herb-extract', name: 'Herb Extract', parentId: null, order: 1, summary: 'Herb extracts.', color: '#2f6b3a' },
    { id: ID.monomer, slug: 'monomer', path: '/monomer', name: 'Monomer', parentId: ID.herb, order: 2, summary: 'Single compounds.', color: '#f2d16b' },
    { id: ID.amino, slug: 'amino-acid', path: '/amino-acid', name: 'Amino Acid', parentId: ID.group, order: 3, summary: '', color: '#335577' },
    { id: ID.api, slug: 'api', path: '/api', name: 'API', parentId: ID.group, order: 4, summary: 'Active ingredients.', color: '#553377' },
  ].map((c) => category.parse(c));
  const base = {
    latinName: 'Curcuma longa',
    specification: '95% curcuminoids',
    appearance: 'Orange-yellow powder',
    certifications: ['ISO9001', 'HALAL'],
    package: ['1-10kg foil', '25kg drum'],
    delivery: '1-2 working days',
    moq: '1-5kg',
    freeSample: true,
    applications: ['Dietary supplements'],
    updated: '2024-05-01',
  };
  const products = [
    {
      ...base,
      id: ID.curcumin,
      slug: 'bulk-curcumin',
      name: opts.productName ?? 'Bulk Curcumin',
      category: ID.monomer,
      listedIn: [ID.herb],
      summary: 'Curcumin at least 95%, lab-tested.',
      description: [{ type: 'paragraph', text: opts.productHref ? [{ text: 'Click me', href: opts.productHref }] : 'Curcumin from turmeric root.' }],
      relatedArticles: [ID.a1],
      featured: true,
    },
    {
      ...base,
      id: ID.quercetin,
      slug: 'bulk-quercetin',
      name: 'Bulk Quercetin',
      category: ID.monomer,
      latinName: 'Sophora japonica',
      summary: 'Quercetin powder.',
      description: [{ type: 'paragraph', text: 'Quercetin from sophora.' }],
      updated: '2024-06-01',
    },
    {
      ...base,
      id: ID.berberine,
      slug: 'berberine-powder-bulk',
      name: 'Berberine Powder',
      category: ID.monomer,
      summary: 'Berberine HCl 97%.',
      description: [{ type: 'paragraph', text: 'Berberine.' }],
      updated: '2023-01-01',
    },
    {
      ...base,
      id: ID.newer,
      slug: 'l-valine-powder',
      name: 'L-Valine Powder',
      category: ID.amino,
      latinName: '',
      freeSample: false,
      summary:
        'L-Valine is a branched-chain amino acid used in sports nutrition, feed and pharmaceuticals; we supply food and pharma grades in bulk with full documentation and fast delivery worldwide.',
      description: [{ type: 'paragraph', text: 'L-Valine.' }],
      updated: '2025-01-01',
    },
  ].map((p) => product.parse(p));
  const articles = [
    {
      id: ID.a1,
      slug: 'what-is-curcumin',
      headline: 'What Is Curcumin?',
      date: '2024-01-10',
      category: 'Herbal Extracts',
      author: 'Dr. Li',
      summary: 'All about curcumin.',
      body: [
        { type: 'heading', level: 2, text: 'Origins' },
        { type: 'paragraph', text: 'Turmeric root.' },
      ],
      relatedProducts: [ID.curcumin],
    },
    {
      id: ID.a2,
      slug: 'quercetin-vs-rutin',
      headline: 'Quercetin vs Rutin',
      date: '2024-02-10',
      updated: '2024-03-01',
      category: 'Comparisons',
      author: 'Dr. Wang',
      summary: 'Two flavonoids.',
      body: [{ type: 'paragraph', text: 'Both from sophora.' }],
    },
    {
      id: ID.a3,
      slug: '-how-to-use-valine-',
      headline: 'How to Use Valine',
      date: '2023-12-01',
      category: 'How-to',
      author: 'Dr. Li',
      summary: 'Valine dosage.',
      body: [{ type: 'paragraph', text: 'Dosage.' }],
    },
  ].map((a) => article.parse(a));
  const news = [
    {
      id: ID.n1,
      slug: 'exhibition-2024',
      title: 'Exhibition 2024',
      date: '2024-04-01',
      summary: 'We exhibited.',
      body: [{ type: 'paragraph', text: 'Booth 12.' }],
    },
    {
      id: ID.n2,
      slug: 'exhibition-2023',
      title: 'Exhibition 2023',
      date: '2023-04-01',
      summary: 'We exhibited too.',
      body: [{ type: 'paragraph', text: 'Booth 3.' }],
    },
  ].map((n) => newsItem.parse(n));
  const pages = [
    {
      id: ID.home,
      kind: 'home',
      heading: 'Herb extracts supplier',
      intro: 'Shiitake mushroom extract and pueraria mirifica from our GMP factory.',
      banners: [
        { heading: 'Bulk curcumin', text: '95%', link: '/monomer/bulk-curcumin', linkText: 'See curcumin' },
        { heading: 'Free samples', text: '', link: 'javascript:alert(1)', linkText: 'Bad' },
      ],
      featuredCategories: [ID.herb, ID.api],
      featuredProducts: [ID.curcumin],
      highlights: [{ title: 'Lab-tested purity', text: 'Every batch.' }],
      updated: '2024-01-01',
    },
    {
      id: ID.about,
      kind: 'about',
      heading: 'About us',
      intro: 'Established in 2009.',
      body: [{ type: 'paragraph', text: 'We make plant extracts.' }],
      updated: '2023-01-01',
    },
    { id: ID.contact, kind: 'contact', heading: 'Contact us', updated: '2023-01-01' },
    { id: ID.knowledge, kind: 'knowledge', heading: 'Knowledge', intro: 'Articles.', updated: '2023-01-01' },
    { id: ID.news, kind: 'news', heading: 'News', updated: '2023-01-01' },
    { id: ID.search, kind: 'search', heading: 'Search', updated: '2023-01-01' },
    { id: ID.search404, kind: 'search-not-found', heading: 'No results', intro: 'Try another word.', updated: '2023-01-01' },
    { id: ID.thanks, kind: 'thanks', heading: 'Thank you', intro: 'We will reply soon.', updated: '2023-01-01' },
  ].map((p) => page.parse(p));
  const r = (path: string, screen: string, name: string, nodeid: string, extra: Partial<RouteRecord> = {}): RouteRecord =>
    routeRecord.parse({ path, screen, name, nodeid, type: nodeid, meta: meta(), ...extra });
  const routes = [
    r('/', 'home', 'Home', ID.home, {
      meta: meta('Herb Extracts Supplier - Shiitake Mushroom Extract - Pueraria Mirifica', 'Herb extracts supplier.', 'herb extracts'),
    }),
    r('/products', 'products', 'products', ID.all, { meta: meta('Products - Herbline', 'All products.', 'products') }),
    r('/products/page-1', 'products', ID.all, ID.all, { page: 1, meta: meta('Products - Herbline', 'All products.', 'products') }),
    r('/products/page-2', 'products', ID.all, ID.all, { page: 2, meta: meta('Products - Herbline', 'All products.', 'products') }),
    r('/herb-extract', 'category', 'productsclass', ID.herb),
    r('/monomer/page-1', 'category', ID.monomer, ID.monomer, { page: 1 }),
    r('/monomer/page-2', 'category', ID.monomer, ID.monomer, { page: 2 }),
    r('/amino-acid', 'category', 'productsclass', ID.amino),
    r('/api', 'category', 'productsclass', ID.api),
    r('/monomer/bulk-curcumin', 'product', 'productsdetail', ID.curcumin, {
      grandId: ID.monomer,
      meta: meta('Bulk Curcumin Powder - Herbline', 'Curcumin 95%.', 'curcumin'),
    }),
    r('/monomer/bulk-quercetin', 'product', 'productsdetail', ID.quercetin, {
      grandId: ID.monomer,
      meta: meta('Bulk Quercetin - Herbline', 'Quercetin.', 'quercetin'),
    }),
    r('/monomer/berberine-powder-bulk', 'product', 'productsdetail', ID.berberine, {
      grandId: ID.monomer,
      meta: meta('Berberine - Herbline', 'Berberine.', 'berberine'),
    }),
    r('/amino-acid/l-valine-powder', 'product', 'productsdetail', ID.newer, { grandId: ID.amino }),
    r('/knowledge', 'knowledge', 'knowledge', ID.knowledge, { meta: meta('Knowledge - Herbline', 'Articles.', 'knowledge') }),
    r('/knowledge/page-2', 'knowledge', ID.knowledge, ID.knowledge, { page: 2, meta: meta('Knowledge - Herbline', 'Articles.', 'knowledge') }),
    r('/knowledge/what-is-curcumin', 'article', 'knowledgedetail', ID.a1, {
      meta: meta('What Is Curcumin? - Herbline', 'What Is Curcumin?', 'What Is Curcumin?'),
    }),
    r('/knowledge/quercetin-vs-rutin', 'article', 'knowledgedetail', ID.a2, {
      meta: meta('Quercetin vs Rutin - Herbline', 'Quercetin vs Rutin', 'Quercetin vs Rutin'),
    }),
    r('/knowledge/-how-to-use-valine-', 'article', 'knowledgedetail', ID.a3, {
      meta: meta('How to Use Valine - Herbline', 'How to Use Valine', 'How to Use Valine'),
    }),
    r('/news', 'news', 'news1', ID.news, { meta: meta('News - Herbline', 'News.', 'news') }),
    r('/news/page-1', 'news', 'news1', ID.news, { page: 1, meta: meta('News - Herbline', 'News.', 'news') }),
    r('/news/exhibition-2024', 'news-detail', 'newsdetail', ID.n1, { meta: meta('Exhibition 2024 - Herbline', 'Exhibition.', 'exhibition') }),
    r('/news/exhibition-2023', 'news-detail', 'newsdetail', ID.n2, { meta: meta('Exhibition 2023 - Herbline', 'Exhibition.', 'exhibition') }),
    r('/about-us', 'about', 'about', ID.about, { meta: meta('About Us - Herbline', 'About.', 'about') }),
    r('/contact-us', 'contact', 'contact', ID.contact, { meta: meta('Contact Us - Herbline', 'Contact.', 'contact') }),
    r('/search', 'search', 'search', ID.search, { meta: meta('Search - Herbline', 'Search.', 'search') }),
    r('/search/404', 'search-not-found', 'search404', ID.search404, { meta: meta('No Results - Herbline', 'No results.', 'search') }),
    r('/thanks', 'thanks', 'thanks', ID.thanks, { meta: meta('Thank You - Herbline', 'Thanks.', 'thanks') }),
  ];
  return { root: '/tmp/fixture', site, routes, categories, products, articles, news, pages, images: [], sourceOf: new WeakMap() };
}

export function fixtureModel(opts: FixtureOptions = {}): SiteModel {
  return createSiteModel(fixtureCatalogue(opts), ASSETS);
}

export function routeAt(catalogue: Catalogue, path: string): RouteRecord {
  const route = catalogue.routes.find((r) => r.path === path);
  if (!route) throw new Error(`fixture has no route ${path}`);
  return route;
}
