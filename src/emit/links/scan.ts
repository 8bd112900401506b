/**
 * The link check: which internal URLs a built page references, and whether
 * each resolves to a file in the built site. Extraction runs in the render
 * workers (they hold the HTML string already); the main thread only merges
 * compact target lists and checks each distinct target once.
 */
import { decodeEntities } from '../../core/html/entities.js';
import { srcsetUrls } from '../../core/html/srcset.js';
import { attributeBounds, findEndTag, lookUpTag, rawAttribute, tagTable, tokenize, type TagHandler } from '../../core/html/tokenize.js';
import { candidateFiles } from '../../core/static-files.js';
import { detached } from '../../core/strings.js';

/** Elements and attributes that reference another resource. */
export const REFERENCES: ReadonlyArray<readonly [selector: string, attr: string]> = [
  ['a[href]', 'href'],
  ['area[href]', 'href'],
  ['link[href]', 'href'],
  ['script[src]', 'src'],
  ['img[src]', 'src'],
  ['img[srcset]', 'srcset'],
  ['source[src]', 'src'],
  ['source[srcset]', 'srcset'],
  ['iframe[src]', 'src'],
  ['video[poster]', 'poster'],
  ['meta[property="og:image"]', 'content'],
  ['meta[property="og:url"]', 'content'],
  ['meta[name="twitter:image"]', 'content'],
];

export interface PageLinks {
  /** Distinct internal URL paths (decoded, no query or hash), e.g. `/herb-extract`, `/assets/main-x.js`. */
  internal: string[];
  /** References with a scheme that runs code (`javascript:`, `vbscript:`, `data:text/html`): never in our pages. */
  unsafe: string[];
  /**
   * The site-absolute targets of the page's shared pieces (header, footer),
   * the same for every page with the same pieces; not repeated in `internal`.
   * Only resolveReferences sets it: see TargetGroup.
   */
  group?: TargetGroup;
}

/**
 * Distinct site-absolute targets of one combination of shared pieces. A
 * page's header and footer link to every category and company page: counted
 * page by page, they were nine in ten of the references a large build
 * tallies. A group is counted once per page instead, and its targets get the
 * group's count when a thread reports its tally (BatchTally.entries).
 */
export interface TargetGroup {
  targets: ReadonlySet<string>;
}

/** Every internal target of a page: its own, then its shared pieces'. */
export function pageTargets(links: PageLinks): string[] {
  return links.group === undefined ? links.internal : [...links.internal, ...links.group.targets];
}

/** Schemes that run code when followed; `data:,` and data images are harmless. */
const CODE_SCHEME = /^(?:javascript:|vbscript:|data:(?:text\/html|application\/xhtml|image\/svg))/i;
const ANY_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Reduces one reference to the internal URL path it names, or null when it is
 * external, same-page or not a link at all. `origin` has no trailing slash.
 */
