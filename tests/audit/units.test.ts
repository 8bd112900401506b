import { describe, expect, it } from 'vitest';
import { ConfigError, loadAuditConfig, resolveSettings } from '../../src/audit/config.js';
import { auditConfigSchema } from '../../src/audit/config-schema.js';
import { measureContent, minhash, nearDuplicatePairs, similarity, words } from '../../src/audit/content.js';
import { extractPage } from './extract.js';
import { renderHtmlReport } from '../../src/audit/html.js';
import { escapeHtml } from '../../src/core/html/escape.js';
import { blockedBy, googlebotRules, parseRobots } from '../../src/audit/robots.js';
import { parseSitemap } from '../../src/audit/sitemap.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { audit, FAULTS } from './helpers.js';

describe('robots.txt', () => {
  it('reports the lines Lighthouse rejects', () => {
    const robots = parseRobots('Disallow: /early\nUser-agent: *\nAllow: private\nDisallow: /a$b\nfoo\nUnknown: x\nUser-agent:\n# comment\n\nCrawl-delay: 5');
    expect(robots.problems.map((p) => [p.line, p.message])).toEqual([
      [1, 'No user-agent specified before this rule'],
      [3, 'Pattern should either be empty, start with "/" or "*"'],
      [4, '"$" should be used only at the end of the pattern'],
      [5, 'Syntax not understood (expected "directive: value")'],
      [6, 'Unknown directive "unknown"'],
      [7, 'No user-agent specified'],
    ]);
  });

  it('matches like Google: longest pattern wins, Allow wins ties, * and $', () => {
    const rules = googlebotRules(parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\nDisallow: /tie\nAllow: /tie'));
    expect(blockedBy(rules, '/private/x')).toBe('/private');
    expect(blockedBy(rules, '/private/open/x')).toBeNull();
    expect(blockedBy(rules, '/files/a.pdf')).toBe('/*.pdf$');
    expect(blockedBy(rules, '/files/a.pdf?x')).toBeNull();
    expect(blockedBy(rules, '/tie')).toBeNull();
    expect(blockedBy(rules, '/public')).toBeNull();
  });

  it('prefers the googlebot group over *', () => {
    const rules = googlebotRules(parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /x'));
    expect(blockedBy(rules, '/a')).toBeNull();
    expect(blockedBy(rules, '/x')).toBe('/x');
  });
});

describe('sitemap parser', () => {
  it('reads locs and lastmods with their lines, decoding entities', () => {
    const parsed = parseSitemap(
      '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://e.com/a?x=1&amp;y=2</loc><lastmod>2024-01-01</lastmod></url>\n<url><loc><![CDATA[https://e.com/b]]></loc></url>\n</urlset>',
    );
    expect(parsed).toEqual({
      ok: true,
      kind: 'urlset',
      entries: [
        { loc: 'https://e.com/a?x=1&y=2', lastmod: '2024-01-01', line: 3 },
        { loc: 'https://e.com/b', lastmod: null, line: 4 },
      ],
    });
  });

  it("reads a page's own loc, not an extension's (Google's image sitemaps)", () => {
    const xml =
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">' +
      '<url><loc>https://e.com/p</loc><lastmod>2024-01-01</lastmod><image:image><image:loc>https://e.com/images/p.jpg</image:loc></image:image></url>' +
      '</urlset>';
    expect(parseSitemap(xml)).toEqual({ ok: true, kind: 'urlset', entries: [{ loc: 'https://e.com/p', lastmod: '2024-01-01', line: 1 }] });
  });

  it.each([
    ['<urlset><url><loc>https://e.com/a & b</loc></url></urlset>', 'unescaped "&"'],
    ['<urlset><url><loc>x</url></loc></urlset>', '</url> closes <loc>'],
    ['<urlset><url></url></urlset>', 'without <loc>'],
    ['<html></html>', 'expected <urlset> or <sitemapindex>'],
    ['<urlset>', 'never closed'],
    ['', 'no root element'],
  ])('rejects %j', (xml, error) => {
    const parsed = parseSitemap(xml);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toContain(error);
  });
});

describe('near duplicates', () => {
  const base = Array.from({ length: 400 }, (_, i) => `w${(i * 7919) % 1000}`);
  it('estimates similarity from MinHash signatures', () => {
    const a = minhash(base);
    const b = minhash([...base.slice(0, 398), 'x', 'y']);
    const c = minhash(Array.from({ length: 400 }, (_, i) => `v${i}`));
    expect(similarity(a, a)).toBe(1);
    expect(similarity(a, b)).toBeGreaterThan(0.9);
    expect(similarity(a, c)).toBeLessThan(0.1);
    expect(nearDuplicatePairs([a, c, b], 0.9)).toEqual([[0, 2, similarity(a, b)]]);
  });

  it('gives texts shorter than a shingle no signature', () => {
    expect(minhash(words('only four words here'))).toEqual([]);
  });

  it('pairs every member of a large shared bucket with its first member, and no pair twice', () => {
    // 60 pages of one template (a bucket over 50) and a near copy of the first.
    const template = minhash(base);
    const near = minhash([...base.slice(0, 399), 'z']);
    const pairs = nearDuplicatePairs([...Array.from({ length: 60 }, () => template), near], 0.9);
    expect(pairs.filter(([i]) => i === 0).length).toBe(60);
    expect(pairs.every(([i, j]) => i < j)).toBe(true);
    expect(new Set(pairs.map(([i, j]) => `${i},${j}`)).size).toBe(pairs.length);
  });
});

describe('content measures', () => {
  const text = 'Grape Seed Extract 95% OPC: a bulk powder, tested by HPLC; shipped in 25 kg drums.';
  it('counts the words words() finds and signs the same shingles as minhash()', () => {
    for (const t of [text, '', '  …  ', 'one', 'İstanbul ŞEHİR straße — ΣΊΣΥΦΟΣ\u00a0x\u3000y', text.repeat(40)]) {
      const m = measureContent(t, true);
      expect(m.words).toBe(words(t).length);
      expect(m.signature).toEqual(minhash(words(t)));
      expect(measureContent(t, false).signature).toEqual([]);
    }
  });

  it('hashes the words, not the markup, spacing, punctuation or case', () => {
    const hash = (t: string) => measureContent(t, false).hash;
    expect(hash(text)).toMatch(/^[0-9a-f]{16}$/);
    expect(hash(text)).toBe(hash(`  grape seed EXTRACT 95 opc a bulk powder\ttested by hplc shipped in 25 kg drums`));
    expect(hash(text)).not.toBe(hash(text.replace('25 kg', '50 kg')));
    expect(hash('seed grape')).not.toBe(hash('grape seed'));
    expect(hash('ab c')).not.toBe(hash('a bc'));
    expect(hash('')).toBe('');
    expect(hash(' , ')).toBe('');
  });
});

describe('extraction', () => {
  it('keeps nav, footer and forms out of the main content and inline SVG titles out of the titles', () => {
    const facts = extractPage(
      '<html><head><title>T</title><script type="application/ld+json">{}</script></head><body><header><nav><a href="/">Home</a></nav></header><main><h1>Head</h1><svg><title>icon</title></svg><p>one two</p><form><label>Name</label></form></main><footer>foot</footer></body></html>',
      '/x',
      'x/index.html',
    );
    expect(facts.titles).toEqual([{ text: 'T', inHead: true }]);
    expect(facts.mainText).toBe('Head one two');
    expect(facts.visibleText).toContain('foot');
    expect(facts.lorem).toBe(false);
  });

  it('finds lorem ipsum anywhere in the visible text, with or without JSON-LD', () => {
    expect(extractPage('<body><footer>Lorem  ipsum dolor</footer></body>', '/', 'index.html').lorem).toBe(true);
    expect(extractPage('<body><script type="application/ld+json">{}</script><p>lorem ipsum</p></body>', '/', 'index.html').lorem).toBe(true);
    expect(extractPage('<body><script>var lorem_ipsum</script><p>text</p></body>', '/', 'index.html').lorem).toBe(false);
  });
});

describe('config', () => {
  it('rejects unknown rules and options with the file and pointer', () => {
    expect(() => resolveSettings(auditConfigSchema.parse({ rules: { 'title/nope': 'off' } }), 'site.config.json')).toThrow(
      'site.config.json: /audit/rules/title~1nope: unknown rule "title/nope"',
    );
    expect(() => resolveSettings(auditConfigSchema.parse({ rules: { 'title/too-long': { maximum: 3 } } }), 'c.json')).toThrow(
      'rule "title/too-long" has no option "maximum"; expected "max"',
    );
  });

  it('reports schema errors with a JSON pointer, and a missing default file means defaults', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-config-'));
    const file = join(dir, 'site.config.json');
    writeFileSync(file, JSON.stringify({ audit: { rules: { 'title/too-long': 'loud' } } }));
    await expect(loadAuditConfig(file, true)).rejects.toThrow(ConfigError);
    await expect(loadAuditConfig(file, true)).rejects.toThrow(`${file}: /audit/rules/title~1too-long`);
    writeFileSync(file, '{ not json');
    await expect(loadAuditConfig(file, true)).rejects.toThrow('not valid JSON');
    await expect(loadAuditConfig(join(dir, 'absent.json'), false)).resolves.toEqual({ rules: {} });
    await expect(loadAuditConfig(join(dir, 'absent.json'), true)).rejects.toThrow('cannot read');
  });
});

describe('HTML report', () => {
  it('escapes page content', async () => {
    expect(escapeHtml('<script>"&\'')).toBe('&lt;script&gt;&quot;&amp;&#39;');
    const report = await audit(FAULTS);
    report.pages[0].title = '</td><script>alert(1)</script>';
    const html = renderHtmlReport(report);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });
});
