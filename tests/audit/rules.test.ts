/**
 * One planted fault per rule: each rule fires exactly where its fault is,
 * and nowhere else. Page-level faults live in the audit-faults fixture;
 * faults of site files (sitemap.xml, robots.txt) are planted in copies of
 * the clean fixture, one file change per rule.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/audit/rules.js';
import type { AuditReport } from '../../src/audit/index.js';
import { CLEAN, FAULTS, audit, copyFixture, locations } from './helpers.js';

const f = (slug: string) => `/faults/${slug}`;

/** rule → where the faults fixture plants it. */
const PAGE_FAULTS: Record<string, string[]> = {
  'title/missing': [f('title-missing')],
  'title/empty': [f('title-empty')],
  'title/multiple': [f('title-multiple')],
  'title/outside-head': [f('title-outside-head')],
  'title/duplicate': [f('title-duplicate-a'), f('title-duplicate-b')],
  'title/too-long': [f('title-too-long')],
  'title/too-short': [f('title-too-short')],
  'title/same-as-h1': [f('title-same-as-h1')],
  'description/missing': [f('description-missing')],
  'description/multiple': [f('description-multiple')],
  'description/duplicate': [f('description-duplicate-a'), f('description-duplicate-b')],
  'description/too-long': [f('description-too-long')],
  'description/too-short': [f('description-too-short')],
  'keywords/empty': [f('keywords-empty')],
  'meta/filled-by-build': [f('meta-filled-by-build')],
  'h1/missing': [f('h1-missing')],
  'h1/multiple': [f('h1-multiple')],
  'h1/duplicate': [f('h1-duplicate-a'), f('h1-duplicate-b')],
  'h1/too-long': [f('h1-too-long')],
  'heading/skipped-level': [f('heading-skipped-level')],
  'canonical/missing': [f('canonical-missing')],
  'canonical/relative': [f('canonical-relative')],
  'canonical/not-http': [f('canonical-not-http')],
  'canonical/multiple': [f('canonical-multiple')],
  'canonical/fragment': [f('canonical-fragment')],
  'canonical/outside-head': [f('canonical-outside-head')],
  'canonical/target-missing': [f('canonical-target-missing')],
  'canonical/target-non-indexable': [f('canonical-target-non-indexable')],
  'sitemap/non-indexable-url': [f('sitemap-non-indexable-url')],
  'sitemap/missing-indexable': [f('sitemap-missing-indexable')],
  'links/orphan': [f('links-orphan')],
  'links/deep': [f('links-deep')],
  'links/broken': [f('links-broken')],
  'resource/broken': [f('resource-broken')],
  // One link to a missing id on the same page, one to a missing id on another page.
  'links/broken-fragment': [f('links-broken-fragment'), f('links-broken-fragment')],
  'links/non-descriptive': [f('links-non-descriptive')],
  'links/uncrawlable': [f('links-uncrawlable')],
  'links/internal-nofollow': [f('links-internal-nofollow')],
  'links/no-outlinks': [f('links-no-outlinks')],
  'pagination/gap': [f('list')],
  'pagination/not-linked': [f('seq/page-2')],
  'img/missing-alt': [f('img-missing-alt')],
  'img/alt-too-long': [f('img-alt-too-long')],
  'img/missing-size': [f('img-missing-size')],
  'img/too-large': ['images/large.svg'],
  'img/aspect-mismatch': ['images/card.png'],
  'img/broken': [f('img-broken')],
  'schema/invalid-json': [f('schema-invalid-json')],
  'schema/missing-required': [f('schema-missing-required')],
  'schema/missing-recommended': [f('schema-missing-recommended')],
  'schema/offer-without-price': [f('schema-offer-without-price')],
  'schema/not-on-page': [f('schema-not-on-page')],
  'content/exact-duplicate': [f('content-exact-duplicate-a'), f('content-exact-duplicate-b')],
  'content/near-duplicate': [f('content-near-duplicate-a'), f('content-near-duplicate-b')],
  'content/low-word-count': [f('content-low-word-count')],
  'content/lorem-ipsum': [f('content-lorem-ipsum')],
  'url/uppercase': [f('Url-Uppercase')],
  'url/underscore': [f('url_underscore')],
  'url/space': [f('url space')],
  'url/non-ascii': [f('url-non-ascii-café')],
  'url/too-long': [f('url-too-long-' + 'very-long-slug-'.repeat(6) + 'end')],
  'url/legacy-slug': ['/knowledge/-Legacy-Slug-'],
  'url/http-own-origin': [f('url-http-own-origin')],
  'url/mixed-content': [f('url-mixed-content')],
  'social/image-svg': [f('social-image-svg')],
  'social/image-relative': [f('social-image-relative')],
  // faults/title-too-short.html, a stale twin: reported at the page it stands for.
  'url/twin-differs': [f('title-too-short')],
  // One finding for the site, at the first page (in file order) written only as a folder's index.html.
  'url/folder-redirect': ['about/index.html'],
};