export function internalPath(raw: string, pagePath: string, origin: string): string | null | { unsafe: string } {
  // Browsers strip leading/trailing whitespace and ASCII tab/newline anywhere in a URL.
  const ref = raw.trim().replace(/[\t\n\r]/g, '');
  if (ref === '' || ref.startsWith('#')) return null;
  let rest: string;
  if (ref.startsWith('/') && !ref.startsWith('//')) {
    rest = ref; // the common case, kept free of URL parsing: it runs millions of times on big catalogues
  } else if (ref.startsWith(origin) && (ref.length === origin.length || '/?#'.includes(ref[origin.length]))) {
    rest = ref.slice(origin.length) || '/';
  } else if (ANY_SCHEME.test(ref) || ref.startsWith('//')) {
    if (CODE_SCHEME.test(ref)) return { unsafe: ref };
    return null; // another host, mailto, tel, a data image
  } else {
    // Relative: resolve as a browser would on the page's clean URL.
    const url = new URL(ref, origin + pagePath);
    if (url.origin !== new URL(origin).origin) return null;
    rest = url.pathname + url.search;
  }
  const cut = rest.search(/[?#]/);
  let p = cut === -1 ? rest : rest.slice(0, cut);
  if (p === '') p = '/';
  if (p.includes('%')) {
    try {
      p = decodeURIComponent(p);
    } catch {
      // A malformed escape is itself a broken link; keep it verbatim so it is reported.
    }
  }
  if (p.startsWith('/') === false) p = '/' + p;
  return p;
}

/**
 * internalPath of a reference starting with `/`, remembered: such a result
 * depends on the reference alone, and the same few hundred (navigation,
 * footer, assets) recur on every page.
 */
const absoluteSeen = new Map<string, ReturnType<typeof internalPath>>();
let absoluteOrigin = '';
function siteAbsolutePath(ref: string, origin: string): ReturnType<typeof internalPath> {
  if (origin !== absoluteOrigin) {
    absoluteSeen.clear();
    absoluteOrigin = origin;
  }
  let r = absoluteSeen.get(ref);
  if (r === undefined) {
    // Copies: `ref` is a view into the page it was read from, and so is a result equal to it.
    const key = detached(ref);
    r = internalPath(key, '/', origin);
    // Bounded: a catalogue of 100,000 pages must not keep every product link here.
    if (absoluteSeen.size >= 20_000) absoluteSeen.clear();
    absoluteSeen.set(key, r);
  }
  return r;
}

/**
 * Every internal reference in one built page, deduplicated: one pass of the
 * project's HTML tokenizer (core/html/tokenize.ts, the audit's too) over the
 * HTML string, without a DOM (a DOM costs more than rendering
 * the page: docs/PERFORMANCE.md, "Link check"). `extractLinksWithCheerio` (links-reference.ts) is the reference
 * it is tested against, page by page.
 */
export function extractLinks(html: string, pagePath: string, origin: string): PageLinks {
  return collect([html], pagePath, origin, undefined, scanReferences);
}

/**
 * extractLinks over a document that React's renderToStaticMarkup wrote (the
 * build's pages), given in pieces: their concatenation is the page, and no tag
 * spans two pieces. A piece in `shared` (the same string on many pages:
 * header, footer) is scanned once per thread; only resolving its references
 * against the page is repeated.
 */
export function resolveReferences(pieces: readonly string[], pagePath: string, origin: string, shared?: readonly boolean[]): PageLinks {
  return collect(pieces, pagePath, origin, shared, scanReactReferences);
}

function collect(
  pieces: readonly string[],
  pagePath: string,
  origin: string,
  shared: readonly boolean[] | undefined,
  scan: (html: string, found: (ref: string) => void) => void,
): PageLinks {
  // The page's shared pieces, in order, each scanned the first time this thread sees it.
  const sharedRefs: SharedReferences[] = [];
  if (shared !== undefined) for (let i = 0; i < pieces.length; i++) if (shared[i] === true) sharedRefs.push(sharedReferencesOf(pieces[i], origin, scan));
  const group = shared === undefined ? undefined : groupOf(sharedRefs);
  const internal = new Set<string>();
  const unsafe = new Set<string>();
  const add = (ref: string) => {
    const r = ref.charCodeAt(0) === 47 /* / */ ? siteAbsolutePath(ref, origin) : internalPath(ref, pagePath, origin);
    if (r === null) return;
    if (typeof r !== 'string') unsafe.add(r.unsafe);
    else if (group?.targets.has(r) !== true) internal.add(r);
  };
  for (let i = 0, k = 0; i < pieces.length; i++) {
    if (shared?.[i] === true) {
      const refs = sharedRefs[k++];
      for (const u of refs.unsafe) unsafe.add(u);
      // A site-absolute reference resolves the same on every page (it is in the group); relative ones need this page's path.
      for (const ref of refs.relative) add(ref);
    } else scan(pieces[i], add);
  }
  return group === undefined ? { internal: [...internal], unsafe: [...unsafe] } : { internal: [...internal], unsafe: [...unsafe], group };
}

/** A shared piece's references: the site-absolute ones resolved, the relative ones raw. */
interface SharedReferences {
  id: number;
  origin: string;
  absolute: Set<string>;
  unsafe: string[];
  relative: string[];
}
const sharedReferences = new Map<string, SharedReferences>();
/** Shared pieces' ids, in page order → their group. */
const groups = new Map<string, TargetGroup>();
let nextSharedId = 0;

/** A shared piece's references, scanned the first time this thread sees the piece. */
function sharedReferencesOf(piece: string, origin: string, scan: (html: string, found: (ref: string) => void) => void): SharedReferences {
  const known = sharedReferences.get(piece);
  if (known !== undefined && known.origin === origin) return known;
  const found: SharedReferences = { id: nextSharedId++, origin, absolute: new Set(), unsafe: [], relative: [] };
  scan(piece, (ref) => {
    if (ref.charCodeAt(0) !== 47 /* / */) found.relative.push(ref);
    else {
      const r = siteAbsolutePath(ref, origin);
      if (typeof r === 'string') found.absolute.add(r);
      else if (r !== null) found.unsafe.push(r.unsafe);
    }
  });
  // Bounded: only the header and footer variants are expected here. Groups and references already handed out stay valid.
  if (sharedReferences.size >= 64) {
    sharedReferences.clear();
    groups.clear();
  }
  sharedReferences.set(piece, found);
  return found;
}

/** The group of one combination of shared pieces: the union of their site-absolute targets. */
function groupOf(sharedRefs: readonly SharedReferences[]): TargetGroup {
  let key = '';
  for (const refs of sharedRefs) key += `${refs.id},`;
  let group = groups.get(key);
  if (group === undefined) {
    const targets = new Set<string>();
    for (const refs of sharedRefs) for (const t of refs.absolute) targets.add(t);
    groups.set(key, (group = { targets }));
  }
  return group;
}

/** Calls `found` with every raw reference (attribute value, srcset URL, reference meta content) in document order. */
function scanReferences(html: string, found: (ref: string) => void): void {
  const reader = new ReferenceReader(html, found);
  tokenize(html, reader);
}

/**
 * The tokenizer's handler for the link check: reads the reference attributes
 * of the elements in REFERENCES and jumps over raw-text elements, whose
 * content is not markup.
 */
class ReferenceReader implements TagHandler {
  constructor(
    private readonly html: string,
    private readonly found: (ref: string) => void,
  ) {}

  text(): void {}

  endTag(): void {}

  startTag(nameStart: number, nameEnd: number, hash: number, gt: number): number {
    const html = this.html;
    const tag = lookUpTag(READ_TAGS, html, nameStart, nameEnd, hash);
    if (tag === -1) return gt + 1;
    const name = READ_TAGS.names[tag];
    if (name === 'meta') {
      const key = rawAttribute(html, nameEnd, gt, 'property', bounds) ?? rawAttribute(html, nameEnd, gt, 'name', bounds);
      if (key !== undefined && isReferenceMetaKey(decodeEntities(key))) {
        const content = rawAttribute(html, nameEnd, gt, 'content', bounds);
        if (content !== undefined) this.found(decodeEntities(content));
      }
      return gt + 1;
    }
    for (const attr of ATTRIBUTES_OF.get(name) ?? []) {
      const raw = rawAttribute(html, nameEnd, gt, attr, bounds);
      if (raw === undefined) continue;
      const value = decodeEntities(raw);
      if (attr === 'srcset') srcsetUrls(value).forEach(this.found);
      else this.found(value);
    }
    if (!RAW_TEXT.has(name)) return gt + 1;
    const close = findEndTag(html, gt + 1, name);
    const end = close === -1 ? -1 : html.indexOf('>', close);
    return end === -1 ? html.length : end + 1;
  }
}

/** Elements whose content is text up to their end tag, never markup. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'noembed', 'noframes']);
const bounds = attributeBounds();

/**
 * scanReferences for HTML as renderToStaticMarkup writes it, at a fraction of
 * the cost: there every attribute is ` name="value"` (in lower case but for
 * `srcSet`), and `"`, `<` and `>` are escaped in attribute values and text
 * (JSON-LD writes `<` as \u003c and `"` as \"). So ` href="` is an
 * attribute where it follows its element's name or another attribute's
 * closing quote, and the last `<` before it opens its element. It runs on
 * every page of a build, where it takes a fraction of the tokenizer's time
 * (see the README's figures); it decodes values, splits srcsets and reads a
 * meta's name with the same core/html functions as the tokenizer's readers.
 * Tested against scanReferences and cheerio on every built page.
 */
function scanReactReferences(html: string, found: (ref: string) => void): void {
  REACT_ATTRIBUTE.lastIndex = 0;
  for (let m = REACT_ATTRIBUTE.exec(html); m !== null; m = REACT_ATTRIBUTE.exec(html)) {
    const open = html.lastIndexOf('<', m.index);
    let end = open + 1;
    while (end < m.index && html.charCodeAt(end) !== 32 /* space */) end++;
    // An attribute follows its element's name or another attribute's closing quote. Anything else is the end of
    // a value (alt="Cat src=") or a script's text (a JSON-LD string ending in ` src=`): read on from just after.
    const inValue = end !== m.index && html.charCodeAt(m.index - 1) !== 34; /* " */
    if (inValue || (end - open === 7 && html.startsWith('script', open + 1) && html.indexOf('>', open) < m.index)) {
      REACT_ATTRIBUTE.lastIndex = m.index + 1;
      continue;
    }
    const name = html.slice(open + 1, end);
    const attr = m[1] === 'srcSet' ? 'srcset' : m[1];
    if (attr === 'content') {
      if (name !== 'meta') continue;
      const gt = html.indexOf('>', m.index);
      const key = rawAttribute(html, end, gt, 'property', bounds) ?? rawAttribute(html, end, gt, 'name', bounds);
      if (key !== undefined && isReferenceMetaKey(decodeEntities(key))) found(decodeEntities(m[2]));
      continue;
    }
    if (ATTRIBUTES_OF.get(name)?.includes(attr) !== true) continue;
    const value = decodeEntities(m[2]);
    if (attr === 'srcset') srcsetUrls(value).forEach(found);
    else found(value);
  }
}

/** React writes every attribute name in lower case but `srcSet`. */
const REACT_ATTRIBUTE = / (href|src|srcset|srcSet|poster|content)="([^"]*)"/g;

