/**
 * Shapes shared by the audit's stages: facts extracted once per page (in a
 * worker), the compact part the main thread keeps for site-wide passes, and
 * the findings every rule produces.
 */
import type { Severity } from '../core/diagnostics.js';
import type { RuleId } from './rules.js';

export type { RuleId, Severity };

export interface Finding {
  /** Stable rule id, e.g. `title/too-long`. */
  rule: RuleId;
  severity: Severity;
  /** The page's URL path (`/herb-extract`), or null for site files such as sitemap.xml. */
  url: string | null;
  /** The file, relative to the audited dir (`herb-extract/index.html`, `sitemap.xml`). */
  file: string;
  /** 1-based line in `file`, when the finding is about one line (robots.txt, sitemap). */
  line?: number;
  /** One sentence an editor can act on. */
  message: string;
}

export interface LinkFact {
  /** The raw href attribute; null when the anchor has none. */
  href: string | null;
  text: string;
  rel: string;
}

export interface ImageFact {
  src: string | null;
  /** URLs named by srcset (of the img or a sibling <source>). */
  srcset: string[];
  alt: string | null;
  width: string | null;
  height: string | null;
}

/** One JSON-LD block: parsed, or the parse error. */
export type JsonLdFact = { ok: true; value: unknown } | { ok: false; error: string };

/** Everything a per-page rule may look at. Lives only inside the worker. */
export interface PageFacts {
  url: string;
  file: string;
  screen: string | null;
  titles: Array<{ text: string; inHead: boolean }>;
  descriptions: string[];
  keywords: string[];
  robots: string[];
  canonicals: Array<{ href: string; inHead: boolean }>;
  headings: Array<{ level: number; text: string }>;
  ids: Set<string>;
  links: LinkFact[];
  images: ImageFact[];
  /** Subresources (script src, stylesheet href, img src, iframe src…) for mixed-content checks. */
  resources: string[];
  /** Every reference other than <a> and <img> that names a file to fetch, with what names it (`script`, `stylesheet`, `iframe`…). */
  refs: Array<{ url: string; what: string }>;
  /** The first <base href>, which relative references resolve against; null without one. */
  baseHref: string | null;
  /** The images of its social previews: og:image (and :url, :secure_url) and twitter:image contents, in order. */
  shareImages: string[];
  jsonLd: JsonLdFact[];
  /** Visible body text, lower-cased and whitespace-collapsed (for "shown on the page" checks); '' on pages without JSON-LD. */
  visibleText: string;
  /** The visible text contains "lorem ipsum". */
  lorem: boolean;
  /** Main-content text: <main>, or the body without nav/header/footer/aside; forms excluded everywhere. */
  mainText: string;
}

/** What the main thread keeps per page: small, so 100,000 pages fit. */
export interface SiteFacts {
  /** The page's key: its clean path (see cleanPath in urls.ts). */
  url: string;
  /** The path a host serves it at (`/dir/` for a folder's index.html without a twin). */
  served: string;
  file: string;
  screen: string | null;
  title: string | null;
  description: string | null;
  h1: string | null;
  /** noindex by meta robots. */
  noindex: boolean;
  /** Absolute or resolved canonical target (first one), or null. */
  canonical: string | null;
  /** Unique internal link targets as clean paths (no query or fragment), in document order. */
  outlinks: string[];
  /** Internal links with a fragment that points at another page: `path#id`. */
  fragmentLinks: string[];
  /** Internal targets that were fetched as files (img src/srcset), as paths. */
  imageRefs: string[];
  /** Other internal references (stylesheets, scripts, icons, iframes, media…): [path, what names it]. */
  resourceRefs: Array<[string, string]>;
  /** The internal link targets (of outlinks) written with a trailing slash, e.g. `dir/`: no host redirects those. */
  slashedLinks: string[];
  /**
   * Per <img>, the internal files it may load (its src and srcset candidates): the weight rule judges the
   * lightest, since a browser offered a small copy loads it where it fits. Social preview images are not
   * here: networks fetch them, visitors do not.
   */
  imageChoices: string[][];
  /** Per <img> with an internal src and numeric width and height attributes: [src path, width, height]. */
  imageShapes: Array<[string, number, number]>;
  /** Element ids joined by '\n', with a leading and trailing '\n'. */
  ids: string;
  wordCount: number;
  /** 64-bit hash of the main text's words ('' when it has none): equal for exact duplicates. */
  contentHash: string;
  /** MinHash signature of the main text's word shingles (empty when too short). */
  minhash: number[];
  /** Finding counts of this page, filled after all rules ran. */
  issues?: number;
}

export interface RuleDef {
  id: RuleId;
  severity: Severity;
  /** One line: what the rule detects and why it matters. */
  explanation: string;
  /** How to fix it. */
  fix: string;
  /** Tunable thresholds and their defaults. */
  options?: Record<string, number>;
}

/** A rule as configured: severity may be changed, `off` removes it. */
export interface RuleSetting {
  enabled: boolean;
  severity: Severity;
  options: Record<string, number>;
}

/** One setting per registered rule. */
export type RuleSettings = Record<RuleId, RuleSetting>;
