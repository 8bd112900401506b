/**
 * The crawl's pieces: scope and URL mapping, redirect arithmetic, header
 * parsing, not-found detection, reference rebasing, and the HTTP client's
 * one retry of a GET on a kept-alive socket the server closed.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, isStaleSocketError } from '../../src/audit/crawl/http.js';
import { canonicalLinks, robotsDirectives } from '../../src/audit/crawl/headers.js';
import { rebase, referencesOf } from '../../src/audit/crawl/index.js';
import { redirectKind } from '../../src/audit/crawl/redirects.js';
import { looksLikeNotFound } from '../../src/audit/crawl/rules.js';
import { crawlUrl, fileKey, inScope, makeScope, pageKey } from '../../src/audit/crawl/scope.js';
import { scanPage } from '../../src/audit/scan.js';

describe('crawl scope', () => {
  const scope = makeScope('http://127.0.0.1:8080/docs/index.html', 'https://www.example.com');

  it("takes the start URL's folder as the base path and maps the site origin onto the crawled one", () => {
    expect(scope).toEqual({ origin: 'http://127.0.0.1:8080', base: '/docs/', siteHost: 'www.example.com' });
    expect(crawlUrl('intro.html#top', 'http://127.0.0.1:8080/docs/', scope)).toBe('http://127.0.0.1:8080/docs/intro.html');
    expect(crawlUrl('https://www.example.com/docs/a?x=1', 'http://127.0.0.1:8080/docs/', scope)).toBe('http://127.0.0.1:8080/docs/a?x=1');
    expect(crawlUrl('http://www.example.com/docs/a', 'http://127.0.0.1:8080/docs/', scope)).toBe('http://127.0.0.1:8080/docs/a');
  });

  it('leaves other hosts, other schemes on the crawled host and non-http URLs alone', () => {
    expect(crawlUrl('https://cdn.example.net/x.js', 'http://127.0.0.1:8080/docs/', scope)).toBeNull();
    expect(crawlUrl('http://localhost:8080/docs/', 'http://127.0.0.1:8080/docs/', scope)).toBeNull();
    expect(crawlUrl('https://127.0.0.1:8080/docs/', 'http://127.0.0.1:8080/docs/', scope)).toBeNull();
    expect(crawlUrl('mailto:a@b.c', 'http://127.0.0.1:8080/docs/', scope)).toBeNull();
    expect(crawlUrl('http://[bad', 'http://127.0.0.1:8080/docs/', scope)).toBeNull();
  });

  it('fetches only paths under the base', () => {
    expect(inScope('http://127.0.0.1:8080/docs/a/b.html', scope)).toBe(true);
    expect(inScope('http://127.0.0.1:8080/docs', scope)).toBe(false);
    expect(inScope('http://127.0.0.1:8080/other/', scope)).toBe(false);
    expect(inScope('http://127.0.0.1:80800/docs/', scope)).toBe(false);
  });

  it('keys pages as the disk audit does', () => {
    expect(pageKey('http://h/a/b/')).toBe('/a/b');
    expect(pageKey('http://h/')).toBe('/');
    expect(pageKey('http://h/caf%C3%A9?q=1')).toBe('/café');
    expect(fileKey('/')).toBe('index.html');
    expect(fileKey('/a/b.html')).toBe('a/b.html');
  });
});

describe('redirectKind', () => {
  it('tells an https upgrade and a trailing-slash fix from other redirects', () => {
    expect(redirectKind('http://a.com/x?y=1', 'https://a.com/x?y=1')).toBe('https');
    expect(redirectKind('http://a.com/x', 'https://b.com/x')).toBe('other');
    expect(redirectKind('http://a.com/x', '/x/')).toBe('trailing-slash');
    expect(redirectKind('http://a.com/x/', 'http://a.com/x')).toBe('trailing-slash');
    expect(redirectKind('http://a.com/x', '/y')).toBe('other');
    expect(redirectKind('http://a.com/x', 'http://a.com/x')).toBe('other');
  });
});

describe('response headers', () => {
  it('reads the X-Robots-Tag directives meant for every crawler or Googlebot', () => {
    expect(robotsDirectives('noindex, nofollow')).toEqual(['noindex, nofollow']);
    expect(robotsDirectives('googlebot: noindex')).toEqual(['noindex']);
    expect(robotsDirectives('otherbot: noindex')).toEqual([]);
    expect(robotsDirectives('unavailable_after: 2025-01-01')).toEqual(['unavailable_after: 2025-01-01']);
    expect(robotsDirectives(undefined)).toEqual([]);
  });

  it('finds rel=canonical among Link header entries', () => {
    expect(canonicalLinks('<https://a.com/x>; rel="canonical"')).toEqual(['https://a.com/x']);
    expect(canonicalLinks('</style.css>; rel=preload; as=style, <https://a.com/y>; rel=canonical')).toEqual(['https://a.com/y']);
    expect(canonicalLinks('</style.css>; rel=preload')).toEqual([]);
  });
});

describe('not-found pages', () => {
  it('are told by their title or H1', () => {
    expect(looksLikeNotFound('Page not found - Example', null)).toBe(true);
    expect(looksLikeNotFound(null, '404')).toBe(true);
    expect(looksLikeNotFound('Ginseng extract', 'Ginseng extract')).toBe(false);
  });
});

describe('references of a crawled page', () => {
  const html = `<html><head><title>t</title><link rel="canonical" href="https://www.example.com/docs/"><link rel="stylesheet" href="s.css">
    <script src="/app.js"></script></head><body><a href="intro.html#x">Intro</a><a href="http://127.0.0.1:8080/docs/abs">Abs</a>
    <a href="/docs/n" rel="nofollow">N</a><img src="img/a.png" srcset="img/a2.png 2x" alt=""><iframe src="frame.html"></iframe></body></html>`;

  it('lists links, the canonical, images and subresources, not nofollow links', () => {
    const refs = referencesOf(scanPage(html, '/docs', 'http://127.0.0.1:8080/docs/'));
    expect(refs).toEqual(
      expect.arrayContaining([
        { href: 'intro.html#x', via: 'link' },
        { href: 'https://www.example.com/docs/', via: 'canonical' },
        { href: 'img/a.png', via: 'image' },
        { href: 'img/a2.png', via: 'image' },
        { href: 's.css', via: 'resource' },
        { href: '/app.js', via: 'resource' },
        { href: 'frame.html', via: 'resource' },
      ]),
    );
    expect(refs.some((r) => r.href === '/docs/n')).toBe(false);
  });

  it('rebases relative references on the URL the page was read at, not its clean path', () => {
    const facts = scanPage(html, '/docs', 'http://127.0.0.1:8080/docs/');
    rebase(facts, 'http://127.0.0.1:8080/docs/', makeScope('http://127.0.0.1:8080/docs/', 'https://www.example.com'));
    expect(facts.links.map((l) => l.href)).toEqual(['/docs/intro.html#x', '/docs/abs', '/docs/n']);
    expect(facts.images[0].src).toBe('/docs/img/a.png');
    expect(facts.images[0].srcset).toEqual(['/docs/img/a2.png']);
    expect(facts.canonicals[0].href).toBe('https://www.example.com/docs/');
  });
});

describe('HTTP client', () => {
  const sockets = new Set<Socket>();
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    for (const s of sockets) s.destroy();
    await close?.();
  });

  /** A server that answers each connection's first request with keep-alive, and drops the connection on its second. */
  async function droppingServer(): Promise<{ url: string; connections: () => number }> {
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      sockets.add(socket);
      let requests = 0;
      socket.on('data', () => {
        requests++;
        if (requests === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        else socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, connections: () => connections };
  }

  it('sends a GET again, once, when the server closed the kept-alive socket it went out on', async () => {
    const server = await droppingServer();
    const client = createHttpClient({ sockets: 1, timeoutMs: 5000, userAgent: 'test' });
    try {
      const first = await client.get(server.url, () => true);
      const second = await client.get(server.url, () => true);
      expect(first).toMatchObject({ ok: true, status: 200, body: 'ok' });
      expect(second).toMatchObject({ ok: true, status: 200, body: 'ok' });
      expect(server.connections()).toBe(2);
    } finally {
      client.close();
    }
  });

  it('retries only errors on a reused socket', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isStaleSocketError(reset, true)).toBe(true);
    expect(isStaleSocketError(reset, false)).toBe(false);
    expect(isStaleSocketError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), true)).toBe(false);
  });

  it('gives up on an answer that does not come in time', async () => {
    const server = createServer((socket) => sockets.add(socket)); // accepts, never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const client = createHttpClient({ sockets: 1, timeoutMs: 200, userAgent: 'test' });
    try {
      const r = await client.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, () => true);
      expect(r).toEqual({ ok: false, error: 'no complete answer within 0.2 s' });
    } finally {
      client.close();
    }
  });
});

describe('crawlUrl fast path', () => {
  const scope = makeScope('http://127.0.0.1:8080/', null);
  it('gives what the URL parser gives', () => {
    const hrefs = [
      '/a/b',
      '/a/b?x=1&y=2#f',
      '/caf%C3%A9',
      '/café',
      '/a/../b',
      '/a/./b',
      "/it's",
      '/a b',
      "/a?q=it's",
      '/%zz',
      '/a//b',
      '/A_B-c.html',
      '/?',
      '/#x',
    ];
    for (const href of hrefs) {
      const url = new URL(href, 'http://127.0.0.1:8080/x/');
      url.hash = '';
      expect(crawlUrl(href, 'http://127.0.0.1:8080/x/', scope), href).toBe(url.href);
    }
  });
  it('keys and bounds URLs from their href text', () => {
    for (const url of ['http://h:1/a/b/?q=1', 'http://h:1/', 'http://h:1/caf%C3%A9']) expect(pageKey(url)).toBe(cleanPathOf(url));
  });
});

function cleanPathOf(url: string): string {
  const p = decodeURIComponent(new URL(url).pathname);
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}
