import { describe, expect, test, vi } from 'vitest';
import { createSiteModel } from '../../src/model/model.js';
import { shareImageOf } from '../../src/model/head.js';
import { renderRoute, routeFacts, render404 } from '../../src/render/page.js';
import { ASSETS, fixtureCatalogue, routeAt } from './fixture.js';
import { jsonLdOf, renderPath } from './helpers.js';

// Templates are JSX: see jsx-dev-shim.ts.
vi.mock('react/jsx-dev-runtime', () => import('./jsx-dev-shim.js'));

const types = (path: string): unknown[] => jsonLdOf(renderPath(path).$).map((d) => d['@type']);

describe('head of every page', () => {
  test('language, charset, viewport, title, description, keywords, assets', () => {
    const { html, $ } = renderPath('/monomer/bulk-curcumin');
    expect(html.startsWith('<!doctype html><html lang="en" data-online="true">')).toBe(true);
    expect($('meta[charset], meta[charSet]').length).toBe(1);
    expect($('meta[name="viewport"]').attr('content')).toBe('width=device-width, initial-scale=1');
    expect($('title').length).toBe(1);
    expect($('title').text()).toBe('Bulk Curcumin Powder - Herbline');
    expect($('meta[name="description"]').attr('content')).toBe('Curcumin 95%.');
    expect($('meta[name="keywords"]').attr('content')).toBe('curcumin');
    expect($('link[rel="stylesheet"]').attr('href')).toBe(ASSETS.css);
    // A module script defers by itself; HTML forbids the attribute on it.
    expect($(`script[type="module"][src="${ASSETS.js}"]`).length).toBe(1);
    expect($('script[defer]').length).toBe(0);
    expect($(`script[src="${ASSETS.search}"]`).length).toBe(0);
    expect($('body').attr('data-screen')).toBe('product');
  });

  test('only /search loads the search script', () => {
    const { $ } = renderPath('/search');
    expect($(`script[type="module"][src="${ASSETS.search}"]`).length).toBe(1);
    expect($('script[defer]').length).toBe(0);
  });

  test('Open Graph and Twitter tags are absolute; an SVG-only product previews with the share card, its data names the artwork', () => {
    const { $ } = renderPath('/monomer/bulk-curcumin');
    const og = (p: string) => $(`meta[property="og:${p}"]`).attr('content');
    expect(og('type')).toBe('product');
    expect(og('title')).toBe('Bulk Curcumin Powder - Herbline');
    expect(og('url')).toBe('https://www.example.com/monomer/bulk-curcumin');
    // Social platforms show no preview for an SVG: the raster share card stands in for the artwork.
    expect(og('image')).toBe('https://www.example.com/images/share.png');
    expect([og('image:width'), og('image:height')]).toEqual(['1200', '630']);
    expect(og('image:alt')).toMatch(/^Herbline: /);
    expect(og('site_name')).toBe('Herbline');
    expect($('meta[name="twitter:card"]').attr('content')).toBe('summary_large_image');
    expect($('meta[name="twitter:image"]').attr('content')).toBe(og('image'));
    const product = (
      $('script[type="application/ld+json"]')
        .toArray()
        .map((s) => JSON.parse($(s).text())) as Array<{ '@type': string; image?: string[] }>
    ).find((d) => d['@type'] === 'Product');
    expect(product?.image).toEqual(['https://www.example.com/images/products/bulk-curcumin.svg']);
  });

  test("a raster image of the page's own is its preview; an SVG one is not", () => {
    const model = { site: { brand: 'Herbline', tagline: 'Extracts' } } as unknown as Parameters<typeof shareImageOf>[0];
    const photo = { url: '/images/curcumin.jpg', width: 1200, height: 900, alt: 'Curcumin powder' };
    expect(shareImageOf(model, photo)).toBe(photo);
    for (const url of ['/images/products/a.svg', '/a.SVG?v=2', 'https://cdn.test/a.svg#x']) {
      expect(shareImageOf(model, { ...photo, url })).toEqual({ url: '/images/share.png', width: 1200, height: 630, alt: 'Herbline: Extracts' });
    }
    expect(shareImageOf(model, undefined).url).toBe('/images/share.png');
  });
});

describe('canonical', () => {
  const canonical = (path: string) => renderPath(path).$('link[rel="canonical"]').attr('href');
  test('page-1 points to the bare list when both are declared', () => {
    expect(canonical('/products/page-1')).toBe('https://www.example.com/products');
    expect(canonical('/news/page-1')).toBe('https://www.example.com/news');
  });
  test('page-1 is canonical to itself when the bare list is not declared', () => {
    expect(canonical('/monomer/page-1')).toBe('https://www.example.com/monomer/page-1');
  });
  test('other pages are canonical to themselves', () => {
    expect(canonical('/products')).toBe('https://www.example.com/products');
    expect(canonical('/products/page-2')).toBe('https://www.example.com/products/page-2');
    expect(canonical('/')).toBe('https://www.example.com/');
    expect(canonical('/knowledge/-how-to-use-valine-')).toBe('https://www.example.com/knowledge/-how-to-use-valine-');
  });
  test('pages of a list link to their neighbours', () => {
    const { $ } = renderPath('/products/page-2');
    expect($('link[rel="prev"]').attr('href')).toBe('https://www.example.com/products');
    expect($('link[rel="next"]').length).toBe(0);
    expect($('.pagination a[rel="prev"]').attr('href')).toBe('/products');
  });
});

