/**
 * The crawl against a node:http server on 127.0.0.1 that plants every fault
 * the crawl rules look for, records each request it gets, and is stopped at
 * the end. runCrawlAudit is called in-process; tests/e2e/audit-crawl.test.ts
 * drives the CLI against site serve, Python's http.server and nginx.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawlAudit, CrawlStartError, type CrawlAuditOptions } from '../../src/audit/crawl/index.js';
import type { AuditReport } from '../../src/audit/index.js';
import { RULES } from '../../src/audit/rules.js';
import { TODAY, locations, settings } from './helpers.js';

const WORDS = 'extract powder assay purity batch factory sample bulk supplier quality analysis certificate herb root leaf seed '.repeat(16);

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} - a planted crawl fault fixture</title>
<meta name="description" content="${title}: a page of the fixture that plants one crawl fault per URL, for the audit's tests to find.">
${head}</head><body><main><h1>${title}</h1><p>${WORDS}</p>${body}</main></body></html>`;
}

interface Served {
  origin: string;
  requests: Array<{ host: string; path: string }>;
  close(): Promise<void>;
}

/**
 * The fault site. `unknown` says how a URL that names nothing is answered:
 * 'soft' a 200 page, 'status' a not-found page with 200, 'ok' a real 404.
 */
async function faultServer(unknown: 'soft' | 'status' | 'ok'): Promise<Served> {
  const requests: Served['requests'] = [];
  let origin = '';
  const canonical = (path: string) => `<link rel="canonical" href="${origin}${path}">`;
  const html = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(body);
  };
  const redirect = (res: ServerResponse, status: number, location: string) => {
    res.writeHead(status, { location });
    res.end();
  };
  const routes: Record<string, (res: ServerResponse) => void> = {
    '/': (res) =>
      html(
        res,
        200,
        page(
          'Home',
          [
            '/moved-temp',
            '/drop',
            '/loop-a',
            '/chain-1',
            '/noindex-page',
            '/canon-source',
            '/slash',
            '/insecure',
            '/private',
            '/target',
            `http://localhost:${new URL(origin).port}/other-host`,
          ]
            .map((href, i) => `<a href="${href}">Fault number ${i}</a>`)
            .join(' ') + '<img src="/error.png" alt="e" width="1" height="1">',
          canonical('/') + '<script src="/missing.js"></script>',
        ),
      ),
    '/robots.txt': (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`User-agent: *\nDisallow: /private\n\nSitemap: ${origin}/sitemap.xml\n`);
    },
    '/sitemap.xml': (res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/', '/target', '/noindex-page'].map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`,
      );
    },
    '/moved-temp': (res) => redirect(res, 302, '/target'),
    // The connection closed without an answer, every time (so the client's one retry fails too).
    '/drop': (res) => res.socket?.destroy(),
    '/loop-a': (res) => redirect(res, 301, '/loop-b'),
    '/loop-b': (res) => redirect(res, 301, '/loop-a'),
    '/chain-1': (res) => redirect(res, 301, '/chain-2'),
    '/chain-2': (res) => redirect(res, 301, '/chain-3'),
    '/chain-3': (res) => redirect(res, 301, '/target'),
    '/slash': (res) => redirect(res, 301, '/slash/'),
    '/slash/': (res) => html(res, 200, page('Slash', '<a href="/">Home page</a>', canonical('/slash/'))),
    '/insecure': (res) => redirect(res, 301, origin.replace('http:', 'https:') + '/insecure'),
    '/noindex-page': (res) => html(res, 200, page('Noindex by header', '<a href="/">Home page</a>', canonical('/noindex-page')), { 'x-robots-tag': 'noindex' }),
    '/canon-source': (res) => html(res, 200, page('Canonical source', '<a href="/">Home page</a>', canonical('/canon-old'))),
    '/canon-old': (res) => redirect(res, 301, '/target'),
    '/target': (res) => html(res, 200, page('Target', '<a href="/">Home page</a><h1>A second H1</h1>', canonical('/target'))),
    '/private': (res) => html(res, 200, page('Private', '<a href="/">Home page</a>', canonical('/private'))),
    // A missing file is answered 404 even where unknown pages are not (the soft-404 server, like most, falls back for pages only).
    '/missing.js': (res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such file');
    },
    '/error.png': (res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('boom');
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ host: req.headers.host ?? '', path });
    const route = routes[path];
    if (route) return route(res);
    if (unknown === 'soft') return html(res, 200, page('Welcome', '<a href="/">Home page</a>'));
    if (unknown === 'status') return html(res, 200, page('Page not found', '<a href="/">Home page</a>'));
    html(res, 404, page('Page not found', '<a href="/">Home page</a>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const options = (url: string, more: Partial<CrawlAuditOptions> = {}): CrawlAuditOptions => ({
  url,
  settings: settings(),
  concurrency: 4,
  maxPages: 100,
  timeoutMs: 5000,
  ignoreRobots: false,
  today: TODAY,
  ...more,
});

