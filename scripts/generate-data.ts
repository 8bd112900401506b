/**
 * `npm run generate-data`: writes the shipped catalogue in data/ from the fact
 * tables in scripts/catalogue/. Deterministic (seeded PRNG, no clock, stable
 * order, 2-space JSON with a trailing newline) and atomic (written into a
 * temporary folder beside data/, validated, then swapped in by rename).
 *
 *   node build/scripts/generate-data.js [--out <dir>] [--check]
 *     --out    target folder (default: data/ of the project)
 *     --check  build and verify only; write nothing
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import * as schema from '../src/core/schema.js';
import type { Article, Block, Meta, NewsItem, SiteConfig } from '../src/core/schema.js';
import { INGREDIENTS, articleCandidates, ensureLength, summaryOf, type ArticleDraft } from './catalogue/articles.js';
import { CATEGORY_ROWS, EXTRA_LISTINGS, GROUPS, buildCategories, categoryId } from './catalogue/categories.js';
import { BRAND, fit } from './catalogue/meta.js';
import { NEWS } from './catalogue/news.js';
import { PAGE_FILES, buildPages } from './catalogue/pages.js';
import { buildProducts, parseProductTable, productId, productUpdated, type ProductRow } from './catalogue/products.js';
import { buildRoutes } from './catalogue/routes.js';
import { SPECIAL_ARTICLES } from './catalogue/specials.js';
import { addDays, nodeIdFor, prng, slugify } from './catalogue/util.js';
import { listMembers, verify, type Dataset } from './catalogue/verify.js';

const ARTICLE_COUNT = 1000;

/** Spec section 2 product counts per category (own products). */
const EXPECTED_COUNTS: Record<string, number> = {
  monomer: 35,
  'standardized-herbal-extract': 65,
  'proportional-extract': 33,
  'herb-powder': 28,
  'shitake-mushroom-extract': 2,
  'pueraria-extract': 4,
  'protein-powder': 9,
  vitamin: 14,
  'amino-acid': 13,
  'nutritional-supplements': 28,
  intermediate: 5,
  'mushroom-extract': 8,
  'organic-mushroom-extract': 8,
  'fruit-and-vegetable-powder': 32,
};
/** The newest standardized extracts, whose routes the spec shows with empty meta. */
const EMPTY_META_COUNT = 25;

const DECLARED_TWICE = new Set([
  'wheat-protein-powder',
  'organic-cordyceps-extract',
  'organic-ganoderma-lucidum-extract',
  'organic-shiitake-extract',
  'organic-coriolus-versicolor-extract',
  'organic-hericium-erinaceus-extract',
  'organic-chaga-mushroom-extract',
  'organic-maitake-mushroom-extract',
  'organic-agaricus-blazei-extract',
]);

function buildSite(): SiteConfig {
  return {
    brand: BRAND,
    origin: 'https://www.example.com',
    language: 'en',
    tagline: 'Herb extracts, mushroom extracts and plant proteins from a GMP factory',
    description:
      'Manufacturer and bulk supplier of herb extracts, standardized extracts, monomers, mushroom extracts, plant proteins, vitamins and amino acids.',
    contact: {
      company: `${BRAND} Biotech Co., Ltd.`,
      email: 'sales@example.com',
      phone: '+86 29 0000 0000',
      whatsapp: '+86 000 0000 0000',
      address: 'No. 1 Example Road, High-Tech Zone, Xi’an, Shaanxi, China',
      country: 'China',
      hours: 'Monday to Friday, 8:30-17:30 (UTC+8)',
    },
    itemsPerPage: { products: 12, articles: 14, news: 10 },
    inquiryEndpoint: '/api/inquiry',
    thirdParty: { analyticsId: '', tagManagerId: '', chatWidgetId: '', errorReportingDsn: '' },
    categoryGroups: GROUPS.map((g) => ({ id: g.id, name: g.name })),
    social: {},
  };
}

/** Categories (slugs) whose lists show a product besides its own: EXTRA_LISTINGS read the other way round. */
function listedInOf(row: ProductRow): string[] {
  const out: string[] = [];
  for (const [list, extra] of Object.entries(EXTRA_LISTINGS)) {
    if (extra.categories?.includes(row.category) || extra.products?.includes(row.slug)) out.push(list);
  }
  return out;
}

