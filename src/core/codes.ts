/**
 * The catalogue of every diagnostic code of the load, check and build
 * stages: its severity, what it means (title) and what an editor does about
 * it (fix). docs/CODES.md is generated from it (npm run codes), and a test
 * holds every code written in src/ to it. Codes are stable: tools and CI
 * filters match on them, so a code is never renamed or reused; a new rule
 * gets a new code. The audit's rule ids live in its own registry
 * (src/audit/rules.ts).
 */
import type { Diagnostic, Severity } from './diagnostics.js';

export interface CodeInfo {
  severity: Severity;
  /** What the finding means, in one sentence. */
  title: string;
  /** What to do about it. */
  fix: string;
}

export const CODES = {
  // load: a file that cannot be read or validated
  'load/missing-data-dir': {
    severity: 'error',
    title: 'The data directory does not exist.',
    fix: 'Pass the catalogue folder with --data-dir, or run the command where data/ is.',
  },
  'load/missing-file': {
    severity: 'error',
    title: 'site.json or routes.json is missing.',
    fix: 'Restore data/site.json and data/routes.json; every catalogue needs both.',
  },
  'load/unreadable-file': { severity: 'error', title: 'A file exists but cannot be read.', fix: "Check the file's permissions and that it is a regular file." },
  'load/invalid-utf8': {
    severity: 'error',
    title: 'A file has bytes that are not UTF-8; the line and column of the first are given.',
    fix: 'Save the file as UTF-8 (most editors offer it on saving), or retype the character at the line and column given.',
  },
  'load/invalid-json': {
    severity: 'error',
    title: 'A file is not valid JSON; the position of the syntax error is given.',
    fix: 'Fix the JSON at the line and column given (a missing comma or quote, a trailing comma).',
  },
  'load/link-outside-data': {
    severity: 'error',
    title: 'A symbolic link under data/ (a file or a folder) leads out of data/; it is not read or published.',
    fix: 'Replace the link with the file itself, or point it at a file inside data/.',
  },
  'load/file-too-large': {
    severity: 'error',
    title: 'A data file is over limits.fileBytes of site.json (default 5 MB; routes.json: limits.routesBytes, default 256 MB); it is not read.',
    fix: 'Shorten the file, or raise the limit in site.json if it is meant to be this large.',
  },
  'load/long-text': {
    severity: 'warning',
    title: 'A text in a data file is over limits.textChars of site.json (default 100,000 characters).',
    fix: 'Shorten the text or split it up, or raise limits.textChars.',
  },
  'load/unexpected-file': {
    severity: 'warning',
    title: 'A file or folder in data/ that the layout does not know; it is ignored.',
    fix: 'Move or delete the file, or put it where the layout expects it (README, "The catalogue in data/").',
  },
  'load/schema': {
    severity: 'error',
    title: 'A value does not match the schema of its file (src/core/schema.ts); one per offending value.',
    fix: 'Give the field the value the message expects; the schemas are in src/core/schema.ts.',
  },

  // route paths
  'check/path-not-absolute': { severity: 'error', title: 'A route path does not start with "/".', fix: 'Start the path with "/".' },
  'check/path-traversal': {
    severity: 'error',
    title: 'A route path has a "." or ".." segment, a backslash, or a percent-encoded dot, slash, backslash or NUL.',
    fix: 'Write the path without "." or ".." segments, backslashes or encoded dots and slashes.',
  },
  'check/path-invalid-char': {
    severity: 'error',
    title: 'A route path has a character outside letters, digits, "-", ".", "_", "~" (a query, fragment, space, control character…).',
    fix: 'Use only letters, digits, "-", ".", "_" and "~" in route paths.',
  },
  'check/path-empty-segment': { severity: 'error', title: 'A route path has "//".', fix: 'Remove the doubled "/".' },
  'check/path-too-long': {
    severity: 'error',
    title: 'A route path segment is longer than a file name may be (255 bytes).',
    fix: 'Shorten the segment to at most 255 bytes.',
  },
  'check/path-reserved': {
    severity: 'error',
    title:
      'A route path would clash with a file the build writes itself (/assets, /images, /search/entry.json, /_headers, /404, /robots.txt, /sitemap.xml, …) or with a path the site answers otherwise (the inquiry endpoint of site.json).',
    fix: 'Choose another path: this one belongs to a file the build writes or to the inquiry endpoint.',
  },
  'check/path-dot-segment': {
    severity: 'error',
    title: 'A route path has a segment starting with "." (/.well-known, /knowledge/.hidden): hosts and site serve do not serve such names.',
    fix: 'Start every segment of the path with a letter or digit.',
  },
  'check/path-legacy-case': {
    severity: 'warning',
    title: 'A route path has capital letters (kept as declared).',
    fix: 'Nothing to do for a legacy URL that ranks; new routes use lower case.',
  },
  'check/path-edge-hyphen': {
    severity: 'warning',
    title: 'A route path segment starts or ends with a hyphen (kept as declared).',
    fix: 'Nothing to do for a legacy URL that ranks; new routes start and end segments with a letter or digit.',
  },
  'check/path-trailing-slash': { severity: 'warning', title: 'A route path ends with "/".', fix: 'Drop the trailing "/" (canonical URLs have none).' },

  // declarations
  'check/duplicate-route': {
    severity: 'warning',
    title: 'A path is declared again, identically; the build uses one.',
    fix: 'Delete the second declaration when convenient; the build already uses one.',
  },
  'check/conflicting-route': {
    severity: 'error',
    title: 'A path is declared again with different fields.',
    fix: 'Keep one declaration of the path, with the fields it should have.',
  },
  'check/output-collision': {
    severity: 'error',
    title: 'Two different paths are written to the same file (e.g. /a and /a/).',
    fix: 'Rename one of the two routes so that each has a file of its own.',
  },
  'check/output-case-collision': {
    severity: 'warning',
    title: 'Two paths differ only in letter case (one overwrites the other on case-insensitive hosts).',
    fix: 'Rename one of the two routes so they differ by more than letter case.',
  },
  'check/unknown-screen': {
    severity: 'error',
    title: 'A route names a screen kind that does not exist ("Unknown middleware {name}").',
    fix: 'Use one of the screen kinds the spec lists (home, products, category, product, knowledge, article, news, news-detail, about, contact, search, search-not-found, thanks).',
  },
  'check/nodeid-not-hex': {
    severity: 'warning',
    title: "A route's node id is a name rather than 32 lower-case hex characters.",
    fix: 'Nothing to do for a legacy route; new node ids are 32 lower-case hex characters.',
  },
  'check/type-mismatch': { severity: 'error', title: "A route's type differs from its node id.", fix: "Set the route's type equal to its nodeid." },
  'check/route-name': {
    severity: 'error',
    title: "A route's name does not follow the convention of its screen kind (spec section 3).",
    fix: "Rename the route as its screen kind's convention says (spec section 3).",
  },
  'check/unexpected-page': {
    severity: 'error',
    title: 'A route that is not a list has a page number.',
    fix: 'Remove "page" from the route, or make it a list route.',
  },
  'check/grandid-mismatch': {
    severity: 'error',
    title: "A product route's grandId is not its product's category id.",
    fix: 'Set grandId to the category id of the product the route shows.',
  },
  'check/unexpected-grandid': {
    severity: 'error',
    title: 'A route other than a product detail has a grandId.',
    fix: 'Remove grandId from the route; only product routes have one.',
  },
  'check/route-without-content': {
    severity: 'error',
    title: "A route's node id names no entity its screen can show.",
    fix: 'Point nodeid at an entity of the kind the screen shows, or add that entity.',
  },
  'check/empty-meta': {
    severity: 'warning',
    title: "A route's meta title, description or keywords are empty (the build falls back to text from the content).",
    fix: 'Write the missing meta in data/routes.json when convenient; the page is fine meanwhile.',
  },

  // coverage
  'check/missing-detail-route': {
    severity: 'error',
    title: 'A product, article or news item has no detail route.',
    fix: 'Add a route for the entity (product, article or news item) to data/routes.json.',
  },
  'check/multiple-detail-routes': {
    severity: 'error',
    title: 'A product, article or news item has more than one detail path.',
    fix: 'Keep one path for the entity; declare the same path twice at most.',
  },
  'check/category-without-route': { severity: 'error', title: 'A category has no list route.', fix: 'Add a list route for the category.' },
  'check/category-path-mismatch': {
    severity: 'error',
    title: "A category's bare list route is not at the category's path.",
    fix: "Make the category's bare list route use the category's path.",
  },
  'check/missing-home': { severity: 'error', title: 'No route has the path "/".', fix: 'Add a route with path "/" and screen "home".' },
  'check/page-without-route': { severity: 'error', title: 'A page of data/pages has no route.', fix: 'Add a route for the page, or delete the page file.' },
  'check/missing-page': {
    severity: 'error',
    title: 'A list lacks one of its pages 1..N, N = ceil(items / items per page).',
    fix: 'Add the missing page route <list path>/page-<n>.',
  },
  'check/extra-page': {
    severity: 'error',
    title: 'A list has a page route past N.',
    fix: 'Remove the page route past the last page, or add the items it would show.',
  },
  'check/duplicate-page': { severity: 'error', title: 'A list has the same page number twice.', fix: 'Keep one route per page number.' },
  'check/page-path': { severity: 'error', title: 'A list page is not at <list path>/page-<n>.', fix: 'Put the list page at <list path>/page-<n>.' },

  // content
  'check/duplicate-id': { severity: 'error', title: 'Two entities of one kind share a node id.', fix: 'Give each entity its own id.' },
  'check/unsafe-slug': {
    severity: 'error',
    title: 'A product slug cannot name its artwork file (a "/", "\\", ".." or another character outside letters, digits, "-", "_", ".").',
    fix: 'Use a slug of letters, digits, "-", "_" and ".".',
  },
  'check/duplicate-slug': { severity: 'error', title: 'Two products share a slug (it names the product artwork).', fix: 'Give each product its own slug.' },
  'check/duplicate-category-path': { severity: 'error', title: 'Two categories share a path.', fix: 'Give each category its own path.' },
  'check/duplicate-page-kind': { severity: 'error', title: 'Two pages of data/pages have the same kind.', fix: 'Keep one page per kind in data/pages/.' },
  'check/multiple-all-categories': { severity: 'error', title: 'More than one category has "all": true.', fix: 'Mark one category only with "all": true.' },
  'check/unknown-reference': {
    severity: 'error',
    title: 'An id that points at another entity (category, listedIn, related, featured, parentId) names none.',
    fix: 'Fix the id, or add the entity it names.',
  },
  'check/category-cycle': {
    severity: 'error',
    title: 'A category is its own ancestor through parentId.',
    fix: 'Change parentId so that the categories form a tree.',
  },
  'check/unsafe-link': {
    severity: 'error',
    title:
      'A link in content uses a scheme other than http(s), mailto or tel as browsers read it ("java\\tscript:" is javascript:), leads off the site without one ("//host"), or is written to read otherwise (an HTML character reference, a backslash, a colon before its first slash).',
    fix: 'Link with http(s), mailto or tel, or a path on the site, written plainly.',
  },
  'check/invalid-link': {
    severity: 'error',
    title: 'A link in content is empty or not a URL browsers can follow (a malformed host or port).',
    fix: 'Write the whole URL, with a valid host, or remove the link.',
  },
  'check/broken-link': {
    severity: 'error',
    title: 'A site-relative link in content leads to no route.',
    fix: 'Fix the link to name a route that exists, or add that route.',
  },

  // images (data/images/ and the images content names)
  'check/unsafe-image': {
    severity: 'error',
    title:
      'An image src uses a scheme other than https (http:, javascript:, data:, …) as browsers read it, starts with "//", or is not a URL as written (judged as links are).',
    fix: 'Use an https: URL or a file of data/images/.',
  },
  'check/missing-image': {
    severity: 'error',
    title: 'An image src on this site names no file of data/images/ (nor an image the build makes), or is a relative path.',
    fix: 'Put the file in data/images/ and name it as /images/<path>, or fix the src.',
  },
  'check/image-clash': {
    severity: 'error',
    title: 'A file of data/images/ would take the URL of an image the build makes (the logo, the share card, a product artwork).',
    fix: 'Rename the file in data/images/.',
  },
  'check/unsafe-svg': {
    severity: 'error',
    title: 'An SVG in data/images/ has a script, an event handler, a javascript: URL or embedded HTML.',
    fix: 'Remove the script, event handlers, javascript: URLs and embedded HTML from the SVG, or use a raster image.',
  },
  'check/image-size-mismatch': {
    severity: 'warning',
    title: "An image file's shape (width to height) is not the one its content declares.",
    fix: "Declare the file's own width and height (or crop the file to the declared shape).",
  },
  'check/image-heavy': {
    severity: 'warning',
    title:
      'A file of data/images/ is over 400 KB or 2,560 pixels on its longer side (1 MB or 4,096 pixels for a photograph the build makes smaller copies of).',
    fix: 'Export the image smaller or better compressed.',
  },
  'check/unused-image': {
    severity: 'info',
    title: 'A file of data/images/ that no product, news item or banner shows (it is published all the same).',
    fix: 'Show the image on a product, news item or banner, or delete it.',
  },

  // build: what the build itself found while rendering and writing
  'build/unsafe-path': {
    severity: 'error',
    title: "A route's output file would leave the output folder; the route is not written.",
    fix: 'Give the route a path of letters, digits and hyphens.',
  },
  'build/html-twin-clash': {
    severity: 'warning',
    title: "A page's <path>.html twin would take another page's file or folder; the page keeps its folder only.",
    fix: "Rename one of the two routes so that neither page's <path>.html is the other's file or folder.",
  },
  'build/render-failed': {
    severity: 'error',
    title: 'A route, error page or artwork failed to render (the template and cause are named).',
    fix: 'Fix the template or the content the message names, then rebuild.',
  },
  'build/not-found-fallback': {
    severity: 'warning',
    title: 'The 404 template failed; the minimal error page was written as 404.html.',
    fix: 'Fix the NotFound template; the minimal 404 page stands in meanwhile.',
  },
  'build/error-page-fallback': {
    severity: 'warning',
    title: 'The error page template failed; the minimal error page was written as 500.html.',
    fix: 'Fix the error page template; the minimal error page stands in meanwhile.',
  },
  'build/broken-link': {
    severity: 'error',
    title: 'A page links to a path no built file answers.',
    fix: 'Fix the link in the template or content, or add the page it names.',
  },
  'build/unsafe-link': {
    severity: 'error',
    title: 'A page links to a URL that runs code when followed (javascript:, vbscript:, data:).',
    fix: 'Fix the template that let the URL through (content with such links is refused by the check).',
  },
} as const satisfies Record<string, CodeInfo>;

export type Code = keyof typeof CODES;
export type CheckCode = Extract<Code, `check/${string}`>;
export type LoadCode = Extract<Code, `load/${string}`>;
export type BuildCode = Extract<Code, `build/${string}`>;

export function severityOf(code: Code): Severity {
  return CODES[code].severity;
}

/** A diagnostic of a catalogued code: its severity is the catalogue's, never chosen where it is raised. */
export function diagnosticOf(code: Code, file: string, pointer: string, message: string, at?: { line?: number; column?: number }): Diagnostic {
  return { code, severity: CODES[code].severity, file, pointer, ...at, message };
}
