/**
 * The route registry (data/routes.json), following spec section 3 and the
 * binding rules of docs/CONTRACTS.md, including the spec's warts: duplicate
 * declarations, a name as node id, empty meta on newer products.
 */
import type { Article, Category, Meta, NewsItem, Product, RouteRecord, SiteConfig } from '../../src/core/schema.js';
import { EMPTY_META, bestTitle, firstSentences, fit, keywords, saysBulk } from './meta.js';
import { pageId, type PageFile } from './pages.js';

export interface RouteInputs {
  site: SiteConfig;
  categories: Category[];
  /** Category id → number of list pages (0 = bare list only). */
  pagesOf: Map<string, number>;
  products: Product[];
  /** Product ids whose route meta is empty on purpose (newer products). */
  emptyMeta: Set<string>;
  articles: Article[];
  articleMeta: Map<string, Meta>;
  news: NewsItem[];
  newsKeywords: Map<string, string>;
  knowledgePages: number;
  /** Product slugs whose detail route the spec declares twice. */
  declaredTwice: Set<string>;
}

export function buildRoutes(x: RouteInputs): RouteRecord[] {
  const brand = x.site.brand;
  const suffix = ` - ${brand}`;
  const routes: RouteRecord[] = [];
  const add = (r: RouteRecord) => routes.push(r);
  const pageRoute = (path: string, screen: string, name: string, file: PageFile, meta: Meta, page?: number): RouteRecord => {
    const r: RouteRecord = { path, screen, name, nodeid: pageId(file), type: pageId(file), meta };
    if (page !== undefined) r.page = page;
    return r;
  };

  add(
    pageRoute('/', 'home', 'Home', 'home', {
      title: 'Herb Extract Supplier: Shiitake Extract, Pueraria Mirifica',
      description:
        'Herb extracts supplier with a GMP factory: shiitake mushroom extract, pueraria mirifica, standardized extracts, proteins. Free sample, bulk wholesale.',
      keywords: keywords('herb extracts supplier', 'shiitake mushroom extract', 'pueraria mirifica', 'plant extracts'),
    }),
  );

  for (const c of x.categories) {
    const n = x.pagesOf.get(c.id) ?? 0;
    const screen = c.all ? 'products' : 'category';
    const bareName = c.all ? 'products' : 'productsclass';
    const meta = (page?: number): Meta => {
      // "All Products Products, Page 2" and "Bulk All Products Supplier" were what the category pattern made of the list of all products.
      const title = c.all
        ? page === undefined
          ? `All Products: Plant Extracts and Ingredients${suffix}`
          : bestTitle([`All Products, Page ${page}: Plant Extracts${suffix}`, `All Products, Page ${page}${suffix}`])
        : page === undefined
          ? bestTitle([`Bulk ${c.name} Supplier${suffix}`, `${c.name} Supplier${suffix}`, `Bulk ${c.name} Supplier, GMP Factory${suffix}`])
          : bestTitle([`${c.name} Products, Page ${page}${suffix}`, `${c.name}, Page ${page}${suffix}`, `Bulk ${c.name} Products, Page ${page}${suffix}`]);
      const prefix = page === undefined ? '' : `Page ${page} of ${n}: `;
      // Whole sentences that fit beside the prefix: fitting the prefixed text afterwards cut a sentence mid-phrase.
      const description = prefix + firstSentences(c.summary, 155 - prefix.length);
      return { title, description, keywords: keywords(c.name, `bulk ${c.name}`, `${c.name} supplier`) };
    };
    add({ path: c.path, screen, name: bareName, nodeid: c.id, type: c.id, meta: meta() });
    for (let page = 1; page <= n; page++) {
      add({ path: `${c.path}/page-${page}`, screen, name: c.id, nodeid: c.id, type: c.id, page, meta: meta(page) });
    }
  }

  const categoryById = new Map(x.categories.map((c) => [c.id, c]));
  // Two products may share a name once the parenthesis is dropped; those keep their full names so meta stays unique.
  const shortCount = new Map<string, number>();
  for (const prod of x.products) shortCount.set(shortName(prod.name), (shortCount.get(shortName(prod.name)) ?? 0) + 1);
  const productRoute = (prod: Product): RouteRecord => {
    const cat = categoryById.get(prod.category)!;
    // The spec's one legacy detail route sits under /products and is named by a name, not a hex id.
    const base = prod.id === prod.slug ? '/products' : cat.path;
    return {
      path: `${base}/${prod.slug}`,
      screen: 'product',
      name: 'productsdetail',
      nodeid: prod.id,
      grandId: prod.category,
      type: prod.id,
      meta: x.emptyMeta.has(prod.id) ? { ...EMPTY_META } : productMeta(prod, suffix, shortCount.get(shortName(prod.name))! > 1),
    };
  };
  const twice: RouteRecord[] = [];
  for (const prod of x.products) {
    const r = productRoute(prod);
    add(r);
    if (x.declaredTwice.has(prod.slug)) twice.push(structuredClone(r));
  }
  // The second, identical declarations come after the first block, as a legacy re-import would leave them.
  for (const r of twice) add(r);

  const kMeta = (page?: number): Meta => ({
    title: page === undefined ? `Knowledge Center: Ingredient Guides${suffix}` : `Knowledge Center: Ingredient Guides, Page ${page}${suffix}`,
    description:
      page === undefined
        ? 'Guides, comparisons and answers about herbal extracts, plant proteins, amino acids, vitamins, mushrooms and other ingredients for manufacturers.'
        : `Page ${page} of ${x.knowledgePages} of our knowledge center: guides, comparisons and answers about herbal extracts, proteins, vitamins and more.`,
    keywords: keywords('ingredient knowledge', 'herbal extract guides', 'supplement ingredients'),
  });
  add(pageRoute('/knowledge', 'knowledge', 'knowledge', 'knowledge', kMeta()));
  for (let page = 1; page <= x.knowledgePages; page++) {
    add(pageRoute(`/knowledge/page-${page}`, 'knowledge', pageId('knowledge'), 'knowledge', kMeta(page), page));
  }
  for (const a of x.articles) {
    add({ path: `/knowledge/${a.slug}`, screen: 'article', name: 'knowledgedetail', nodeid: a.id, type: a.id, meta: x.articleMeta.get(a.id)! });
  }

  const newsMeta: Meta = {
    title: `Company News and Exhibitions${suffix}`,
    description: 'News from our company: exhibitions, conferences, new extract launches, planting base visits and new applications of our ingredients.',
    keywords: keywords('company news', 'exhibitions', 'new products'),
  };
  add(pageRoute('/news', 'news', 'news1', 'news', newsMeta));
  add(pageRoute('/news/page-1', 'news', 'news1', 'news', newsMeta, 1));
  for (const item of x.news) {
    add({
      path: `/news/${item.slug}`,
      screen: 'news-detail',
      name: 'newsdetail',
      nodeid: item.id,
      type: item.id,
      meta: { title: `${item.title}${suffix}`, description: fit(item.summary, 155), keywords: keywords(...x.newsKeywords.get(item.id)!.split(', ')) },
    });
  }

  add(
    pageRoute('/about-us', 'about', 'about', 'about-us', {
      title: `About Us: GMP Plant Extract Factory Since 2009${suffix}`,
      description:
        'Established in 2009, a subsidiary of a biotechnology company making plant extracts and health-food raw materials in a GMP factory with lab-tested purity.',
      keywords: keywords('about us', 'plant extract manufacturer', 'health food raw materials'),
    }),
  );
  add(
    pageRoute('/contact-us', 'contact', 'contact', 'contact-us', {
      title: `Contact Us for Quotes and Free Samples${suffix}`,
      description: 'Contact our team for a quote, custom quote, free sample, private labelling or bulk and wholesale supply of plant extracts and ingredients.',
      keywords: keywords('contact', 'quote', 'free sample', 'private label'),
    }),
  );
  add(
    pageRoute('/search', 'search', 'search', 'search', {
      title: `Search Products and Articles${suffix}`,
      description:
        'Search our catalogue of herb extracts, mushroom extracts, proteins, vitamins and amino acids, and our knowledge articles by name or latin name.',
      keywords: keywords('search', 'products', 'articles'),
    }),
  );
  add(
    pageRoute('/search/404', 'search-not-found', 'search404', 'search-404', {
      title: `No Results Found - Search${suffix}`,
      description: 'Nothing matched your search. Browse popular categories: herb extracts, mushroom extracts, protein powders and health food ingredients.',
      keywords: keywords('search', 'popular categories'),
    }),
  );
  add(
    pageRoute('/thanks', 'thanks', 'thanks', 'thanks', {
      title: `Thank You for Your Inquiry${suffix}`,
      description: 'Thank you for contacting us. Our team replies within one working day with a quote, sample confirmation or the documents you requested.',
      keywords: keywords('thank you', 'inquiry'),
    }),
  );
  return routes;
}