/**
 * Legacy slugs the spec describes: a few keep capitals (acronyms), some carry a
 * leading or trailing hyphen. Chosen by headline so the choice is stable.
 */
const CAPITAL_SLUGS = new Set([
  'What Is NMN? Source, Grades and Uses',
  'NMN Dosage: How Much Is Used?',
  'What Is BCAA? Source, Grades and Uses',
  'BCAA Side Effects and Safety',
  'What Is 5-HTP? Source, Grades and Uses',
]);
const TRAILING_HYPHEN = new Set([
  'Does Inulin Really Work?',
  'When Is the Best Time to Take Stevia?',
  'Can You Take Creatine Every Day?',
  'Does Chaga Really Work?',
]);
const LEADING_HYPHEN = new Set(['How to Store Melatonin Powder', 'The Complete Guide to Lecithin']);

function articleSlug(headline: string): string {
  if (CAPITAL_SLUGS.has(headline)) {
    return headline
      .replace(/[?:]/g, '')
      .split(/\s+/)
      .map((w) => (/^[A-Z0-9-]{2,}$/.test(w) ? w : slugify(w)))
      .join('-');
  }
  if (TRAILING_HYPHEN.has(headline)) return `${slugify(headline)}-`;
  if (LEADING_HYPHEN.has(headline)) return `-${slugify(headline)}`;
  return slugify(headline);
}

const AUTHORS: Record<string, string> = {
  dosage: 'Verdanta Regulatory Team',
  safety: 'Verdanta Regulatory Team',
  avoid: 'Verdanta Regulatory Team',
  daily: 'Verdanta Regulatory Team',
  howmade: 'Verdanta Quality Team',
  quality: 'Verdanta Quality Team',
  buying: 'Verdanta Quality Team',
  grades: 'Verdanta Quality Team',
  storage: 'Verdanta Quality Team',
  formulating: 'Verdanta Application Lab',
  howuse: 'Verdanta Application Lab',
  combine: 'Verdanta Application Lab',
};

function selectArticles(): ArticleDraft[] {
  const pools = articleCandidates();
  const chosen: ArticleDraft[] = [...SPECIAL_ARTICLES];
  // The legacy-slug articles must be part of the selection, or the spec's warts silently disappear.
  const legacy = new Set([...CAPITAL_SLUGS, ...TRAILING_HYPHEN, ...LEADING_HYPHEN]);
  for (const pool of pools) for (const a of pool) if (legacy.has(a.headline)) chosen.push(a);
  if (chosen.length !== SPECIAL_ARTICLES.length + legacy.size) throw new Error('a legacy-slug headline is not among the article candidates');
  const headlines = new Set(chosen.map((a) => a.headline));
  for (let round = 0; chosen.length < ARTICLE_COUNT; round++) {
    let took = false;
    for (const pool of pools) {
      if (chosen.length >= ARTICLE_COUNT) break;
      const a = pool[round];
      if (!a) continue;
      took = true;
      if (headlines.has(a.headline)) continue;
      headlines.add(a.headline);
      chosen.push(a);
    }
    if (!took) throw new Error(`only ${chosen.length} article candidates; add article types or ingredients`);
  }
  return chosen;
}

interface Built {
  data: Dataset;
  articleMeta: Map<string, Meta>;
  files: Map<string, unknown>;
  about: Map<string, string[]>;
  types: Map<string, string>;
  emptyMeta: Set<string>;
}