describe('robots', () => {
  test.each(['/thanks', '/search', '/search/404'])('%s is noindex, follow', (path) => {
    const { $ } = renderPath(path);
    expect($('meta[name="robots"]').attr('content')).toBe('noindex, follow');
  });
  test('content pages have no robots meta', () => {
    expect(renderPath('/monomer/bulk-curcumin').$('meta[name="robots"]').length).toBe(0);
  });
  test('404 is noindex and says so', () => {
    const model = createSiteModel(fixtureCatalogue(), ASSETS);
    const html = render404(model);
    expect(html).toContain('<meta name="robots" content="noindex, follow"/>');
    expect(html).toContain('>404<');
    expect(html).toContain('This page could not be found');
    expect(html).toMatch(/<a[^>]* href="\/"[^>]*>Back to the home page<\/a>/);
    expect(html).not.toContain('rel="canonical"');
  });
  test('routeFacts reports indexability', () => {
    const catalogue = fixtureCatalogue();
    const model = createSiteModel(catalogue, ASSETS);
    const facts = (p: string) => routeFacts(model, routeAt(catalogue, p));
    expect(facts('/thanks').indexable).toBe(false);
    expect(facts('/search/404').indexable).toBe(false);
    expect(facts('/').indexable).toBe(true);
    expect(facts('/products/page-1').canonical).toBe('https://www.example.com/products');
    // Canonicalised to /products, so not indexed under its own URL; a page-1 without a bare list is.
    expect(facts('/products/page-1').indexable).toBe(false);
    expect(facts('/products').indexable).toBe(true);
    expect(facts('/monomer/page-1').indexable).toBe(true);
  });
});

describe('routeFacts after renderRoute', () => {
  test('reuses what rendering computed and equals facts computed alone', () => {
    const catalogue = fixtureCatalogue();
    const model = createSiteModel(catalogue, ASSETS);
    const fresh = createSiteModel(fixtureCatalogue(), ASSETS);
    for (const route of catalogue.routes) {
      renderRoute(model, route);
      const facts = routeFacts(model, route);
      facts.metaFallback.push('title'); // callers may keep and change what they get
      expect(routeFacts(model, route)).toEqual(routeFacts(fresh, fixtureCatalogue().routes.find((r) => r.path === route.path)!));
    }
  });
});

describe('fallback meta', () => {
  test('a product with empty registry meta gets content-made title, description and keywords', () => {
    const catalogue = fixtureCatalogue();
    const model = createSiteModel(catalogue, ASSETS);
    const route = routeAt(catalogue, '/amino-acid/l-valine-powder');
    const facts = routeFacts(model, route);
    expect(facts.metaFallback).toEqual(['title', 'description', 'keywords']);
    const { $ } = renderPath('/amino-acid/l-valine-powder');
    expect($('title').text()).toBe('L-Valine Powder Supplier - Herbline');
    const description = $('meta[name="description"]').attr('content')!;
    expect(description.length).toBeLessThanOrEqual(155);
    // Name and specification, then the summary; longer than a snippet, it ends at its first clause (the semicolon, closed
    // with a full stop), not mid-phrase.
    expect(description).toBe('L-Valine Powder, 95% curcuminoids. L-Valine is a branched-chain amino acid used in sports nutrition, feed and pharmaceuticals.');
    expect($('meta[name="keywords"]').attr('content')).toBe(
      'L-Valine Powder, L-Valine Powder supplier, bulk L-Valine Powder, Amino Acid, GMP factory, free sample, bulk wholesale',
    );
  });
  test('a page with complete registry meta reports no fallback', () => {
    const catalogue = fixtureCatalogue();
    const model = createSiteModel(catalogue, ASSETS);
    expect(routeFacts(model, routeAt(catalogue, '/monomer/bulk-curcumin')).metaFallback).toEqual([]);
  });
  test('a paged category with empty meta names its page in the title', () => {
    expect(renderPath('/monomer/page-2').$('title').text()).toBe('Monomer - Page 2 - Herbline');
  });
});

describe('lastmod is the content date', () => {
  const catalogue = fixtureCatalogue();
  const model = createSiteModel(catalogue, ASSETS);
  const lastmod = (p: string) => routeFacts(model, routeAt(catalogue, p)).lastmod;
  test('detail pages use their own date', () => {
    expect(lastmod('/monomer/bulk-curcumin')).toBe('2024-05-01');
    expect(lastmod('/knowledge/quercetin-vs-rutin')).toBe('2024-03-01');
    expect(lastmod('/news/exhibition-2023')).toBe('2023-04-01');
  });
  test('lists use their newest item on the page', () => {
    expect(lastmod('/monomer/page-1')).toBe('2024-05-01');
    expect(lastmod('/monomer/page-2')).toBe('2024-06-01');
  });
});

