/**
 * The audit of a static site on disk as a host serves it, on small sites
 * shaped like those of other generators (tests/fixtures/audit-disk): each
 * reproduces a false finding the audit gave on real MkDocs, Sphinx, Doxygen
 * and DocBook output, and keeps the real finding next to it.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAudit, type AuditOptions, type AuditReport } from '../../src/audit/index.js';
import { excludeMatcher } from '../../src/audit/exclude.js';
import { cssReferences } from '../../src/audit/css.js';
import { findingsCsv, pagesCsv } from '../../src/audit/csv.js';
import { FAULTS, locations, settings, TODAY } from './helpers.js';

const DISK = 'tests/fixtures/audit-disk';

function auditDisk(name: string, extra: Partial<AuditOptions> = {}): Promise<AuditReport> {
  return runAudit({ dir: join(DISK, name), settings: settings(), threads: 0, today: TODAY, ...extra });
}

const messages = (report: AuditReport, rule: string): string[] => report.findings.filter((f) => f.rule === rule).map((f) => `${f.url ?? f.file}: ${f.message}`);
const row = (report: AuditReport, url: string) => report.pages.find((p) => p.url === url)!;

const scratch: string[] = [];
afterAll(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('a site of folders (MkDocs)', () => {
  it('resolves relative links of a folder index.html against /dir/ and reports only the real broken link', async () => {
    const report = await auditDisk('folder-urls');
    expect(messages(report, 'links/broken')).toEqual(['/guide: The link to /guide/missing points at a missing page or file.']);
    expect(messages(report, 'img/broken')).toEqual([]);
    expect(messages(report, 'links/broken-fragment')).toEqual([]);
    expect(row(report, '/guide').served).toBe('/guide/');
  });

  it('counts links written as dir/index.html as links to the page: no orphans', async () => {
    const report = await auditDisk('folder-urls');
    expect(locations(report).get('links/orphan')).toBeUndefined();
    // Home links about/index.html, guide links ../about/.
    expect(row(report, '/about').inlinks).toBe(2);
    expect(row(report, '/').inlinks).toBe(3);
    expect(row(report, '/guide/install').depth).toBe(2);
  });

  it('does not report url/folder-redirect when the links end in / or index.html', async () => {
    const report = await auditDisk('folder-urls');
    expect(locations(report).get('url/folder-redirect')).toBeUndefined();
  });
});

describe('anchors', () => {
  it('an <a> without href is no link and href="" is the page itself; javascript: stays uncrawlable', async () => {
    const report = await auditDisk('anchors');
    expect(messages(report, 'links/uncrawlable')).toEqual(['/: The link "Menu" has href="javascript:void(0)", which crawlers do not follow.']);
    expect(messages(report, 'links/broken-fragment')).toEqual([]);
    expect(messages(report, 'links/broken')).toEqual([]);
  });
});

describe('a site served under a base path', () => {
  it('takes the base path from --origin and treats links outside it as outside the site', async () => {
    const report = await auditDisk('base-path', { origin: 'https://example.org/docs/15/' });
    expect(report.basePath).toBe('/docs/15/');
    expect(report.pages.map((p) => p.url).sort()).toEqual(['/docs/15', '/docs/15/guide']);
    expect(messages(report, 'links/broken')).toEqual(['/docs/15: The link to /docs/15/missing points at a missing page or file.']);
    expect(row(report, '/docs/15/guide').inlinks).toBe(1);
  });

  it('finds the base path in the home page canonical without --origin', async () => {
    const report = await auditDisk('base-path');
    expect([report.origin, report.basePath]).toEqual(['https://example.org', '/docs/15/']);
    expect(messages(report, 'links/broken')).toHaveLength(1);
    expect(locations(report).get('canonical/target-missing')).toBeUndefined();
  });
});

describe('references other than links and images', () => {
  it('checks stylesheets, scripts, icons, iframes, media sources and url() in stylesheets', async () => {
    const report = await auditDisk('resources');
    expect(messages(report, 'resource/broken').sort()).toEqual([
      '/: The iframe /embed/missing.html does not exist.',
      '/: The link rel=stylesheet /css/missing.css does not exist.',
      '/: The script /js/missing.js does not exist.',
      'css/site.css: css/site.css names /img/gone.png (url() or @import), which does not exist.',
    ]);
  });

  it('resolves references against <base href>', async () => {
    const report = await auditDisk('resources');
    const sub = report.findings.filter((f) => f.url === '/sub/page.html' && /broken/.test(f.rule));
    expect(sub).toEqual([]);
    expect(row(report, '/').inlinks).toBe(1);
  });

  it('reads url() and @import of a stylesheet, without comments, fragments or data: URIs', () => {
    expect(cssReferences('@import \'a.css\'; @import url("b.css");\n/* url(c.png) */ x{background:url( d.png ) url(#f) url(data:x)}')).toEqual([
      'b.css',
      'd.png',
      'a.css',
    ]);
  });
});

