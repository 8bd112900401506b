/**
 * What `site dev` serves is what `site build` writes: the same bytes for a
 * page but for the dev script tag, and the same generated files (needs the
 * compiled build/).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireFreshBuild } from '../compiled.js';
import { ARTICLE, BIN, request, type Running, type Sandbox, sandbox, startDev } from './helpers.js';

let box: Sandbox;
let dev: Running;
const dist = () => join(box.root, 'dist');

beforeAll(async () => {
  requireFreshBuild();
  box = sandbox();
  const built = spawnSync(process.execPath, [BIN, 'build', '--data-dir', box.data, '--out', dist(), '--reports', join(box.root, 'reports')], {
    cwd: box.root,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production', SITE_CACHE_DIR: join(box.root, '.cache') },
  });
  expect(built.status, built.stderr).toBe(0);
  dev = await startDev(['--data-dir', box.data], box.root);
}, 180_000);

afterAll(async () => {
  await dev?.stop();
  box?.cleanup();
});

const withoutDevScript = (html: string): string => html.replace(/<script src="\/__site\/dev\.js" data-hash="[^"]*" defer><\/script>/, '');

describe('site dev serves what site build writes', () => {
  it.each([
    ['/', 'index.html'],
    [ARTICLE.path, `${ARTICLE.path.slice(1)}/index.html`],
    ['/monomer/stephania-extract', 'monomer/stephania-extract/index.html'],
    ['/knowledge', 'knowledge/index.html'],
    ['/contact-us', 'contact-us/index.html'],
  ])('page %s', async (path, file) => {
    const page = await request(dev.url, path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('/__site/dev.js');
    expect(withoutDevScript(page.text)).toBe(readFileSync(join(dist(), file), 'utf8'));
  });

  it('the 404 page, robots.txt, the sitemap, the search index and the artwork', async () => {
    const missing = await request(dev.url, '/no-such-page');
    expect(missing.status).toBe(404);
    expect(withoutDevScript(missing.text)).toBe(readFileSync(join(dist(), '404.html'), 'utf8'));
    expect((await request(dev.url, '/robots.txt')).text).toBe(readFileSync(join(dist(), 'robots.txt'), 'utf8'));
    // The shipped catalogue has no photographs, whose image entries only the build's sitemap lists.
    expect((await request(dev.url, '/sitemap.xml')).text).toBe(readFileSync(join(dist(), 'sitemap.xml'), 'utf8'));
    const entry = await request(dev.url, '/search/entry.json');
    expect(entry.text).toBe(readFileSync(join(dist(), 'search/entry.json'), 'utf8'));
    const { shards } = JSON.parse(entry.text) as { shards: string[] };
    for (const shard of shards) expect((await request(dev.url, shard)).text).toBe(readFileSync(join(dist(), shard), 'utf8'));
    const product = readFileSync(join(dist(), 'monomer/stephania-extract/index.html'), 'utf8');
    const art = /(\/images\/products\/[^"]+\.svg)/.exec(product)![1];
    expect((await request(dev.url, art)).text).toBe(readFileSync(join(dist(), art), 'utf8'));
    expect((await request(dev.url, '/images/logo.svg')).text).toBe(readFileSync(join(dist(), 'images/logo.svg'), 'utf8'));
  });
});
