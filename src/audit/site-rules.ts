/**
 * Site-wide passes over the compact page facts: the link graph (broken
 * links, inlinks, orphans, crawl depth), duplicates, pagination, canonical
 * targets, the sitemap and robots.txt.
 */
import { sameShape } from '../core/images.js';
import { nearDuplicatePairs } from './content.js';
import { blockedBy, googlebotRules, type ParsedRobots } from './robots.js';
import type { ParsedSitemap } from './sitemap.js';
import { findingEmitter } from './page-rules.js';
import { candidateFiles } from '../core/static-files.js';
import { cleanPath, homeKey, insideBase } from './urls.js';
import type { Finding, RuleId, RuleSettings, SiteFacts } from './types.js';

export interface SiteInput {
  pages: SiteFacts[];
  /** Every file of the dist with its size in bytes, keyed by path relative to dist. */
  files: ReadonlyMap<string, number>;
  /** Pixel size of the image files <img> elements declare a size for, by path relative to dist (see readPixelSizes). */
  pixelSizes?: ReadonlyMap<string, { width: number; height: number }>;
  origin: string;
  originKnown: boolean;
  /** The path the site is served under ('/' or e.g. '/docs/15/'); default '/'. */
  basePath?: string;
  /** The internal files the site's own stylesheets name (url(), @import), by stylesheet file. */
  stylesheetRefs?: Array<{ file: string; refs: string[] }>;
  settings: RuleSettings;
  /** Parsed sitemap files (the root first, then those an index lists), or null when sitemap.xml is missing. */
  sitemaps: Array<{ file: string; bytes: number; parsed: ParsedSitemap }> | null;
  robots: { file: string; parsed: ParsedRobots } | null;
  /** Today as YYYY-MM-DD (UTC), for future lastmod. */
  today: string;
}

export interface SiteResult {
  findings: Finding[];
  inlinks: Map<string, number>;
  depth: Map<string, number>;
  indexable: Set<string>;
}

/** Shapes this close are the same (a 2× file declared at half its size is fine; rounding is). */
const ASPECT_TOLERANCE = 0.02;

const examples = (urls: readonly string[], max = 3): string => urls.slice(0, max).join(', ') + (urls.length > max ? ` and ${urls.length - max} more` : '');

