/**
 * The load skips hidden files and folders (a .git, an editor's or a system's dot-files) anywhere under data/:
 * they are not read, not reported as strays, and a change to one changes nothing the build makes.
 */
export const isHiddenName = (name: string): boolean => name.startsWith('.');

/** Whether `relative`, a path under data/ split by `sep`, is or lies in a hidden file or folder. */
export const isHiddenPath = (relative: string, sep: string): boolean => relative.split(sep).some(isHiddenName);
