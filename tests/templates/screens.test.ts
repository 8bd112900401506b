import { describe, expect, test, vi } from 'vitest';
import type { Block } from '../../src/core/schema.js';
import { createSiteModel } from '../../src/model/model.js';
import { load } from 'cheerio';
import { renderErrorFallback, renderRoute, render404 } from '../../src/render/page.js';
import { ASSETS, fixtureCatalogue, routeAt } from '../render/fixture.js';
import { renderPath } from '../render/helpers.js';

// Templates are JSX: see jsx-dev-shim.ts.
vi.mock('react/jsx-dev-runtime', () => import('../render/jsx-dev-shim.js'));

const text = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('every screen', () => {
  const catalogue = fixtureCatalogue();
  const model = createSiteModel(catalogue, ASSETS);
  test.each(catalogue.routes.map((r) => r.path))('%s has one h1, one title, the layout pieces and the header search form', (path) => {
    const { $ } = renderPath(path);
    expect($('h1').length).toBe(1);
    expect($('title').length).toBe(1);
    expect($('#loading-bar.loading-bar[hidden]').length).toBe(1);
    expect($('#offline-notice.offline-notice[role="status"][hidden]').text()).toMatch(/^You are offline\./);
    expect($('header form.search-form[role="search"][action="/search"][method="get"] input[type="search"][name="q"]').length).toBe(1);
    expect($('a.skip-link[href="#main"]').length).toBe(1);
    expect($('main#main').length).toBe(1);
    // ids are unique on the page (forms, headings, labels rely on them)
    const ids = $('[id]')
      .toArray()
      .map((el) => $(el).attr('id'));
    expect(new Set(ids).size).toBe(ids.length);
    // Structured data describes what is on the page: a BreadcrumbList only where breadcrumbs show.
    const types = $('script[type="application/ld+json"]')
      .toArray()
      .map((el) => (JSON.parse($(el).text()) as { '@type': string })['@type']);
    expect(types.includes('BreadcrumbList')).toBe($('nav.breadcrumbs').length === 1);
  });
  test('the header navigates to every category, grouped by parent', () => {
    const { $ } = renderPath('/');
    const groups = $('.nav-groups > li')
      .toArray()
      .map((li) => [
        $(li).children('.nav-group-title').text(),
        $(li)
          .find('ul a')
          .toArray()
          .map((a) => $(a).attr('href')),
      ]);
    expect(groups).toEqual([
      ['Herb Extract', ['/monomer/page-1']],
      ['Nutrition', ['/amino-acid', '/api']],
    ]);
    expect(model.nav.length).toBe(2);
  });
});

describe('header and footer rendered once per model', () => {
  test('every page carries them whole, and replacement patterns in names stay literal', () => {
    const catalogue = fixtureCatalogue();
    catalogue.categories[1] = { ...catalogue.categories[1], name: "Herb $' $& Extract" };
    const model = createSiteModel(catalogue, ASSETS);
    for (const route of catalogue.routes) {
      const html = renderRoute(model, route);
      expect(html).not.toContain('data-slot');
      // Repeated pieces stand as NUL-delimited marks until filled in; none may be left.
      expect(html).not.toContain('\u0000');
      expect(html.match(/<header class="site-header">/g)?.length).toBe(1);
      expect(html.match(/<footer class="site-footer">/g)?.length).toBe(1);
      expect(html).toContain('<a class="nav-group-title" href="/herb-extract">Herb $&#x27; $&amp; Extract</a>');
      expect(html.endsWith('</footer></body></html>')).toBe(true);
    }
  });
  test('the current section is marked in the navigation', () => {
    expect(renderPath('/knowledge/what-is-curcumin').$('.nav-main a[aria-current="page"]').text()).toBe('Knowledge');
    expect(renderPath('/monomer/bulk-curcumin').$('.nav-main summary.is-current').text()).toBe('Products');
  });
});