describe('canonicals', () => {
  it('names a file: canonical as not http(s), not as relative', async () => {
    const report = await auditDisk('file-canonical');
    expect(messages(report, 'canonical/not-http')).toEqual([
      '/: The canonical "file:///home/author/site/index.html" is a file: URL, not http(s); search engines ignore it.',
    ]);
    expect(locations(report).get('canonical/relative')).toBeUndefined();
  });
});

describe('files that are not pages', () => {
  it('leaves out Doxygen search frames by default', async () => {
    const report = await auditDisk('doxygen');
    expect(report.pages.map((p) => p.file).sort()).toEqual(['files.html', 'generated/a.html', 'index.html']);
    expect(locations(report).get('title/empty')).toBeUndefined();
    expect(messages(report, 'resource/broken')).toEqual([]);
  });

  it('leaves out what --exclude names, and links to excluded files are not broken', async () => {
    const report = await auditDisk('doxygen', { exclude: ['generated/'] });
    expect(report.pages.map((p) => p.file).sort()).toEqual(['files.html', 'index.html']);
    expect(messages(report, 'links/broken')).toEqual([]);
  });

  it('matches globs as .gitignore does', () => {
    const m = excludeMatcher(['*.tmp.html', 'api/**/raw_*.html', 'drafts/']);
    expect(['a.tmp.html', 'x/y/b.tmp.html', 'api/raw_1.html', 'api/v2/raw_a.html', 'drafts/x/index.html'].map(m)).toEqual([true, true, true, true, true]);
    expect(['a.html', 'api/raw.html', 'other/api/raw_1.html', 'drafts.html'].map(m)).toEqual([false, false, false, false]);
  });
});

describe("the project's own data and reports", () => {
  it('are read only when they describe the audited folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-disk-'));
    scratch.push(dir);
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'site.json'), JSON.stringify({ origin: 'https://www.example.com' }));
    cpSync(join(FAULTS, 'reports'), join(dir, 'reports'), { recursive: true });
    const foreign = await auditDisk('folder-urls', { dataDir: join(dir, 'data'), reportsDir: join(dir, 'reports') });
    expect(foreign.origin).toBeNull();
    expect(foreign.routesKnown).toBe(false);
    expect(foreign.summary.byScreen.map((s) => s.screen)).not.toContain('article');

    const own = await runAudit({
      dir: join(FAULTS, 'site'),
      reportsDir: join(FAULTS, 'reports'),
      dataDir: join(dir, 'data'),
      settings: settings(),
      threads: 0,
      today: TODAY,
    });
    expect(own.routesKnown).toBe(true);
  });
});

describe('CSV reports', () => {
  it('write one row per finding and per page, quoted, with formulas defused', async () => {
    const report = await auditDisk('anchors');
    report.pages[0].title = '=HYPERLINK("x","y"), "quoted"';
    const pages = pagesCsv(report).split('\r\n');
    expect(pages[0]).toBe('url,served,file,screen,title,description,words,inlinks,outlinks,depth,indexable,issues,rules');
    expect(pages).toHaveLength(report.pages.length + 2);
    expect(pages[1]).toContain(`"'=HYPERLINK(""x"",""y""), ""quoted"""`);
    const findings = findingsCsv(report).split('\r\n');
    expect(findings).toHaveLength(report.findings.length + 2);
    expect(findings[0]).toBe('severity,rule,url,file,line,message');
  });
});

describe('the base path from the sitemap', () => {
  const withSitemap = (locs: string[]): string => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-sitemap-'));
    scratch.push(dir);
    cpSync(join(DISK, 'folder-urls'), dir, { recursive: true });
    writeFileSync(
      join(dir, 'sitemap.xml'),
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<url><loc>${l}</loc></url>`).join('\n')}\n</urlset>\n`,
    );
    return dir;
  };

  it('is the folder of its home page when the sitemap lists it', async () => {
    const dir = withSitemap(['https://example.org/v2/', 'https://example.org/v2/guide/', 'https://example.org/v2/about/']);
    const report = await runAudit({ dir, settings: settings(), threads: 0, today: TODAY });
    expect([report.origin, report.basePath]).toEqual(['https://example.org', '/v2/']);
    expect(messages(report, 'sitemap/url-not-found')).toEqual([]);
  });

  it('stays / when the sitemap lists only pages under one folder', async () => {
    const dir = withSitemap(['https://example.org/guide/', 'https://example.org/guide/install/']);
    const report = await runAudit({ dir, settings: settings(), threads: 0, today: TODAY });
    expect([report.origin, report.basePath]).toEqual(['https://example.org', '/']);
  });
});