function build(): Built {
  const site = buildSite();
  const categories = buildCategories();
  const rows = parseProductTable();
  const productSlugs = new Set(rows.map((r) => r.slug));

  // Articles first: products link to the articles that name them.
  const drafts = selectArticles();
  const order = [...drafts].sort((a, b) => nodeIdFor(a.headline).localeCompare(nodeIdFor(b.headline)));
  const span = 2550; // 2019-01-03 .. 2025-12-28
  const articles: Article[] = [];
  const articleMeta = new Map<string, Meta>();
  const about = new Map<string, string[]>();
  const types = new Map<string, string>();
  for (const draft of drafts) {
    for (const slug of draft.products) if (!productSlugs.has(slug)) throw new Error(`article "${draft.headline}": unknown product slug ${slug}`);
    if (!SPECIAL_ARTICLES.includes(draft as never)) ensureLength(draft, 260);
    const slug = articleSlug(draft.headline);
    const id = nodeIdFor(`article:${slug}`);
    const k = order.indexOf(draft);
    const date = addDays('2019-01-03', Math.floor((k * span) / (drafts.length - 1)));
    const r = prng(`article-date:${slug}`);
    const a: Article = {
      id,
      slug,
      headline: draft.headline,
      date,
      category: draft.topic,
      author: AUTHORS[draft.type] ?? 'Verdanta Editorial Team',
      summary: draft.summary !== '' ? draft.summary : summaryOf(draft),
      body: draft.body,
      relatedProducts: [...new Set(draft.products)].slice(0, 4).map(productId),
    };
    // Roughly one article in six was revised after publication.
    if (r() < 0.16) {
      const updated = addDays(date, 30 + Math.floor(r() * 400));
      if (updated <= '2025-12-31') a.updated = updated;
    }
    articles.push(a);
    about.set(id, draft.about);
    types.set(id, draft.type);
    const special = SPECIAL_ARTICLES.find((s) => s.headline === draft.headline);
    articleMeta.set(id, {
      title: `${draft.headline} - ${BRAND}`,
      description: special ? special.description : draft.headline,
      keywords: special ? special.keywords : draft.headline,
    });
  }
  const hubs = linkTopicClusters(articles, about, types);
  const newestFirst = [...articles].sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
  const articlesByProduct = new Map<string, string[]>();
  for (const a of newestFirst) for (const pid of a.relatedProducts) articlesByProduct.set(pid, [...(articlesByProduct.get(pid) ?? []), a.id]);
  const generalByCategory = (slug: string): string[] => {
    const keys = CATEGORY_READING[slug] ?? ['curcumin', 'ginseng', 'vitamin-c'];
    return keys
      .map(
        (key) => newestFirst.find((a) => about.get(a.id)?.[0] === key && types.get(a.id) === 'what') ?? newestFirst.find((a) => about.get(a.id)?.[0] === key),
      )
      .filter((a): a is Article => !!a)
      .map((a) => a.id);
  };

  const standardized = rows.filter((r) => r.category === 'standardized-herbal-extract');
  const newer = new Set(standardized.slice(-EMPTY_META_COUNT).map((r) => r.slug));
  const products = buildProducts(rows, {
    articlesFor: (slug) => articlesByProduct.get(productId(slug)) ?? [],
    articlesForCategory: generalByCategory,
    listedIn: listedInOf,
    updated: (row) => productUpdated(row, newer.has(row.slug)),
    perPage: site.itemsPerPage.products,
  });
  const emptyMeta = new Set(products.filter((p) => newer.has(p.slug)).map((p) => p.id));

  const news: NewsItem[] = NEWS.map((n) => ({ id: nodeIdFor(`news:${n.slug}`), slug: n.slug, title: n.title, date: n.date, summary: n.summary, body: n.body }));
  const newsKeywords = new Map(NEWS.map((n) => [nodeIdFor(`news:${n.slug}`), n.keywords]));
  const pages = buildPages(BRAND, categories);
  pages.knowledge.body = knowledgeIndex(hubs, (key) => INGREDIENTS.find((i) => i.key === key)!.topic);
  // The list pages change whenever an item is added, so their content date follows the newest item.
  pages.knowledge.updated = articles.map((a) => a.updated ?? a.date).reduce((a, b) => (a > b ? a : b));
  pages.news.updated = news.map((n) => n.date).reduce((a, b) => (a > b ? a : b));

  const members = listMembers(categories, products);
  const pagesOf = new Map(categories.map((c) => [c.id, Math.ceil(members.get(c.id)!.length / site.itemsPerPage.products)]));
  const routes = buildRoutes({
    site,
    categories,
    pagesOf,
    products,
    emptyMeta,
    articles,
    articleMeta,
    news,
    newsKeywords,
    knowledgePages: Math.ceil(articles.length / site.itemsPerPage.articles),
    declaredTwice: DECLARED_TWICE,
  });

  const files = new Map<string, unknown>();
  files.set('site.json', site);
  files.set('routes.json', routes);
  for (const c of categories) files.set(`categories/${c.slug}.json`, c);
  for (const p of products) files.set(`products/${p.slug}.json`, p);
  for (const a of articles) files.set(`articles/${a.slug}.json`, a);
  for (const n of news) files.set(`news/${n.slug}.json`, n);
  for (const name of PAGE_FILES) files.set(`pages/${name}.json`, pages[name]);
  return { data: { site, categories, products, articles, news, pages, routes }, articleMeta, files, about, types, emptyMeta };
}

