/**
 * The error pages the build writes at the top of the output folder (spec
 * section 8): 404.html for unknown URLs, 500.html for any other failure.
 * One list, because every stage must know them: check reserves their names
 * as route paths, emit keeps page twins off them, render writes them, audit
 * does not count them as pages, serve answers with them.
 */
export const ERROR_PAGES = ['404.html', '500.html'] as const;

export type ErrorPageFile = (typeof ERROR_PAGES)[number];

/** An error page's source in the build's link tally, where a route's is its position in the plan (0 and up). */
export const errorPageSource = (file: ErrorPageFile): number => -1 - ERROR_PAGES.indexOf(file);

/** The error page of a negative link-tally source. */
export const errorPageOfSource = (source: number): ErrorPageFile | undefined => ERROR_PAGES[-1 - source];

/** The error page names as a regular expression alternative: `404\.html|500\.html`. */
export const ERROR_PAGE_PATTERN = ERROR_PAGES.map((f) => f.replace('.', '\\.')).join('|');
