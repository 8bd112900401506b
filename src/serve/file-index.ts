/**
 * The index of dist/ that `site serve` answers from: every file a request
 * may name, by its URL path (`/monomer/index.html`), with the real path to
 * read it from. Taken by one walk of the folder when the server starts and
 * again when a new build is swapped in, so that a request for a missing
 * file costs a map lookup, not a system call.
 *
 * What is left out: names starting with a dot (at any depth), anything that
 * is neither a file nor a folder, and symbolic links that cannot be served
 * safely: those that lead out of dist/, that dangle, and those that loop
 * (a link to itself or to a folder above it). A left-out link is reported,
 * never followed, so a loop cannot send the walk round for ever.
 */
import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

export type SkipReason = 'loop' | 'dangling' | 'outside';

export interface SkippedLink {
  /** The link's URL path, e.g. `/monomer/self`. */
  path: string;
  reason: SkipReason;
}

export interface FileIndex {
  /** The real path of dist/ the walk started from. */
  realRoot: string;
  /** URL path -> real path of the file, always inside realRoot. */
  files: Map<string, string>;
  skipped: SkippedLink[];
}

const REASON: Record<SkipReason, string> = { loop: 'a loop', dangling: 'leads nowhere', outside: 'leads out of the folder' };

/** One line for a log: which links the index left out and why. */
export function describeSkipped(skipped: readonly SkippedLink[], shown = 5): string {
  const listed = skipped.slice(0, shown).map((s) => `${s.path} (${REASON[s.reason]})`);
  const more = skipped.length > shown ? `, and ${skipped.length - shown} more` : '';
  return `${skipped.length} symbolic link${skipped.length === 1 ? '' : 's'} not served: ${listed.join(', ')}${more}`;
}

/** Where a symbolic link leads, or why it is not followed. `ancestors` are the real folders from dist/ down to the link. */
function followLink(abs: string, realRoot: string, ancestors: ReadonlySet<string>): { real: string; dir: boolean } | SkipReason {
  let real: string;
  try {
    real = realpathSync(abs);
  } catch (err) {
    // ELOOP: a chain of links that comes back to itself.
    return (err as NodeJS.ErrnoException).code === 'ELOOP' ? 'loop' : 'dangling';
  }
  if (real !== realRoot && !real.startsWith(realRoot + sep)) return 'outside';
  let dir: boolean;
  try {
    dir = statSync(real).isDirectory();
  } catch {
    return 'dangling';
  }
  // A folder that holds the link itself: following it would walk the same folders for ever.
  if (dir && ancestors.has(real)) return 'loop';
  return { real, dir };
}

/** Walks dist/ (which may itself be a symbolic link) and indexes its files. Throws only when dist/ itself cannot be read. */
export function indexFolder(root: string): FileIndex {
  const realRoot = realpathSync(root);
  const files = new Map<string, string>();
  const skipped: SkippedLink[] = [];
  const walk = (dirReal: string, urlPrefix: string, ancestors: Set<string>): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dirReal, { withFileTypes: true });
    } catch {
      // A folder removed or made unreadable during the walk: it has nothing to serve.
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const url = `${urlPrefix}/${e.name}`;
      const abs = join(dirReal, e.name);
      if (e.isFile()) files.set(url, abs);
      else if (e.isDirectory()) walkInto(abs, url, ancestors);
      else if (e.isSymbolicLink()) {
        const target = followLink(abs, realRoot, ancestors);
        if (typeof target === 'string') skipped.push({ path: url, reason: target });
        else if (target.dir) walkInto(target.real, url, ancestors);
        else files.set(url, target.real);
      }
    }
  };
  const walkInto = (dirReal: string, url: string, ancestors: Set<string>): void => {
    ancestors.add(dirReal);
    walk(dirReal, url, ancestors);
    ancestors.delete(dirReal);
  };
  walkInto(realRoot, '', new Set());
  return { realRoot, files, skipped };
}
