/**
 * Every diagnostic code of the load and check stages, its severity and what
 * it means. Codes are stable: tools and CI filters match on them, so a code
 * is never renamed or reused; a new rule gets a new code.
 */
import type { Severity } from '../core/diagnostic.js';

export const CODES = {
  // load: a file that cannot be read or validated
  'load/missing-data-dir': ['error', 'The data directory does not exist.'],
  'load/missing-file': ['error', 'site.json or routes.json is missing.'],
  'load/unreadable-file': ['error', 'A file exists but cannot be read.'],
  'load/invalid-utf8': ['error', 'A file has bytes that are not UTF-8; the line and column of the first are given.'],
  'load/invalid-json': ['error', 'A file is not valid JSON; the position of the syntax error is given.'],
  'load/link-outside-data': ['error', 'A symbolic link under data/ (a file or a folder) leads out of data/; it is not read or published.'],
  'load/file-too-large': ['error', 'A data file is over limits.fileBytes of site.json (default 5 MB; routes.json: limits.routesBytes, default 256 MB); it is not read.'],
  'load/long-text': ['warning', 'A text in a data file is over limits.textChars of site.json (default 100,000 characters).'],
  'load/unexpected-file': ['warning', 'A file or folder in data/ that the layout does not know; it is ignored.'],
  'load/schema': ['error', 'A value does not match the schema of its file (src/load/schema.ts); one per offending value.'],

  // route paths
  'check/path-not-absolute': ['error', 'A route path does not start with "/".'],
  'check/path-traversal': ['error', 'A route path has a "." or ".." segment, a backslash, or a percent-encoded dot, slash, backslash or NUL.'],
  'check/path-invalid-char': ['error', 'A route path has a character outside letters, digits, "-", ".", "_", "~" (a query, fragment, space, control character…).'],
  'check/path-empty-segment': ['error', 'A route path has "//".'],
  'check/path-too-long': ['error', 'A route path segment is longer than a file name may be (255 bytes).'],
  'check/path-reserved': ['error', 'A route path would clash with a file the build writes itself (/assets, /images, /sitemap.xml, …).'],
  'check/path-legacy-case': ['warning', 'A route path has capital letters (kept as declared).'],
  'check/path-edge-hyphen': ['warning', 'A route path segment starts or ends with a hyphen (kept as declared).'],
  'check/path-trailing-slash': ['warning', 'A route path ends with "/".'],

  // declarations
  'check/duplicate-route': ['warning', 'A path is declared again, identically; the build uses one.'],
  'check/conflicting-route': ['error', 'A path is declared again with different fields.'],
  'check/output-collision': ['error', 'Two different paths are written to the same file (e.g. /a and /a/).'],
  'check/output-case-collision': ['warning', 'Two paths differ only in letter case (one overwrites the other on case-insensitive hosts).'],
  'check/unknown-screen': ['error', 'A route names a screen kind that does not exist ("Unknown middleware {name}").'],
  'check/nodeid-not-hex': ['warning', 'A route\'s node id is a name rather than 32 lower-case hex characters.'],
  'check/type-mismatch': ['error', 'A route\'s type differs from its node id.'],
  'check/route-name': ['error', 'A route\'s name does not follow the convention of its screen kind (spec section 3).'],
  'check/unexpected-page': ['error', 'A route that is not a list has a page number.'],
  'check/grandid-mismatch': ['error', 'A product route\'s grandId is not its product\'s category id.'],
  'check/unexpected-grandid': ['error', 'A route other than a product detail has a grandId.'],
  'check/route-without-content': ['error', 'A route\'s node id names no entity its screen can show.'],
  'check/empty-meta': ['warning', 'A route\'s meta title, description or keywords are empty (the build falls back to text from the content).'],

  // coverage
  'check/missing-detail-route': ['error', 'A product, article or news item has no detail route.'],
  'check/multiple-detail-routes': ['error', 'A product, article or news item has more than one detail path.'],
  'check/category-without-route': ['error', 'A category has no list route.'],
  'check/category-path-mismatch': ['error', 'A category\'s bare list route is not at the category\'s path.'],
  'check/missing-home': ['error', 'No route has the path "/".'],
  'check/page-without-route': ['error', 'A page of data/pages has no route.'],
  'check/missing-page': ['error', 'A list lacks one of its pages 1..N, N = ceil(items / items per page).'],
  'check/extra-page': ['error', 'A list has a page route past N.'],
  'check/duplicate-page': ['error', 'A list has the same page number twice.'],
  'check/page-path': ['error', 'A list page is not at <list path>/page-<n>.'],

  // content
  'check/duplicate-id': ['error', 'Two entities of one kind share a node id.'],
  'check/unsafe-slug': ['error', 'A product slug cannot name its artwork file (a "/", "\\", ".." or another character outside letters, digits, "-", "_", ".").'],
  'check/duplicate-slug': ['error', 'Two products share a slug (it names the product artwork).'],
  'check/duplicate-category-path': ['error', 'Two categories share a path.'],
  'check/duplicate-page-kind': ['error', 'Two pages of data/pages have the same kind.'],
  'check/multiple-all-categories': ['error', 'More than one category has "all": true.'],
  'check/unknown-reference': ['error', 'An id that points at another entity (category, listedIn, related, featured, parentId) names none.'],
  'check/category-cycle': ['error', 'A category is its own ancestor through parentId.'],
  'check/unsafe-link': ['error', 'A link in content uses a scheme other than http(s), mailto or tel as browsers read it ("java\\tscript:" is javascript:), leads off the site without one ("//host"), or is written to read otherwise (an HTML character reference, a backslash, a colon before its first slash).'],
  'check/invalid-link': ['error', 'A link in content is empty or not a URL browsers can follow (a malformed host or port).'],
  'check/broken-link': ['error', 'A site-relative link in content leads to no route.'],

  // images (data/images/ and the images content names)
  'check/unsafe-image': ['error', 'An image src uses a scheme other than https (http:, javascript:, data:, …) as browsers read it, starts with "//", or is not a URL as written (judged as links are).'],
  'check/missing-image': ['error', 'An image src on this site names no file of data/images/ (nor an image the build makes), or is a relative path.'],
  'check/image-clash': ['error', 'A file of data/images/ would take the URL of an image the build makes (the logo, the share card, a product artwork).'],
  'check/unsafe-svg': ['error', 'An SVG in data/images/ has a script, an event handler, a javascript: URL or embedded HTML.'],
  'check/image-size-mismatch': ['warning', 'An image file\'s shape (width to height) is not the one its content declares.'],
  'check/image-heavy': ['warning', 'A file of data/images/ is over 400 KB or 2,560 pixels on its longer side (1 MB or 4,096 pixels for a photograph the build makes smaller copies of).'],
  'check/unused-image': ['info', 'A file of data/images/ that no product, news item or banner shows (it is published all the same).'],
} as const satisfies Record<string, readonly [Severity, string]>;

export type Code = keyof typeof CODES;
export type CheckCode = Extract<Code, `check/${string}`>;

export function severityOf(code: Code): Severity {
  return CODES[code][0];
}