describe('pages rendered one after another from one site model', () => {
  // Text and attribute values that need escaping, replacement patterns, NUL (what the markers are made of) and a marker lookalike.
  const NASTY = `Q"&'<x> $' $& \u2028 \u0000 \u00000\u0000 %00`;
  const nastyCatalogue = (thirdParty?: Record<string, string>) => {
    const catalogue = fixtureCatalogue({ productName: NASTY, thirdParty });
    catalogue.articles[0] = { ...catalogue.articles[0], headline: `A & B <script>${NASTY}`, category: `Cat ${NASTY}` };
    catalogue.news[0] = { ...catalogue.news[0], title: `News ${NASTY}` };
    catalogue.products[1] = { ...catalogue.products[1], specification: `Spec ${NASTY}`, summary: `Sum ${NASTY}` };
    catalogue.categories[2] = { ...catalogue.categories[2], name: `Mono ${NASTY}` };
    catalogue.pages[3] = { ...catalogue.pages[3], heading: `Know ${NASTY}` };
    return catalogue;
  };

  // Third-party scripts are async: React hoists them into <head>.
  const THIRD_PARTY = { analyticsId: 'G-AB"<x>&1', tagManagerId: 'GTM-1', chatWidgetId: 'a/b', errorReportingDsn: 'https://abc123@o1.ingest.sentry.io/42' };
  test.each([
    ['', undefined],
    [' with third-party scripts', THIRD_PARTY],
  ])('every page is the same whichever pages were rendered before it (the cached header and footer are what React renders)%s', async (_, thirdParty) => {
    const { renderRouteParts } = await import('../../src/render/page.js');
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { createElement, Fragment } = await import('react');
    const { Header } = await import('../../src/templates/Header.js');
    const { Footer } = await import('../../src/templates/Footer.js');
    const { PageTop } = await import('../../src/templates/Layout.js');
    const catalogue = nastyCatalogue(thirdParty);
    if (thirdParty) catalogue.pages[0] = { ...catalogue.pages[0], featuredProducts: catalogue.products.map((p) => p.id) };
    // Forwards and backwards, each with a model of its own (an empty cache): the same bytes.
    const forwards = createSiteModel(catalogue, ASSETS);
    const expected = catalogue.routes.map((route) => renderRoute(forwards, route));
    const backwards = createSiteModel(catalogue, ASSETS);
    for (let i = catalogue.routes.length - 1; i >= 0; i--) {
      const html = renderRoute(backwards, catalogue.routes[i]);
      expect(html, catalogue.routes[i].path).toBe(expected[i]);
      expect(html).not.toContain('data-slot');
    }
    // The shared pieces are the header and footer as React renders them on their own.
    const footer = renderToStaticMarkup(createElement(Footer, { model: backwards }));
    for (const route of catalogue.routes) {
      const { parts, shared } = renderRouteParts(backwards, route);
      const [header, foot] = parts.filter((_, i) => shared[i]);
      expect(foot, route.path).toBe(footer);
      expect(header, route.path).toMatch(/^<a class="skip-link"/);
    }
    const home = renderRouteParts(backwards, catalogue.routes.find((r) => r.path === '/')!);
    expect(home.parts[1]).toBe(
      renderToStaticMarkup(createElement(Fragment, null, createElement(PageTop), createElement(Header, { model: backwards, section: 'home' }))),
    );
    // Each page prints its own values, escaped as React escapes them.
    const product = renderRoute(backwards, catalogue.routes.find((r) => r.path === '/monomer/bulk-quercetin')!);
    expect(product).toContain('name="product" value="Bulk Quercetin"');
    expect(product).toContain('name="page" value="/monomer/bulk-quercetin"');
    expect(product).toContain('data-url="https://www.example.com/monomer/bulk-quercetin"');
    expect(product).toContain(`<td>Spec Q&quot;&amp;&#x27;&lt;x&gt; $&#x27; $&amp; \u2028`);
  });

  test('bodies print every kind of block with their own strings', async () => {
    const body = (tag: string): Block[] => [
      { type: 'heading', level: 2, text: `Heading ${tag}` },
      { type: 'heading', level: 3, text: `Sub ${tag}` },
      { type: 'paragraph', text: `Plain ${tag}` },
      {
        type: 'paragraph',
        text: [
          `Before ${tag} `,
          { text: `inside ${tag}`, href: `/monomer/${tag}` },
          ' between ',
          { text: `out ${tag}`, href: `https://example.org/${tag}?a=1&b=2` },
          { text: `bad ${tag}`, href: 'javascript:alert(1)' },
          '',
        ],
      },
      { type: 'list', items: [`one ${tag}`, [{ text: `two ${tag}`, href: `mailto:x@example.com?subject=${tag}` }]] },
      { type: 'list', ordered: true, items: [`first ${tag}`] },
      {
        type: 'table',
        caption: `Caption ${tag}`,
        head: ['Item', `Value ${tag}`],
        rows: [
          ['a', `b ${tag}`],
          ['c', ''],
        ],
      },
      { type: 'table', head: ['Only'], rows: [[`cell ${tag}`]] },
      { type: 'quote', text: `Quote ${tag}`, cite: `Cite ${tag}` },
      { type: 'quote', text: `Bare ${tag}` },
    ];
    const catalogue = fixtureCatalogue();
    catalogue.articles[0] = { ...catalogue.articles[0], body: body(NASTY) };
    catalogue.articles[1] = { ...catalogue.articles[1], body: body('second') };
    const model = createSiteModel(catalogue, ASSETS);
    const [first, second] = catalogue.articles.slice(0, 2).map((a) => catalogue.routes.find((r) => r.nodeid === a.id)!);
    expect(renderRoute(model, first)).toContain('<h3>Sub Q&quot;&amp;&#x27;&lt;x&gt; $&#x27; $&amp;');
    const html = renderRoute(model, second);
    expect(html).toContain('<a href="https://example.org/second?a=1&amp;b=2" rel="noopener">out second</a>bad second</p>');
    expect(html).toContain('<table><caption>Caption second</caption><thead><tr><th scope="col">Item</th><th scope="col">Value second</th></tr></thead>');
    expect(html).toContain('<figure class="quote"><blockquote><p>Bare second</p></blockquote></figure>');
  });

  test('long lists: the runs of page links outside the window, the same whichever page was rendered before', async () => {
    const catalogue = fixtureCatalogue();
    const [a1] = catalogue.articles;
    for (let i = 0; i < 60; i++)
      catalogue.articles.push({
        ...a1,
        id: `extra-${i}`,
        slug: `extra-${i}`,
        headline: `Extra ${i}`,
        date: `2022-01-${String((i % 28) + 1).padStart(2, '0')}`,
      });
    const knowledge = catalogue.routes.find((r) => r.path === '/knowledge/page-2')!;
    for (let page = 3; page <= 31; page++) catalogue.routes.push({ ...knowledge, path: `/knowledge/page-${page}`, page });
    const model = createSiteModel(catalogue, ASSETS);
    const lists = catalogue.routes.filter((r) => r.screen === 'knowledge');
    expect(lists.length).toBe(31);
    const expected = lists.map((route) => renderRoute(model, route));
    const again = createSiteModel(catalogue, ASSETS);
    [...lists].reverse().forEach((route, i) => expect(renderRoute(again, route), route.path).toBe(expected[lists.length - 1 - i]));
    const page17 = renderRoute(model, lists.find((r) => r.page === 17)!);
    expect(page17).toContain(
      '<li><a href="/knowledge/page-15" aria-label="Page 15">15</a></li><li><a href="/knowledge/page-16" aria-label="Page 16">16</a></li><li><span aria-current="page">17</span></li>',
    );
  });

  test('the inquiry form equals a direct render of InquiryFormMarkup', async () => {
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { createElement } = await import('react');
    const { InquiryFormMarkup } = await import('../../src/templates/InquiryFields.js');
    const catalogue = fixtureCatalogue({ productName: NASTY });
    const model = createSiteModel(catalogue, ASSETS);
    for (const path of ['/monomer/bulk-quercetin', '/monomer/bulk-curcumin']) {
      const route = catalogue.routes.find((r) => r.path === path)!;
      const product = catalogue.products.find((p) => p.id === route.nodeid)!;
      const direct = renderToStaticMarkup(
        createElement(InquiryFormMarkup, { formId: 'inquire', action: '/api/inquiry', page: route.path, product: product.name, type: 'quote' }),
      );
      expect(renderRoute(model, route)).toContain(direct);
    }
  });

  test('products sharing an id keep their own cards', () => {
    const catalogue = fixtureCatalogue();
    catalogue.site.itemsPerPage.products = 10;
    catalogue.products.push({ ...catalogue.products[1], name: 'Twin Quercetin', slug: 'twin-quercetin' });
    const model = createSiteModel(catalogue, ASSETS);
    // Every card but the first two is a repeated piece; both twins are among them.
    const list = renderRoute(model, catalogue.routes.find((r) => r.path === '/products')!);
    expect(list.match(/<h2 class="card-title">(Bulk|Twin) Quercetin<\/h2>/g)).toEqual([
      '<h2 class="card-title">Bulk Quercetin</h2>',
      '<h2 class="card-title">Twin Quercetin</h2>',
    ]);
    expect(list.match(/loading="lazy"/g)?.length).toBe(3);
  });
});