/**
 * Topic clusters: each ingredient's "What is" article is its hub and links every
 * other article on that ingredient; every other article links the hub and the next
 * two articles in date order. With the hubs listed on /knowledge, any article is
 * at most three clicks from the home page instead of deep in the paged list.
 * Returns the hub of each ingredient key.
 */
function linkTopicClusters(articles: Article[], about: Map<string, string[]>, types: Map<string, string>): Map<string, Article> {
  const link = (b: Article) => [{ text: b.headline, href: `/knowledge/${b.slug}` }];
  const byIngredient = new Map<string, Article[]>();
  for (const a of [...articles].sort((x, y) => x.date.localeCompare(y.date) || x.slug.localeCompare(y.slug))) {
    const key = about.get(a.id)![0];
    byIngredient.set(key, [...(byIngredient.get(key) ?? []), a]);
  }
  const hubs = new Map<string, Article>();
  for (const [key, group] of byIngredient) {
    const hub = group.find((a) => types.get(a.id) === 'what') ?? group[0];
    hubs.set(key, hub);
    const name = INGREDIENTS.find((i) => i.key === key)!.name;
    const others = group.filter((a) => a !== hub);
    if (others.length === 0) continue;
    hub.body.push({ type: 'heading', level: 2, text: `More about ${name}` });
    hub.body.push({ type: 'list', items: [...others].sort((x, y) => x.headline.localeCompare(y.headline)).map(link) });
    others.forEach((a, i) => {
      const next = [1, 2].map((k) => others[(i + k) % others.length]).filter((b) => b !== a);
      const picks = [...new Map([hub, ...next].map((b) => [b.id, b])).values()];
      a.body.push({ type: 'heading', level: 2, text: 'Further reading' });
      a.body.push({ type: 'list', items: picks.map(link) });
    });
  }
  return hubs;
}

/** The /knowledge page's own text: every ingredient hub, grouped by topic. */
function knowledgeIndex(hubs: Map<string, Article>, topicOf: (key: string) => string): Block[] {
  const byTopic = new Map<string, Array<[string, Article]>>();
  for (const [key, hub] of hubs) {
    const topic = topicOf(key);
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), [key, hub]]);
  }
  const blocks: Block[] = [
    { type: 'heading', level: 2, text: 'Browse by ingredient' },
    {
      type: 'paragraph',
      text: 'Each ingredient has an overview article that links to everything we have written about it: benefits, dosage, safety, comparisons and buying guides.',
    },
  ];
  // A topic of one ingredient named like it ("Curcumin → Curcumin") is no group: those go together, at the end.
  const single = (topic: string) => byTopic.get(topic)!.length === 1;
  const item = ([key, hub]: [string, Article]) => [{ text: nameOf(key), href: `/knowledge/${hub.slug}` }];
  const byName = (x: [string, Article], y: [string, Article]) => nameOf(x[0]).localeCompare(nameOf(y[0]));
  for (const topic of [...byTopic.keys()].sort().filter((t) => !single(t))) {
    blocks.push({ type: 'heading', level: 3, text: topic });
    blocks.push({ type: 'list', items: byTopic.get(topic)!.sort(byName).map(item) });
  }
  const singles = [...byTopic.keys()]
    .filter(single)
    .flatMap((t) => byTopic.get(t)!)
    .sort(byName);
  if (singles.length > 0) {
    blocks.push({ type: 'heading', level: 3, text: 'More ingredients' });
    blocks.push({ type: 'list', items: singles.map(item) });
  }
  return blocks;
}

const nameOf = (key: string): string => INGREDIENTS.find((i) => i.key === key)!.name;