describe('crawl audit of a site with planted faults', () => {
  let server: Served;
  let report: AuditReport;
  let found: Map<string, string[]>;
  const messages = (rule: string) => report.findings.filter((f) => f.rule === rule).map((f) => f.message);

  beforeAll(async () => {
    server = await faultServer('soft');
    report = await runCrawlAudit(options(server.origin + '/'));
    found = locations(report);
  });
  afterAll(() => server.close());

  it('finds a 302 where a 301 belongs', () => {
    expect(messages('http/temporary-redirect')).toEqual([expect.stringContaining(`${server.origin}/moved-temp redirects with 302 (temporary) to /target`)]);
  });

  it('finds the link that gets no answer, and the link to a redirect', () => {
    expect(messages('http/unreachable')).toEqual([expect.stringMatching(new RegExp(`^${server.origin}/drop got no answer \\(.*\\); linked from /\\.$`))]);
    expect(messages('http/linked-redirect')).toEqual([
      `${server.origin}/chain-1 redirects to ${server.origin}/target; linked from /.`,
      `${server.origin}/moved-temp redirects to ${server.origin}/target; linked from /.`,
    ]);
  });

  it('finds the redirect loop and the chain of 3', () => {
    expect(found.get('http/redirect-loop')).toEqual(['/']);
    expect(messages('http/redirect-loop')[0]).toContain(`${server.origin}/loop-a redirects in a loop`);
    expect(messages('http/redirect-chain')).toEqual([expect.stringContaining(`${server.origin}/chain-1 takes 3 redirects`)]);
  });

  it('finds the http-to-https and trailing-slash redirects', () => {
    expect(messages('http/https-redirect')).toEqual([expect.stringContaining(`${server.origin}/insecure redirects to https`)]);
    expect(messages('http/trailing-slash-redirect')).toEqual([expect.stringContaining(`${server.origin}/slash redirects to /slash/`)]);
  });

  it('finds the soft 404: a made-up URL answered 200', () => {
    expect(messages('http/soft-404')).toEqual([expect.stringContaining('a made-up URL, answered 200')]);
    expect(report.findings.find((f) => f.rule === 'http/soft-404')!.file).toContain('/site-audit-no-such-page-');
  });

  it('finds noindex by header, and the sitemap listing that page', () => {
    expect(found.get('http/noindex-header')).toEqual(['/noindex-page']);
    expect(found.get('sitemap/non-indexable-url')).toEqual(['/noindex-page']);
  });

  it('finds the canonical that redirects, on the page that names it', () => {
    expect(found.get('http/canonical-redirects')).toEqual(['/canon-source']);
    expect(messages('http/canonical-redirects')[0]).toBe(`The canonical ${server.origin}/canon-old redirects to ${server.origin}/target.`);
  });

  it('finds the 500 image and the missing script, each on the page that references it', () => {
    expect(messages('http/server-error')).toEqual([`${server.origin}/error.png answered 500; linked from /.`]);
    expect(messages('http/client-error')).toEqual([`${server.origin}/missing.js answered 404; linked from /.`]);
    expect(found.get('img/broken')).toEqual(['/']);
  });

  it("runs the disk audit's page rules on crawled pages", () => {
    expect(report.pages.map((p) => p.url)).toEqual(['/', '/canon-source', '/noindex-page', '/slash', '/target']);
    expect(found.get('h1/multiple')).toEqual(['/target']);
    // Site-wide rules too: the soft-404 fallback is not a page, and nothing links to /canon-source's canonical target twice.
    expect(found.get('title/duplicate')).toBeUndefined();
  });

  it('obeys robots.txt and fetches only the host named', () => {
    expect(server.requests.some((r) => r.path === '/private')).toBe(false);
    expect(server.requests.every((r) => r.host === new URL(server.origin).host)).toBe(true);
    expect(report.crawl!.urls.find((u) => u.url === `${server.origin}/private`)).toMatchObject({ status: null, error: 'robots.txt "Disallow: /private"' });
  });

  it('records status, redirects, content type and the headers that matter per URL', () => {
    const row = (path: string) => report.crawl!.urls.find((u) => u.url === server.origin + path)!;
    expect(row('/chain-1')).toMatchObject({ status: 200, finalUrl: `${server.origin}/target`, redirects: [{ status: 301 }, { status: 301 }, { status: 301 }] });
    expect(row('/noindex-page')).toMatchObject({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'x-robots-tag': 'noindex' } });
    expect(report.crawl).toMatchObject({ robots: `${server.origin}/robots.txt`, robotsObeyed: true, sitemaps: [`${server.origin}/sitemap.xml`] });
  });

  it('is the same report when crawled again (deterministic order)', async () => {
    const again = await runCrawlAudit(options(server.origin + '/', { concurrency: 1 }));
    expect(again).toEqual(report);
  });
});

