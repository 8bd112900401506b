/**
 * The walk over dist/ in the worker pool gives the same report as the walk
 * in one thread: pages found in nested folders, files with their sizes,
 * findings and site-wide passes alike. Uses the compiled build (the pool
 * runs build/src/audit/worker.js): run `npx tsc -p tsconfig.json` first.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings, TODAY } from './helpers.js';
import { requireFreshBuild } from '../compiled.js';

const COMPILED = join(process.cwd(), 'build/src/audit/index.js');
const ORIGIN = 'https://www.example.com';

/** A catalogue-shaped site: paged lists, items in nested folders, a duplicate, a missing image, a broken link. */
function writeSite(dir: string, items: number): void {
  const page = (path: string, title: string, body: string) => {
    const folder = path === '/' ? dir : join(dir, path);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'index.html'),
      `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="${title}: specification, packaging and delivery.">` +
        `<link rel="canonical" href="${ORIGIN}${path}"></head><body data-screen="item"><nav><a href="/">Home</a> <a href="/items">Items</a></nav>` +
        `<main><h1>${title}</h1>${body}</main></body></html>`,
    );
  };
  const links: string[] = [];
  for (let i = 0; i < items; i++) {
    const path = `/items/group-${i % 7}/item-${i}`;
    links.push(path);
    if (i % 100 === 1) {
      // Items 1, 101, 201: the same main content under three URLs.
      page(path, 'Duplicate item extract powder supplier', '<p>Shared text of the duplicate items.</p><a href="/items">All items</a>');
      continue;
    }
    page(
      path,
      `Item ${i} extract powder supplier`,
      `<p>Item ${i} is a plant extract, batch ${i * 7}, assay ${i % 97} percent.</p>` +
        `<a href="/items/group-${(i + 1) % 7}/item-${(i + 1) % items}">Next item ${i + 1}</a>` +
        (i === 3 ? '<a href="/items/missing">Missing</a>' : '') +
        (i === 4 ? '<img src="/images/none.png" alt="x" width="1" height="1">' : '<img src="/images/a.png" alt="A" width="1" height="1">'),
    );
  }
  page('/', 'Home of the example extracts catalogue', '<p>Welcome.</p><a href="/items">All items</a>');
  page('/items', 'All items of the example catalogue', links.map((l) => `<a href="${l}">${l}</a>`).join(' '));
  mkdirSync(join(dir, 'images'), { recursive: true });
  writeFileSync(join(dir, 'images', 'a.png'), Buffer.alloc(200_000));
  writeFileSync(
    join(dir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${['/', '/items', ...links].map((l) => `<url><loc>${ORIGIN}${l}</loc></url>`).join('\n')}\n</urlset>\n`,
  );
}

describe('walk in the worker pool', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'audit-walk-'));
    writeSite(dir, 300);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives byte-identical reports to the walk in one thread', async () => {
    requireFreshBuild();
    const { runAudit } = (await import(COMPILED)) as typeof import('../../src/audit/index.js');
    const options = { dir, settings: settings(), today: TODAY };
    const inline = await runAudit({ ...options, threads: 0 });
    const phases: string[] = [];
    const pooled = await runAudit({ ...options, threads: 2, poolMinFolders: 20, onPhase: (name) => phases.push(name) });
    expect(JSON.stringify(pooled)).toBe(JSON.stringify(inline));
    expect(inline.summary.pages).toBe(302);
    expect(phases).toContain('walk 304 files, check 302 pages');
    const rules = new Set(inline.findings.map((f) => f.rule));
    for (const rule of ['links/broken', 'img/broken', 'img/too-large', 'content/exact-duplicate']) expect(rules).toContain(rule);
  });
});
