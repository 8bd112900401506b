/**
 * The generator's self-check: the numbers the spec fixes, the references
 * between files, text length and similarity. Returns problems rather than
 * throwing so that one run reports all of them.
 */
import type { Article, Block, Category, NewsItem, Page, Product, RouteRecord, SiteConfig } from '../../src/core/schema.js';
import { blocksText } from '../../src/core/search-text.js';
import { jaccard, shingles, wordCount } from './util.js';

export interface Dataset {
  site: SiteConfig;
  categories: Category[];
  products: Product[];
  articles: Article[];
  news: NewsItem[];
  pages: Record<string, Page>;
  routes: RouteRecord[];
}

export interface VerifyOptions {
  /** Category slug → expected list pages (spec section 2); 0 = bare only. */
  expectedPages: Record<string, number>;
  expectedCounts: Record<string, number>;
  declaredTwice: Set<string>;
  /** Ingredient keys per article id, for the same-ingredient similarity check. */
  articleAbout: Map<string, string[]>;
  articleType: Map<string, string>;
  emptyMetaProducts: Set<string>;
}

export interface Report {
  problems: string[];
  lines: string[];
}

const SAFE_SEGMENT = /^[A-Za-z0-9-]+$/;

export function listMembers(categories: Category[], products: Product[]): Map<string, Product[]> {
  const out = new Map<string, Product[]>(categories.map((c) => [c.id, []]));
  for (const c of categories) {
    out.set(c.id, c.all ? [...products] : products.filter((p) => p.category === c.id || p.listedIn.includes(c.id)));
  }
  return out;
}

