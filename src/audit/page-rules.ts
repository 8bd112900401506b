/**
 * Rules that need only one page. They run inside the extraction worker so
 * that the main thread receives findings and compact facts, never DOMs.
 */
import { measureContent } from './content.js';
import { checkStructuredData } from './schema.js';
import { resolveLink, type SiteBase } from './urls.js';
import type { Finding, PageFacts, RuleId, RuleSettings, SiteFacts } from './types.js';
import { isSvgUrl } from '../core/social.js';

/** What the build said about a route (reports/build-routes.json). */
export interface RouteInfo {
  screen?: string;
  metaFallback?: string[];
  warnings?: string[];
}

export interface PageContext {
  /** The site's origin (a placeholder when unknown). */
  origin: string;
  originKnown: boolean;
  /** The path the audited site is served under: '/' or e.g. '/docs/15/'. Default '/'. */
  basePath?: string;
  /** The path this page is served at (a folder's index.html at `/dir/`); default its key. Relative references resolve against it. */
  served?: string;
  settings: RuleSettings;
  /** Present when the route is declared in the build's route report. */
  route?: RouteInfo;
}

/** Lighthouse's link-text audit blocklist (English). */
export const NON_DESCRIPTIVE = new Set([
  'click here',
  'click this',
  'go',
  'here',
  'information',
  'learn more',
  'more',
  'more info',
  'more information',
  'right here',
  'read more',
  'see more',
  'start',
  'this',
]);

const LONGEST_NON_DESCRIPTIVE = Math.max(...[...NON_DESCRIPTIVE].map((t) => t.length));

/** Whether a link text, without trailing '.', '!' or '…', is on the list (ignoring case). Long texts are ruled out before any string is made. */
function isNonDescriptive(text: string): boolean {
  let end = text.length;
  for (let c = text.charCodeAt(end - 1); c === 46 || c === 33 || c === 0x2026; c = text.charCodeAt(--end - 1));
  return end <= LONGEST_NON_DESCRIPTIVE && NON_DESCRIPTIVE.has(text.slice(0, end).toLowerCase());
}

const quote = (s: string, max = 80): string => `"${s.length > max ? s.slice(0, max - 1) + '…' : s}"`;

export function isNoindex(robots: readonly string[]): boolean {
  return robots.some((r) => /(^|[\s,])(noindex|none)([\s,]|$)/.test(r));
}

export function findingEmitter(settings: RuleSettings, out: Finding[], url: string | null, file: string) {
  return (rule: RuleId, message: string, line?: number): void => {
    const setting = settings[rule];
    if (!setting) throw new Error(`audit: rule "${rule}" is not registered`);
    if (!setting.enabled) return;
    out.push({ rule, severity: setting.severity, url, file, ...(line !== undefined ? { line } : {}), message });
  };
}

function checkUrl(url: string, ctx: PageContext, emit: (rule: RuleId, message: string) => void): void {
  const opt = ctx.settings['url/too-long'].options;
  const segments = url.split('/');
  const wart = /[A-Z]/.test(url) || segments.some((s) => s.startsWith('-') || s.endsWith('-'));
  if (wart && ctx.route) {
    emit('url/legacy-slug', `${url} keeps its legacy slug on purpose (declared in data/routes.json; it ranks under this path).`);
  } else if (/[A-Z]/.test(url)) {
    emit('url/uppercase', `${url} has uppercase letters.`);
  }
  if (url.includes('_')) emit('url/underscore', `${url} has underscores.`);
  if (url.includes(' ')) emit('url/space', `${quote(url)} has spaces.`);
  if (/[^\x00-\x7f]/.test(url)) emit('url/non-ascii', `${url} has non-ASCII characters.`);
  const full = (ctx.originKnown ? ctx.origin : '') + encodeURI(url);
  if (full.length > opt.max) emit('url/too-long', `The URL is ${full.length} characters (over ${opt.max}).`);
}

/** The absolute URL relative references of the page resolve against: its <base href> over the URL it is served at. */
function documentBase(facts: PageFacts, origin: string, served: string): string {
  const page = origin + served;
  if (facts.baseHref === null || facts.baseHref === '') return page;
  try {
    return new URL(facts.baseHref, page).href;
  } catch {
    return page;
  }
}