describe('Home', () => {
  test('title, banners, trust points, featured categories and products, latest articles and news', () => {
    const { $ } = renderPath('/');
    expect($('title').text()).toContain('Shiitake Mushroom Extract');
    expect($('.slider .slide').length).toBe(2);
    expect($('.trust-points h3').text()).toBe('Lab-tested purity');
    expect(
      $('.category-grid h3')
        .toArray()
        .map((h) => $(h).text()),
    ).toEqual(['Herb Extract', 'API']);
    expect($('#products-heading').next().find('.card-title').text()).toBe('Bulk Curcumin');
    expect($('#knowledge-heading').next().find('.card-title').first().text()).toBe('Quercetin vs Rutin');
    expect($('#news-heading').next().find('.card-title').first().text()).toBe('Exhibition 2024');
  });
});

describe('ProductList', () => {
  test('lists featured first, then by name, in pages', () => {
    const page1 = renderPath('/monomer/page-1').$;
    expect(
      page1('.card-grid .product-card .card-title')
        .toArray()
        .map((h) => page1(h).text()),
    ).toEqual(['Bulk Curcumin', 'Berberine Powder']);
    const page2 = renderPath('/monomer/page-2').$;
    expect(
      page2('.card-grid .product-card .card-title')
        .toArray()
        .map((h) => page2(h).text()),
    ).toEqual(['Bulk Quercetin']);
    expect(page2('h1').text()).toBe('Monomer – page 2');
  });
  test('a category lists products listed in it from another category', () => {
    const { $ } = renderPath('/herb-extract');
    expect(
      $('.card-grid .product-card .card-title')
        .toArray()
        .map((h) => $(h).text()),
    ).toEqual(['Bulk Curcumin']);
    expect(
      $('.chips a')
        .toArray()
        .map((a) => $(a).attr('href')),
    ).toEqual(['/monomer/page-1']);
  });
  test('a list page ends with articles for its own products; a product page showing the same articles keeps its heading', () => {
    const catalogue = fixtureCatalogue();
    const model = createSiteModel(catalogue, ASSETS);
    // One model for both, the list first: the related section's template is cached per model.
    const list = load(renderRoute(model, routeAt(catalogue, '/herb-extract')));
    const product = load(renderRoute(model, routeAt(catalogue, '/monomer/bulk-curcumin')));
    expect(list('#related-guides-heading').text()).toBe('From our Knowledge Center');
    expect(
      list('#related-guides-heading')
        .next()
        .find('.card-title')
        .toArray()
        .map((h) => list(h).text()),
    ).toEqual(['What Is Curcumin?']);
    expect(product('#related-articles-heading').text()).toBe('Related articles');
    expect(
      product('#related-articles-heading')
        .next()
        .find('.card-title')
        .toArray()
        .map((h) => product(h).text()),
    ).toEqual(['What Is Curcumin?']);
    expect(product('#related-guides-heading').length).toBe(0);
  });
  test('an empty category says so and offers a contact link', () => {
    const { $ } = renderPath('/api');
    expect(text($('.empty-state').text())).toContain('No products are listed under API yet.');
    expect($('.empty-state a[href="/contact-us"]').text()).toBe('Contact us');
    expect($('.card-grid').length).toBe(0);
  });
});