/** Further reading for products whose ingredient has no article of its own. */
const CATEGORY_READING: Record<string, string[]> = {
  monomer: ['quercetin', 'curcumin', 'berberine'],
  'standardized-herbal-extract': ['ginkgo', 'green-tea', 'milk-thistle'],
  'proportional-extract': ['milk-thistle', 'ginseng', 'rhodiola'],
  'herb-powder': ['curcumin', 'ashwagandha', 'psyllium'],
  'protein-powder': ['pea-protein', 'rice-protein', 'wheat-protein'],
  vitamin: ['vitamin-c', 'vitamin-b12', 'vitamin-e'],
  'amino-acid': ['l-arginine', 'l-theanine', 'bcaa'],
  'nutritional-supplements': ['creatine', 'nmn', 'inulin'],
  intermediate: ['berberine', 'quercetin'],
  'mushroom-extract': ['reishi', 'lions-mane', 'chaga'],
  'organic-mushroom-extract': ['reishi', 'cordyceps', 'shiitake'],
  'fruit-and-vegetable-powder': ['vitamin-c', 'inulin', 'green-tea'],
};

/** Validates every file against its zod schema; the pointer names the first failing field. */
function validate(files: Map<string, unknown>): string[] {
  const problems: string[] = [];
  const schemaFor = (file: string): z.ZodType => {
    if (file === 'site.json') return schema.siteConfig;
    if (file === 'routes.json') return schema.routeRegistry;
    const dir = file.split('/')[0];
    return { categories: schema.category, products: schema.product, articles: schema.article, news: schema.newsItem, pages: schema.page }[dir] as z.ZodType;
  };
  for (const [file, value] of files) {
    const result = schemaFor(file).safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) problems.push(`data/${file} /${issue.path.join('/')}: ${issue.message}`);
      continue;
    }
    // Write the parsed form: schema key order, every default spelled out, exactly what the loader will see.
    files.set(file, result.data);
  }
  return problems;
}

async function writeAtomically(outDir: string, files: Map<string, unknown>): Promise<void> {
  const parent = path.dirname(outDir);
  const tmp = path.join(parent, `.${path.basename(outDir)}.tmp-${process.pid}`);
  const old = path.join(parent, `.${path.basename(outDir)}.old-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  for (const dir of ['categories', 'products', 'articles', 'news', 'pages']) await mkdir(path.join(tmp, dir), { recursive: true });
  const sorted = [...files.keys()].sort();
  for (const file of sorted) await writeFile(path.join(tmp, file), JSON.stringify(files.get(file), null, 2) + '\n');
  if (existsSync(outDir)) await rename(outDir, old);
  await rename(tmp, outDir);
  // Deleting after the swap keeps data/ complete at every moment.
  await rm(old, { recursive: true, force: true });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const outIdx = args.indexOf('--out');
  const outDir = outIdx >= 0 ? path.resolve(args[outIdx + 1]) : path.join(root, 'data');
  const checkOnly = args.includes('--check');

  const built = build();
  const problems = validate(built.files);
  const report = verify(built.data, {
    expectedPages: Object.fromEntries(CATEGORY_ROWS.map((c) => [c.slug, c.pages])),
    expectedCounts: EXPECTED_COUNTS,
    declaredTwice: DECLARED_TWICE,
    articleAbout: built.about,
    articleType: built.types,
    emptyMetaProducts: built.emptyMeta,
  });
  problems.push(...report.problems);
  const d = built.data;
  process.stderr.write(
    [
      `generate-data: ${d.categories.length} categories, ${d.products.length} products, ${d.articles.length} articles (${INGREDIENTS.length} ingredients), ${d.news.length} news, ${Object.keys(d.pages).length} pages, ${d.routes.length} routes, ${built.files.size} files`,
      ...report.lines,
      '',
    ].join('\n'),
  );
  if (problems.length > 0) {
    process.stderr.write(`generate-data: ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
    return 1;
  }
  if (!checkOnly) {
    await writeAtomically(outDir, built.files);
    process.stderr.write(`generate-data: wrote ${built.files.size} files to ${path.relative(process.cwd(), outDir) || outDir}\n`);
  }
  return 0;
}

// Unused imports kept out of the build: categoryId and fit are re-exported for tests of the generator.
export { categoryId, fit };

process.exitCode = await main();
