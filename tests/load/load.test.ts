import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/load/index.js';
import { createLocator, locate, locateInText, pointerTokens } from '../../src/load/locate.js';
import { BASE_DATA, scenario } from '../check/fixture.js';

describe('loadCatalogue', () => {
  it('loads the valid base catalogue with every entity and its source file', async () => {
    const { catalogue, diagnostics } = await loadCatalogue(BASE_DATA);
    expect(diagnostics).toEqual([]);
    expect(catalogue).not.toBeNull();
    const c = catalogue!;
    expect([c.categories.length, c.products.length, c.articles.length, c.news.length, c.pages.length, c.routes.length]).toEqual([4, 4, 3, 1, 8, 28]);
    // Files are read in a fixed order, whatever the file system says.
    expect(c.products.map((p) => p.slug)).toEqual(['berberine-powder-bulk', 'bulk-curcumin', 'chaga-extract-powder', 'ginger-extract']);
    expect(c.sourceOf.get(c.products[1])).toBe(`${BASE_DATA}/products/bulk-curcumin.json`);
    expect(c.sourceOf.get(c.routes[3])).toBe(`${BASE_DATA}/routes.json`);
    expect(c.sourceOf.get(c.site)).toBe(`${BASE_DATA}/site.json`);
    // zod defaults are applied.
    expect(c.products[0].claims).toEqual([]);
  });

  it('names files relative to the data dir as given', async () => {
    const rel = relative(process.cwd(), BASE_DATA);
    const { catalogue } = await loadCatalogue(rel);
    expect(catalogue!.sourceOf.get(catalogue!.articles[0])).toBe(`${rel}/articles/berberine-dosage-guide.json`);
  });

  it('reports every schema issue of a file with pointer, line and column, and no catalogue', async () => {
    const data = scenario('load-schema');
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(catalogue).toBeNull();
    const rows = diagnostics.map((d) => [d.code, d.file.slice(data.length + 1), d.pointer, d.line, d.column]);
    expect(rows).toEqual([
      ['load/schema', 'products/bulk-curcumin.json', '/colour', 42, 3],
      ['load/schema', 'products/bulk-curcumin.json', '/description/0/text/1/href', 22, 9],
      ['load/schema', 'products/bulk-curcumin.json', '/description/1/type', 28, 7],
      ['load/schema', 'products/bulk-curcumin.json', '/freeSample', 15, 3],
      ['load/schema', 'products/bulk-curcumin.json', '/moq', 1, 1],
      ['load/schema', 'products/bulk-curcumin.json', '/package', 13, 3],
      ['load/schema', 'products/bulk-curcumin.json', '/updated', 41, 3],
      ['load/schema', 'routes.json', '/5/page', 70, 5],
      ['load/schema', 'routes.json', '/7/meta/description', 96, 5],
      ['load/schema', 'routes.json', '/7/meta/keywords', 96, 5],
    ]);
    const message = (ptr: string) => diagnostics.find((d) => d.pointer === ptr)!.message;
    expect(message('/colour')).toBe('colour: unknown field "colour"; remove it or correct its spelling.');
    expect(message('/freeSample')).toBe('freeSample: expected boolean, received string.');
    expect(message('/moq')).toBe('moq: missing required field (expected string).');
    expect(message('/updated')).toBe('updated: expected a date as YYYY-MM-DD.');
    // A union reports the branch that got furthest: the link lacks its href.
    expect(message('/description/0/text/1/href')).toBe('description[0].text[1].href: missing required field (expected string).');
    expect(message('/description/1/type')).toMatch(/^description\[1\]\.type: invalid discriminator value\. Expected 'heading' \| 'paragraph'/);
    expect(diagnostics.every((d) => d.severity === 'error')).toBe(true);
  });

  it("refuses site.json's endpoint, social links and third-party ids that are not of their service's shape", async () => {
    const data = scenario(null);
    const file = join(data, 'site.json');
    const site = JSON.parse(readFileSync(file, 'utf8'));
    site.inquiryEndpoint = 'javascript:alert(1)';
    site.social = { linkedin: 'javascript:alert(2)', facebook: 'http://facebook.com/x', x: 'https://x.com/verdanta' };
    site.thirdParty = { analyticsId: "G-1');alert(3);//", tagManagerId: 'GTM-ABC1234', chatWidgetId: 'not an id', errorReportingDsn: 'abc' };
    writeFileSync(file, JSON.stringify(site, null, 2));
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(catalogue).toBeNull();
    expect(Object.fromEntries(diagnostics.map((d) => [d.pointer, d.message]))).toEqual({
      '/inquiryEndpoint': 'inquiryEndpoint: expected a path on this site such as /api/inquiry, or an https: URL.',
      '/social/linkedin': 'social.linkedin: expected an https: URL.',
      '/social/facebook': 'social.facebook: expected an https: URL.',
      '/thirdParty/analyticsId': 'thirdParty.analyticsId: expected a Google tag id such as G-ABC123XYZ9, or "" to leave it out.',
      '/thirdParty/chatWidgetId':
        'thirdParty.chatWidgetId: expected a Tawk.to property and widget id such as 5f0c2d7a9e8b1c0012345678/1e3a4b5c6, or "" to leave it out.',
      '/thirdParty/errorReportingDsn':
        'thirdParty.errorReportingDsn: expected a Sentry DSN such as https://<public key>@o123.ingest.sentry.io/456, or "" to leave it out.',
    });

    // The shapes the services issue pass, and so do an endpoint on another https host and a self-hosted Sentry.
    site.inquiryEndpoint = 'https://forms.example.net/v1/inquiry';
    site.social = { linkedin: 'https://www.linkedin.com/company/verdanta' };
    site.thirdParty = {
      analyticsId: 'G-ABC123XYZ9',
      tagManagerId: 'GTM-ABC1234',
      chatWidgetId: '5f0c2d7a9e8b1c0012345678/1e3a4b5c6',
      errorReportingDsn: 'https://abc123@sentry.example.com:9000/team/42',
    };
    writeFileSync(file, JSON.stringify(site, null, 2));
    expect((await loadCatalogue(data)).diagnostics).toEqual([]);
  });

  it('refuses dates that have the shape of one but are no day of the calendar', async () => {
    const data = scenario(null);
    const file = join(data, 'news/expo-2024.json');
    const news = JSON.parse(readFileSync(file, 'utf8'));
    for (const [date, ok] of [
      ['2024-02-29', true],
      ['2023-02-29', false],
      ['2024-04-31', false],
      ['2024-13-01', false],
      ['2024-00-10', false],
      ['24-1-1', false],
    ] as const) {
      writeFileSync(file, JSON.stringify({ ...news, date }, null, 2));
      const { diagnostics } = await loadCatalogue(data);
      const messages = diagnostics.filter((d) => d.pointer === '/date').map((d) => d.message);
      expect(messages, date).toEqual(
        ok
          ? []
          : [date === '24-1-1' ? 'date: expected a date as YYYY-MM-DD.' : 'date: expected a real calendar date (a month from 01 to 12, a day that month has).'],
      );
    }
  });

  it('reports bad JSON at the position of the syntax error', async () => {
    const data = scenario('load-bad-json');
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(catalogue).toBeNull();
    expect(diagnostics).toEqual([
      {
        code: 'load/invalid-json',
        severity: 'error',
        file: `${data}/products/ginger-extract.json`,
        pointer: '',
        line: 5,
        column: 3,
        message: 'Not valid JSON: a comma between items was expected (line 5, column 3).',
      },
    ]);
  });

  it('names a trailing comma, and positions after a byte-order mark', async () => {
    const data = scenario(null);
    writeFileSync(join(data, 'site.json'), '\uFEFF{\n  "brand": "x",\n}\n');
    const { diagnostics } = await loadCatalogue(data);
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['load/invalid-json', 3, 1]]);
    expect(diagnostics[0].message).toContain('trailing comma');
  });

  it('warns about files the layout does not know, and still loads', async () => {
    const data = scenario(null);
    mkdirSync(join(data, 'prodcts'));
    writeFileSync(join(data, 'prodcts/x.json'), '{}');
    writeFileSync(join(data, 'products/notes.txt'), 'x');
    writeFileSync(join(data, 'products/.DS_Store'), 'x');
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(catalogue).not.toBeNull();
    expect(diagnostics.map((d) => [d.code, d.severity, d.file.slice(data.length + 1)])).toEqual([
      ['load/unexpected-file', 'warning', 'prodcts'],
      ['load/unexpected-file', 'warning', 'products/notes.txt'],
    ]);
  });

  it('lists the image files of data/images/ with their URL, pixel size and sha1, and warns about anything else there', async () => {
    const data = scenario('check-images'); // images/photos/ginger.png (12×9), images/photos/strip.png (5000×10), images/logo.svg, images/badge.svg (scripted)
    mkdirSync(join(data, 'images/My Photos'));
    writeFileSync(join(data, 'images/My Photos/a.png'), 'x');
    writeFileSync(join(data, 'images/notes.txt'), 'x');
    writeFileSync(join(data, 'images/photo 1.jpg'), 'x');
    writeFileSync(join(data, 'images/.DS_Store'), 'x');
    symlinkSync(join(data, 'site.json'), join(data, 'images/secret.png')); // a link is never published
    const { catalogue, diagnostics } = await loadCatalogue(data);
    const sizeOf = (rel: string) => statSync(join(data, rel)).size;
    expect(diagnostics.map((d) => [d.code, d.file.slice(data.length + 1)])).toEqual([
      ['load/unexpected-file', 'images/My Photos'],
      ['load/unexpected-file', 'images/notes.txt'],
      ['load/unexpected-file', 'images/photo 1.jpg'],
      ['load/unexpected-file', 'images/secret.png'],
    ]);
    expect(
      catalogue!.images.map(({ url, file, path, size, width, height, scripted }) => ({
        url,
        file: file.slice(data.length + 1),
        path,
        size,
        width,
        height,
        scripted,
      })),
    ).toEqual([
      {
        url: '/images/badge.svg',
        file: 'images/badge.svg',
        path: join(data, 'images/badge.svg'),
        size: sizeOf('images/badge.svg'),
        width: 10,
        height: 10,
        scripted: true,
      },
      {
        url: '/images/logo.svg',
        file: 'images/logo.svg',
        path: join(data, 'images/logo.svg'),
        size: sizeOf('images/logo.svg'),
        width: 32,
        height: 32,
        scripted: undefined,
      },
      {
        url: '/images/photos/ginger.png',
        file: 'images/photos/ginger.png',
        path: join(data, 'images/photos/ginger.png'),
        size: sizeOf('images/photos/ginger.png'),
        width: 12,
        height: 9,
        scripted: undefined,
      },
      {
        url: '/images/photos/strip.png',
        file: 'images/photos/strip.png',
        path: join(data, 'images/photos/strip.png'),
        size: sizeOf('images/photos/strip.png'),
        width: 5000,
        height: 10,
        scripted: undefined,
      },
    ]);
    expect(catalogue!.images[2].digest).toBe(
      createHash('sha1')
        .update(readFileSync(join(data, 'images/photos/ginger.png')))
        .digest('hex'),
    );
  });

  it('does not take an image file for a folder, nor a file named images for the folder', async () => {
    const data = scenario(null);
    writeFileSync(join(data, 'images'), 'x');
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(catalogue!.images).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.file.slice(data.length + 1)])).toEqual([['load/unexpected-file', 'images']]);
  });

  it('reports a missing registry file and a missing data dir', async () => {
    const data = scenario(null);
    rmSync(join(data, 'routes.json'));
    const missing = await loadCatalogue(data);
    expect(missing.catalogue).toBeNull();
    expect(missing.diagnostics.map((d) => [d.code, d.file])).toEqual([['load/missing-file', `${data}/routes.json`]]);

    const none = await loadCatalogue(join(data, 'nope'));
    expect(none.diagnostics.map((d) => d.code)).toEqual(['load/missing-data-dir']);
  });
});

