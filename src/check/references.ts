/**
 * Rules about the content files themselves: ids that must be unique, ids that
 * must exist, and links in content that must be safe and lead somewhere.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { pointer } from '../core/diagnostics.js';
import { ERROR_PAGE_PATTERN } from '../core/error-pages.js';
import type { Block } from '../core/schema.js';
import { blockLinks } from '../load/lean.js';
import { FILE_SLUG_EXPECTED, isFileSlug } from '../core/images.js';
import type { CheckCode } from '../core/codes.js';
import { judgeContentUrl } from '../core/content-url.js';
import { diagnostic, type CheckContext } from './context.js';

export function checkReferences(ctx: CheckContext): Diagnostic[] {
  return [...checkUniqueness(ctx), ...checkIds(ctx), ...checkCategoryTree(ctx), ...checkLinks(ctx)];
}

/** Two entities of a kind with one id (or two products with one slug) make routes and artwork ambiguous. */
function checkUniqueness(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { catalogue } = ctx;
  const unique = (code: CheckCode, kind: string, items: ReadonlyArray<Record<string, unknown>>, field: string, why: string) => {
    const first = new Map<unknown, object>();
    for (const item of items) {
      const value = item[field];
      const prior = first.get(value);
      if (prior) {
        out.push(diagnostic(code, ctx.fileOf(item), `/${field}`, `This ${kind} has the same ${field} "${String(value)}" as ${ctx.fileOf(prior)}; ${why}`));
      } else first.set(value, item);
    }
  };
  unique('check/duplicate-id', 'category', catalogue.categories, 'id', 'give each category its own node id.');
  unique('check/duplicate-category-path', 'category', catalogue.categories, 'path', 'give each category its own path.');
  unique('check/duplicate-id', 'product', catalogue.products, 'id', 'give each product its own node id.');
  for (const p of catalogue.products) {
    if (!isFileSlug(p.slug)) {
      out.push(
        diagnostic(
          'check/unsafe-slug',
          ctx.fileOf(p),
          '/slug',
          `The slug "${p.slug}" names this product's artwork file, /images/products/<slug>.svg, and cannot: expected ${FILE_SLUG_EXPECTED}.`,
        ),
      );
    }
  }
  unique(
    'check/duplicate-slug',
    'product',
    catalogue.products,
    'slug',
    'product slugs name the product artwork (/images/products/<slug>.svg) and must be unique.',
  );
  unique('check/duplicate-id', 'article', catalogue.articles, 'id', 'give each article its own node id.');
  unique('check/duplicate-id', 'news item', catalogue.news, 'id', 'give each news item its own node id.');
  unique('check/duplicate-id', 'page', catalogue.pages, 'id', 'give each page its own node id.');
  unique('check/duplicate-page-kind', 'page', catalogue.pages, 'kind', 'each kind of page exists once.');

  const all = catalogue.categories.filter((c) => c.all);
  for (const c of all.slice(1)) {
    out.push(
      diagnostic(
        'check/multiple-all-categories',
        ctx.fileOf(c),
        '/all',
        `Only one category lists all products, and ${ctx.fileOf(all[0])} already does; remove "all" here.`,
      ),
    );
  }
  return out;
}

/** Ids that point at other entities must name one that exists. */
function checkIds(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const missing = (file: string, ptr: string, what: string, id: string, where: string) =>
    out.push(diagnostic('check/unknown-reference', file, ptr, `${what} "${id}" does not exist in ${where}; correct the id or remove it.`));
  const cat = (id: string) => ctx.categories.has(id);

  for (const p of ctx.catalogue.products) {
    const file = ctx.fileOf(p);
    if (!cat(p.category)) missing(file, '/category', 'Category', p.category, 'data/categories');
    else if (ctx.categories.get(p.category)!.all) {
      out.push(
        diagnostic(
          'check/unknown-reference',
          file,
          '/category',
          `Product "${p.name}" belongs to the all-products category, which lists every product anyway; choose its real category.`,
        ),
      );
    }
    p.listedIn.forEach((id, i) => cat(id) || missing(file, pointer('listedIn', i), 'Listed-in category', id, 'data/categories'));
    p.relatedProducts.forEach((id, i) => ctx.products.has(id) || missing(file, pointer('relatedProducts', i), 'Related product', id, 'data/products'));
    p.relatedArticles.forEach((id, i) => ctx.articles.has(id) || missing(file, pointer('relatedArticles', i), 'Related article', id, 'data/articles'));
  }
  for (const a of ctx.catalogue.articles) {
    a.relatedProducts.forEach((id, i) => ctx.products.has(id) || missing(ctx.fileOf(a), pointer('relatedProducts', i), 'Related product', id, 'data/products'));
  }
  for (const pg of ctx.catalogue.pages) {
    pg.featuredCategories.forEach((id, i) => cat(id) || missing(ctx.fileOf(pg), pointer('featuredCategories', i), 'Featured category', id, 'data/categories'));
    pg.featuredProducts.forEach(
      (id, i) => ctx.products.has(id) || missing(ctx.fileOf(pg), pointer('featuredProducts', i), 'Featured product', id, 'data/products'),
    );
  }
  return out;
}