/** rule → a change to one site file of the clean fixture, and where the finding must be. */
const FILE_FAULTS: Record<string, { file: string; edit: (text: string) => string | null; at: string[]; rules?: Record<string, unknown> }> = {
  'sitemap/missing': { file: 'sitemap.xml', edit: () => null, at: ['sitemap.xml'] },
  'sitemap/malformed': { file: 'sitemap.xml', edit: (t) => t.replace('</urlset>', ''), at: ['sitemap.xml:11'] },
  // The protocol's limit is 50,000 URLs; the threshold is lowered to plant it cheaply (and to test thresholds).
  'sitemap/too-large': { file: 'sitemap.xml', edit: (t) => t, at: ['sitemap.xml'], rules: { 'sitemap/too-large': { maxUrls: 5 } } },
  'sitemap/bad-url': { file: 'sitemap.xml', edit: (t) => t.replace('</urlset>', '<url><loc>/relative/path</loc></url>\n</urlset>'), at: ['sitemap.xml:10'] },
  'sitemap/url-not-found': {
    file: 'sitemap.xml',
    edit: (t) => t.replace('</urlset>', '<url><loc>https://example.com/gone</loc></url>\n</urlset>'),
    at: ['sitemap.xml:10'],
  },
  'sitemap/future-lastmod': {
    file: 'sitemap.xml',
    edit: (t) => t.replace(/<lastmod>[^<]*<\/lastmod>/, '<lastmod>2999-01-01</lastmod>'),
    at: ['sitemap.xml:3'],
  },
  'sitemap/uniform-lastmod': {
    file: 'sitemap.xml',
    edit: (t) => t.replace(/<lastmod>[^<]*<\/lastmod>/g, '<lastmod>2024-01-01</lastmod>'),
    at: ['sitemap.xml'],
  },
  'robots/invalid-line': { file: 'robots.txt', edit: (t) => t.replace('Allow: /', 'Allow: /\nDisalow: /private'), at: ['robots.txt:3'] },
  'robots/sitemap-not-absolute': { file: 'robots.txt', edit: (t) => t + 'Sitemap: /sitemap-extra.xml\n', at: ['robots.txt:5'] },
  'robots/blocks-indexable': { file: 'robots.txt', edit: (t) => t.replace('Allow: /', 'Disallow: /about'), at: ['/about'] },
};

const LIGHTHOUSE_ONLY = ['lighthouse/budget', 'lighthouse/failed-audit', 'lighthouse/error'];
/** Only a crawl raises these: tests/audit/crawl.test.ts plants each on a server. */
const CRAWL_ONLY = RULES.map((r) => r.id).filter((id) => id.startsWith('http/'));

describe('audit rules', () => {
  let faults: AuditReport;
  beforeAll(async () => {
    faults = await audit(FAULTS, {});
  });

  it('has a planted fault for every rule (Lighthouse rules are tested in tests/e2e/audit-lighthouse, crawl rules in tests/audit/crawl)', () => {
    const covered = new Set([...Object.keys(PAGE_FAULTS), ...Object.keys(FILE_FAULTS), ...LIGHTHOUSE_ONLY, ...CRAWL_ONLY]);
    expect(RULES.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it('the faults fixture raises no rule that has no planted fault there', () => {
    const unexpected = [...locations(faults).keys()].filter((rule) => !(rule in PAGE_FAULTS));
    expect(unexpected).toEqual([]);
  });

  for (const [rule, where] of Object.entries(PAGE_FAULTS)) {
    it(`${rule} fires on its planted fault and nowhere else`, () => {
      expect(locations(faults).get(rule) ?? []).toEqual([...where].sort());
    });
  }

  for (const [rule, plant] of Object.entries(FILE_FAULTS)) {
    it(`${rule} fires on its planted fault in ${plant.file} and nowhere else`, async () => {
      const dir = copyFixture(CLEAN);
      try {
        const file = join(dir, 'site', plant.file);
        const changed = plant.edit(readFileSync(file, 'utf8'));
        if (changed === null) rmSync(file);
        else writeFileSync(file, changed);
        const report = await audit(dir, plant.rules ?? {});
        expect(Object.fromEntries(locations(report))).toEqual({ [rule]: plant.at });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('the clean fixture has zero findings', async () => {
    const report = await audit(CLEAN);
    expect(report.findings).toEqual([]);
    expect(report.summary.pages).toBe(7);
    expect(report.origin).toBe('https://example.com');
  });

  it('explains the known catalogue warts as info findings', () => {
    const legacy = faults.findings.find((x) => x.rule === 'url/legacy-slug')!;
    expect(legacy.severity).toBe('info');
    expect(legacy.message).toMatch(/on purpose/);
    const filled = faults.findings.find((x) => x.rule === 'meta/filled-by-build')!;
    expect(filled.severity).toBe('info');
    expect(filled.message).toMatch(/description, keywords/);
  });

  it('turns rules off and changes severities and thresholds from the config', async () => {
    const report = await audit(FAULTS, {
      'title/too-long': { max: 200 },
      'links/orphan': 'off',
      'url/uppercase': 'error',
      'content/low-word-count': { severity: 'info', minWords: 10 },
    });
    const where = locations(report);
    expect(where.has('title/too-long')).toBe(false);
    expect(where.has('links/orphan')).toBe(false);
    expect(where.has('content/low-word-count')).toBe(false);
    expect(report.findings.find((x) => x.rule === 'url/uppercase')!.severity).toBe('error');
  });

  it('summarises findings by rule and by screen kind, and rows per page', () => {
    expect(faults.summary.byRule.find((r) => r.rule === 'title/duplicate')).toEqual({ rule: 'title/duplicate', severity: 'warning', count: 2 });
    const total = faults.summary.byScreen.reduce((n, s) => n + s.findings, 0);
    expect(total).toBe(faults.findings.length);
    const row = faults.pages.find((p) => p.url === '/faults/links-orphan')!;
    expect(row).toMatchObject({ inlinks: 0, indexable: true, rules: ['links/orphan'] });
    expect(faults.pages.find((p) => p.url === '/faults/links-deep')!.depth).toBe(4);
  });
});
