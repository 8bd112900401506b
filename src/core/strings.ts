/**
 * A copy of a string that shares no memory with the string it came from.
 *
 * V8 makes a substring of 13 characters or more (a regex match, `slice`) a
 * view into its parent, and the view keeps the whole parent alive. A link
 * target taken from a rendered page and kept for the whole build (the link
 * tally, a memo) would keep that page's HTML with it, for every page of the
 * build (docs/PERFORMANCE.md has the figure).
 * UTF-16 both ways, so lone surrogates survive.
 */
export const detached = (text: string): string => Buffer.from(text, 'utf16le').toString('utf16le');