describe('ProductDetail', () => {
  const { $ } = renderPath('/monomer/bulk-curcumin');
  test('name, latin name, gallery with artwork, attributes table', () => {
    expect($('h1').text()).toBe('Bulk Curcumin');
    expect($('.latin').text()).toBe('Curcuma longa');
    expect($('img[data-gallery-main]').attr('src')).toBe('/images/products/bulk-curcumin.svg');
    const rows = Object.fromEntries(
      $('table.attributes tr')
        .toArray()
        .map((tr) => [$(tr).find('th').text(), $(tr).find('td').text()]),
    );
    expect(rows).toEqual({
      'Product name': 'Bulk Curcumin',
      'Latin name': 'Curcuma longa',
      'Specification / assay': '95% curcuminoids',
      Appearance: 'Orange-yellow powder',
      Certifications: 'ISO9001, HALAL',
      Package: '1-10kg foil; 25kg drum',
      Delivery: '1-2 working days',
      MOQ: '1-5kg',
      'Free sample': 'Yes',
    });
  });
  test('the heading (category, name, latin name) comes before the gallery, and the attributes after it', () => {
    const order = $('.product-top')
      .children()
      .toArray()
      .map((el) => $(el).attr('class'));
    expect(order).toEqual(['product-heading', 'gallery', 'product-summary']);
    expect(
      $('.product-heading')
        .children()
        .toArray()
        .map((el) => el.tagName),
    ).toEqual(['p', 'h1', 'p']);
    expect($('.product-summary table.attributes').length).toBe(1);
  });
  test('calls to action preselect their inquiry type and land on the form', () => {
    const ctas = $('.cta-list a')
      .toArray()
      .map((a) => [$(a).text(), $(a).attr('href'), $(a).attr('data-inquiry-type')]);
    // Each lands on the form by its fragment (no query URL to crawl); the browser code makes the choice.
    expect(ctas).toEqual([
      ['Ask for a quote', '#inquire', 'quote'],
      ['Custom quote', '#inquire', 'custom-quote'],
      ['Free sample', '#inquire', 'free-sample'],
      ['Private labelling', '#inquire', 'private-label'],
      ['Bulk and wholesale', '#inquire', 'bulk-wholesale'],
    ]);
    const choices = $('form#inquire select[name="type"] option')
      .toArray()
      .map((o) => $(o).attr('value'));
    for (const [, , type] of ctas) expect(choices).toContain(type);
    expect($('form#inquire input[name="product"]').attr('value')).toBe('Bulk Curcumin');
    expect($('form#inquire input[name="page"]').attr('value')).toBe('/monomer/bulk-curcumin');
  });
  test('description, applications, related products and articles, share', () => {
    expect($('#description-heading').next().text()).toBe('Curcumin from turmeric root.');
    expect($('#applications-heading').next().text()).toBe('Dietary supplements');
    expect(
      $('#related-products-heading')
        .next()
        .find('.card-title')
        .toArray()
        .map((h) => $(h).text()),
    ).toEqual(['Berberine Powder', 'Bulk Quercetin']);
    expect($('#related-articles-heading').next().find('.card-title').text()).toBe('What Is Curcumin?');
    expect($('[data-share] button[data-share-copy]').attr('data-url')).toBe('https://www.example.com/monomer/bulk-curcumin');
  });
  test('no free-sample call to action when the product has none', () => {
    const p = renderPath('/amino-acid/l-valine-powder').$;
    expect(p('.cta-list a[data-inquiry-type="free-sample"]').length).toBe(0);
    expect(p('.latin').length).toBe(0);
  });
});

