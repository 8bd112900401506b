import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, type ServeOptions, startServer } from '../../src/serve/server.js';
import { readFileSync } from 'node:fs';
import { FIXTURE_DIST, type Sandbox, request, sandbox } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(box: Sandbox, extra: Partial<ServeOptions> = {}): Promise<RunningServer> {
  const s = await startServer({ dir: box.dist, dataDir: box.dataDir, port: 0, watch: false, log: () => undefined, ...extra });
  cleanups.push(() => s.close());
  return s;
}

function freshBox(): Sandbox {
  const box = sandbox();
  cleanups.push(() => box.cleanup());
  return box;
}

describe('large files (streamed from disk)', () => {
  it('streams whole files and ranges above the in-memory limit', async () => {
    const box = freshBox();
    const blob = randomBytes(300_000);
    writeFileSync(join(box.dist, 'images', 'catalogue.pdf'), blob);
    const s = await serve(box, { maxEntryBytes: 64 * 1024 });
    const whole = await request(s.url, '/images/catalogue.pdf', { headers: { 'accept-encoding': 'br' } });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('application/pdf');
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.body.equals(blob)).toBe(true);
    const part = await request(s.url, '/images/catalogue.pdf', { headers: { range: 'bytes=100000-100099' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100000-100099/300000');
    expect(part.body.equals(blob.subarray(100_000, 100_100))).toBe(true);
    const tail = await request(s.url, '/images/catalogue.pdf', { headers: { range: 'bytes=-10' } });
    expect(tail.body.equals(blob.subarray(-10))).toBe(true);
    const etag = String(whole.headers.etag);
    expect((await request(s.url, '/images/catalogue.pdf', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});

describe('the file cache', () => {
  it('answers correctly while a small budget keeps evicting', async () => {
    const box = freshBox();
    const s = await serve(box, { cacheBytes: 8 * 1024 });
    const pages = ['/', '/monomer', '/monomer/bulk-curcumin', '/contact-us', '/thanks', '/about-us'];
    for (let round = 0; round < 3; round++) {
      for (const path of pages) {
        const file = path === '/' ? 'index.html' : `${path.slice(1)}/index.html`;
        const r = await request(s.url, path, { headers: { 'accept-encoding': round === 1 ? 'br' : 'identity' } });
        const body = r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.body;
        expect(body.equals(readFileSync(join(FIXTURE_DIST, file))), `${path} round ${round}`).toBe(true);
      }
    }
  });

  it('keeps the most recently used files within its budget', async () => {
    const box = freshBox();
    const size = (file: string) => readFileSync(join(box.dist, file)).length;
    // Room for /thanks and /monomer, not for /monomer/bulk-curcumin as well.
    const s = await serve(box, { cacheBytes: size('thanks/index.html') + size('monomer/index.html') + 100 });
    expect((await request(s.url, '/thanks')).text).toContain('We received your inquiry.');
    await request(s.url, '/monomer');
    // Changed on disk behind the server's back: a cached file is still answered from memory…
    writeFileSync(join(box.dist, 'thanks', 'index.html'), '<!doctype html><p>Changed on disk.</p>');
    expect((await request(s.url, '/thanks')).text).toContain('We received your inquiry.');
    // …until newer files push it out (the hit above made /monomer the oldest; then /thanks goes).
    await request(s.url, '/monomer/bulk-curcumin');
    await request(s.url, '/monomer');
    expect((await request(s.url, '/thanks')).text).toContain('Changed on disk.');
  });
});

describe('non-ASCII paths', () => {
  it('serves and redirects a page whose slug is not ASCII', async () => {
    const box = freshBox();
    mkdirSync(join(box.dist, 'knowledge', 'café-über-✓'), { recursive: true });
    writeFileSync(join(box.dist, 'knowledge', 'café-über-✓', 'index.html'), '<!doctype html><title>Unicode</title><p>Unicode slug.</p>');
    const s = await serve(box);
    const path = `/knowledge/${encodeURIComponent('café-über-✓')}`;
    const page = await request(s.url, path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Unicode slug.');
    const slash = await request(s.url, `${path}/?q=1`);
    expect(slash.status).toBe(301);
    expect(slash.headers.location).toBe(`${path}?q=1`);
  });
});

describe('precompressed siblings', () => {
  it('serves a .br sibling the build wrote, and never the sibling as a page of its own', async () => {
    const box = freshBox();
    const marker = Buffer.from('/* precompressed by the build */');
    writeFileSync(join(box.dist, 'assets', 'main-8b2e4d.js.br'), brotliCompressSync(marker));
    const s = await serve(box);
    const r = await request(s.url, '/assets/main-8b2e4d.js', { headers: { 'accept-encoding': 'br' } });
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.body.equals(brotliCompressSync(marker))).toBe(true);
    expect((await request(s.url, '/assets/main-8b2e4d.js.br')).status).toBe(404);
  });
});

describe('a new build swapped in', () => {
  it('is served without a restart', async () => {
    const box = freshBox();
    const s = await serve(box, { watch: true });
    const before = await request(s.url, '/thanks');
    expect(before.text).toContain('We received your inquiry.');
    // What the build does: write a complete new dist beside, rename the old one aside, rename the new one in.
    const next = join(box.root, '.dist-next');
    cpSync(FIXTURE_DIST, next, { recursive: true });
    writeFileSync(join(next, 'thanks', 'index.html'), '<!doctype html><title>Thanks</title><p>Rebuilt thank-you page.</p>');
    mkdirSync(join(next, 'news'));
    writeFileSync(join(next, 'news', 'index.html'), '<!doctype html><title>News</title><p>News list.</p>');
    renameSync(box.dist, join(box.root, 'dist.old'));
    renameSync(next, box.dist);
    await expect.poll(async () => (await request(s.url, '/thanks')).text, { timeout: 5000 }).toContain('Rebuilt thank-you page.');
    expect((await request(s.url, '/news')).status).toBe(200);
    expect((await request(s.url, '/about-us')).status).toBe(200);
  });

  it('follows a deploy that swaps a dist/ symlink to another release', async () => {
    const box = freshBox();
    const releases = join(box.root, 'releases');
    mkdirSync(releases);
    renameSync(box.dist, join(releases, 'a'));
    cpSync(join(releases, 'a'), join(releases, 'b'), { recursive: true });
    writeFileSync(join(releases, 'b', 'thanks', 'index.html'), '<!doctype html><title>Thanks</title><p>Release b.</p>');
    symlinkSync(join(releases, 'a'), box.dist);
    const s = await serve(box, { watch: true });
    expect((await request(s.url, '/thanks')).text).toContain('We received your inquiry.');
    symlinkSync(join(releases, 'b'), join(box.root, 'dist.tmp'));
    renameSync(join(box.root, 'dist.tmp'), box.dist);
    await expect.poll(async () => (await request(s.url, '/thanks')).text, { timeout: 5000 }).toContain('Release b.');
    // Release a deleted: nothing of it is served any more, and nothing crashes.
    rmSync(join(releases, 'a'), { recursive: true });
    expect((await request(s.url, '/monomer')).status).toBe(200);
  });

  it('keeps running while dist/ is missing for a moment', async () => {
    const box = freshBox();
    const s = await serve(box, { watch: true });
    expect((await request(s.url, '/monomer')).status).toBe(200);
    renameSync(box.dist, join(box.root, 'dist.old'));
    await new Promise((r) => setTimeout(r, 400));
    expect((await request(s.url, '/contact-us')).status).toBe(404);
    renameSync(join(box.root, 'dist.old'), box.dist);
    await expect.poll(async () => (await request(s.url, '/contact-us')).status, { timeout: 5000 }).toBe(200);
  });
});

describe('symbolic links in dist/', () => {
  it('serves the site around a link loop, never follows it, and says so in one line', async () => {
    const box = freshBox();
    // A folder linking to itself, a link to itself, a link to nothing, and a link to another folder of dist/.
    symlinkSync('.', join(box.dist, 'monomer', 'again'));
    symlinkSync('self', join(box.dist, 'self'));
    symlinkSync('gone', join(box.dist, 'dangling'));
    symlinkSync(join(box.dist, 'images'), join(box.dist, 'pictures'));
    const lines: string[] = [];
    const s = await serve(box, { log: (line) => lines.push(line) });
    expect((await request(s.url, '/monomer/bulk-curcumin')).status).toBe(200);
    const linked = await request(s.url, '/pictures/products/bulk-curcumin.svg');
    expect(linked.status).toBe(200);
    expect(linked.body.equals(readFileSync(join(FIXTURE_DIST, 'images/products/bulk-curcumin.svg')))).toBe(true);
    for (const path of ['/monomer/again', '/monomer/again/bulk-curcumin', '/monomer/again/again/bulk-curcumin', '/self', '/dangling']) {
      expect((await request(s.url, path)).status, path).toBe(404);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('3 symbolic links not served');
    expect(lines[0]).toContain('/monomer/again (a loop)');
    expect(lines[0]).toContain('/self (a loop)');
    expect(lines[0]).toContain('/dangling (leads nowhere)');
  });
});

describe('responses answered from memory', () => {
  it('carry the same status, headers and body as the first answer of the same URL', async () => {
    const box = freshBox();
    const s = await serve(box);
    const cases: Array<[string, Record<string, string>, string?]> = [
      ['/monomer/bulk-curcumin', { 'accept-encoding': 'gzip, deflate, br' }],
      ['/monomer/bulk-curcumin', { 'accept-encoding': 'gzip' }],
      ['/monomer/bulk-curcumin', {}],
      ['/assets/main-8b2e4d.js', { 'accept-encoding': 'br' }],
      ['/robots.txt', { 'accept-encoding': 'br' }],
      ['/', {}, 'HEAD'],
    ];
    const withoutDate = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'date'));
    for (const [path, headers, method] of cases) {
      const first = await request(s.url, path, { headers, method });
      // The compressed variant is made after the first answer: ask until it is the one sent.
      await expect
        .poll(async () => (await request(s.url, path, { headers, method })).headers['content-encoding'], { timeout: 5000 })
        .toBe(first.headers['content-encoding']);
      const second = await request(s.url, path, { headers, method });
      const third = await request(s.url, path, { headers, method });
      for (const later of [second, third]) {
        expect(later.status, path).toBe(first.status);
        expect(withoutDate(later.headers), path).toEqual(withoutDate(first.headers));
        expect(later.body.equals(first.body), path).toBe(true);
      }
    }
  });
});