describe('locate', () => {
  const text = '{\n  "a": {\n    "b/c": [10, {"d": 1}]\n  },\n  "e~f": true\n}\n';

  it('points object members at their key and array items at their value', () => {
    const l = createLocator(text);
    expect(l.locate('')).toEqual({ line: 1, column: 1 });
    expect(l.locate('/a')).toEqual({ line: 2, column: 3 });
    expect(l.locate('/a/b~1c/0')).toEqual({ line: 3, column: 13 });
    expect(l.locate('/a/b~1c/1/d')).toEqual({ line: 3, column: 18 });
    expect(l.locate('/e~0f')).toEqual({ line: 5, column: 3 });
  });

  it('points a missing field at the object that should hold it', () => {
    expect(locateInText(text, '/a/missing')).toEqual({ line: 2, column: 3 });
    expect(locateInText(text, '/a/b~1c/7')).toEqual({ line: 3, column: 5 });
  });

  it('reads a file by path, and follows changes to it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-locate-'));
    const file = join(dir, 'x.json');
    writeFileSync(file, '[1,\n 2]');
    expect(locate(file, '/1')).toEqual({ line: 2, column: 2 });
    writeFileSync(file, '[1,\n\n\n   2]');
    expect(locate(file, '/1')).toEqual({ line: 4, column: 4 });
    expect(locate(join(dir, 'gone.json'), '/1')).toEqual({ line: 1, column: 1 });
    rmSync(dir, { recursive: true });
  });

  it('skips strings holding brackets, quotes and escapes, and finds escaped keys', () => {
    const tricky = '{"a": "x}]\\"{[", "b\\u0041": [ {"c": "]"}, [1, [2, 3]], "{" ],\n "d": -1.5e3, "e": null}';
    const l = createLocator(tricky);
    expect(JSON.parse(tricky)).toMatchObject({ bA: expect.any(Array), d: -1500 });
    expect(l.locate('/bA')).toEqual({ line: 1, column: 18 });
    expect(l.locate('/bA/0/c')).toEqual({ line: 1, column: 32 });
    expect(l.locate('/bA/1/1/1')).toEqual({ line: 1, column: 51 });
    expect(l.locate('/bA/2')).toEqual({ line: 1, column: 56 });
    expect(l.locate('/d')).toEqual({ line: 2, column: 2 });
    expect(l.locate('/e')).toEqual({ line: 2, column: 15 });
    expect(l.locateMany(['/e', '/nope', '/bA/9'])).toEqual([
      { line: 2, column: 15 },
      { line: 1, column: 1 },
      { line: 1, column: 18 },
    ]);
  });

  it('unescapes pointer tokens', () => {
    expect(pointerTokens('/a~1b/c~0d/0')).toEqual(['a/b', 'c~d', '0']);
    expect(pointerTokens('')).toEqual([]);
  });
});