/** parentId names a category or a shared parent id of site.json, and parents never loop. */
function checkCategoryTree(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const groups = new Set(ctx.catalogue.site.categoryGroups.map((g) => g.id));
  for (const c of ctx.catalogue.categories) {
    if (c.parentId === null) continue;
    if (!ctx.categories.has(c.parentId) && !groups.has(c.parentId)) {
      out.push(
        diagnostic(
          'check/unknown-reference',
          ctx.fileOf(c),
          '/parentId',
          `Parent "${c.parentId}" is neither a category nor a shared parent id in ${ctx.siteFile} (categoryGroups); correct it or use null.`,
        ),
      );
      continue;
    }
    const seen = new Set<string>([c.id]);
    for (let p = ctx.categories.get(c.parentId); p && p.parentId !== null; p = ctx.categories.get(p.parentId)) {
      if (seen.has(p.parentId)) {
        out.push(diagnostic('check/category-cycle', ctx.fileOf(c), '/parentId', `Category "${c.name}" is its own ancestor through parentId; break the loop.`));
        break;
      }
      seen.add(p.id);
    }
  }
  return out;
}

/** Files the build writes besides routes; content may link to them. */
const BUILT_FILES = new RegExp(`^\\/(images\\/|assets\\/|sitemap\\.xml$|robots\\.txt$|(?:${ERROR_PAGE_PATTERN})$)`);

/**
 * Links written in content: only http(s), mailto, tel or site-relative, judged
 * as browsers read them and as the renderer does (src/core/content-url.ts),
 * and a site-relative link must lead to a declared route.
 */
function checkLinks(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { catalogue } = ctx;
  const routes = new Set([...ctx.byPath.keys()].map((p) => normalize(p)));
  const check = (file: string, ptr: string, href: string) => {
    const judged = judgeContentUrl(href);
    if (!judged.ok) {
      const code = judged.problem === 'invalid' ? 'check/invalid-link' : 'check/unsafe-link';
      out.push(
        diagnostic(
          code,
          file,
          ptr,
          `Link ${shownUrl(href)} ${judged.why}; the page would show its text without a link. Use https:, mailto:, tel: or a path on this site.`,
        ),
      );
      return;
    }
    const h = judged.url;
    if (h.startsWith('/')) {
      const path = normalize(h.replace(/[?#].*$/, ''));
      if (!routes.has(path) && !BUILT_FILES.test(path))
        out.push(diagnostic('check/broken-link', file, ptr, `Link "${h}" leads to no route of this site; correct the path or remove the link.`));
    }
  };
  // A lean catalogue (see load/lean.ts) kept the links of each body it dropped.
  const blocks = (entity: object, file: string, base: string, list: readonly Block[]) => {
    for (const [ptr, href] of catalogue.bodies?.get(entity)?.links ?? blockLinks(list, base)) check(file, ptr, href);
  };

  for (const p of catalogue.products) blocks(p, ctx.fileOf(p), '/description', p.description);
  for (const a of catalogue.articles) blocks(a, ctx.fileOf(a), '/body', a.body);
  for (const n of catalogue.news) blocks(n, ctx.fileOf(n), '/body', n.body);
  for (const pg of catalogue.pages) {
    blocks(pg, ctx.fileOf(pg), '/body', pg.body);
    pg.banners.forEach((b, i) => check(ctx.fileOf(pg), pointer('banners', i, 'link'), b.link));
  }
  return out;
}

/** A URL from content as a message quotes it: at most 80 characters, in quotes, control characters escaped ("java\\tscript:"), so a message never carries them raw. */
export function shownUrl(url: string): string {
  return JSON.stringify(url.trim().slice(0, 80)).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function normalize(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