const ATTRIBUTES_OF = new Map<string, string[]>();
for (const [selector, attr] of REFERENCES) {
  const name = selector.slice(0, selector.indexOf('['));
  if (name !== 'meta') ATTRIBUTES_OF.set(name, [...(ATTRIBUTES_OF.get(name) ?? []), attr]);
}
/** The elements the general scanner reads: those with references, and the raw-text ones it must jump over. */
const READ_TAGS = tagTable([...new Set([...REFERENCES.map(([selector]) => selector.slice(0, selector.indexOf('['))), ...RAW_TEXT])]);

/** The meta names and properties whose content is a URL of the site. */
const isReferenceMetaKey = (key: string): boolean => key === 'og:image' || key === 'og:url' || key === 'twitter:image';

export function isReferenceMeta(attribs: Record<string, string>): boolean {
  const key = attribs.property ?? attribs.name;
  return key !== undefined && isReferenceMetaKey(key);
}

export function resolvesTo(urlPath: string, files: ReadonlySet<string>): boolean {
  return candidateFiles(urlPath).some((f) => files.has(f));
}

/** How many pages reference a target, and the first few of them in route order (for the report). */
export interface TargetTally {
  count: number;
  /** Indices of the referring pages, ascending, at most MAX_SOURCES. */
  sources: number[];
}
/** Target URL path → its tally. Keeping indices rather than paths keeps worker messages small. */
export type LinkTally = Map<string, TargetTally>;
/** A tally as it crosses the worker boundary. */
export type TallyEntries = Array<[target: string, count: number, sources: number[]]>;

