import { createHash } from 'node:crypto';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { type RunningServer, startServer } from '../../src/serve/server.js';
import { createStaticSite } from '../../src/serve/static.js';
import { FIXTURE_DIST, type Sandbox, rawRequest, request, sandbox } from './helpers.js';

const SECRET = 'TOP-SECRET-BESIDE-DIST-7f3a9c';
let box: Sandbox;
let srv: RunningServer;
let base: string;

beforeAll(async () => {
  box = sandbox();
  // Things a traversal would like to reach: a file beside dist/, a dotfile and a symlink out of it.
  writeFileSync(join(box.root, 'secret.txt'), SECRET);
  writeFileSync(join(box.dist, '.env'), SECRET);
  symlinkSync(join(box.root, 'secret.txt'), join(box.dist, 'leak.txt'));
  srv = await startServer({ dir: box.dist, dataDir: box.dataDir, port: 0, watch: false, log: () => undefined });
  base = srv.url;
});

afterAll(async () => {
  await srv?.close();
  box?.cleanup();
});

const fixture = (path: string) => readFileSync(join(FIXTURE_DIST, path));

describe('routes', () => {
  it.each([
    ['/', 'index.html', 'text/html'],
    ['/monomer', 'monomer/index.html', 'text/html'],
    ['/monomer/bulk-curcumin', 'monomer/bulk-curcumin/index.html', 'text/html'],
    ['/contact-us', 'contact-us/index.html', 'text/html'],
    ['/thanks', 'thanks/index.html', 'text/html'],
    ['/assets/main-8b2e4d.js', 'assets/main-8b2e4d.js', 'text/javascript'],
    ['/assets/styles-3f9a1c.css', 'assets/styles-3f9a1c.css', 'text/css'],
    ['/images/products/bulk-curcumin.svg', 'images/products/bulk-curcumin.svg', 'image/svg+xml'],
    ['/robots.txt', 'robots.txt', 'text/plain'],
  ])('GET %s serves %s', async (path, file, type) => {
    const r = await request(base, path);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toContain(type);
    expect(r.body.equals(fixture(file))).toBe(true);
    expect(Number(r.headers['content-length'])).toBe(fixture(file).length);
  });

  it('redirects a trailing slash to the clean URL with 301, keeping the query', async () => {
    const r = await request(base, '/monomer/bulk-curcumin/?utm_source=x&a=b');
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe('/monomer/bulk-curcumin?utm_source=x&a=b');
    const idx = await request(base, '/monomer/index.html');
    expect(idx.status).toBe(301);
    expect(idx.headers.location).toBe('/monomer');
    expect((await request(base, '/index.html')).headers.location).toBe('/');
  });

  it("redirects a page's .html twin to the clean URL with 301; another .html file is served as it is", async () => {
    writeFileSync(join(box.dist, 'monomer.html'), fixture('monomer/index.html'));
    const twin = await request(base, '/monomer.html?a=b');
    expect(twin.status).toBe(301);
    expect(twin.headers.location).toBe('/monomer?a=b');
    const nf = await request(base, '/404.html');
    expect(nf.status).toBe(200);
    expect(nf.text).toContain('This page could not be found.');
  });

  it('answers unknown paths with 404.html and status 404', async () => {
    for (const path of ['/no-such-page', '/monomer/no-such-product', '/no-such/', '/assets/missing.js', '/monomer/bulk-curcumin/extra']) {
      const r = await request(base, path);
      expect(r.status, path).toBe(404);
      expect(r.text).toContain('This page could not be found.');
      expect(r.headers['content-type']).toContain('text/html');
    }
  });

  it('answers a request that failed on our side with 500.html, status 500 and no caching; plain text without the file', async () => {
    const errorOf = async (root: string) => {
      const site = createStaticSite({ root, watch: false });
      // What the server does when handling a page request throws.
      const server = createServer((req, res) => void site.sendError(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      try {
        return await request(`http://127.0.0.1:${port}`, '/monomer');
      } finally {
        server.close();
        site.close();
      }
    };
    const r = await errorOf(box.dist);
    expect(r.status).toBe(500);
    expect(r.headers['content-type']).toContain('text/html');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.text).toContain('<h1>Error</h1>');
    expect(r.text).toContain('href="/"');

    const bare = sandbox();
    try {
      rmSync(join(bare.dist, '500.html'));
      const plain = await errorOf(bare.dist);
      expect(plain.status).toBe(500);
      expect(plain.headers['content-type']).toContain('text/plain');
      expect(plain.text).toBe('Internal server error.\n');
    } finally {
      bare.cleanup();
    }
  });

  it('lists no directories', async () => {
    const r = await request(base, '/images/products');
    expect(r.status).toBe(404);
    expect(r.text).not.toContain('bulk-curcumin.svg');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await request(base, '/monomer');
    const head = await request(base, '/monomer', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers.etag).toBe(get.headers.etag);
  });

  it('refuses other methods with 405 and Allow', async () => {
    const r = await request(base, '/monomer', { method: 'POST', body: 'x' });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET, HEAD');
    const api = await request(base, '/api/inquiry');
    expect(api.status).toBe(405);
    expect(api.headers.allow).toBe('POST');
  });
});

describe('conditional requests', () => {
  it('answers If-None-Match with 304 and the validators', async () => {
    const first = await request(base, '/monomer');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await request(base, '/monomer', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect((await request(base, '/monomer', { headers: { 'if-none-match': `"other", W/${etag}` } })).status).toBe(304);
    expect((await request(base, '/monomer', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('answers If-Modified-Since with 304 when not modified, 200 when older', async () => {
    const first = await request(base, '/robots.txt');
    const lm = String(first.headers['last-modified']);
    expect((await request(base, '/robots.txt', { headers: { 'if-modified-since': lm } })).status).toBe(304);
    const older = new Date(Date.parse(lm) - 60_000).toUTCString();
    expect((await request(base, '/robots.txt', { headers: { 'if-modified-since': older } })).status).toBe(200);
  });

  it('gives each encoding its own ETag and varies on Accept-Encoding', async () => {
    const plain = await request(base, '/monomer/bulk-curcumin');
    const br = await request(base, '/monomer/bulk-curcumin', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const gz = await request(base, '/monomer/bulk-curcumin', { headers: { 'accept-encoding': 'gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
    for (const r of [plain, br, gz]) expect(r.headers.vary).toBe('Accept-Encoding');
    const original = fixture('monomer/bulk-curcumin/index.html');
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);
    expect(gunzipSync(gz.body).equals(original)).toBe(true);
    expect(br.body.length).toBeLessThan(original.length);
    // A validator of one encoding does not validate another.
    const cross = await request(base, '/monomer/bulk-curcumin', { headers: { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) } });
    expect(cross.status).toBe(200);
    const same = await request(base, '/monomer/bulk-curcumin', { headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) } });
    expect(same.status).toBe(304);
  });

  it('does not compress when the client refuses it or the type is not text', async () => {
    const none = await request(base, '/monomer/bulk-curcumin', { headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(none.headers['content-encoding']).toBeUndefined();
    const svg = await request(base, '/images/products/bulk-curcumin.svg', { headers: { 'accept-encoding': 'br' } });
    expect(svg.headers['content-encoding']).toBe('br');
  });
});

describe('ranges', () => {
  const file = () => fixture('monomer/bulk-curcumin/index.html');

  it('serves a byte range with 206 and Content-Range', async () => {
    const r = await request(base, '/monomer/bulk-curcumin', { headers: { range: 'bytes=10-19', 'accept-encoding': 'br' } });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 10-19/${file().length}`);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.equals(file().subarray(10, 20))).toBe(true);
  });

  it('reads bytes=0-0 as one byte and bytes=-N as the last N bytes', async () => {
    const one = await request(base, '/monomer/bulk-curcumin', { headers: { range: 'bytes=0-0' } });
    expect(one.status).toBe(206);
    expect(one.body.equals(file().subarray(0, 1))).toBe(true);
    const tail = await request(base, '/monomer/bulk-curcumin', { headers: { range: 'bytes=-7' } });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(file().subarray(file().length - 7))).toBe(true);
    const open = await request(base, '/monomer/bulk-curcumin', { headers: { range: `bytes=${file().length - 3}-` } });
    expect(open.body.equals(file().subarray(file().length - 3))).toBe(true);
  });

  it('answers an unsatisfiable range with 416 and bytes */size', async () => {
    const r = await request(base, '/monomer/bulk-curcumin', { headers: { range: `bytes=${file().length}-` } });
    expect(r.status).toBe(416);
    expect(r.headers['content-range']).toBe(`bytes */${file().length}`);
  });

  it('ignores malformed ranges, other units and stale If-Range', async () => {
    for (const range of ['bytes=5-2', 'items=0-5', 'bytes=0-1,5-6', 'bytes=abc']) {
      const r = await request(base, '/monomer/bulk-curcumin', { headers: { range } });
      expect(r.status, range).toBe(200);
      expect(r.body.length).toBe(file().length);
    }
    const etag = String((await request(base, '/monomer/bulk-curcumin')).headers.etag);
    expect((await request(base, '/monomer/bulk-curcumin', { headers: { range: 'bytes=0-4', 'if-range': etag } })).status).toBe(206);
    expect((await request(base, '/monomer/bulk-curcumin', { headers: { range: 'bytes=0-4', 'if-range': '"stale"' } })).status).toBe(200);
  });
});

describe('headers', () => {
  it('marks hashed assets immutable and HTML as revalidate', async () => {
    expect((await request(base, '/assets/main-8b2e4d.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await request(base, '/')).headers['cache-control']).toBe('no-cache');
  });

  it('sends the security headers on every kind of response', async () => {
    const replies = await Promise.all([
      request(base, '/'),
      request(base, '/assets/main-8b2e4d.js'),
      request(base, '/nope'),
      request(base, '/monomer/'),
      request(base, '/%2e%2e/secret.txt'),
      request(base, '/monomer', { method: 'DELETE' }),
      request(base, '/api/inquiry', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
    ]);
    for (const r of replies) {
      expect(r.headers['x-content-type-options'], String(r.status)).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(r.headers['x-frame-options']).toBe('DENY');
      const csp = String(r.headers['content-security-policy']);
      for (const d of ["default-src 'self'", "img-src 'self' data:", "style-src 'self'", "frame-ancestors 'none'", "form-action 'self'", "base-uri 'self'"]) {
        expect(csp).toContain(d);
      }
      expect(csp).not.toContain('unsafe-inline');
    }
  });

  it("hashes the page's inline scripts into script-src, but not JSON-LD", async () => {
    const home = await request(base, '/');
    const inline = 'document.documentElement.dataset.js="on"';
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
    expect(String(home.headers['content-security-policy'])).toContain(`script-src 'self' ${hash}`);
    const about = String((await request(base, '/about-us')).headers['content-security-policy']);
    // The third-party script site.json configured, and the page's own external image, are allowed; nothing else is.
    expect(about).toContain("script-src 'self' https://www.googletagmanager.com;");
    expect(about).toContain("img-src 'self' data: https://cdn.example.com;");
    const styleHash = `'sha256-${createHash('sha256').update('color:#1d4d2b').digest('base64')}'`;
    expect(about).toContain(`style-src 'self' 'unsafe-hashes' ${styleHash};`);
    const product = await request(base, '/monomer/bulk-curcumin');
    expect(String(product.headers['content-security-policy'])).toMatch(/script-src 'self';/);
  });
});

describe('paths that try to leave dist/', () => {
  const attempts = [
    '/../secret.txt',
    '/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/.%2e/secret.txt',
    '/%2e./secret.txt',
    '/monomer/../../secret.txt',
    '/monomer/%2e%2e/%2e%2e/secret.txt',
    '/%252e%252e/secret.txt',
    '/%252e%252e%252fsecret.txt',
    '/..%2fsecret.txt',
    '/..%2Fsecret.txt',
    '/%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/..%5Csecret.txt',
    '/..\\secret.txt',
    '/\\..\\secret.txt',
    '/%00/../secret.txt',
    '/index.html%00.txt',
    '/secret.txt%00',
    '/%c0%ae%c0%ae/secret.txt',
    '/%c0%af..%c0%afsecret.txt',
    '/%e0%80%ae%e0%80%ae/secret.txt',
    '/%uff0e%uff0e/secret.txt',
    '//secret.txt',
    '///../secret.txt',
    '/./secret.txt',
    `/${'..%2f'.repeat(8)}etc/passwd`,
    '/..;/secret.txt',
    '/.env',
    '/%2eenv',
    '/leak.txt',
    '/monomer/.%2e/.%2e/secret.txt',
    'secret.txt',
    '*',
    'http://localhost/../secret.txt',
    '/assets/..%252f..%252fsecret.txt',
  ];

  it.each(attempts)('%s gets 400 or 404 and nothing of the secret', async (target) => {
    const r = await rawRequest(base, target);
    expect([400, 404]).toContain(r.status);
    expect(r.raw.toString('latin1')).not.toContain(SECRET);
    expect(r.raw.toString('latin1')).not.toContain('root:x:0');
  });

  it('has at least 20 variants', () => expect(attempts.length).toBeGreaterThanOrEqual(20));
});