describe('Knowledge and news', () => {
  test('knowledge list is newest first, paged', () => {
    const { $ } = renderPath('/knowledge');
    expect(
      $('.card-grid .card-title')
        .toArray()
        .map((h) => $(h).text()),
    ).toEqual(['Quercetin vs Rutin', 'What Is Curcumin?']);
    expect($('.pagination a[rel="next"]').attr('href')).toBe('/knowledge/page-2');
  });
  test('article: headline, category, author, dates, body, related products, previous and next', () => {
    const { $ } = renderPath('/knowledge/what-is-curcumin');
    expect($('h1').text()).toBe('What Is Curcumin?');
    expect($('.eyebrow').text()).toBe('Herbal Extracts');
    expect(text($('.article-meta').text())).toBe('By Dr. Li · Published 10 January 2024');
    expect($('.article-meta time').attr('datetime')).toBe('2024-01-10');
    expect($('.prose h2').text()).toBe('Origins');
    expect($('#related-products-heading').next().find('.card-title').text()).toBe('Bulk Curcumin');
    expect($('.article-nav-prev').attr('href')).toBe('/knowledge/quercetin-vs-rutin');
    expect($('.article-nav-next').attr('href')).toBe('/knowledge/-how-to-use-valine-');
  });
  test('news list and detail', () => {
    const list = renderPath('/news').$;
    expect(
      list('.card-grid .card-title')
        .toArray()
        .map((h) => list(h).text()),
    ).toEqual(['Exhibition 2024', 'Exhibition 2023']);
    expect(list('.pagination').length).toBe(0);
    const { $ } = renderPath('/news/exhibition-2024');
    expect($('h1').text()).toBe('Exhibition 2024');
    expect($('.article-meta time').attr('datetime')).toBe('2024-04-01');
    expect($('.article-nav-next').attr('href')).toBe('/news/exhibition-2023');
  });
});

