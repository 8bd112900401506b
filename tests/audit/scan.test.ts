/**
 * The scanner the audit runs (scan.ts) against the cheerio/htmlparser2
 * reference extractor (extract.ts): the same facts for every fixture page
 * and for markup that trips naive scanners.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { extractPage } from './extract.js';
import { collapse, scanPage } from '../../src/audit/scan.js';
import { decodeEntities } from '../../src/core/html/entities.js';
import { CLEAN, FAULTS } from './helpers.js';

const comparable = (f: ReturnType<typeof scanPage>) => ({ ...f, ids: [...f.ids].sort(), mainText: f.mainText.replace(/\s+/g, ' ').trim() });

const TRICKY: Record<string, string> = {
  'upper-case tags and attributes':
    '<HTML><HEAD><TITLE>Upper</TITLE><META NAME="Description" CONTENT="D"></HEAD><BODY DATA-SCREEN="x"><MAIN><H1 ID="t">Hi</H1><A HREF="/a">A</A></MAIN></BODY></HTML>',
  'quoting styles': `<body><main><a href='/single' rel=nofollow>One</a><a href=/unquoted>Two</a><img src="/i.png" alt='It&#39;s "x"' width=1 height=2></main></body>`,
  entities:
    '<head><title>Fish &amp; chips &mdash; &#169; &#x2014; &unknown;</title></head><body><main><p>a&nbsp;b &lt;tag&gt;</p><a href="/x?a=1&amp;b=2">Q&amp;A</a></main></body>',
  'tags inside comments and scripts':
    '<body><!-- <a href="/commented">no</a> --><script>var s = "<a href=\'/in-script\'>x</a></div>";</script><main><p>text</p><style>a::after{content:"<b>"}</style></main></body>',
  'JSON-LD with a closing tag escaped':
    '<head><script type="application/ld+json">{"@type":"Product","name":"A \\u003c/script> B"}</script></head><body><main><h1>A &lt;/script&gt; B</h1></main></body>',
  'inline svg with its own title, nested svg':
    '<head><title>Page</title></head><body><main><svg viewBox="0 0 1 1"><title>Icon</title><svg><text>inner</text></svg><a href="/in-svg">x</a></svg><h1>After</h1></main></body>',
  'picture sources and srcset':
    '<body><main><picture><source srcset="/a.webp 1x, /b.webp 2x"><img src="/a.jpg" srcset="/a@2x.jpg 2x" alt="A" width="1" height="1"></picture></main></body>',
  'noscript, template and forms stay out of content':
    '<body><main><noscript><a href="/ns">No JS</a></noscript><template><p>tpl</p></template><form><label>Name</label><textarea name="m">typed</textarea></form><p>real</p></main></body>',
  'no main: chrome excluded': '<body><header><nav><a href="/">Home</a></nav></header><div><h1>T</h1><p>body text</p></div><footer>foot</footer></body>',
  'headings with images and nested inline markup':
    '<body><main><h2>Two <em>parts</em><img src="/x.png" alt="pic"></h2><h3><a href="/h">Linked</a> heading</h3></main></body>',
  'self-closing and void elements':
    '<head><link rel="canonical" href="https://e.com/x"/><meta name="robots" content="NOINDEX"/></head><body><main><br/><img src="/v.png"/><a href="/after">After void</a></main></body>',
  'duplicate attributes, upper-case raw-text end tags, mixed whitespace':
    '<head><TITLE>T\t\n  x</TITLE><SCRIPT type="application/ld+json">{"@type":"Thing","name":"Dup text"}</SCRIPT></head><body data-screen="a" DATA-SCREEN="b"><main><a href="/first" HREF="/second" id="x" ID="y" title=\'q "x" >\'>Dup\t\n  text\u00a0here </a><h2>\u2003Spaced\r\nheading </h2><p>tab\there</p></main></body>',
  'canonical and title in body': '<head></head><body><title>Late</title><link rel="canonical" href="/late"><main><p>x</p></main></body>',
};

describe('scanner = reference extractor', () => {
  for (const fixture of [FAULTS, CLEAN]) {
    it(`gives the same facts for every page of ${fixture}`, () => {
      const dir = join(fixture, 'site');
      const files = fg.sync('**/*.html', { cwd: dir }).sort();
      expect(files.length).toBeGreaterThan(5);
      for (const file of files) {
        const html = readFileSync(join(dir, file), 'utf8');
        expect({ file, facts: comparable(scanPage(html, '/x', file)) }).toEqual({ file, facts: comparable(extractPage(html, '/x', file)) });
      }
    });
  }

  for (const [name, html] of Object.entries(TRICKY)) {
    it(`gives the same facts for ${name}`, () => {
      expect(comparable(scanPage(html, '/x', 'x/index.html'))).toEqual(comparable(extractPage(html, '/x', 'x/index.html')));
    });
  }

  it('collapses whitespace runs exactly like replacing every run with one space', () => {
    for (const text of [' a\t\tb \n c\u00a0d  ', 'plain words', '', '   ', 'x\u2003y', 'a \u00a0 b', '\n\tlead and trail \r\n']) {
      expect(collapse(text)).toBe(text.replace(/\s+/g, ' ').trim());
    }
  });

  it('decodes named and numeric entities, leaving unknown ones', () => {
    expect(decodeEntities('&amp;&lt;&gt;&quot;&#39;&#x41;&nbsp;&bogus;')).toBe('&<>"\'A\u00a0&bogus;');
    // Numeric references: at most 7 decimal or 6 hex digits, U+FFFD outside 1…10FFFF, ';' optional.
    expect(decodeEntities('&#0; &#1114111; &#1114112; &#12345678 &#x10FFFF; &#x110000; &#x1F600 &#x1234567')).toBe(
      '\ufffd \u{10ffff} \ufffd \ufffd8 \u{10ffff} \ufffd \u{1f600} \ufffd7',
    );
    // Names: any case of a known one; unknown or one-letter names, bare '&' and empty references stay.
    expect(decodeEntities('Fish &AMP; Chips &Amp &ampx; &a; & &#; &#x; &copy&reg;')).toBe('Fish & Chips & &ampx; &a; & &#; &#x; ©®');
    expect(decodeEntities('a&nbsp&nbsp;b &hellip; R&amp;D')).toBe('a\u00a0\u00a0b … R&D');
  });
});
