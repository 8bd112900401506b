/**
 * renderRoute and friends: a route → view → head → screen template, inside
 * the Layout, as a whole HTML document. Pure functions of (model, route).
 */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { RouteRecord } from '../core/schema.js';
import { About } from '../templates/About.js';
import { Article } from '../templates/Article.js';
import { Contact } from '../templates/Contact.js';
import { Home } from '../templates/Home.js';
import { KnowledgeList } from '../templates/KnowledgeList.js';
import { Footer } from '../templates/Footer.js';
import { Header } from '../templates/Header.js';
import { Layout, PageTop } from '../templates/Layout.js';
import { NewsDetail } from '../templates/NewsDetail.js';
import { NewsList } from '../templates/NewsList.js';
import { ERROR_PAGE_DEFAULTS, ErrorFallback, ErrorPage, NotFound } from '../templates/NotFound.js';
import { ProductDetail } from '../templates/ProductDetail.js';
import { ProductList } from '../templates/ProductList.js';
import { Search } from '../templates/Search.js';
import { SearchNotFound } from '../templates/SearchNotFound.js';
import { Thanks } from '../templates/Thanks.js';
import { detached } from '../core/strings.js';
import { canonicalPath, computeHead, errorHead, notFoundHead, type HeadData, type MetaField } from '../model/head.js';
import type { SiteModel } from '../model/model.js';
import { noteRead, unrecorded } from '../model/reads.js';
import { breadcrumbs, resolveView, type Crumb, type View } from '../model/view.js';
import { extended } from '../core/objects.js';

const DOCTYPE = '<!doctype html>';

export interface RouteFacts {
  canonical: string;
  /**
   * Whether a search engine would index this URL: not noindex, and canonical
   * to itself (`/x/page-1` beside `/x` is not), as the audit judges it.
   */
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

/**
 * Header and footer are the same on thousands of pages: each is rendered
 * once per site model and key (the header per main-navigation section, the
 * footer once) and put where its placeholder stands in the page. Their HTML
 * depends on nothing but the model and the key, so a cached one is the one
 * React would render. Content cannot forge a placeholder: React escapes
 * every `<` in text and attributes, and JSON-LD writes it as \u003c.
 */
const HEADER_PLACEHOLDER = <template data-slot="header"></template>;
const FOOTER_PLACEHOLDER = <template data-slot="footer"></template>;
/** What React writes for each placeholder: what assemble looks for. */
const PLACEHOLDER = { header: renderToStaticMarkup(HEADER_PLACEHOLDER), footer: renderToStaticMarkup(FOOTER_PLACEHOLDER) };

const chromeCache = new WeakMap<SiteModel, Map<string, string>>();

/**
 * A page reads its header or footer as one thing, named `chrome\0<key>`
 * (see model/reads.ts): what the piece itself reads is not the page's, and
 * the build compares the piece's HTML instead (chromePiece).
 */
function chrome(model: SiteModel, key: string, render: () => string): string {
  noteRead(`chrome\0${key}`);
  let cache = chromeCache.get(model);
  if (!cache) chromeCache.set(model, (cache = new Map()));
  let html = cache.get(key);
  // Flat: React's output is a rope of thousands of small chunks, and every page would walk it again.
  if (html === undefined) cache.set(key, (html = detached(unrecorded(render))));
  return html;
}

const headerOf = (model: SiteModel, section: string): string =>
  chrome(model, `header:${section}`, () =>
    renderToStaticMarkup(
      <>
        <PageTop />
        <Header model={model} section={section} />
      </>,
    ),
  );

const footerOf = (model: SiteModel): string => chrome(model, 'footer', () => renderToStaticMarkup(<Footer model={model} />));

/** The HTML of the piece a page's read `chrome\0<key>` names (see chrome); undefined for any other name. */
export function chromePiece(model: SiteModel, name: string): string | undefined {
  if (name === 'chrome\0footer') return footerOf(model);
  if (name.startsWith('chrome\0header:')) return headerOf(model, name.slice('chrome\0header:'.length));
  return undefined;
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

/** The React output with the header and footer put in their placeholders, without copying the page. */
function assemble(model: SiteModel, section: string, page: string): DocumentParts {
  const header = headerOf(model, section);
  const footer = footerOf(model);
  // Slices, not String#replace: a `$'` in a category name must not be read as a replacement pattern.
  const h = page.indexOf(PLACEHOLDER.header);
  const f = page.indexOf(PLACEHOLDER.footer, h);
  if (h < 0 || f < 0) throw new Error('layout lost its header or footer placeholder');
  return {
    parts: [DOCTYPE + page.slice(0, h), header, page.slice(h + PLACEHOLDER.header.length, f), footer, page.slice(f + PLACEHOLDER.footer.length)],
    shared: [false, true, false, true, false],
  };
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

const factsOf = (model: SiteModel, route: RouteRecord, head: HeadData): RouteFacts => ({
  canonical: head.canonical,
  indexable: head.indexable && canonicalPath(model, route) === route.path,
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
  lastFacts = { model, route, facts: factsOf(model, route, head) };
  const page = renderToStaticMarkup(
    <Layout model={model} head={head} screen={route.screen} header={HEADER_PLACEHOLDER} footer={FOOTER_PLACEHOLDER}>
      <Screen model={model} route={route} view={view} head={head} crumbs={crumbs} />
    </Layout>,
  );
  return assemble(model, SECTION[view.screen], page);
}

/** The whole HTML document of a route. Throws (with the route's path) when the route cannot be bound. */
export function renderRoute(model: SiteModel, route: RouteRecord): string {
  return renderRouteParts(model, route).parts.join('');
}

/** What the sitemap and the build report need to know about a route, without rendering it. */
export function routeFacts(model: SiteModel, route: RouteRecord): RouteFacts {
  if (lastFacts && lastFacts.model === model && lastFacts.route === route)
    return extended(lastFacts.facts, { metaFallback: [...lastFacts.facts.metaFallback] });
  const view = resolveView(model, route);
  return factsOf(model, route, computeHead(model, route, view, breadcrumbs(model, route, view)));
}

/** An error page: the site's layout around it, no route of its own. */
function renderErrorDocument(model: SiteModel, head: HeadData, screen: string, body: ReactNode): string {
  const page = renderToStaticMarkup(
    <Layout model={model} head={head} screen={screen} header={HEADER_PLACEHOLDER} footer={FOOTER_PLACEHOLDER}>
      {body}
    </Layout>,
  );
  return assemble(model, '', page).parts.join('');
}

/** dist/404.html. */
export function render404(model: SiteModel): string {
  return renderErrorDocument(model, notFoundHead(model), 'not-found', <NotFound model={model} />);
}

/** dist/500.html: the error page of any other failure, with the spec's default status and message. */
export function render500(model: SiteModel): string {
  const head = errorHead(model, ERROR_PAGE_DEFAULTS.message, 'This page could not be shown because of an error on our side.');
  return renderErrorDocument(model, head, 'error', <ErrorPage model={model} />);
}

/** The minimal error page written when render404 or render500 itself failed. */
export function renderErrorFallback(): string {
  return DOCTYPE + renderToStaticMarkup(<ErrorFallback />);
}