export const MAX_SOURCES = 5;

/** Keeps the MAX_SOURCES smallest indices, so the report does not depend on which worker finished first. */
function addSource(sources: number[], index: number): void {
  if (sources.length === MAX_SOURCES && index >= sources[MAX_SOURCES - 1]) return;
  let i = sources.length;
  while (i > 0 && sources[i - 1] > index) i--;
  if (sources[i - 1] === index) return;
  sources.splice(i, 0, index);
  if (sources.length > MAX_SOURCES) sources.pop();
}

export function tallyPage(tally: LinkTally, targets: readonly string[], sourceIndex: number): void {
  for (const t of targets) {
    const entry = tally.get(t);
    if (entry === undefined) tally.set(t, { count: 1, sources: [sourceIndex] });
    else {
      entry.count++;
      addSource(entry.sources, sourceIndex);
    }
  }
}

export function tallyEntries(tally: LinkTally): TallyEntries {
  return [...tally].map(([t, { count, sources }]) => [t, count, sources]);
}

/** Adds a thread's tally to the build's, which lives until the reports are written. */
export function mergeTally(into: LinkTally, entries: TallyEntries): void {
  for (const [t, count, sources] of entries) {
    const entry = into.get(t);
    // A copy of the target: from the main thread's own pages it is a view into the page's HTML (see detached).
    if (entry === undefined) into.set(detached(t), { count, sources: sources.slice(0, MAX_SOURCES) });
    else {
      entry.count += count;
      for (const s of sources) addSource(entry.sources, s);
    }
  }
}

/**
 * One render thread's tally of a batch of pages: each page's own targets
 * target by target, its shared pieces' as one group (see TargetGroup).
 */
export class BatchTally {
  private readonly targets: LinkTally = new Map();
  private readonly groups = new Map<TargetGroup, TargetTally>();

  add(links: PageLinks, sourceIndex: number): void {
    tallyPage(this.targets, links.internal, sourceIndex);
    if (links.group === undefined) return;
    const entry = this.groups.get(links.group);
    if (entry === undefined) this.groups.set(links.group, { count: 1, sources: [sourceIndex] });
    else {
      entry.count++;
      addSource(entry.sources, sourceIndex);
    }
  }

