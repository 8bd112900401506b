/**
 * `bin/site dev` as a child process (needs the compiled build/: `npm run
 * compile`), on a copy of the shipped data/: pages, redirects, 404, the
 * bundle's assets, generated files, the search index, the inquiry endpoint;
 * an edit reloads the open page it changes and no other; a broken file shows
 * its errors and a fix clears them; clear exits for a missing folder and a
 * port in use.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/serve/store.js';
import { requireFreshBuild } from '../compiled.js';
import { VALID } from '../serve/helpers.js';
import { ARTICLE, editJson, hashOf, openEvents, request, type Running, type Sandbox, sandbox, startDev } from './helpers.js';

let box: Sandbox;
let dev: Running;

beforeAll(async () => {
  requireFreshBuild();
  box = sandbox();
  // A photograph in data/images/: served as it is, with the WebP copies its srcset would name.
  mkdirSync(join(box.data, 'images', 'photos'), { recursive: true });
  const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3a7' } })
    .png()
    .toBuffer();
  writeFileSync(join(box.data, 'images', 'photos', 'field.png'), photo);
  dev = await startDev(['--data-dir', box.data, '--store-dir', box.store], box.root);
});
afterAll(async () => {
  await dev?.stop();
  box?.cleanup();
});

describe('site dev (process)', () => {
  it('answers pages as site serve does: the page, redirects to its own URL, the 404 page', async () => {
    const home = await request(dev.url, '/');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.text).toMatch(/^<!doctype html>/);
    expect(home.text).toContain('<script src="/__site/dev.js" data-hash="');
    expect(String(home.headers['content-security-policy'])).toContain("script-src 'self'");

    const article = await request(dev.url, ARTICLE.path);
    expect(article.status).toBe(200);
    expect(article.text).toContain('5-HTP Benefits: What Research Says');
    for (const other of [`${ARTICLE.path}/`, `${ARTICLE.path}.html`, `${ARTICLE.path}/index.html`]) {
      const r = await request(dev.url, other);
      expect(r.status, other).toBe(302);
      expect(r.headers.location).toBe(ARTICLE.path);
    }
    const missing = await request(dev.url, '/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('data-screen="not-found"');
    expect(missing.text).toContain('/__site/dev.js');
    expect((await request(dev.url, '/../../etc/passwd')).status).toBe(400);
  });

  it('refuses a request under a name other than localhost or an address (DNS rebinding)', async () => {
    const port = new URL(dev.url).port;
    for (const host of ['evil.example', `evil.example:${port}`, `attacker.test.:${port}`]) {
      const r = await request(dev.url, '/', { headers: { host } });
      expect(r.status, host).toBe(403);
      expect(r.text).not.toContain('<html');
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`])
      expect((await request(dev.url, '/', { headers: { host } })).status, host).toBe(200);
    const post = await request(dev.url, '/api/inquiry', { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(403);
  });

  it('serves the bundle, the dev script, artwork, the logo, robots.txt, the sitemap and the search index', async () => {
    const home = (await request(dev.url, '/')).text;
    const css = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"/.exec(home)?.[1];
    expect(css).toBeDefined();
    const style = await request(dev.url, css!);
    expect(style.status).toBe(200);
    expect(style.headers['content-type']).toMatch(/^text\/css/);
    expect(style.headers['cache-control']).toContain('immutable');

    const script = await request(dev.url, '/__site/dev.js');
    expect(script.status).toBe(200);
    expect(script.text).toContain('EventSource');

    const product = (await request(dev.url, '/monomer/stephania-extract')).text;
    const art = /(\/images\/products\/[^"]+\.svg)/.exec(product)?.[1];
    expect(art).toBeDefined();
    const svg = await request(dev.url, art!);
    expect(svg.status).toBe(200);
    expect(svg.text).toContain('<svg');
    expect((await request(dev.url, '/images/logo.svg')).text).toContain('<svg');

    expect((await request(dev.url, '/robots.txt')).text).toContain('Sitemap:');
    const sitemap = await request(dev.url, '/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.text).toContain(`${ARTICLE.path}</loc>`);

    const entry = await request(dev.url, '/search/entry.json');
    expect(entry.status).toBe(200);
    const { shards, documents } = JSON.parse(entry.text) as { shards: string[]; documents: number };
    expect(documents).toBeGreaterThan(1000);
    const file = await request(dev.url, shards[0]);
    expect(file.status).toBe(200);
    expect(file.text).toContain('5-HTP Benefits');
  });

  it('serves the images of data/ and makes their WebP copies on request', async () => {
    const original = await request(dev.url, '/images/photos/field.png');
    expect(original.status).toBe(200);
    expect(original.headers['content-type']).toBe('image/png');
    expect(Number(original.headers['content-length'])).toBe(readFileSync(join(box.data, 'images/photos/field.png')).length);
    for (const width of [320, 640]) {
      const copy = await request(dev.url, `/images/photos/field-${width}w.webp`);
      expect(copy.status).toBe(200);
      expect(copy.headers['content-type']).toBe('image/webp');
    }
    expect((await request(dev.url, '/images/photos/field-960w.webp')).status).toBe(404);
    expect((await request(dev.url, '/images/photos/other.png')).status).toBe(404);
  });

  it('takes inquiries as site serve does, into --store-dir', async () => {
    const fields = { ...VALID, page: '/contact-us', _started: String(Date.now() - 10_000) };
    const json = await request(dev.url, '/api/inquiry', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(fields),
    });
    expect(json.status).toBe(201);
    const { id } = JSON.parse(json.text) as { id: string };
    const posted = await request(dev.url, '/api/inquiry', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, name: 'Bob Buyer' }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/thanks');
    // No-JS error path: the form page re-rendered with the message.
    const bad = await request(dev.url, '/api/inquiry', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, email: 'not-an-address' }).toString(),
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('<title>Error: ');
    expect((await request(dev.url, '/api/inquiry')).status).toBe(405);

    const store = openStore(box.store, { readonly: true });
    try {
      const names = store.list({ limit: 10 }).map((r) => r.name);
      expect(names).toContain(VALID.name);
      expect(names).toContain('Bob Buyer');
      expect(store.get(id)?.email).toBe(VALID.email);
    } finally {
      store.close();
    }
  });

  it('reloads an open page when its data changes, and leaves the other open pages alone', async () => {
    const article = await request(dev.url, ARTICLE.path);
    const about = await request(dev.url, '/about-us');
    const onArticle = await openEvents(dev.url, ARTICLE.path, hashOf(article.text));
    const onAbout = await openEvents(dev.url, '/about-us', hashOf(about.text));
    try {
      await onArticle.next('errors');
      await onAbout.next('errors');
      const seen = onArticle.events.length;
      editJson(box.data, ARTICLE.file, (a) => {
        a.headline = 'Edited <b>live</b> headline';
      });
      await onArticle.next('reload', seen);
      // The about page's HTML is the same: told the (empty) errors, never to reload.
      await onAbout.next('errors', 1);
      expect(onAbout.events.some((e) => e.event === 'reload')).toBe(false);
      const after = await request(dev.url, ARTICLE.path);
      expect(after.text).toContain('Edited &lt;b&gt;live&lt;/b&gt; headline');
      expect(dev.stderr()).toMatch(/5-htp-benefits-what-research-says\.json changed: (its files re-)?checked in \d+ ms, 1 open page reloaded/);
    } finally {
      onArticle.close();
      onAbout.close();
    }
  });

  it('reports a broken file in the terminal and to open pages, keeps the last good pages, and clears it when fixed', async () => {
    const page = await request(dev.url, ARTICLE.path);
    const events = await openEvents(dev.url, ARTICLE.path, hashOf(page.text));
    try {
      await events.next('errors');
      const seen = events.events.length;
      editJson(box.data, ARTICLE.file, (a) => {
        a.date = 'not a date';
      });
      const broken = JSON.parse((await events.next('errors', seen)).data) as Array<{ code: string; file: string; pointer: string; message: string }>;
      expect(broken.length).toBeGreaterThan(0);
      expect(broken[0].file).toContain(ARTICLE.file);
      expect(broken[0].pointer).toBe('/date');
      expect(broken[0].code).toBe('load/schema');
      expect(dev.stderr()).toContain(`${ARTICLE.file}:`);
      // The last good version still serves.
      expect((await request(dev.url, ARTICLE.path)).status).toBe(200);

      const fixedFrom = events.events.length;
      editJson(box.data, ARTICLE.file, (a) => {
        a.date = '2024-10-08';
      });
      await events.next('reload', fixedFrom);
      const cleared = events.events.slice(fixedFrom).find((e) => e.event === 'errors');
      expect(cleared?.data).toBe('[]');
    } finally {
      events.close();
    }
  });
});

describe('site dev (a catalogue with errors from the start)', () => {
  it('answers every page with the escaped errors and the dev script, and the site once they are fixed', async () => {
    const broken = sandbox();
    try {
      editJson(broken.data, ARTICLE.file, (a) => {
        a.headline = 42;
        a.date = '<script>alert(1)</script>';
      });
      const run = await startDev(['--data-dir', broken.data], broken.root);
      try {
        expect(run.stderr()).toMatch(/the catalogue has 2 errors/);
        const page = await request(run.url, '/about-us');
        expect(page.status).toBe(500);
        expect(page.text).toContain(ARTICLE.file);
        expect(page.text).toContain('/date');
        expect(page.text).not.toContain('<script>alert');
        expect(page.text).toContain('/__site/dev.js');
        const events = await openEvents(run.url, '/about-us', hashOf(page.text));
        try {
          await events.next('errors');
          const seen = events.events.length;
          editJson(broken.data, ARTICLE.file, (a) => {
            a.headline = 'Fixed';
            a.date = '2024-10-08';
          });
          await events.next('reload', seen);
          expect((await request(run.url, '/about-us')).status).toBe(200);
        } finally {
          events.close();
        }
      } finally {
        await run.stop();
      }
    } finally {
      broken.cleanup();
    }
  });
});

describe('site dev (start-up errors)', () => {
  it('exits 2 naming a missing data folder', async () => {
    await expect(startDev(['--data-dir', join(box.root, 'nowhere')], box.root)).rejects.toThrow(/exited \(2\)[\s\S]*nowhere does not exist/);
  });

  it('exits 2 naming a port in use', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(startDev(['--data-dir', box.data, '--port', String(port)], box.root)).rejects.toThrow(
        new RegExp(`exited \\(2\\)[\\s\\S]*port ${port} on 127.0.0.1 is in use`),
      );
    } finally {
      taken.close();
    }
  });

  it('stops cleanly on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const run = await startDev(['--data-dir', box.data], box.root);
      run.child.kill(signal);
      expect(await run.exited).toEqual({ code: 0, signal: null });
      expect(run.stderr()).toContain(`${signal}: stopping`);
    }
  });
});

describe('site dev (constants)', () => {
  it('answers inquiries where site serve does', async () => {
    const [{ INQUIRY_PATH }, { DEFAULTS }] = await Promise.all([import('../../src/dev/server.js'), import('../../src/serve/server.js')]);
    expect(INQUIRY_PATH).toBe(DEFAULTS.inquiryPath);
  });
});
