/**
 * The shipped catalogue (data/): every route renders once, with one h1 and
 * one title, and every internal link of every page names a declared route,
 * an artwork file or a bundled asset.
 */
import { beforeAll, describe, expect, test, vi } from 'vitest';
import type { Catalogue } from '../../src/core/catalogue.js';
import { loadCatalogue } from '../../src/load/index.js';
import { LOGO_MARK, productArtwork } from '../../src/model/artwork.js';
import { createSiteModel, type SiteModel } from '../../src/model/model.js';
import { render404, renderRoute, routeFacts } from '../../src/render/page.js';
import { ASSETS } from './fixture.js';

// Templates are JSX: see jsx-dev-shim.ts.
vi.mock('react/jsx-dev-runtime', () => import('./jsx-dev-shim.js'));

let catalogue: Catalogue;
let model: SiteModel;
const pages = new Map<string, string>();

beforeAll(async () => {
  const result = await loadCatalogue('data');
  if (!result.catalogue) throw new Error(`data/ did not load: ${JSON.stringify(result.diagnostics.slice(0, 3))}`);
  catalogue = result.catalogue;
  model = createSiteModel(catalogue, ASSETS);
  for (const route of catalogue.routes) if (!pages.has(route.path)) pages.set(route.path, renderRoute(model, route));
});

const count = (html: string, re: RegExp) => html.match(re)?.length ?? 0;
const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');

describe('the shipped catalogue', () => {
  test('every route renders a whole document with one h1 and one title', () => {
    expect(pages.size).toBeGreaterThan(1000);
    const bad: string[] = [];
    for (const [path, html] of pages) {
      if (!html.startsWith('<!doctype html><html lang="en"')) bad.push(`${path}: no doctype`);
      if (count(html, /<h1[ >]/g) !== 1) bad.push(`${path}: ${count(html, /<h1[ >]/g)} h1`);
      if (count(html, /<title>/g) !== 1) bad.push(`${path}: ${count(html, /<title>/g)} titles`);
      if (/<title><\/title>/.test(html)) bad.push(`${path}: empty title`);
      if (html.includes('data-slot')) bad.push(`${path}: unfilled slot`);
    }
    expect(bad).toEqual([]);
  });

  test('no page shows the same section heading twice, nor the same list twice (a description repeating what the template renders)', () => {
    const bad: string[] = [];
    for (const [path, html] of pages) {
      const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
      const headings = [...main.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);
      const twice = headings.filter((h, i) => headings.indexOf(h) !== i);
      if (twice.length > 0) bad.push(`${path}: h2 ${JSON.stringify(twice)}`);
      const lists = [...main.matchAll(/<ul[^>]*>((?:<li>[^<]*<\/li>)+)<\/ul>/g)].map((m) => m[1]);
      if (new Set(lists).size !== lists.length) bad.push(`${path}: a list shown twice`);
    }
    expect(bad).toEqual([]);
  });

  test('every internal link names a declared route, an artwork file, the logo or an asset', () => {
    const targets = new Set(catalogue.routes.map((r) => r.path));
    targets.add(LOGO_MARK.url);
    for (const p of catalogue.products) targets.add(productArtwork(model, p).url);
    for (const url of Object.values(ASSETS)) targets.add(url);
    const broken = new Map<string, string>();
    for (const [path, html] of pages) {
      for (const [, raw] of html.matchAll(/ (?:href|src)="([^"]*)"/g)) {
        const href = decode(raw);
        if (!href.startsWith('/') || href.startsWith('//')) continue;
        const target = decodeURI(href.split(/[?#]/)[0]);
        if (!targets.has(target) && !broken.has(target)) broken.set(target, path);
      }
    }
    expect([...broken].map(([target, from]) => `${target} (from ${from})`)).toEqual([]);
  });

  test('facts of every route: absolute canonical, a content date, noindex only on utility pages', () => {
    const noindex: string[] = [];
    for (const route of catalogue.routes) {
      const facts = routeFacts(model, route);
      expect(facts.canonical.startsWith(catalogue.site.origin + '/')).toBe(true);
      expect(facts.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const canonicalised = facts.canonical !== catalogue.site.origin + route.path;
      // Only a list's page-1 beside its bare path points elsewhere, and then it is not indexable either.
      if (canonicalised) expect([route.page, facts.indexable]).toEqual([1, false]);
      else if (!facts.indexable) noindex.push(route.screen);
    }
    expect(new Set(noindex)).toEqual(new Set(['search', 'search-not-found', 'thanks']));
  });

  test('the 404 page and every artwork render', () => {
    expect(render404(model)).toContain('This page could not be found');
    for (const p of catalogue.products) expect(productArtwork(model, p).svg).toMatch(/^<svg [^>]*width="800" height="800"/);
  });
});
