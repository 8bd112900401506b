import { load, type CheerioAPI } from 'cheerio';
import { renderRoute } from '../../src/render/page.js';
import { createSiteModel } from '../../src/model/model.js';
import { ASSETS, fixtureCatalogue, routeAt, type FixtureOptions } from './fixture.js';

/** Renders one fixture route and parses it. */
export function renderPath(path: string, opts: FixtureOptions = {}): { html: string; $: CheerioAPI } {
  const catalogue = fixtureCatalogue(opts);
  const html = renderRoute(createSiteModel(catalogue, ASSETS), routeAt(catalogue, path));
  return { html, $: load(html) };
}

/** Every JSON-LD object of a page, parsed back. */
export function jsonLdOf($: CheerioAPI): Array<Record<string, unknown>> {
  return $('script[type="application/ld+json"]')
    .toArray()
    .map((el) => JSON.parse($(el).text()) as Record<string, unknown>);
}
