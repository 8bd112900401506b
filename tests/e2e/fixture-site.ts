/**
 * A hand-written site following docs/CONTRACTS.md "Markup the browser code
 * relies on", for developing the browser code before (or apart from) the
 * templates: `SITE_E2E_FIXTURE=1` makes the suite use it instead of a real
 * build. The default run always builds the real catalogue.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { Catalogue } from '../../src/load/catalogue.js';
import { writeSearchIndex } from '../../src/emit/search-index.js';
import { ROOT, type BuiltSite } from './harness.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

function assets() {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'build/client/.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
  return { js: '/' + manifest['main.ts'].file, css: '/' + manifest['styles.css'].file, search: '/' + manifest['search.ts'].file };
}

function field(form: string, name: string, label: string, control: string) {
  return `<div class="field" data-field="${name}"><label for="${form}-${name}">${label}</label>${control}<p class="field-error" id="${form}-${name}-error" data-error-for="${name}" hidden></p></div>`;
}

function inquiryForm(id: string, page: string, product = '') {
  const input = (name: string, type = 'text', value = '') => `<input id="${id}-${name}" name="${name}" type="${type}" value="${esc(value)}">`;
  return `<form id="${id}" class="inquiry-form" data-inquiry-form action="/api/inquiry" method="post">
${field(id, 'name', 'Name', input('name'))}
${field(id, 'email', 'E-mail', input('email', 'email'))}
${field(id, 'company', 'Company', input('company'))}
${field(id, 'country', 'Country', input('country'))}
${field(id, 'phone', 'Phone', input('phone', 'tel'))}
${field(id, 'product', 'Product', input('product', 'text', product))}
${field(id, 'type', 'Inquiry', `<select id="${id}-type" name="type"><option value="">Choose…</option><option value="quote">Ask for a quote</option><option value="free-sample">Free sample</option><option value="contact">General question</option></select>`)}
${field(id, 'quantity', 'Quantity', input('quantity'))}
${field(id, 'message', 'Message', `<textarea id="${id}-message" name="message"></textarea>`)}
<input type="hidden" name="page" value="${page}"><input type="hidden" name="_started" value="">
<div class="hp" aria-hidden="true"><label>Website<input name="website" tabindex="-1" autocomplete="off"></label></div>
<button type="submit">Send</button><p class="form-status" data-form-status role="status" aria-live="polite"></p></form>`;
}

function page(screen: string, title: string, main: string, canonical: string, search = false) {
  const a = assets();
  return `<!doctype html><html lang="en" data-online="true"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><link rel="canonical" href="${canonical}"><link rel="stylesheet" href="${a.css}"><script type="module" src="${a.js}"></script>${search ? `<script type="module" src="${a.search}"></script>` : ''}</head>
<body data-screen="${screen}"><div id="loading-bar" class="loading-bar" hidden></div><div id="offline-notice" class="offline-notice" role="status" hidden>You are offline.</div>
<header><form class="search-form" role="search" action="/search" method="get"><input type="search" name="q" aria-label="Search"><button>Search</button></form>
<nav><a href="/">Home</a> <a href="/contact-us">Contact</a></nav></header><main id="main">${main}</main><footer id="footer">Footer</footer></body></html>`;
}

const slider = `<div class="slider" data-slider data-autoplay="3000" data-transition="300"><div class="slider-track">
${[1, 2, 3].map((i) => `<div class="slide" data-slide><h2>Slide ${i}</h2><a href="/herb-extract/bulk-curcumin">Curcumin ${i}</a></div>`).join('')}</div>
<button type="button" data-slider-prev>‹</button>${[0, 1, 2].map((i) => `<button type="button" data-slider-dot="${i}" aria-label="Slide ${i + 1}"></button>`).join('')}<button type="button" data-slider-next>›</button></div>`;

const filler = Array.from({ length: 40 }, (_, i) => `<p>Paragraph ${i} about lab-tested purity and bulk supply.</p>`).join('');

const catalogue = {
  products: [
    { id: 'p1', name: 'Bulk Curcumin', summary: 'Curcumin at least 95%, turmeric root extract.', latinName: 'Curcuma longa', specification: '95%', appearance: 'Yellow powder', description: [{ type: 'paragraph', text: 'Bulk curcumin from our GMP factory.' }], applications: ['Supplements'], claims: [], certifications: ['ISO9001'] },
    { id: 'p2', name: 'Berberine Powder', summary: 'Berberine HCl 97%.', latinName: 'Berberis aristata', specification: '97%', appearance: 'Yellow powder', description: [{ type: 'paragraph', text: 'Berberine for blood sugar support.' }], applications: [], claims: [], certifications: [] },
  ],
  articles: [{ id: 'a1', headline: 'What is curcumin?', summary: 'Curcumin explained.', body: [{ type: 'paragraph', text: 'Curcumin is the yellow pigment of turmeric.' }], category: 'Herbs' }],
  news: [{ id: 'n1', title: 'Exhibition 2024', summary: 'We exhibited.', body: [{ type: 'paragraph', text: 'Our booth showed curcumin.' }] }],
} as unknown as Catalogue;

export async function writeFixtureSite(dir: string): Promise<BuiltSite> {
  const dist = path.join(dir, 'dist');
  const origin = 'https://www.example.com';
  const write = async (p: string, html: string) => {
    const file = p === '/' ? path.join(dist, 'index.html') : p.endsWith('.html') ? path.join(dist, p) : path.join(dist, p, 'index.html');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, html);
  };
  await mkdir(dist, { recursive: true });
  await cp(path.join(ROOT, 'build/client/assets'), path.join(dist, 'assets'), { recursive: true });
  const svg = (c: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800"><rect width="800" height="800" fill="${c}"/><text x="400" y="400" font-size="60" text-anchor="middle">Curcumin</text></svg>`;
  await mkdir(path.join(dist, 'images/products'), { recursive: true });
  await writeFile(path.join(dist, 'images/products/bulk-curcumin.svg'), svg('#e0b040'));
  await writeFile(path.join(dist, 'images/products/bulk-curcumin-2.svg'), svg('#40a0e0'));
  const product = '/herb-extract/bulk-curcumin';
  const shares = ['linkedin', 'facebook', 'x', 'whatsapp', 'email'];
  const u = encodeURIComponent(origin + product);
  const hrefs: Record<string, string> = {
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    x: `https://x.com/intent/tweet?url=${u}`,
    whatsapp: `https://wa.me/?text=${u}`,
    email: `mailto:?body=${u}`,
  };
  await write('/', page('home', 'Home', `<h1>Home</h1>${slider}<p><a href="/contact-us">Contact us</a> <a href="/search?q=curcumin">Search curcumin</a></p>${filler}<a href="${product}">Curcumin</a>`, origin + '/'));
  await write(
    product,
    page(
      'product',
      'Bulk Curcumin',
      `<h1>Bulk Curcumin</h1><div class="gallery" data-gallery data-zoom-max="3"><img data-gallery-main src="/images/products/bulk-curcumin.svg" width="800" height="800" alt="Bulk Curcumin" style="width:400px;height:400px">
<button type="button" data-gallery-thumb data-src="/images/products/bulk-curcumin.svg" data-alt="Bulk Curcumin">1</button><button type="button" data-gallery-thumb data-src="/images/products/bulk-curcumin-2.svg" data-alt="Bulk Curcumin package">2</button></div>
<div class="share" data-share>${shares.map((s) => `<a data-share-network="${s}" href="${esc(hrefs[s])}">${s}</a>`).join(' ')}<button type="button" data-share-copy data-url="${origin + product}" hidden>Copy link</button></div>
${filler}<h2 id="specifications">Specifications</h2><p>95%</p>${filler}${inquiryForm('inquire', product, 'Bulk Curcumin')}${inquiryForm('inquire-second', product, 'Bulk Curcumin')}`,
      origin + product,
    ),
  );
  await write('/contact-us', page('contact', 'Contact', `<h1>Contact</h1>${inquiryForm('contact', '/contact-us')}`, origin + '/contact-us'));
  await write('/thanks', page('thanks', 'Thanks', '<h1>Thank you</h1>', origin + '/thanks'));
  await write(
    '/search',
    page('search', 'Search', `<h1>Search</h1><div id="search-results" data-search-results></div><div data-search-empty hidden><h2>Popular categories</h2><a href="/herb-extract">Herb Extract</a></div>`, origin + '/search', true),
  );
  await write('/404.html', page('not-found', 'Not found', '<h1>404</h1><p>This page could not be found.</p><a href="/">Back to the home page</a>', origin + '/404'));
  const routes = [
    { path: '/', screen: 'home', nodeid: 'h' },
    { path: product, screen: 'product', nodeid: 'p1' },
    { path: '/herb-extract/berberine-powder', screen: 'product', nodeid: 'p2' },
    { path: '/knowledge/what-is-curcumin', screen: 'article', nodeid: 'a1' },
    { path: '/news/exhibition-2024', screen: 'news-detail', nodeid: 'n1' },
    { path: '/contact-us', screen: 'contact', nodeid: 'c' },
    { path: '/search', screen: 'search', nodeid: 's' },
    { path: '/thanks', screen: 'thanks', nodeid: 't' },
  ];
  await writeSearchIndex(dist, catalogue, routes);
  return { dist, routes };
}
