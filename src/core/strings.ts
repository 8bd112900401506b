/**
 * A copy of a string that shares no memory with the string it came from.
 *
 * V8 makes a substring of 13 characters or more (a regex match, `slice`) a
 * view into its parent, and the view keeps the whole parent alive. A link
 * target taken from a rendered page and kept for the whole build (the link
 * tally, a memo) would keep that page's 20 KB of HTML with it: at 100,000
 * routes rendered on the main thread alone, 220 MB of pages nobody needed.
 * UTF-16 both ways, so lone surrogates survive.
 */
export const detached = (text: string): string => Buffer.from(text, 'utf16le').toString('utf16le');