  /** Every target with its count: a page names a target in its own pieces or its group, never both. */
  entries(): TallyEntries {
    const all: LinkTally = new Map([...this.targets].map(([t, e]) => [t, { count: e.count, sources: [...e.sources] }]));
    for (const [group, { count, sources }] of this.groups)
      mergeTally(
        all,
        [...group.targets].map((t): [string, number, number[]] => [t, count, sources]),
      );
    return tallyEntries(all);
  }
}

/**
 * The tally of pages taken over from the last build (incremental/reuse.ts),
 * whose targets are positions in that build's record: counts and sources in
 * typed arrays, a page's group counted once, and no lookup by string per
 * reference (at 100,000 pages there are about two million). `entries` gives
 * what BatchTally's would for the same pages.
 */
export class PositionTally {
  private readonly counts: Int32Array;
  /** MAX_SOURCES slots per target, the smallest page indices in order, -1 where none. */
  private readonly sources: Int32Array;
  private readonly groupCounts: Int32Array;
  private readonly groupSources: Int32Array;

  /** `targets` by position; each group, its targets' positions. */
  constructor(
    private readonly targets: readonly string[],
    private readonly groups: ReadonlyArray<readonly number[]>,
  ) {
    this.counts = new Int32Array(targets.length);
    this.sources = new Int32Array(targets.length * MAX_SOURCES).fill(-1);
    this.groupCounts = new Int32Array(groups.length);
    this.groupSources = new Int32Array(groups.length * MAX_SOURCES).fill(-1);
  }

  /** A page's own targets (positions) and its group (a position in `groups`, or -1). */
  add(internal: ArrayLike<number>, group: number, sourceIndex: number): void {
    for (let i = 0; i < internal.length; i++) {
      const t = internal[i];
      this.counts[t]++;
      addSourceAt(this.sources, t * MAX_SOURCES, sourceIndex);
    }
    if (group < 0) return;
    this.groupCounts[group]++;
    addSourceAt(this.groupSources, group * MAX_SOURCES, sourceIndex);
  }

  entries(): TallyEntries {
    const { counts, sources, groupCounts, groupSources } = this;
    for (let g = 0; g < groupCounts.length; g++) {
      if (groupCounts[g] === 0) continue;
      let last = -1;
      // A group's positions are sorted; one listed twice is one target, as in the group's set of targets.
      for (const t of this.groups[g]) {
        if (t === last) continue;
        last = t;
        counts[t] += groupCounts[g];
        for (let s = g * MAX_SOURCES; s < (g + 1) * MAX_SOURCES && groupSources[s] >= 0; s++) addSourceAt(sources, t * MAX_SOURCES, groupSources[s]);
      }
    }
    const entries: TallyEntries = [];
    for (let t = 0; t < counts.length; t++) {
      if (counts[t] === 0) continue;
      const of: number[] = [];
      for (let s = t * MAX_SOURCES; s < (t + 1) * MAX_SOURCES && sources[s] >= 0; s++) of.push(sources[s]);
      entries.push([this.targets[t], counts[t], of]);
    }
    return entries;
  }
}

/** addSource on the MAX_SOURCES slots of `slots` from `at`, -1 marking the free ones. */
function addSourceAt(slots: Int32Array, at: number, index: number): void {
  const end = at + MAX_SOURCES;
  let used = at;
  while (used < end && slots[used] >= 0) used++;
  if (used === end && index >= slots[end - 1]) return;
  let i = used;
  while (i > at && slots[i - 1] > index) i--;
  if (i > at && slots[i - 1] === index) return;
  // Shift the larger ones up a slot (the last falls off when all are used).
  for (let j = Math.min(used, end - 1); j > i; j--) slots[j] = slots[j - 1];
  slots[i] = index;
}

export interface BrokenLink {
  /** The URL path that resolves to no built file. */
  target: string;
  /** How many pages reference it. */
  references: number;
  /** Route paths of the first pages (in route order) that reference it. */
  sources: string[];
}

/** Targets that resolve to no built file, sorted by target for a stable report. */
export function findBroken(tally: LinkTally, files: ReadonlySet<string>, pathOfSource: (index: number) => string): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const [target, { count, sources }] of tally) {
    if (!resolvesTo(target, files)) broken.push({ target, references: count, sources: sources.map(pathOfSource) });
  }
  return broken.sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
}
