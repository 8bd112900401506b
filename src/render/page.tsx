/**
 * renderRoute and friends: a route → view → head → screen template, inside
 * the Layout, as a whole HTML document. Pure functions of (model, route).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import type { RouteRecord } from '../load/schema.js';
import { About } from '../templates/About.js';
import { Article } from '../templates/Article.js';
import { Contact } from '../templates/Contact.js';
import { Home } from '../templates/Home.js';
import { KnowledgeList } from '../templates/KnowledgeList.js';
import { Footer } from '../templates/Footer.js';
import { Header } from '../templates/Header.js';
import { InquiryFormMarkup, type InquiryFormProps } from '../templates/InquiryFields.js';
import { SlotContext, formSlot, type SlotSink } from '../templates/slots.js';
import { Layout, SLOT } from '../templates/Layout.js';
import { NewsDetail } from '../templates/NewsDetail.js';
import { NewsList } from '../templates/NewsList.js';
import { ErrorFallback, NotFound } from '../templates/NotFound.js';
import { ProductDetail } from '../templates/ProductDetail.js';
import { ProductList } from '../templates/ProductList.js';
import { Search } from '../templates/Search.js';
import { SearchNotFound } from '../templates/SearchNotFound.js';
import { Thanks } from '../templates/Thanks.js';
import { computeHead, notFoundHead, type HeadData, type MetaField } from './head.js';
import type { SiteModel } from './model.js';
import { breadcrumbs, resolveView, type Crumb, type View } from './view.js';

const DOCTYPE = '<!doctype html>';

export interface RouteFacts {
  canonical: string;
  indexable: boolean;
  /** The page's own content date, YYYY-MM-DD. */
  lastmod: string;
  metaFallback: MetaField[];
}

/** Which main-navigation entry a screen belongs to. */
const SECTION: Record<View['screen'], string> = {
  home: 'home',
  products: 'products',
  category: 'products',
  product: 'products',
  knowledge: 'knowledge',
  article: 'knowledge',
  news: 'news',
  'news-detail': 'news',
  about: 'about',
  contact: 'contact',
  search: 'search',
  'search-not-found': 'search',
  thanks: 'contact',
};

/** The name of the template a screen uses, for build errors ("route, template, cause"). */
export const TEMPLATE_OF: Record<View['screen'], string> = {
  home: 'Home',
  products: 'ProductList',
  category: 'ProductList',
  product: 'ProductDetail',
  knowledge: 'KnowledgeList',
  article: 'Article',
  news: 'NewsList',
  'news-detail': 'NewsDetail',
  about: 'About',
  contact: 'Contact',
  search: 'Search',
  'search-not-found': 'SearchNotFound',
  thanks: 'Thanks',
};

/** Rendered header (per current section) and footer, per model: they repeat on every page. */
const chromeCache = new WeakMap<SiteModel, Map<string, string>>();

function chrome(model: SiteModel, key: string, render: () => string): string {
  let cache = chromeCache.get(model);
  if (!cache) chromeCache.set(model, (cache = new Map()));
  let html = cache.get(key);
  if (html === undefined) cache.set(key, (html = render()));
  return html;
}

