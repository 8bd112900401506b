/**
 * The rule registry. Ids are stable (reports and configs name them); the
 * thresholds are the reference ones of Screaming Frog's issue catalogue and
 * Lighthouse's SEO audits.
 */
import type { Severity } from '../core/diagnostics.js';

/**
 * One registered rule, its id as a literal type, so the registry's ids make
 * up RuleId. RuleDef (types.ts) has this shape; it is repeated here because
 * types.ts imports RuleId from this module and imports may not go in a circle.
 */
interface Registered<Id extends string> {
  readonly id: Id;
  readonly severity: Severity;
  readonly explanation: string;
  readonly fix: string;
  readonly options?: Readonly<Record<string, number>>;
}

const r = <const Id extends string>(id: Id, severity: Severity, explanation: string, fix: string, options?: Record<string, number>): Registered<Id> => ({
  id,
  severity,
  explanation,
  fix,
  ...(options ? { options } : {}),
});

export const RULES = [
  // Titles
  r('title/missing', 'error', 'The page has no <title>; search engines invent one from the content.', 'Add a unique <title> in <head>.'),
  r('title/empty', 'error', 'The <title> element is empty.', 'Write a descriptive title of 30–60 characters.'),
  r('title/multiple', 'warning', 'The page has more than one <title>; search engines pick one unpredictably.', 'Keep exactly one <title> in <head>.'),
  r('title/outside-head', 'warning', 'A <title> sits outside <head>, where browsers and crawlers may ignore it.', 'Move the <title> into <head>.'),
  r(
    'title/duplicate',
    'warning',
    'Several pages share the same title, so they compete for the same searches.',
    'Give each page a title naming what only it covers.',
  ),
  r(
    'title/too-long',
    'warning',
    'The title is longer than search results show (about 60 characters); it will be cut.',
    'Shorten the title, most important words first.',
    { max: 60 },
  ),
  r(
    'title/too-short',
    'warning',
    'The title is shorter than 30 characters and wastes space in search results.',
    'Lengthen the title with the product, category or topic.',
    { min: 30 },
  ),
  r(
    'title/same-as-h1',
    'info',
    'The title repeats the H1 exactly; a title can carry the brand or a qualifier the heading lacks.',
    'Consider varying the title and the H1.',
  ),
  // Meta description and keywords
  r(
    'description/missing',
    'warning',
    'The page has no meta description; search engines show a random snippet.',
    'Add <meta name="description"> of 70–155 characters.',
  ),
  r('description/multiple', 'warning', 'The page has more than one meta description.', 'Keep exactly one meta description.'),
  r('description/duplicate', 'warning', 'Several pages share the same meta description.', 'Write a description specific to each page.'),
  r('description/too-long', 'warning', 'The meta description is longer than search results show (about 155 characters).', 'Shorten the description.', {
    max: 155,
  }),
  r(
    'description/too-short',
    'warning',
    'The meta description is under 70 characters and under-uses the snippet.',
    'Expand the description with a benefit or call to action.',
    { min: 70 },
  ),
  r('keywords/empty', 'info', 'A meta keywords tag is present but empty.', 'Fill the keywords in the CMS or drop the tag.'),
  r(
    'meta/filled-by-build',
    'info',
    "The CMS left this route's meta empty (a known catalogue wart); the build filled it from the content.",
    'Write the missing meta in data/routes.json when convenient; the page is fine meanwhile.',
  ),
  // Headings
  r('h1/missing', 'warning', 'The page has no H1 heading.', "Add one H1 naming the page's subject."),
  r('h1/multiple', 'warning', 'The page has more than one H1.', 'Keep one H1; demote the others to H2.'),
  r('h1/duplicate', 'warning', 'Several pages share the same H1.', 'Make each H1 specific to its page.'),
  r('h1/too-long', 'warning', 'The H1 is longer than 70 characters.', 'Shorten the H1.', { max: 70 }),
  r(
    'heading/skipped-level',
    'warning',
    'Heading levels skip (e.g. H2 followed by H4), which breaks the outline for assistive technology and crawlers.',
    'Use consecutive heading levels.',
  ),
  // Canonicals
  r('canonical/missing', 'warning', 'The page has no rel=canonical link.', 'Add <link rel="canonical" href="{absolute URL}"> in <head>.'),
  r('canonical/relative', 'warning', 'The canonical URL is relative; Google recommends absolute URLs.', 'Use the absolute URL with the site origin.'),
  r(
    'canonical/not-http',
    'error',
    'The canonical URL is not an http(s) URL (file:, ftp:…), so search engines ignore it: often a site generated without its base URL set.',
    "Set the site's base URL in the generator so the canonical is https://…",
  ),
  r('canonical/multiple', 'error', 'The page declares more than one canonical; Google ignores conflicting canonicals.', 'Keep exactly one canonical link.'),
  r('canonical/fragment', 'warning', 'The canonical URL contains a fragment (#…), which search engines drop.', 'Remove the fragment from the canonical URL.'),
  r('canonical/outside-head', 'error', 'A canonical link sits outside <head>, where search engines ignore it.', 'Move the canonical link into <head>.'),
  r(
    'canonical/target-missing',
    'error',
    'The canonical points at a page that does not exist in the site.',
    'Point the canonical at an existing page (usually the page itself).',
  ),
  r(
    'canonical/target-non-indexable',
    'error',
    'The canonical points at a page that is noindex or canonicalised elsewhere.',
    'Point the canonical at the indexable version of the page.',
  ),
  // Indexability
  r(
    'sitemap/non-indexable-url',
    'error',
    'The sitemap lists a page that is noindex or canonicalised elsewhere; sitemaps should list only indexable URLs.',
    'Drop the URL from the sitemap or make the page indexable.',
  ),
  r(
    'sitemap/missing-indexable',
    'warning',
    'An indexable page is left out of the sitemap.',
    'Add the page to sitemap.xml (or noindex it if it should not rank).',
  ),
  r(
    'links/orphan',
    'warning',
    'No other page links to this page; crawlers can only find it through the sitemap.',
    'Link to the page from its category, list or a related page.',
  ),
  r(
    'links/deep',
    'warning',
    'The page is more than 3 clicks from the home page, so it gets little crawl priority.',
    'Link to it from a shallower page (home, category page 1, related items).',
    { maxDepth: 3 },
  ),
  // Links
  r('links/broken', 'error', 'An internal link points at a file that does not exist.', 'Fix the href or restore the page.'),
  r(
    'links/broken-fragment',
    'warning',
    'A link points at a #fragment that no element id on the target page has.',
    'Fix the fragment or add the id to the target element.',
  ),
  r(
    'links/non-descriptive',
    'warning',
    'The link text does not describe its target (Lighthouse\'s list: "click here", "more", "read more"…).',
    'Use link text naming the target, e.g. the product or article name.',
  ),
  r(
    'links/uncrawlable',
    'warning',
    'A link\'s href is javascript: or cannot be parsed as a URL, so crawlers cannot follow it (an <a> without href is not a link, and href="" is the page itself).',
    'Use <a href="/path"> for navigation, or a <button> for actions.',
  ),
  r(
    'links/internal-nofollow',
    'warning',
    'An internal link has rel=nofollow, which stops link equity flowing within the site.',
    'Remove nofollow from internal links.',
  ),
  r(
    'resource/broken',
    'error',
    'A stylesheet, script, icon, preload, iframe, media source or other <link>, or a url() in a stylesheet, points at a file of the site that does not exist.',
    'Fix the URL or add the file.',
  ),
  r('links/no-outlinks', 'warning', 'The page has no internal outlinks: a dead end for crawlers and visitors.', 'Add navigation or related links.'),
  // Pagination
  r(
    'pagination/gap',
    'error',
    'A paged list skips a page number, so the pages after the gap are hard to reach.',
    'Renumber the pages or restore the missing page.',
  ),
  r(
    'pagination/not-linked',
    'warning',
    'A page of a paged list does not link to its neighbour with a plain <a href>.',
    'Link each page to the previous and next page with <a href>.',
  ),
  // Images
  r('img/missing-alt', 'warning', 'An image has no alt attribute (use alt="" for decorative images).', 'Add alt text describing the image.'),
  r(
    'img/alt-too-long',
    'info',
    'The alt text is over 100 characters; screen readers read it all.',
    'Shorten the alt text; put long descriptions in the page text.',
    { max: 100 },
  ),
  r(
    'img/missing-size',
    'warning',
    'An image lacks width or height attributes, so the layout shifts while it loads.',
    "Set width and height to the image's intrinsic size.",
  ),
  r(
    'img/too-large',
    'warning',
    'An image file is over 100 KB, slowing the page down (of an image offered in several files through srcset, the lightest).',
    'Compress or resize the image, or serve a modern format.',
    { maxBytes: 102400 },
  ),
  r(
    'img/aspect-mismatch',
    'warning',
    'An <img> declares a width and height of another shape than its file: the browser reserves the declared shape, so the page jumps when the image arrives (layout shift) or the image is distorted.',
    'Declare the width and height of the file (or any multiple of them).',
  ),
  r(
    'img/broken',
    'error',
    "An image src or srcset (or the page's og:image or twitter:image) points at a file that does not exist.",
    'Fix the image URL or add the file.',
  ),
  r(
    'social/image-svg',
    'warning',
    "The page's og:image or twitter:image is an SVG, which Facebook, LinkedIn, X and WhatsApp do not show: shares of the page get no picture.",
    'Name a PNG, JPEG or WebP image instead; 1200×630 suits every network.',
  ),
  r(
    'social/image-relative',
    'warning',
    "The page's og:image or twitter:image URL is not absolute; Open Graph requires absolute URLs and networks drop relative ones.",
    'Use the absolute URL with the site origin.',
  ),
  // Structured data
  r('schema/invalid-json', 'error', 'A JSON-LD block does not parse, so search engines ignore it.', 'Fix the JSON syntax (the build escapes "<" as \\u003c).'),
  r('schema/missing-required', 'error', 'A structured-data entity lacks a property Google requires for its type.', 'Add the property, or drop the entity.'),
  r(
    'schema/missing-recommended',
    'warning',
    'A structured-data entity lacks a property Google recommends for its type.',
    'Add the property when the page shows it.',
  ),
  r(
    'schema/offer-without-price',
    'error',
    'A Product has an Offer without a price; quote-only products must be a plain Product without offers.',
    'Remove the offers (products are sold on quote) or give the real price.',
  ),
  r(
    'schema/not-on-page',
    'error',
    'Structured data describes content the page does not show (Google treats this as spam).',
    'Make the structured data match the visible page.',
  ),
  // Sitemap and robots.txt
  r('sitemap/missing', 'error', 'The site has no sitemap.xml.', 'Emit sitemap.xml listing every indexable page.'),
  r('sitemap/malformed', 'error', 'The sitemap is not well-formed sitemap XML.', 'Fix the XML; every <url> needs one <loc>.'),
  r(
    'sitemap/too-large',
    'error',
    "A sitemap file holds over 50,000 URLs or 50 MB, over the protocol's limit.",
    'Split it and list the parts in a sitemap index.',
    { maxUrls: 50000, maxBytes: 52428800 },
  ),
  r('sitemap/bad-url', 'error', "A sitemap URL is not absolute or not on the site's origin.", 'Use absolute URLs on the configured origin.'),
  r('sitemap/url-not-found', 'error', 'A sitemap URL has no page in the site.', 'Drop the URL or restore the page.'),
  r(
    'sitemap/future-lastmod',
    'warning',
    'A lastmod date lies in the future, so search engines distrust every lastmod.',
    'Use the real date of the last content change.',
  ),
  r('sitemap/uniform-lastmod', 'warning', 'Every URL has the same lastmod, which tells search engines nothing.', "Use each page's own last content change."),
  r(
    'robots/invalid-line',
    'error',
    'A robots.txt line is one Lighthouse rejects (syntax, unknown directive, bad pattern or no user-agent).',
    'Fix the line as the message says.',
  ),
  r(
    'robots/sitemap-not-absolute',
    'error',
    'A robots.txt Sitemap line is not an absolute http(s) URL.',
    'Write the full sitemap URL, e.g. https://example.com/sitemap.xml.',
  ),
  r('robots/blocks-indexable', 'error', 'robots.txt blocks crawling of a page meant to be indexed.', 'Narrow the Disallow rule or noindex the page instead.'),
  // Content
  r('content/exact-duplicate', 'warning', "The page's main content is identical to another page's.", 'Merge the pages, or canonicalise one to the other.'),
  r(
    'content/near-duplicate',
    'warning',
    "The page's main content is 90 % or more similar to another indexable page's.",
    'Differentiate the texts, or canonicalise one page to the other.',
    { similarity: 0.9 },
  ),
  r(
    'content/low-word-count',
    'warning',
    'The main content (navigation and footer excluded) has fewer than 200 words.',
    'Add useful text: specification, applications, FAQ.',
    { minWords: 200 },
  ),
  r('content/lorem-ipsum', 'error', 'The page contains placeholder text (lorem ipsum).', 'Replace the placeholder with real copy.'),
  // URLs
  r(
    'url/uppercase',
    'warning',
    'The URL contains uppercase letters; URLs are case-sensitive, so links and shares split.',
    'Use lower-case paths (keep a redirect from the old one).',
  ),
  r('url/underscore', 'warning', 'The URL contains underscores; Google recommends hyphens between words.', 'Use hyphens.'),
  r('url/space', 'warning', 'The URL contains spaces, which must be encoded and break when copied.', 'Use hyphens instead of spaces.'),
  r('url/non-ascii', 'warning', 'The URL contains non-ASCII characters, which are encoded and hard to share.', 'Use ASCII slugs.'),
  r('url/too-long', 'warning', 'The URL is over 115 characters.', 'Shorten the slug.', { max: 115 }),
  r(
    'url/legacy-slug',
    'info',
    'A legacy slug (capitals or an edge hyphen) declared in data/routes.json; it is preserved on purpose because the page ranks under it.',
    'Nothing to do; change it only together with a 301 redirect.',
  ),
  r(
    'url/http-own-origin',
    'warning',
    "A link points at the site's own origin over http://, costing a redirect and leaking referrers.",
    'Link over https:// or with a relative path.',
  ),
  r('url/mixed-content', 'error', 'An https page loads a subresource over http://; browsers block it.', 'Load the resource over https.'),
  r(
    'url/folder-redirect',
    'warning',
    'Pages exist only as <path>/index.html and the site links to them as /path, without the trailing slash: GitHub Pages, Netlify and Cloudflare Pages answer /path with a redirect to /path/.',
    "Link to /path/ with the trailing slash, or also write <path>.html beside each folder (this project's `site build` does unless --no-html-twins).",
  ),
  r(
    'url/twin-differs',
    'error',
    "A page's <path>.html and <path>/index.html differ, so hosts that serve /path from the first (GitHub Pages, Netlify, Cloudflare Pages) show another page than those that serve the second.",
    'Rebuild, or make the two files the same page.',
  ),
  // HTTP (only `site audit URL`, a crawl, sees these)
  r(
    'http/client-error',
    'error',
    'A page or reference (link, script, stylesheet, image, iframe, sitemap URL) answered 4xx: visitors and crawlers get an error.',
    'Fix the reference, restore the file, or redirect the old URL with a 301 to its replacement.',
  ),
  r(
    'http/server-error',
    'error',
    'A page or reference answered 5xx: the server failed, and search engines crawl a failing site less.',
    'Find why the server fails on this URL (its error log) and fix it.',
  ),
  r(
    'http/unreachable',
    'error',
    'A page or reference got no answer (connection refused or reset, or no complete answer in time).',
    'Check that the server answers this URL, and how long it takes.',
  ),
  r(
    'http/redirect-loop',
    'error',
    'A URL redirects back to itself through its redirects: browsers give up and crawlers drop it.',
    'Make the redirects end at a page that answers 200.',
  ),
  r(
    'http/redirect-chain',
    'warning',
    'A URL takes more than one redirect to reach its page: each hop costs a round trip, and Googlebot follows only a few.',
    'Redirect straight to the final URL, and link to the final URL.',
  ),
  r(
    'http/temporary-redirect',
    'warning',
    'A URL redirects with 302, 303 or 307 (temporary), so search engines keep the old URL indexed and do not pass its signals on.',
    'Use 301 (or 308) for a URL that has moved for good.',
  ),
  r(
    'http/https-redirect',
    'warning',
    'A link points at an http:// URL that the server redirects to https://: a round trip on every click, and the page briefly over plain HTTP.',
    'Link to the https:// URL (or a root-relative path).',
  ),
  r(
    'http/trailing-slash-redirect',
    'warning',
    "A link's URL is redirected only to add or drop its trailing slash: a round trip on every click for a URL the site could name right.",
    'Link to the URL as the server answers it (with or without the slash).',
  ),
  r('http/linked-redirect', 'info', 'An internal link points at a URL that redirects elsewhere.', "Link to the redirect's target directly."),
  r(
    'http/soft-404',
    'error',
    'A URL that names no page is answered 200 with a page (a "soft 404"): search engines index error pages or every mistyped URL as a copy of the site.',
    'Answer unknown URLs with status 404 (and the not-found page as its body).',
  ),
  r(
    'http/not-found-status',
    'error',
    'The not-found page is answered with another status than 404 (200, or a redirect to it), so search engines cannot tell missing pages from real ones.',
    'Serve the not-found page with status 404 at the requested URL, without a redirect.',
  ),
  r(
    'http/noindex-header',
    'warning',
    'The page is noindex by its X-Robots-Tag response header, which its HTML does not show.',
    'Drop the header if the page should rank; otherwise keep it out of the sitemap and links.',
  ),
  r(
    'http/canonical-redirects',
    'error',
    "The page's canonical URL redirects: search engines may ignore a canonical that is not itself a final page.",
    'Point the canonical at the URL that answers 200.',
  ),
  // Lighthouse (only with --lighthouse)
  r('lighthouse/budget', 'error', 'A Lighthouse category scored under the --budget.', 'Fix the failed audits listed in the report.'),
  r('lighthouse/failed-audit', 'info', 'A Lighthouse audit failed on a sampled page.', "See the audit's advice in the Lighthouse documentation."),
  r(
    'lighthouse/error',
    'error',
    "Lighthouse could not audit a sampled page (one that failed with an error of Lighthouse's own, such as NO_NAVSTART, is audited once more first).",
    'Check that Chromium is installed (apt-get install chromium) and the page loads.',
  ),
] as const;

/** Every rule id of the registry: an emitter given any other string does not compile. */
export type RuleId = (typeof RULES)[number]['id'];

/** Looked up by a string from outside the code (a config file); undefined for an unknown id. */
export const RULES_BY_ID: ReadonlyMap<string, (typeof RULES)[number]> = new Map(RULES.map((rule) => [rule.id, rule]));

export function isRuleId(id: string): id is RuleId {
  return RULES_BY_ID.has(id);
}
