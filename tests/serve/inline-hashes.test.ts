/**
 * inlineHashes (src/serve/security.ts) reads a page with the shared
 * tokenizer; a tree built by cheerio (parse5, as a browser parses) is the
 * oracle: the same hashes and origins for every page of the fixture sites
 * and for pages written to trip a tokenizer. (tests/emit/headers-file.test.ts
 * holds it to the build's own policy for every page a build writes.)
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { originOf } from '../../src/core/http-headers.js';
import { inlineHashes } from '../../src/serve/security.js';

const EXECUTABLE_TYPE = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i;
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const unique = (xs: string[]) => [...new Set(xs)].sort();

function byTree(html: string) {
  const $ = cheerio.load(html);
  const scripts: string[] = [];
  $('script:not([src])').each((_, el) => {
    if (EXECUTABLE_TYPE.test(($(el).attr('type') ?? '').trim())) scripts.push(sha256($(el).text()));
  });
  const styles = $('style')
    .toArray()
    .map((el) => sha256($(el).text()));
  const styleAttributes = $('[style]')
    .toArray()
    .map((el) => sha256($(el).attr('style') ?? ''));
  const origins = (selector: string, attr: string) =>
    unique(
      $(selector)
        .toArray()
        .flatMap((el) => originOf($(el).attr(attr))),
    );
  return {
    scripts: unique(scripts),
    styles: unique(styles),
    styleAttributes: unique(styleAttributes),
    origins: { script: origins('script[src]', 'src'), style: origins('link[rel~="stylesheet"][href]', 'href'), img: origins('img[src]', 'src') },
  };
}

function pagesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('inlineHashes', () => {
  it('agrees with a parsed tree on pages written to trip a tokenizer', () => {
    const pages = [
      '<!doctype html><html><head><style>a{color:red}</style><script>let a = "</div>";</script></head><body></body></html>',
      '<script type="application/ld+json">{"a":1}</script><script type=" module ">go()</script><script src="https://cdn.example.com/x.js"></script>',
      '<p style="color: red" STYLE="ignored">x</p><div style=\'a:&amp;b\'></div><span style>empty</span>',
      '<!-- <script>not()</script> --><noscript><img style="x" src="https://img.example.com/a.png"></noscript><img src="https://img.example.org/b.png">',
      '<title><b style="t">x</b></title><textarea><i style="u"></i></textarea><link rel="preload stylesheet" href="https://fonts.example.com/a.css"><link rel=icon href="https://x.example.com/i.png">',
      '<SCRIPT>upper()</SCRIPT><Style>b{}</Style><link REL="Stylesheet" href="https://s.example.com/b.css">',
      '<script>unterminated(',
      '<img src="http://plain.example.com/a.png"><img src="https://a.example.com/1.png"><img src="https://a.example.com/2.png">',
    ];
    for (const html of pages) expect(inlineHashes(html), html).toEqual(byTree(html));
  });

  it('agrees with a parsed tree on every page of the fixture sites', () => {
    const roots = ['serve-dist', 'audit-clean', 'audit-faults', 'audit-disk', 'audit-crawl'].map((name) => path.resolve('tests/fixtures', name));
    const files = roots.flatMap(pagesUnder);
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const html = readFileSync(file, 'utf8');
      expect(inlineHashes(html), file).toEqual(byTree(html));
    }
  });
});