const shortName = (name: string): string => name.replace(/\s*\([^)]*\)/g, '');

export function productMeta(prod: Product, suffix: string, keepFullName = false): Meta {
  const short = keepFullName ? prod.name : shortName(prod.name);
  // A name that already says bulk ("L-Leucine Bulk", "Bulk Curcumin Powder") does not get it a second time.
  const bulk = saysBulk(short);
  const title = bestTitle([
    `${prod.name}${suffix}`,
    `${short}${suffix}`,
    bulk ? `${short} Supplier${suffix}` : `${short} Bulk Supplier${suffix}`,
    bulk ? `${short} Supplier, GMP Factory${suffix}` : `${short} Bulk Supplier, GMP Factory${suffix}`,
  ]);
  const spec = prod.specification.length <= 40 ? ` (${prod.specification})` : '';
  const buy = bulk ? `Buy ${short}` : `Buy bulk ${short}`;
  const description = fit(
    bestDescription([
      `${buy}${spec} from a GMP factory: lab-tested purity, free sample, MOQ 1-5kg, delivery in 1-2 working days.`,
      `${buy} from a GMP factory: lab-tested purity, free sample, MOQ 1-5kg, delivery in 1-2 working days.`,
      bulk ? `${short}: GMP factory, lab-tested, free sample, MOQ 1-5kg.` : `Bulk ${short}: GMP factory, lab-tested, free sample, MOQ 1-5kg.`,
    ]),
    155,
  );
  return { title, description, keywords: keywords(short, ...(bulk ? [] : [`bulk ${short}`]), `${short} supplier`) };
}

function bestDescription(candidates: string[]): string {
  return candidates.find((c) => c.length >= 70 && c.length <= 155) ?? candidates[candidates.length - 1];
}