describe('crawl audit options', () => {
  let server: Served;
  beforeAll(async () => {
    server = await faultServer('ok');
  });
  afterAll(() => server.close());

  it('fetches what robots.txt disallows with ignoreRobots', async () => {
    const report = await runCrawlAudit(options(server.origin + '/', { ignoreRobots: true }));
    expect(server.requests.some((r) => r.path === '/private')).toBe(true);
    expect(report.pages.map((p) => p.url)).toContain('/private');
    expect(report.crawl!.robotsObeyed).toBe(false);
  });

  it('stops at maxPages', async () => {
    const report = await runCrawlAudit(options(server.origin + '/', { maxPages: 2 }));
    expect(report.crawl!.pagesRead).toBeLessThanOrEqual(2);
    expect(report.crawl!.skippedForMaxPages).toBeGreaterThan(0);
  });

  it('finds no soft 404 where missing URLs answer 404', async () => {
    const report = await runCrawlAudit(options(server.origin + '/'));
    expect(report.findings.filter((f) => f.rule === 'http/soft-404' || f.rule === 'http/not-found-status')).toEqual([]);
    expect(report.crawl!.notFound.status).toBe(404);
  });

  it('fails with a clear error when nothing answers at the start URL', async () => {
    const closed = await faultServer('ok');
    await closed.close();
    await expect(runCrawlAudit(options(closed.origin + '/'))).rejects.toThrow(CrawlStartError);
    await expect(runCrawlAudit(options(closed.origin + '/'))).rejects.toThrow(/nothing answers at http:\/\/127\.0\.0\.1:\d+\/: ECONNREFUSED/);
  });
});

describe('the crawl rules', () => {
  it("each fire on a planted fault of this file's servers", async () => {
    const fired = new Set<string>();
    for (const unknown of ['soft', 'status'] as const) {
      const server = await faultServer(unknown);
      try {
        for (const f of (await runCrawlAudit(options(server.origin + '/'))).findings) fired.add(f.rule);
      } finally {
        await server.close();
      }
    }
    expect(RULES.map((r) => r.id).filter((id) => id.startsWith('http/') && !fired.has(id))).toEqual([]);
  });
});

describe('a not-found page answered 200', () => {
  it('is reported as a 404 page with another status, not as a soft 404', async () => {
    const server = await faultServer('status');
    try {
      const report = await runCrawlAudit(options(server.origin + '/'));
      expect(report.findings.filter((f) => f.rule === 'http/not-found-status').map((f) => f.message)).toEqual([
        expect.stringContaining('a made-up URL, answered 200 with a not-found page instead of 404'),
      ]);
      expect(report.findings.some((f) => f.rule === 'http/soft-404')).toBe(false);
    } finally {
      await server.close();
    }
  });
});
