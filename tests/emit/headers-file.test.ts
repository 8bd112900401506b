import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheControlOf, contentSecurityPolicy, IMMUTABLE, REVALIDATE, SECURITY_HEADERS } from '../../src/core/http-headers.js';
import { headersFile } from '../../src/emit/files/headers-file.js';
import { inlineHashes } from '../../src/serve/security.js';
import type { SiteConfig } from '../../src/core/schema.js';
import { build, listFiles, requireCompiled, workDir } from './helpers.js';

const site = JSON.parse(readFileSync(new URL('../../data/site.json', import.meta.url), 'utf8')) as SiteConfig;

/** The file read the way Netlify and Cloudflare Pages read it: `#` lines are comments, a path line opens a rule, indented `Name: value` lines are its headers. */
function parse(text: string): Array<{ path: string; headers: Record<string, string> }> {
  const rules: Array<{ path: string; headers: Record<string, string> }> = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ path: line.trim(), headers: {} });
      continue;
    }
    const at = line.indexOf(':');
    expect(at, `a header line without a colon: ${line}`).toBeGreaterThan(0);
    expect(rules.length, `a header before any path: ${line}`).toBeGreaterThan(0);
    rules[rules.length - 1].headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return rules;
}

/** Headers of every rule matching a URL path (`*` matches any run of characters), combined. */
function headersFor(rules: ReturnType<typeof parse>, urlPath: string): Record<string, string> {
  const matching = rules.filter((r) =>
    new RegExp(
      `^${r.path
        .split('*')
        .map((s) => s.replace(/[.?+^$[\]\\(){}|-]/g, '\\$&'))
        .join('.*')}$`,
    ).test(urlPath),
  );
  return Object.assign({}, ...matching.map((r) => r.headers));
}

describe('dist/_headers', () => {
  it('gives every path the security headers and the policy of site serve, and hashed files a year of cache', () => {
    const rules = parse(headersFile(site));
    const page = headersFor(rules, '/herb-extract');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(page[name]).toBe(value);
    expect(page['Content-Security-Policy']).toMatch(/^default-src 'self'; script-src 'self'; /);
    expect(page['Cache-Control']).toBeUndefined(); // pages: the host's default, revalidated
    for (const hashed of ['/assets/main-1a2b3c4d.js', '/search/index-1af3c25680.json']) {
      expect(cacheControlOf(hashed)).toBe(IMMUTABLE);
      expect(headersFor(rules, hashed)['Cache-Control']).toBe(IMMUTABLE);
    }
    for (const fixed of ['/search/entry.json', '/images/share.png', '/sitemap.xml', '/herb-extract']) {
      expect(cacheControlOf(fixed)).toBe(REVALIDATE);
      expect(headersFor(rules, fixed)['Cache-Control']).toBeUndefined();
    }
  });

  it('leaves the policy out when third-party scripts are configured, and lets forms reach an endpoint elsewhere', () => {
    const withAnalytics = headersFile({ ...site, thirdParty: { ...site.thirdParty, analyticsId: 'G-TEST' } });
    expect(headersFor(parse(withAnalytics), '/')['Content-Security-Policy']).toBeUndefined();
    expect(headersFor(parse(withAnalytics), '/')['X-Frame-Options']).toBe('DENY');
    expect(withAnalytics).toMatch(/^# No Content-Security-Policy: /m);
    const elsewhere = headersFor(parse(headersFile({ ...site, inquiryEndpoint: 'https://forms.example.net/v1/inquiry' })), '/contact-us')[
      'Content-Security-Policy'
    ];
    expect(elsewhere).toContain("form-action 'self' https://forms.example.net");
    expect(elsewhere).toContain("connect-src 'self' https://forms.example.net");
  });

  it('names, for every page the build writes, the policy site serve computes from that page', async () => {
    requireCompiled();
    const work = workDir();
    const run = await build(work);
    expect(run.code, run.stderr).toBe(0);
    const dist = path.join(work, 'dist');
    const rules = parse(readFileSync(path.join(dist, '_headers'), 'utf8'));
    const pages = listFiles(dist).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(5);
    for (const file of pages) {
      const urlPath = '/' + file.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '');
      expect(headersFor(rules, urlPath)['Content-Security-Policy'], file).toBe(
        contentSecurityPolicy(inlineHashes(readFileSync(path.join(dist, file), 'utf8'))),
      );
    }
  }, 120_000);
});