describe('company and utility pages', () => {
  test('about', () => {
    const { $ } = renderPath('/about-us');
    expect($('.lead').text()).toBe('Established in 2009.');
  });
  test('contact has the details and the contact form', () => {
    const { $ } = renderPath('/contact-us');
    expect($('.contact-details a[href="mailto:sales@example.com"]').length).toBe(1);
    expect($('.contact-details a[href="tel:+862912345678"]').length).toBe(1);
    expect($('form#contact-form[data-inquiry-form] option[selected]').attr('value')).toBe('contact');
    // The header's jump link (shown on phones, where the form is a long scroll below) lands on the form's heading.
    const jump = $('.page-header .contact-jump a').attr('href') ?? '';
    expect(jump).toBe('#contact-form-heading');
    expect($(jump).text()).toBe('Send us a message');
    expect($(jump).closest('section').find('form#contact-form').length).toBe(1);
  });
  test('search has the results area and the hidden no-results content', () => {
    const { $ } = renderPath('/search');
    expect($('#search-results[data-search-results]').length).toBe(1);
    const empty = $('[data-search-empty]');
    expect(empty.attr('hidden')).toBeDefined();
    expect(empty.find('h2').first().text()).toBe('No results');
    expect(
      empty
        .find('.chips a')
        .toArray()
        .map((a) => $(a).attr('href')),
    ).toEqual(['/herb-extract', '/api']);
  });
  test('search not found offers popular categories and another search', () => {
    const { $ } = renderPath('/search/404');
    expect($('main form.search-form input[name="q"]').length).toBe(1);
    expect($('.popular-categories a').length).toBe(2);
  });
  test('thanks leads home', () => {
    const { $ } = renderPath('/thanks');
    expect($('h1').text()).toBe('Thank you');
    expect($('.hero-actions a[href="/"]').text()).toBe('Back to the home page');
  });
});

describe('error pages', () => {
  const model = createSiteModel(fixtureCatalogue(), ASSETS);
  test('404', () => {
    const html = render404(model);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('data-screen="not-found"');
  });
  test('the fallback needs nothing and says what happened', () => {
    expect(renderErrorFallback()).toMatchInlineSnapshot(
      `"<!doctype html><html lang="en"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/><meta name="robots" content="noindex"/><title>Error</title></head><body><main><h1>An error occurred while showing the error page</h1><p><a href="/">Go back to home</a></p></main></body></html>"`,
    );
  });
  test('an unknown screen fails with the spec message and the route', () => {
    const catalogue = fixtureCatalogue();
    expect(() => renderRoute(model, { ...catalogue.routes[0], path: '/odd', screen: 'gallery' })).toThrow('route /odd: Unknown middleware gallery');
  });
  test.each(['javascript:alert(1)', '//evil.example/x', 'monomer/x', '/a b'])('a route whose path is %j fails instead of being linked', (path) => {
    const catalogue = fixtureCatalogue();
    const bad = { ...catalogue.routes.find((r) => r.path === '/monomer/bulk-quercetin')!, path };
    catalogue.routes = catalogue.routes.filter((r) => r.path !== '/monomer/bulk-quercetin').concat(bad);
    const m = createSiteModel(catalogue, ASSETS);
    expect(() => renderRoute(m, bad)).toThrow('a path must start with a single "/"');
    // Pages that would link to it use the product's fallback path instead.
    const list = renderRoute(m, catalogue.routes.find((r) => r.path === '/monomer/page-2')!);
    expect(list).not.toContain(`href="${path}"`);
    expect(list).toContain('href="/monomer/bulk-quercetin"');
  });
  test('a route naming missing content fails with its path, the id and where it was looked for', () => {
    const catalogue = fixtureCatalogue();
    const route = { ...catalogue.routes.find((r) => r.screen === 'product')!, path: '/monomer/gone', nodeid: 'nope' };
    expect(() => renderRoute(model, route)).toThrow('route /monomer/gone: no product with id "nope" in data/products/');
  });
});