/** Attribute escaping exactly as React 19 writes it, so a filled slot equals a direct render. */
const ATTR_ESCAPES: Record<string, string> = { '"': '&quot;', '&': '&amp;', "'": '&#x27;', '<': '&lt;', '>': '&gt;' };
export const escapeAttribute = (value: string): string => value.replace(/["&'<>]/g, (c) => ATTR_ESCAPES[c]);

// Markers stand in for the two per-page values while a form is rendered once; NUL never
// occurs in the form's own text, and React writes it through unescaped.
const PAGE_MARK = '\u0000page\u0000';
const PRODUCT_MARK = '\u0000product\u0000';

/** A form's HTML from the per-model cache, with this page's path and product filled in. */
function formHtml(model: SiteModel, props: InquiryFormProps): string {
  const { formId, action, type = 'quote', submitLabel = '', className = '' } = props;
  const template = chrome(model, `form:${formId}|${action}|${type}|${submitLabel}|${className}`, () =>
    renderToStaticMarkup(<InquiryFormMarkup {...props} page={PAGE_MARK} product={PRODUCT_MARK} />),
  );
  return template.split(PAGE_MARK).join(escapeAttribute(props.page)).split(PRODUCT_MARK).join(escapeAttribute(props.product ?? ''));
}

/**
 * A whole document as consecutive pieces, in order: their concatenation is
 * the page. `shared[i]` marks a piece that is the same string on many pages
 * (header, footer), so whoever reads every page (the build's link check) can
 * read such a piece once.
 */
export interface DocumentParts {
  parts: string[];
  shared: boolean[];
}

/**
 * The React output with its slots filled, in one pass and without copying:
 * the header slot, then the form slots in order, then the footer slot.
 */
function assemble(model: SiteModel, section: string, page: string, forms: readonly InquiryFormProps[]): DocumentParts {
  const header = chrome(model, `header:${section}`, () => renderToStaticMarkup(<Header model={model} section={section} />));
  const footer = chrome(model, 'footer', () => renderToStaticMarkup(<Footer model={model} />));
  // Slices, not String#replace: a `$'` in a category name must not be read as a replacement pattern.
  const h = page.indexOf(SLOT.header);
  const f = page.indexOf(SLOT.footer, h);
  if (h < 0 || f < 0) throw new Error('layout lost its header or footer slot');
  const parts = [DOCTYPE + page.slice(0, h), header];
  const shared = [false, true];
  let cursor = h + SLOT.header.length;
  forms.forEach((props, i) => {
    const slot = formSlot(i);
    const at = page.indexOf(slot, cursor);
    if (at < 0 || at > f) throw new Error(`form slot ${i} missing from the rendered page`);
    parts.push(page.slice(cursor, at), formHtml(model, props));
    shared.push(false, false);
    cursor = at + slot.length;
  });
  parts.push(page.slice(cursor, f), footer, page.slice(f + SLOT.footer.length));
  shared.push(false, true, false);
  return { parts, shared };
}

function Screen(props: { model: SiteModel; route: RouteRecord; view: View; head: HeadData; crumbs: Crumb[] }) {
  const { view } = props;
  // Each branch narrows the view to its own screen kind for its template.
  switch (view.screen) {
    case 'home':
      return <Home {...props} view={view} />;
    case 'products':
    case 'category':
      return <ProductList {...props} view={view} />;
    case 'product':
      return <ProductDetail {...props} view={view} />;
    case 'knowledge':
      return <KnowledgeList {...props} view={view} />;
    case 'article':
      return <Article {...props} view={view} />;
    case 'news':
      return <NewsList {...props} view={view} />;
    case 'news-detail':
      return <NewsDetail {...props} view={view} />;
    case 'about':
      return <About {...props} view={view} />;
    case 'contact':
      return <Contact {...props} view={view} />;
    case 'search':
      return <Search {...props} view={view} />;
    case 'search-not-found':
      return <SearchNotFound {...props} view={view} />;
    case 'thanks':
      return <Thanks {...props} view={view} />;
  }
}

const factsOf = (head: HeadData): RouteFacts => ({
  canonical: head.canonical,
  indexable: head.indexable,
  lastmod: head.lastmod,
  metaFallback: head.metaFallback,
});

/**
 * The facts of the route rendered last: the build asks for them right after
 * rendering the same route, and they are already computed.
 */
let lastFacts: { model: SiteModel; route: RouteRecord; facts: RouteFacts } | undefined;

/** The whole HTML document of a route, in pieces (see DocumentParts). Throws (with the route's path) when the route cannot be bound. */
export function renderRouteParts(model: SiteModel, route: RouteRecord): DocumentParts {
  const view = resolveView(model, route);
  const crumbs = breadcrumbs(model, route, view);
  const head = computeHead(model, route, view, crumbs);
  lastFacts = { model, route, facts: factsOf(head) };
  const sink: SlotSink = { forms: [] };
  const page = renderToStaticMarkup(
    <SlotContext.Provider value={sink}>
      <Layout model={model} head={head} screen={route.screen}>
        <Screen model={model} route={route} view={view} head={head} crumbs={crumbs} />
      </Layout>
    </SlotContext.Provider>,
  );
  return assemble(model, SECTION[view.screen], page, sink.forms);
}

/** The whole HTML document of a route. Throws (with the route's path) when the route cannot be bound. */
export function renderRoute(model: SiteModel, route: RouteRecord): string {
  return renderRouteParts(model, route).parts.join('');
}

/** What the sitemap and the build report need to know about a route, without rendering it. */
export function routeFacts(model: SiteModel, route: RouteRecord): RouteFacts {
  if (lastFacts && lastFacts.model === model && lastFacts.route === route) return { ...lastFacts.facts, metaFallback: [...lastFacts.facts.metaFallback] };
  const view = resolveView(model, route);
  return factsOf(computeHead(model, route, view, breadcrumbs(model, route, view)));
}

/** dist/404.html. */
export function render404(model: SiteModel): string {
  const page = renderToStaticMarkup(
    <Layout model={model} head={notFoundHead(model)} screen="not-found">
      <NotFound model={model} />
    </Layout>,
  );
  return assemble(model, '', page, []).parts.join('');
}

/** The minimal 404 written when render404 itself failed. */
export function renderErrorFallback(): string {
  return DOCTYPE + renderToStaticMarkup(<ErrorFallback />);
}
