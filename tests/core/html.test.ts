import { describe, expect, test } from 'vitest';
import { escapeHtml } from '../../src/core/html/escape.js';
import { srcsetUrls } from '../../src/core/html/srcset.js';
import { attributeBounds, nextAttribute, rawAttribute, tokenize, type TagHandler } from '../../src/core/html/tokenize.js';
import { candidateFiles } from '../../src/core/static-files.js';
import { extractLinks } from '../../src/emit/links/scan.js';
import { extractLinksWithCheerio } from '../emit/links-reference.js';

/** The tokens of a page as strings, for comparing. */
function tokens(html: string): string[] {
  const out: string[] = [];
  const handler: TagHandler = {
    text: (from, to) => out.push(`text ${html.slice(from, to)}`),
    startTag: (nameStart, nameEnd, _hash, gt) => (out.push(`<${html.slice(nameStart, nameEnd)}|${html.slice(nameEnd, gt)}>`), gt + 1),
    endTag: (nameStart, nameEnd) => out.push(`</${html.slice(nameStart, nameEnd)}>`),
  };
  const last = tokenize(html, handler);
  if (last < html.length) out.push(`rest ${html.slice(last)}`);
  return out;
}

describe('the HTML tokenizer', () => {
  test('hands over tags, text and the trailing text; skips comments, doctypes and processing instructions', () => {
    expect(tokens('<!doctype html><p class="a>b">x<!-- <a href="/no"> --><?pi?>y</P>z')).toEqual(['<p| class="a>b">', 'text x', 'text y', '</P>', 'rest z']);
  });

  test('a < that starts no tag, or a quote that never closes, stays text', () => {
    expect(tokens('a < b <1> <a title="open>c')).toEqual(['rest a < b <1> <a title="open>c']);
  });

  test('an unterminated comment runs to the end of the page', () => {
    expect(tokens('x<!-- <a href="/x">')).toEqual(['text x']);
  });

  test('reads attributes in every quoting style, and names without a value', () => {
    const html = `<img SRC = "a.png" alt='say "hi"' data-x=1 hidden width=>`;
    const b = attributeBounds();
    const found: string[] = [];
    for (let i = nextAttribute(html, 4, html.length - 1, b); i !== -1; i = nextAttribute(html, i, html.length - 1, b)) {
      found.push(`${html.slice(b[0], b[1])}=${b[2] === -1 ? '(none)' : html.slice(b[2], b[3])}`);
    }
    expect(found).toEqual(['SRC=a.png', 'alt=say "hi"', 'data-x=1', 'hidden=(none)', 'width=(none)']);
    expect(rawAttribute(html, 4, html.length - 1, 'src')).toBe('a.png');
    expect(rawAttribute(html, 4, html.length - 1, 'hidden')).toBe('');
    expect(rawAttribute(html, 4, html.length - 1, 'title')).toBeUndefined();
  });
});

describe('the build link scanner on the shared tokenizer', () => {
  // The regex scanner it replaced read tags inside comments and scripts: /in-comment and /in-script were reported as links.
  test('reads no references inside comments, scripts or other raw text, as a browser (and cheerio) does', () => {
    const html = `<html><head><title><a href="/in-title"></title><script>var s = '<a href="/in-script">';</script></head>
<body><!-- <a href="/in-comment"> --><textarea><img src="/in-textarea"></textarea><a href="/real">x</a><img srcset="/a.png 1x, /b.png 2x"></body></html>`;
    const links = extractLinks(html, '/page', 'https://example.com');
    expect(links.internal).toEqual(['/real', '/a.png', '/b.png']);
    expect(new Set(links.internal)).toEqual(new Set(extractLinksWithCheerio(html, '/page', 'https://example.com').internal));
  });
});

describe('small shared helpers', () => {
  test('srcsetUrls', () => {
    expect(srcsetUrls(undefined)).toEqual([]);
    expect(srcsetUrls(' a.png 1x,b.png  2x , ,c.png')).toEqual(['a.png', 'b.png', 'c.png']);
  });

  test('escapeHtml escapes the five special characters and nothing else', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
    expect(escapeHtml('plain')).toBe('plain');
  });

  test('candidateFiles: clean URLs, folders, the root, and a base path', () => {
    expect(candidateFiles('/')).toEqual(['index.html']);
    expect(candidateFiles('/x')).toEqual(['x', 'x/index.html', 'x.html']);
    expect(candidateFiles('/x/')).toEqual(['x/index.html']);
    expect(candidateFiles('/shop/x', '/shop/')).toEqual(['x', 'x/index.html', 'x.html']);
    expect(candidateFiles('/shop/', '/shop/')).toEqual(['index.html']);
    expect(candidateFiles('/shop', '/shop/')).toEqual(['index.html']);
  });
});