export function verify(d: Dataset, o: VerifyOptions): Report {
  const problems: string[] = [];
  const lines: string[] = [];
  const per = d.site.itemsPerPage;

  // Counts per category and pages per list.
  const members = listMembers(d.categories, d.products);
  const bySlug = new Map(d.categories.map((c) => [c.slug, c]));
  for (const [slug, expected] of Object.entries(o.expectedCounts)) {
    const c = bySlug.get(slug)!;
    const own = d.products.filter((p) => p.category === c.id).length;
    if (own !== expected) problems.push(`category ${slug}: ${own} own products, expected ${expected}`);
  }
  for (const c of d.categories) {
    const n = members.get(c.id)!.length;
    const pages = Math.ceil(n / per.products);
    const expected = o.expectedPages[c.slug];
    const routePages = d.routes.filter((r) => r.nodeid === c.id && r.page !== undefined).map((r) => r.page!);
    lines.push(`  ${c.path.padEnd(30)} ${String(n).padStart(4)} listed  ${String(pages).padStart(3)} pages (spec ${expected})`);
    if (pages !== expected) problems.push(`category ${c.slug}: ${n} listed items make ${pages} pages, spec says ${expected}`);
    if (routePages.length !== expected || routePages.some((pg, i) => pg !== i + 1))
      problems.push(`category ${c.slug}: page routes ${routePages.join(',')} are not 1..${expected}`);
  }
  const kPages = Math.ceil(d.articles.length / per.articles);
  lines.push(`  /knowledge                     ${String(d.articles.length).padStart(4)} articles ${String(kPages).padStart(3)} pages (spec 72)`);
  if (kPages !== 72) problems.push(`knowledge: ${d.articles.length} articles make ${kPages} pages, spec says 72`);
  if (Math.ceil(d.news.length / per.news) !== 1) problems.push('news: expected one list page');
  if (d.news.length !== 7) problems.push(`news: ${d.news.length} items, spec says 7`);

  // Unique ids and slugs.
  const uniq = (what: string, values: string[]) => {
    const seen = new Set<string>();
    for (const v of values) {
      if (seen.has(v)) problems.push(`${what} "${v}" is not unique`);
      seen.add(v);
    }
  };
  uniq(
    'category colour',
    d.categories.map((c) => c.color.toLowerCase()),
  );
  uniq(
    'product slug',
    d.products.map((p) => p.slug),
  );
  uniq(
    'article slug',
    d.articles.map((a) => a.slug),
  );
  uniq(
    'article headline',
    d.articles.map((a) => a.headline),
  );
  uniq(
    'news slug',
    d.news.map((n) => n.slug),
  );
  uniq('node id', [
    ...d.categories.map((c) => c.id),
    ...d.products.map((p) => p.id),
    ...d.articles.map((a) => a.id),
    ...d.news.map((n) => n.id),
    ...Object.values(d.pages).map((p) => p.id),
    ...d.site.categoryGroups.map((g) => g.id),
  ]);
  for (const slug of [...d.products.map((p) => p.slug), ...d.articles.map((a) => a.slug), ...d.news.map((n) => n.slug)]) {
    if (!SAFE_SEGMENT.test(slug)) problems.push(`slug "${slug}" has characters outside [A-Za-z0-9-]`);
  }

  // Routes: unique paths except the spec's identical duplicates; every node id bound.
  const byPath = new Map<string, RouteRecord[]>();
  for (const r of d.routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  let dupes = 0;
  for (const [path, rs] of byPath) {
    if (rs.length === 1) continue;
    dupes++;
    const slug = path.split('/').pop()!;
    if (!o.declaredTwice.has(slug) || rs.length !== 2) problems.push(`route ${path} declared ${rs.length} times`);
    if (rs.some((r) => JSON.stringify(r) !== JSON.stringify(rs[0]))) problems.push(`route ${path}: duplicate declarations differ`);
  }
  const ids = new Set([
    ...d.categories.map((c) => c.id),
    ...d.products.map((p) => p.id),
    ...d.articles.map((a) => a.id),
    ...d.news.map((n) => n.id),
    ...Object.values(d.pages).map((p) => p.id),
  ]);
  for (const r of d.routes) {
    if (!ids.has(r.nodeid)) problems.push(`route ${r.path}: nodeid ${r.nodeid} names no content`);
    if (r.type !== r.nodeid) problems.push(`route ${r.path}: type differs from nodeid`);
    if (
      r.path
        .split('/')
        .slice(1)
        .some((s) => s !== '' && !SAFE_SEGMENT.test(s))
    )
      problems.push(`route ${r.path}: unsafe path segment`);
  }
  const detailCount = (id: string) =>
    d.routes.filter((r) => r.nodeid === id && (r.screen === 'product' || r.screen === 'article' || r.screen === 'news-detail')).length;
  for (const p of d.products) {
    const n = detailCount(p.id);
    if (n !== (o.declaredTwice.has(p.slug) ? 2 : 1)) problems.push(`product ${p.slug}: ${n} detail routes`);
  }
  for (const a of d.articles) if (detailCount(a.id) !== 1) problems.push(`article ${a.slug}: detail route missing or repeated`);
  for (const n of d.news) if (detailCount(n.id) !== 1) problems.push(`news ${n.slug}: detail route missing or repeated`);

  // References.
  const productIds = new Set(d.products.map((p) => p.id));
  const articleIds = new Set(d.articles.map((a) => a.id));
  const categoryIds = new Set(d.categories.map((c) => c.id));
  const parents = new Set([...categoryIds, ...d.site.categoryGroups.map((g) => g.id)]);
  for (const c of d.categories) if (c.parentId !== null && !parents.has(c.parentId)) problems.push(`category ${c.slug}: unknown parentId`);
  for (const p of d.products) {
    if (!categoryIds.has(p.category)) problems.push(`product ${p.slug}: unknown category`);
    for (const id of p.listedIn) if (!categoryIds.has(id)) problems.push(`product ${p.slug}: unknown listedIn ${id}`);
    for (const id of p.relatedProducts) if (!productIds.has(id) || id === p.id) problems.push(`product ${p.slug}: bad related product ${id}`);
    for (const id of p.relatedArticles) if (!articleIds.has(id)) problems.push(`product ${p.slug}: unknown related article ${id}`);
  }
  for (const a of d.articles) for (const id of a.relatedProducts) if (!productIds.has(id)) problems.push(`article ${a.slug}: unknown related product ${id}`);
  for (const pg of Object.values(d.pages)) {
    for (const id of pg.featuredCategories) if (!categoryIds.has(id)) problems.push(`page ${pg.kind}: unknown featured category`);
    for (const id of pg.featuredProducts) if (!productIds.has(id)) problems.push(`page ${pg.kind}: unknown featured product`);
    for (const b of pg.banners) if (!byPath.has(b.link)) problems.push(`page ${pg.kind}: banner link ${b.link} is not a route`);
  }

  // Text length.
  const minWords = (what: string, text: string, min: number) => {
    const n = wordCount(text);
    if (n < min) problems.push(`${what}: ${n} words, expected at least ${min}`);
    return n;
  };
  const pw = d.products.map((p) => minWords(`product ${p.slug}`, blocksText(p.description), 200));
  const aw = d.articles.map((a) => minWords(`article ${a.slug}`, blocksText(a.body), 250));
  d.news.forEach((n) => minWords(`news ${n.slug}`, blocksText(n.body), 200));
  minWords('page about-us', blocksText(d.pages['about-us'].body), 250);
  lines.push(`  words: products min ${Math.min(...pw)} median ${median(pw)}, articles min ${Math.min(...aw)} median ${median(aw)}`);

  // Meta lengths where we write them.
  let longTitles = 0;
  for (const r of d.routes) {
    const { title, description } = r.meta;
    if (title === '' && description === '') continue;
    if (r.screen === 'article') {
      if (title.length > 60 || title.length < 30) longTitles++;
      continue;
    }
    if (title.length < 30 || title.length > 60) problems.push(`route ${r.path}: title "${title}" has ${title.length} characters, expected 30-60`);
    if (description.length < 70 || description.length > 155)
      problems.push(`route ${r.path}: description has ${description.length} characters, expected 70-155`);
  }
  const suffix = ` - ${d.site.brand}`;
  for (const r of d.routes) {
    if ((r.screen === 'product' || r.screen === 'article' || r.screen === 'news-detail') && r.meta.title !== '' && !r.meta.title.endsWith(suffix))
      problems.push(`route ${r.path}: title lacks the brand suffix`);
  }
  // Distinct routes (the spec's duplicates aside) must not share a title or description.
  for (const field of ['title', 'description'] as const) {
    const seen = new Map<string, RouteRecord>();
    for (const r of d.routes) {
      const v = r.meta[field];
      if (v === '') continue;
      const other = seen.get(v);
      // The same node on two paths (/news and /news/page-1) is one page to a crawler after canonicalisation.
      if (other !== undefined && other.nodeid !== r.nodeid) problems.push(`routes ${other.path} and ${r.path} share the meta ${field} "${v}"`);
      seen.set(v, r);
    }
  }
  // Inline links in content must lead to declared routes (the build's link check would fail otherwise).
  const hrefs: Array<[string, string]> = [];
  const collect = (where: string, blocks: readonly Block[]) => {
    for (const b of blocks) {
      const parts = b.type === 'paragraph' ? [b.text] : b.type === 'list' ? b.items : [];
      for (const part of parts) if (Array.isArray(part)) for (const x of part) if (typeof x !== 'string') hrefs.push([where, x.href]);
    }
  };
  d.articles.forEach((a) => collect(`article ${a.slug}`, a.body));
  d.news.forEach((n) => collect(`news ${n.slug}`, n.body));
  d.products.forEach((p) => collect(`product ${p.slug}`, p.description));
  Object.values(d.pages).forEach((pg) => collect(`page ${pg.kind}`, pg.body));
  for (const [where, href] of hrefs) if (!byPath.has(href)) problems.push(`${where}: link ${href} is not a route`);
  lines.push(`  inline links ${hrefs.length}, all to declared routes`);
  const emptyMeta = d.routes.filter((r) => r.meta.title === '').length;
  lines.push(`  routes ${d.routes.length} (${dupes} paths declared twice), empty meta ${emptyMeta}, article titles outside 30-60 chars ${longTitles}`);

  // Similarity.
  const pSh = d.products.map((p) => shingles(blocksText(p.description)));
  let pMax = 0;
  let pPair = '';
  for (let i = 0; i < pSh.length; i++) {
    for (let j = i + 1; j < pSh.length; j++) {
      const s = jaccard(pSh[i], pSh[j]);
      if (s > pMax) [pMax, pPair] = [s, `${d.products[i].slug} / ${d.products[j].slug}`];
    }
  }
  if (pMax >= 0.6) problems.push(`products ${pPair} are ${(pMax * 100).toFixed(0)}% similar (5-word shingles), expected < 60%`);
  const aSh = new Map(d.articles.map((a) => [a.id, shingles(blocksText(a.body))]));
  let sameMax = 0;
  let samePair = '';
  let typeMax = 0;
  let typePair = '';
  for (let i = 0; i < d.articles.length; i++) {
    const a = d.articles[i];
    const aboutA = o.articleAbout.get(a.id) ?? [];
    for (let j = i + 1; j < d.articles.length; j++) {
      const b = d.articles[j];
      const shared = (o.articleAbout.get(b.id) ?? []).some((k) => aboutA.includes(k));
      const sameType = o.articleType.get(a.id) === o.articleType.get(b.id);
      if (!shared && !sameType) continue;
      const s = jaccard(aSh.get(a.id)!, aSh.get(b.id)!);
      if (shared && s > sameMax) [sameMax, samePair] = [s, `${a.slug} / ${b.slug}`];
      if (!shared && s > typeMax) [typeMax, typePair] = [s, `${a.slug} / ${b.slug}`];
    }
  }
  if (sameMax >= 0.6) problems.push(`articles ${samePair} are ${(sameMax * 100).toFixed(0)}% similar, expected < 60% for the same ingredient`);
  if (typeMax >= 0.9) problems.push(`articles ${typePair} are ${(typeMax * 100).toFixed(0)}% similar, expected < 90%`);
  lines.push(`  similarity (Jaccard, 5-word shingles): products max ${pMax.toFixed(3)} (${pPair})`);
  lines.push(`    articles, same ingredient max ${sameMax.toFixed(3)} (${samePair})`);
  lines.push(`    articles, same type across ingredients max ${typeMax.toFixed(3)} (${typePair})`);

  // Dates: content dates, not all identical.
  const dates = new Set([
    ...d.products.map((p) => p.updated),
    ...d.articles.map((a) => a.date),
    ...d.news.map((n) => n.date),
    ...Object.values(d.pages).map((p) => p.updated),
  ]);
  if (dates.size < 100) problems.push(`only ${dates.size} distinct content dates`);
  const years = d.articles.map((a) => Number(a.date.slice(0, 4)));
  if (Math.min(...years) !== 2019 || Math.max(...years) !== 2025) problems.push('article dates should span 2019-2025');
  return { problems, lines };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export type { Block };