describe('JSON-LD per screen', () => {
  test('home: Organization and WebSite with a SearchAction', () => {
    const data = jsonLdOf(renderPath('/').$);
    expect(data.map((d) => d['@type'])).toEqual(['Organization', 'WebSite']);
    // Google asks an Organization for a logo; the same file is every page's icon.
    expect(data[0].logo).toBe('https://www.example.com/images/logo.svg');
    expect(renderPath('/thanks').$('link[rel=icon]').attr('href')).toBe('/images/logo.svg');
    const action = data[1].potentialAction as { target: { urlTemplate: string }; 'query-input': string };
    expect(action.target.urlTemplate).toBe('https://www.example.com/search?q={search_term_string}');
    expect(action['query-input']).toBe('required name=search_term_string');
  });
  test('product: Product without offers, and BreadcrumbList', () => {
    const data = jsonLdOf(renderPath('/monomer/bulk-curcumin').$);
    expect(data.map((d) => d['@type'])).toEqual(['Product', 'BreadcrumbList']);
    const product = data[0];
    expect(product).toMatchObject({
      name: 'Bulk Curcumin',
      sku: '0000000000000000000000000000000b',
      brand: { '@type': 'Brand', name: 'Herbline' },
      image: ['https://www.example.com/images/products/bulk-curcumin.svg'],
      description: 'Curcumin 95%.',
    });
    expect(JSON.stringify(product)).not.toMatch(/offers|price/i);
    const crumbs = (data[1].itemListElement as Array<{ name: string; item: string }>).map((c) => c.name);
    expect(crumbs).toEqual(['Home', 'Products', 'Herb Extract', 'Monomer', 'Bulk Curcumin']);
  });
  test('article: Article with dates, author, image and publisher', () => {
    const [article] = jsonLdOf(renderPath('/knowledge/what-is-curcumin').$);
    expect(article).toMatchObject({
      '@type': 'Article',
      headline: 'What Is Curcumin?',
      datePublished: '2024-01-10',
      dateModified: '2024-01-10',
      author: { '@type': 'Person', name: 'Dr. Li' },
      image: ['https://www.example.com/images/products/bulk-curcumin.svg'],
      publisher: { '@type': 'Organization', name: 'Herbline Biotech Co., Ltd.' },
    });
  });
  test('a team byline is an Organization, a person a Person', async () => {
    const { authorLd } = await import('../../src/model/json-ld.js');
    const model = createSiteModel(fixtureCatalogue(), ASSETS);
    expect(authorLd(model, 'Herbline Editorial Team')).toEqual({ '@type': 'Organization', name: 'Herbline Editorial Team' });
    expect(authorLd(model, 'Application Lab')['@type']).toBe('Organization');
    expect(authorLd(model, 'Dr. Li')['@type']).toBe('Person');
  });
  test('news: NewsArticle', () => {
    expect(types('/news/exhibition-2024')).toEqual(['NewsArticle', 'BreadcrumbList']);
  });
  test('lists: CollectionPage with an ItemList whose positions continue across pages', () => {
    expect(types('/knowledge')).toEqual(['CollectionPage', 'BreadcrumbList']);
    const [page2] = jsonLdOf(renderPath('/monomer/page-2').$);
    const list = page2.mainEntity as { numberOfItems: number; itemListElement: Array<{ position: number; name: string }> };
    expect(list.numberOfItems).toBe(3);
    expect(list.itemListElement).toEqual([expect.objectContaining({ position: 3, name: 'Bulk Quercetin' })]);
  });
  test('pages with breadcrumbs carry a BreadcrumbList', () => {
    expect(types('/about-us')).toEqual(['BreadcrumbList']);
  });
});

describe('third-party scripts', () => {
  test('none by default', () => {
    const { $ } = renderPath('/');
    expect($('script[src^="https://"]').length).toBe(0);
  });
  test('only configured ones, async, with ids URL-encoded', () => {
    const { $ } = renderPath('/', { thirdParty: { analyticsId: 'G-AB"<x>&1', errorReportingDsn: 'https://abc123@o1.ingest.sentry.io/42' } });
    const srcs = $('script[src^="https://"]')
      .toArray()
      .map((el) => [$(el).attr('src'), $(el).attr('async')]);
    expect(srcs).toEqual([
      ['https://www.googletagmanager.com/gtag/js?id=G-AB%22%3Cx%3E%261', 'async'],
      ['https://js.sentry-cdn.com/abc123.min.js', 'async'],
    ]);
  });
});

describe('determinism', () => {
  test('the same input renders the same bytes, from a fresh model too', () => {
    const a = fixtureCatalogue();
    const modelA = createSiteModel(a, ASSETS);
    const modelB = createSiteModel(fixtureCatalogue(), ASSETS);
    for (const route of a.routes) {
      const first = renderRoute(modelA, route);
      expect(renderRoute(modelA, route)).toBe(first);
      expect(renderRoute(modelB, route)).toBe(first);
    }
  });
});