function groupBy<T>(items: readonly T[], key: (t: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === null || k === '') continue;
    const g = groups.get(k);
    if (g) g.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export function checkSite(input: SiteInput): SiteResult {
  const { pages, files, settings } = input;
  const findings: Finding[] = [];
  const at = (page: SiteFacts) => findingEmitter(settings, findings, page.url, page.file);
  const atFile = (file: string) => findingEmitter(settings, findings, null, file);
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const basePath = input.basePath ?? '/';
  const home = homeKey(basePath);
  const fileExists = (path: string): string | undefined => candidateFiles(path, basePath).find((f) => files.has(f));

  // Indexability: noindex, or canonicalised to another URL.
  const indexable = new Set(pages.filter((p) => !p.noindex && (p.canonical === null || p.canonical === p.url)).map((p) => p.url));

  // Links: broken targets, inlinks, fragments. Pages are counted by their index: one lookup per link, not three.
  const indexOf = new Map<string, number>(pages.map((p, i) => [p.url, i]));
  const inlinkCount = new Int32Array(pages.length);
  /** 1 where some page links to the page without the trailing slash its folder URL has (url/folder-redirect). */
  const linkedBare = new Uint8Array(pages.length);
  for (const page of pages) {
    const emit = at(page);
    const slashed = page.slashedLinks.length === 0 ? null : new Set(page.slashedLinks);
    for (const target of page.outlinks) {
      const i = indexOf.get(target);
      if (i !== undefined) {
        inlinkCount[i]++;
        if (linkedBare[i] === 0 && !slashed?.has(target)) linkedBare[i] = 1;
      } else if (!fileExists(target)) emit('links/broken', `The link to ${target} points at a missing page or file.`);
    }
    for (const link of page.fragmentLinks) {
      const hash = link.indexOf('#');
      const target = byUrl.get(link.slice(0, hash));
      if (target && !target.ids.includes('\n' + link.slice(hash + 1) + '\n')) {
        emit('links/broken-fragment', `The link to ${link} names an id that ${target.url} does not have.`);
      }
    }
  }

  // Crawl depth: breadth-first from the home page over page-to-page links (-1: not reached).
  const level = new Int32Array(pages.length).fill(-1);
  const homeIndex = indexOf.get(home);
  if (homeIndex !== undefined) {
    level[homeIndex] = 0;
    let frontier = [homeIndex];
    for (let d = 1; frontier.length > 0; d++) {
      const next: number[] = [];
      for (const from of frontier) {
        for (const target of pages[from].outlinks) {
          const i = indexOf.get(target);
          if (i !== undefined && level[i] < 0) {
            level[i] = d;
            next.push(i);
          }
        }
      }
      frontier = next;
    }
  }
  const inlinks = new Map<string, number>();
  const depth = new Map<string, number>();
  for (const [url, i] of indexOf) {
    inlinks.set(url, inlinkCount[i]);
    if (level[i] >= 0) depth.set(url, level[i]);
  }
  const maxDepth = settings['links/deep'].options.maxDepth;
  for (const page of pages) {
    if (!indexable.has(page.url) || page.url === home) continue;
    if (inlinks.get(page.url) === 0) at(page)('links/orphan', `No page links to ${page.url}.`);
    else if (!depth.has(page.url)) at(page)('links/deep', `${page.url} cannot be reached from the home page by following links.`);
    else if (depth.get(page.url)! > maxDepth) at(page)('links/deep', `${page.url} is ${depth.get(page.url)} clicks from the home page (over ${maxDepth}).`);
  }

  // Other references: stylesheets, scripts, icons, iframes, media, and what the site's stylesheets name.
  for (const page of pages) {
    for (const [ref, what] of page.resourceRefs) if (!fileExists(ref)) at(page)('resource/broken', `The ${what} ${ref} does not exist.`);
  }
  for (const sheet of input.stylesheetRefs ?? []) {
    for (const ref of sheet.refs)
      if (!fileExists(ref)) atFile(sheet.file)('resource/broken', `${sheet.file} names ${ref} (url() or @import), which does not exist.`);
  }

  // Images: broken references per page; file sizes once per file. Of an image offered in several files
  // (srcset), only the lightest is weighed: the heavier ones are for screens that need them.
  const maxBytes = settings['img/too-large'].options.maxBytes;
  const largeImages = new Map<string, Set<string>>();
  for (const page of pages) {
    for (const ref of page.imageRefs) if (!fileExists(ref)) at(page)('img/broken', `The image ${ref} does not exist.`);
    for (const choices of page.imageChoices) {
      const existing = choices.map(fileExists).filter((f): f is string => f !== undefined);
      const lightest = existing.reduce<string | undefined>((a, f) => (a === undefined || files.get(f)! < files.get(a)! ? f : a), undefined);
      if (lightest === undefined || files.get(lightest)! <= maxBytes) continue;
      const users = largeImages.get(lightest) ?? new Set<string>();
      users.add(page.url);
      largeImages.set(lightest, users);
    }
  }
  for (const [file, users] of [...largeImages].sort((a, b) => a[0].localeCompare(b[0]))) {
    atFile(file)(
      'img/too-large',
      `${file} is ${Math.round(files.get(file)! / 1024)} KB (over ${Math.round(maxBytes / 1024)} KB), used on ${examples([...users])}.`,
    );
  }

  // Declared shapes: an <img> whose width and height are another shape than its file makes the page jump as it loads.
  const misshapen = new Map<string, Set<string>>();
  for (const page of pages) {
    for (const [ref, width, height] of page.imageShapes) {
      const file = fileExists(ref);
      const actual = file === undefined ? undefined : input.pixelSizes?.get(file);
      if (actual === undefined) continue;
      if (sameShape({ width, height }, actual, ASPECT_TOLERANCE)) continue;
      const key = `${file}\n${width}×${height}`;
      const users = misshapen.get(key) ?? new Set<string>();
      users.add(page.url);
      misshapen.set(key, users);
    }
  }
  for (const [key, users] of [...misshapen].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const [file, declared] = key.split('\n');
    const { width, height } = input.pixelSizes!.get(file)!;
    atFile(file)('img/aspect-mismatch', `${file} is ${width}×${height} pixels but is declared ${declared} (another shape) on ${examples([...users])}.`);
  }

  // Canonical targets.
  for (const page of pages) {
    if (page.canonical === null || page.canonical === page.url || !page.canonical.startsWith('/')) continue;
    const target = byUrl.get(page.canonical);
    if (!target) at(page)('canonical/target-missing', `The canonical points at ${page.canonical}, which does not exist.`);
    else if (!indexable.has(target.url)) {
      at(page)(
        'canonical/target-non-indexable',
        `The canonical points at ${target.url}, which is ${target.noindex ? 'noindex' : `canonicalised to ${target.canonical}`}.`,
      );
    }
  }

  // Duplicates among indexable pages.
  const indexablePages = pages.filter((p) => indexable.has(p.url));
  const duplicates = (rule: RuleId, what: string, key: (p: SiteFacts) => string | null): void => {
    for (const group of groupBy(indexablePages, key).values()) {
      if (group.length < 2) continue;
      for (const page of group) {
        const others = group.filter((o) => o !== page).map((o) => o.url);
        at(page)(rule, `The ${what} is shared with ${others.length} other page${others.length > 1 ? 's' : ''}: ${examples(others)}.`);
      }
    }
  };
  duplicates('title/duplicate', 'title', (p) => p.title?.trim().toLowerCase() ?? null);
  duplicates('description/duplicate', 'meta description', (p) => p.description?.trim().toLowerCase() ?? null);
  duplicates('h1/duplicate', 'H1', (p) => p.h1?.trim().toLowerCase() ?? null);
  duplicates('content/exact-duplicate', 'main content', (p) => p.contentHash);

  // Near duplicates: one representative per distinct main content.
  const representatives = [...groupBy(indexablePages, (p) => p.contentHash).values()].map((g) => g[0]).filter((p) => p.minhash.length > 0);
  const threshold = settings['content/near-duplicate'].options.similarity;
  const best = new Map<string, { other: string; similarity: number; count: number }>();
  for (const [i, j, s] of nearDuplicatePairs(
    representatives.map((p) => p.minhash),
    threshold,
  )) {
    for (const [a, b] of [
      [i, j],
      [j, i],
    ]) {
      const url = representatives[a].url;
      const cur = best.get(url);
      if (!cur) best.set(url, { other: representatives[b].url, similarity: s, count: 1 });
      else {
        cur.count++;
        if (s > cur.similarity) Object.assign(cur, { other: representatives[b].url, similarity: s });
      }
    }
  }
  for (const page of representatives) {
    const near = best.get(page.url);
    if (!near) continue;
    const more = near.count > 1 ? ` (and ${near.count - 1} more page${near.count > 2 ? 's' : ''})` : '';
    at(page)('content/near-duplicate', `The main content is ${Math.round(near.similarity * 100)} % similar to ${near.other}${more}.`);
  }

  checkPagination(pages, byUrl, at);
  checkSitemaps(input, byUrl, indexable, fileExists, atFile, at);
  checkRobots(input, indexablePages, atFile, at);
  // Hosting: a page only as a folder's index.html is a redirect at its clean URL on the most used static hosts,
  // which matters only where the site links to that clean URL (without the trailing slash).
  const folderOnly = pages.filter(
    (p) =>
      p.url !== home && p.file.endsWith('/index.html') && !files.has(`${p.file.slice(0, -'/index.html'.length)}.html`) && linkedBare[indexOf.get(p.url)!] === 1,
  );
  if (folderOnly.length > 0) {
    atFile(folderOnly[0].file)(
      'url/folder-redirect',
      `${folderOnly.length} of ${pages.length} pages exist only as <path>/index.html and are linked without the trailing slash (${examples(folderOnly.map((p) => p.file))}); GitHub Pages, Netlify and Cloudflare Pages redirect /path to /path/.`,
    );
  }

  return { findings, inlinks, depth, indexable };
}

type At = (page: SiteFacts) => ReturnType<typeof findingEmitter>;

function checkPagination(pages: readonly SiteFacts[], byUrl: ReadonlyMap<string, SiteFacts>, at: At): void {
  const lists = new Map<string, Set<number>>();
  for (const page of pages) {
    const m = /^(.*)\/page-(\d+)$/.exec(page.url);
    if (!m) continue;
    const base = m[1] || '/';
    const numbers = lists.get(base) ?? new Set<number>();
    numbers.add(Number(m[2]));
    lists.set(base, numbers);
  }
  for (const [base, numbers] of [...lists].sort((a, b) => a[0].localeCompare(b[0]))) {
    const prefix = base === '/' ? '' : base;
    // The bare list path shows page 1.
    const pageUrl = (n: number): string | null => (byUrl.has(`${prefix}/page-${n}`) ? `${prefix}/page-${n}` : n === 1 && byUrl.has(base) ? base : null);
    const max = Math.max(...numbers);
    const missing: number[] = [];
    for (let n = 1; n <= max; n++) if (pageUrl(n) === null) missing.push(n);
    const firstPage = byUrl.get(pageUrl(1) ?? `${prefix}/page-${Math.min(...numbers)}`)!;
    if (missing.length > 0) at(firstPage)('pagination/gap', `The list ${base} has no page ${missing.join(', ')} of ${max}.`);
    for (let n = 1; n < max; n++) {
      const cur = pageUrl(n);
      const next = pageUrl(n + 1);
      if (cur === null || next === null) continue;
      // Either form of page 1 counts as a link back to it.
      const backTargets = n === 1 ? [base, `${prefix}/page-1`] : [cur];
      const copies = n === 1 ? [base, `${prefix}/page-1`].filter((u) => byUrl.has(u)) : [cur];
      for (const from of copies) {
        if (!byUrl.get(from)!.outlinks.includes(next))
          at(byUrl.get(from)!)('pagination/not-linked', `${from} does not link to the next page ${next} with <a href>.`);
      }
      if (!backTargets.some((t) => byUrl.get(next)!.outlinks.includes(t))) {
        at(byUrl.get(next)!)('pagination/not-linked', `${next} does not link to the previous page ${cur} with <a href>.`);
      }
    }
  }
}

function checkSitemaps(
  input: SiteInput,
  byUrl: ReadonlyMap<string, SiteFacts>,
  indexable: ReadonlySet<string>,
  fileExists: (path: string) => string | undefined,
  atFile: (file: string) => ReturnType<typeof findingEmitter>,
  at: At,
): void {
  const { sitemaps, settings } = input;
  if (sitemaps === null) {
    atFile('sitemap.xml')('sitemap/missing', 'There is no sitemap.xml in the site root.');
    return;
  }
  const { maxUrls, maxBytes } = settings['sitemap/too-large'].options;
  const origin = new URL(input.origin);
  const listed = new Set<string>();
  const lastmods = new Set<string>();
  let urlCount = 0;
  for (const { file, bytes, parsed } of sitemaps) {
    const emit = atFile(file);
    if (!parsed.ok) {
      emit('sitemap/malformed', `${file} is not well-formed sitemap XML: ${parsed.error} (line ${parsed.line}).`, parsed.line);
      continue;
    }
    if (parsed.entries.length > maxUrls || bytes > maxBytes) {
      emit(
        'sitemap/too-large',
        `${file} has ${parsed.entries.length} URLs and ${(bytes / 1048576).toFixed(1)} MB (limits: ${maxUrls} URLs, ${Math.round(maxBytes / 1048576)} MB).`,
      );
    }
    for (const entry of parsed.entries) {
      let url: URL | null = null;
      try {
        url = new URL(entry.loc);
      } catch {
        url = null;
      }
      if (!url || !/^https?:$/.test(url.protocol)) {
        emit('sitemap/bad-url', `<loc>${entry.loc}</loc> is not an absolute URL.`, entry.line);
        continue;
      }
      if (input.originKnown && url.origin !== origin.origin) {
        emit('sitemap/bad-url', `<loc>${entry.loc}</loc> is not on the site's origin ${origin.origin}.`, entry.line);
        continue;
      }
      if (parsed.kind === 'sitemapindex') continue;
      urlCount++;
      const path = cleanPath(url.pathname);
      const basePath = input.basePath ?? '/';
      if (!insideBase(path, basePath)) {
        emit('sitemap/bad-url', `<loc>${entry.loc}</loc> is outside the site's base path ${basePath}.`, entry.line);
        continue;
      }
      listed.add(path);
      if (entry.lastmod !== null) {
        lastmods.add(entry.lastmod);
        if (entry.lastmod.slice(0, 10) > input.today)
          emit('sitemap/future-lastmod', `${path} has lastmod ${entry.lastmod}, after today (${input.today}).`, entry.line);
      }
      const page = byUrl.get(path);
      if (!page) {
        if (!fileExists(path)) emit('sitemap/url-not-found', `${entry.loc} has no page in the site.`, entry.line);
      } else if (!indexable.has(path)) {
        at(page)('sitemap/non-indexable-url', `${file} lists ${path}, which is ${page.noindex ? 'noindex' : `canonicalised to ${page.canonical}`}.`);
      }
    }
  }
  if (urlCount > 1 && lastmods.size === 1) {
    atFile(sitemaps[0].file)('sitemap/uniform-lastmod', `All ${urlCount} sitemap URLs have the same lastmod ${[...lastmods][0]}.`);
  }
  if (sitemaps.every((s) => s.parsed.ok)) {
    for (const url of indexable) {
      if (!listed.has(url)) at(byUrl.get(url)!)('sitemap/missing-indexable', `${url} is indexable but not in the sitemap.`);
    }
  }
}

function checkRobots(input: SiteInput, indexablePages: readonly SiteFacts[], atFile: (file: string) => ReturnType<typeof findingEmitter>, at: At): void {
  if (!input.robots) return;
  const { file, parsed } = input.robots;
  const emit = atFile(file);
  for (const p of parsed.problems) emit('robots/invalid-line', `Line ${p.line} "${p.text.trim()}": ${p.message}.`, p.line);
  for (const s of parsed.sitemaps) {
    let ok = false;
    try {
      ok = /^(https?|ftp):$/.test(new URL(s.url).protocol);
    } catch {
      ok = false;
    }
    if (!ok) emit('robots/sitemap-not-absolute', `Line ${s.line}: Sitemap "${s.url}" is not an absolute URL.`, s.line);
  }
  const rules = googlebotRules(parsed);
  if (rules.length === 0) return;
  for (const page of indexablePages) {
    const pattern = blockedBy(rules, encodeURI(page.url));
    if (pattern) at(page)('robots/blocks-indexable', `robots.txt "Disallow: ${pattern}" blocks ${page.url}, an indexable page.`);
  }
}