export function checkPage(facts: PageFacts, ctx: PageContext): { findings: Finding[]; site: SiteFacts } {
  const findings: Finding[] = [];
  const site: SiteBase = { origin: ctx.origin, basePath: ctx.basePath ?? '/' };
  const served = ctx.served ?? facts.url;
  const base = documentBase(facts, ctx.origin, served);
  const resolve = (href: string | null) => resolveLink(href, base, facts.url, site);
  const emit = findingEmitter(ctx.settings, findings, facts.url, facts.file);
  const opt = (rule: RuleId) => ctx.settings[rule].options;

  // Titles
  const title = facts.titles.find((t) => t.inHead) ?? facts.titles[0];
  if (facts.titles.length === 0) emit('title/missing', 'The page has no <title>.');
  else if (title.text === '') emit('title/empty', 'The <title> is empty.');
  if (facts.titles.length > 1) emit('title/multiple', `The page has ${facts.titles.length} <title> elements.`);
  if (facts.titles.some((t) => !t.inHead)) emit('title/outside-head', 'A <title> is outside <head>.');
  if (title && title.text !== '') {
    const len = [...title.text].length;
    if (len > opt('title/too-long').max) emit('title/too-long', `The title is ${len} characters (over ${opt('title/too-long').max}): ${quote(title.text)}.`);
    if (len < opt('title/too-short').min)
      emit('title/too-short', `The title is ${len} characters (under ${opt('title/too-short').min}): ${quote(title.text)}.`);
  }
  const h1s = facts.headings.filter((h) => h.level === 1);
  if (title && h1s[0] && title.text !== '' && title.text.toLowerCase() === h1s[0].text.toLowerCase()) {
    emit('title/same-as-h1', `The title is the same as the H1: ${quote(title.text)}.`);
  }

  // Meta description and keywords
  const description = facts.descriptions[0] ?? null;
  const fallback = ctx.route?.metaFallback ?? [];
  if (fallback.length > 0) {
    emit('meta/filled-by-build', `The CMS meta ${fallback.join(', ')} of ${facts.url} is empty; the build filled it from the content.`);
  }
  if (!description) emit('description/missing', facts.descriptions.length ? 'The meta description is empty.' : 'The page has no meta description.');
  if (facts.descriptions.length > 1) emit('description/multiple', `The page has ${facts.descriptions.length} meta descriptions.`);
  if (description) {
    const len = [...description].length;
    if (len > opt('description/too-long').max)
      emit('description/too-long', `The meta description is ${len} characters (over ${opt('description/too-long').max}).`);
    if (len < opt('description/too-short').min)
      emit('description/too-short', `The meta description is ${len} characters (under ${opt('description/too-short').min}): ${quote(description)}.`);
  }
  if (facts.keywords.some((k) => k === '')) emit('keywords/empty', 'The meta keywords tag is empty.');

  // Headings
  if (h1s.length === 0) emit('h1/missing', 'The page has no H1.');
  if (h1s.length > 1) emit('h1/multiple', `The page has ${h1s.length} H1 headings.`);
  for (const h of h1s) {
    if (h.text.length > opt('h1/too-long').max)
      emit('h1/too-long', `The H1 is ${h.text.length} characters (over ${opt('h1/too-long').max}): ${quote(h.text)}.`);
  }
  for (let i = 1; i < facts.headings.length; i++) {
    const [prev, cur] = [facts.headings[i - 1], facts.headings[i]];
    if (cur.level > prev.level + 1) {
      emit('heading/skipped-level', `H${prev.level} ${quote(prev.text, 40)} is followed by H${cur.level} ${quote(cur.text, 40)}.`);
      break;
    }
  }

  // Canonicals
  let canonicalPath: string | null = null;
  let canonical: string | null = null;
  if (facts.canonicals.length === 0) emit('canonical/missing', 'The page has no canonical link.');
  if (facts.canonicals.length > 1) {
    const distinct = new Set(facts.canonicals.map((c) => c.href));
    emit(
      'canonical/multiple',
      `The page has ${facts.canonicals.length} canonical links${distinct.size > 1 ? ` pointing at ${distinct.size} different URLs` : ''}.`,
    );
  }
  if (facts.canonicals.some((c) => !c.inHead)) emit('canonical/outside-head', 'A canonical link is outside <head>.');
  const first = facts.canonicals[0];
  if (first) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(first.href)?.[1].toLowerCase();
    if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
      emit('canonical/not-http', `The canonical ${quote(first.href)} is a ${scheme}: URL, not http(s); search engines ignore it.`);
    } else if (!/^https?:\/\//i.test(first.href)) emit('canonical/relative', `The canonical ${quote(first.href)} is not absolute.`);
    if (first.href.includes('#')) emit('canonical/fragment', `The canonical ${quote(first.href)} has a fragment.`);
    const target = resolve(first.href);
    if (target.kind === 'internal') {
      canonicalPath = target.path;
      canonical = target.path;
    } else if (target.kind === 'external') canonical = target.url;
  }
  const noindex = isNoindex(facts.robots);
  const indexable = !noindex && (canonical === null || canonicalPath === facts.url);

  // Links
  const outlinks = new Set<string>();
  const slashedLinks = new Set<string>();
  const fragmentLinks = new Set<string>();
  const pageIsHttps = ctx.origin.startsWith('https:');
  for (const link of facts.links) {
    const target = resolve(link.href);
    if (target.kind === 'uncrawlable') {
      emit(
        'links/uncrawlable',
        `The link ${quote(link.text || '(no text)', 40)} has ${link.href === null ? 'no href' : `href=${quote(link.href, 40)}`}, which crawlers do not follow.`,
      );
      continue;
    }
    if (target.kind !== 'internal' && target.kind !== 'external') continue;
    const nofollow = /(^|\s)nofollow(\s|$)/.test(link.rel);
    const samePageFragment = target.kind === 'internal' && target.sameDocument && target.fragment !== '';
    if (!nofollow && !samePageFragment && isNonDescriptive(link.text)) {
      emit('links/non-descriptive', `The link text ${quote(link.text)} does not describe ${target.kind === 'internal' ? target.path : target.url}.`);
    }
    if (target.kind !== 'internal') continue;
    if (nofollow) emit('links/internal-nofollow', `The internal link to ${target.path} has rel=nofollow.`);
    if (target.insecure) emit('url/http-own-origin', `The link ${quote(link.href ?? '')} uses http:// for the site's own origin.`);
    if (target.fragment !== '') {
      if (target.path === facts.url) {
        if (!facts.ids.has(target.fragment)) emit('links/broken-fragment', `The link to #${target.fragment} has no element with that id on this page.`);
      } else fragmentLinks.add(`${target.path}#${target.fragment}`);
    }
    if (target.path !== facts.url) {
      outlinks.add(target.path);
      // `dir/` and `dir/index.html` (also as `.` or `..`) are served as they are; `dir` is what hosts redirect.
      if (target.slashed) slashedLinks.add(target.path);
    }
  }
  if (outlinks.size === 0) emit('links/no-outlinks', 'The page links to no other page of the site.');

  // Images
  const imageRefs = new Set<string>();
  const imageChoices: string[][] = [];
  const imageShapes: Array<[string, number, number]> = [];
  for (const img of facts.images) {
    const [width, height] = [Number(img.width), Number(img.height)];
    const choices = new Set<string>();
    const name = img.src ?? img.srcset[0] ?? '(no src)';
    if (img.alt === null) emit('img/missing-alt', `The image ${name} has no alt attribute.`);
    else if (img.alt.length > opt('img/alt-too-long').max)
      emit('img/alt-too-long', `The alt text of ${name} is ${img.alt.length} characters (over ${opt('img/alt-too-long').max}).`);
    if (!img.width || !img.height)
      emit('img/missing-size', `The image ${name} lacks ${!img.width && !img.height ? 'width and height' : !img.width ? 'width' : 'height'}.`);
    for (const [i, ref] of [img.src, ...img.srcset].entries()) {
      if (ref === null || ref === '') {
        emit('img/broken', 'An image has an empty src.');
        continue;
      }
      const target = resolve(ref);
      if (target.kind === 'internal') {
        imageRefs.add(target.path);
        choices.add(target.path);
        if (i === 0 && width > 0 && height > 0) imageShapes.push([target.path, width, height]); // the src, as drawn
      }
    }
    if (choices.size > 0) imageChoices.push([...choices]);
  }
  // Social previews: networks fetch the image by its absolute URL, and none of them shows an SVG.
  for (const ref of new Set(facts.shareImages)) {
    if (!/^https?:\/\//i.test(ref)) emit('social/image-relative', `The social preview image ${quote(ref)} is not an absolute URL.`);
    if (isSvgUrl(ref)) emit('social/image-svg', `The social preview image ${quote(ref)} is an SVG, which Facebook, LinkedIn, X and WhatsApp do not show.`);
    const target = resolve(ref);
    if (target.kind === 'internal') imageRefs.add(target.path);
  }
  // Stylesheets, scripts, icons, iframes, media: each internal file they name must exist.
  const resourceRefs = new Map<string, string>();
  for (const ref of facts.refs) {
    if (ref.url === '') continue;
    const target = resolve(ref.url);
    if (target.kind === 'internal' && !resourceRefs.has(target.path)) resourceRefs.set(target.path, ref.what);
  }
  if (pageIsHttps) {
    for (const res of facts.resources) {
      if (/^http:\/\//i.test(res)) emit('url/mixed-content', `The page loads ${res} over http://.`);
    }
  }

  // Structured data
  checkStructuredData(facts.jsonLd, facts.visibleText, (rule, message) => emit(rule, message));

  // Content
  const content = measureContent(facts.mainText, indexable);
  const count = content.words;
  if (facts.lorem) emit('content/lorem-ipsum', 'The page contains "lorem ipsum" placeholder text.');
  if (indexable && count < opt('content/low-word-count').minWords) {
    emit('content/low-word-count', `The main content has ${count} words (under ${opt('content/low-word-count').minWords}).`);
  }

  checkUrl(facts.url, ctx, emit);

  const ids = facts.ids.size > 0 ? '\n' + [...facts.ids].join('\n') + '\n' : '';
  return {
    findings,
    site: {
      url: facts.url,
      file: facts.file,
      screen: facts.screen ?? ctx.route?.screen ?? null,
      title: title?.text ?? null,
      description,
      h1: h1s[0]?.text ?? null,
      noindex,
      canonical,
      outlinks: [...outlinks],
      fragmentLinks: [...fragmentLinks],
      imageRefs: [...imageRefs],
      resourceRefs: [...resourceRefs],
      slashedLinks: [...slashedLinks],
      served,
      imageChoices,
      imageShapes,
      ids,
      wordCount: count,
      contentHash: content.hash,
      minhash: content.signature,
    },
  };
}
