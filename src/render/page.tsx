/**
 * renderRoute and friends: a route → view → head → screen template, inside
 * the Layout, as a whole HTML document. Pure functions of (model, route).
 */
import { randomBytes } from 'node:crypto';
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
import { type PieceRef, SlotContext, type SlotSink } from '../templates/slots.js';
import { Layout, PageTop, SLOT } from '../templates/Layout.js';
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
import { breadcrumbs, resolveView, type Crumb, type View } from '../model/view.js';

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


/** Rendered header (per current section, with PageTop) and footer, per model: they repeat on every page. */
const chromeCache = new WeakMap<SiteModel, Map<string, string>>();

function chrome(model: SiteModel, key: string, render: () => string): string {
  let cache = chromeCache.get(model);
  if (!cache) chromeCache.set(model, (cache = new Map()));
  let html = cache.get(key);
  // Flat: React's output is a rope of thousands of small chunks, and every page would walk it again.
  if (html === undefined) cache.set(key, (html = detached(render())));
  return html;
}

/** Attribute escaping exactly as React 19 writes it, so a filled slot equals a direct render. */
const ATTR_ESCAPES: Record<string, string> = { '"': '&quot;', '&': '&amp;', "'": '&#x27;', '<': '&lt;', '>': '&gt;' };
const NEEDS_ESCAPE = /["&'<>]/;
export const escapeAttribute = (value: string): string => (NEEDS_ESCAPE.test(value) ? value.replace(/["&'<>]/g, (c) => ATTR_ESCAPES[c]) : value);

/** A repeated piece's HTML split at its markers: `literals[k]`, then `values[slots[k]]`, …, then the last literal. */
interface Template {
  literals: string[];
  slots: number[];
}

/** The templates of repeated pieces (slots.tsx), per model. */
interface PieceCache {
  /** Makes markers that content cannot spell. */
  nonce: string;
  templates: Map<string, Template>;
}

/**
 * Bounded: a 100,000-page catalogue must not keep every card of every
 * product here. The shipped catalogue needs about 2,300 (under 4 MB); past the
 * bound the cache starts again, and pieces are taken from pages anew.
 */
const MAX_TEMPLATES = 5_000;
const pieceCaches = new WeakMap<SiteModel, PieceCache>();

function pieceCache(model: SiteModel): PieceCache {
  let cache = pieceCaches.get(model);
  if (!cache) pieceCaches.set(model, (cache = { nonce: randomBytes(9).toString('base64url'), templates: new Map() }));
  return cache;
}

const markerOf = (nonce: string, j: number): string => `\u0000${nonce}:${j}\u0000`;
const slotOf = (nonce: string, index: number, close = false): string => `\u0000${nonce}#${close ? '/' : ''}${index}\u0000`;

/**
 * A template from a piece rendered in place with markers. The HTML is
 * copied once: a slice would keep the whole page it came from alive in the cache.
 */
function parseTemplate(piece: string, nonce: string, values: number): Template {
  const html = detached(piece);
  const open = `\u0000${nonce}:`;
  const literals: string[] = [];
  const slots: number[] = [];
  let cursor = 0;
  for (let at = html.indexOf(open); at >= 0; at = html.indexOf(open, cursor)) {
    const end = html.indexOf('\u0000', at + open.length);
    const j = Number(html.slice(at + open.length, end));
    if (end < 0 || !(j >= 0 && j < values)) throw new Error(`a repeated piece holds a marker it has no value for: ${JSON.stringify(html.slice(at, at + 40))}`);
    literals.push(html.slice(cursor, at));
    slots.push(j);
    cursor = end + 1;
  }
  literals.push(html.slice(cursor));
  return { literals, slots };
}

function fill(template: Template, values: readonly string[]): string {
  const { literals, slots } = template;
  if (slots.length === 0) return literals[0];
  // A value may stand at several markers (the head prints its title three times): escaped once.
  const escaped = values.map(escapeAttribute);
  let html = literals[0];
  for (let k = 0; k < slots.length; k++) html += escaped[slots[k]] + literals[k + 1];
  return html;
}

/** A piece of <head> rendered in a <head> of its own, without that head's tags. */
function renderAlone(piece: ReactNode): string {
  const html = renderToStaticMarkup(<head>{piece}</head>);
  if (!html.startsWith('<head>') || !html.endsWith('</head>')) throw new Error(`a piece of <head> rendered as ${JSON.stringify(html.slice(0, 40))}`);
  return html.slice('<head>'.length, -'</head>'.length);
}

function sinkFor(cache: PieceCache): SlotSink {
  if (cache.templates.size >= MAX_TEMPLATES) cache.templates.clear();
  return {
    pieces: [],
    has: (key) => cache.templates.has(key),
    marker: (j) => markerOf(cache.nonce, j),
    slot: (index, close) => slotOf(cache.nonce, index, close),
  };
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
 * the repeated pieces in order (taking the template of each piece rendered
 * in place, rendering each new piece of <head> on its own), the header slot
 * where it stands among them, then the footer slot.
 */
function assemble(model: SiteModel, section: string, page: string, pieces: readonly PieceRef[]): DocumentParts {
  const header = chrome(model, `header:${section}`, () =>
    renderToStaticMarkup(
      <>
        <PageTop />
        <Header model={model} section={section} />
      </>,
    ),
  );
  const footer = chrome(model, 'footer', () => renderToStaticMarkup(<Footer model={model} />));
  // Slices, not String#replace: a `$'` in a category name must not be read as a replacement pattern.
  const h = page.indexOf(SLOT.header);
  const f = page.indexOf(SLOT.footer, h);
  if (h < 0 || f < 0) throw new Error('layout lost its header or footer slot');
  const parts: string[] = [];
  const shared: boolean[] = [];
  let cursor = 0;
  const putHeader = (): void => {
    parts.push(page.slice(cursor, h), header);
    shared.push(false, true);
    cursor = h + SLOT.header.length;
  };
  const cache = pieceCache(model);
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    const slot = slotOf(cache.nonce, i);
    const name = (): string => piece.key.split('\n', 1)[0];
    const at = page.indexOf(slot, cursor);
    if (at < 0 || at > f) throw new Error(`slot ${i} (${name()}) missing from the rendered page`);
    if (cursor <= h && at > h) putHeader();
    parts.push(page.slice(cursor, at));
    shared.push(false);
    cursor = at + slot.length;
    let template = cache.templates.get(piece.key);
    if (piece.alone) {
      template = parseTemplate(renderAlone(piece.alone()), cache.nonce, piece.values.length);
      cache.templates.set(piece.key, template);
    } else if (piece.inline) {
      const close = slotOf(cache.nonce, i, true);
      const end = page.indexOf(close, cursor);
      if (end < 0 || end > f) throw new Error(`slot ${i} (${name()}) is not closed`);
      template = parseTemplate(page.slice(cursor, end), cache.nonce, piece.values.length);
      cache.templates.set(piece.key, template);
      cursor = end + close.length;
    }
    if (template === undefined) throw new Error(`no template for the repeated piece ${name()}`);
    parts.push(fill(template, piece.values));
    shared.push(false);
  }
  if (cursor <= h) putHeader();
  parts.push(page.slice(cursor, f), footer, page.slice(f + SLOT.footer.length));
  shared.push(false, true, false);
  parts[0] = DOCTYPE + parts[0];
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

function renderDocument(model: SiteModel, route: RouteRecord, sink: SlotSink | null): DocumentParts {
  const view = resolveView(model, route);
  const crumbs = breadcrumbs(model, route, view);
  const head = computeHead(model, route, view, crumbs);
  lastFacts = { model, route, facts: factsOf(model, route, head) };
  const page = renderToStaticMarkup(
    <SlotContext.Provider value={sink}>
      <Layout model={model} head={head} screen={route.screen}>
        <Screen model={model} route={route} view={view} head={head} crumbs={crumbs} />
      </Layout>
    </SlotContext.Provider>,
  );
  return assemble(model, SECTION[view.screen], page, sink?.pieces ?? []);
}

/** The whole HTML document of a route, in pieces (see DocumentParts). Throws (with the route's path) when the route cannot be bound. */
export function renderRouteParts(model: SiteModel, route: RouteRecord): DocumentParts {
  return renderDocument(model, route, sinkFor(pieceCache(model)));
}

/**
 * renderRoute with every repeated piece rendered in place by React, no
 * template reused: what renderRoute must equal byte for byte (the tests
 * compare the two).
 */
export function renderRouteInPlace(model: SiteModel, route: RouteRecord): string {
  return renderDocument(model, route, null).parts.join('');
}

/** The whole HTML document of a route. Throws (with the route's path) when the route cannot be bound. */
export function renderRoute(model: SiteModel, route: RouteRecord): string {
  return renderRouteParts(model, route).parts.join('');
}

/** What the sitemap and the build report need to know about a route, without rendering it. */
export function routeFacts(model: SiteModel, route: RouteRecord): RouteFacts {
  if (lastFacts && lastFacts.model === model && lastFacts.route === route) return { ...lastFacts.facts, metaFallback: [...lastFacts.facts.metaFallback] };
  const view = resolveView(model, route);
  return factsOf(model, route, computeHead(model, route, view, breadcrumbs(model, route, view)));
}

/** An error page: the site's layout around it, no route of its own. */
function renderErrorDocument(model: SiteModel, head: HeadData, screen: string, body: ReactNode): string {
  const page = renderToStaticMarkup(
    <Layout model={model} head={head} screen={screen}>
      {body}
    </Layout>,
  );
  return assemble(model, '', page, []).parts.join('');
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
