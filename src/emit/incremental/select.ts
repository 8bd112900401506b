/** Which pages an incremental build renders, and which it takes over from the last build as they are. */
import type { PlannedRoute } from '../types.js';
import type { BuildRecord, Positions, RecordedEntry } from './record.js';

export interface Selection {
  render: PlannedRoute[];
  reuse: Array<{ planned: PlannedRoute; entry: RecordedEntry }>;
  /** The last build's entry of each page rendered again for the same file, by plan index. */
  again: Map<number, RecordedEntry>;
}

/**
 * A page is taken over when the last build rendered it for the same route
 * (and body file) and every name it read hashes as it did then (`digests`,
 * in the order of `previous.names`); any other page is rendered. `keyOf` is
 * told the page's last entry, whose key it may build on.
 */
export function selectPages(
  plan: readonly PlannedRoute[],
  previous: BuildRecord,
  digests: readonly string[],
  keyOf: (planned: PlannedRoute, last?: RecordedEntry) => string,
): Selection {
  const changed = new Uint8Array(previous.names.length);
  for (let i = 0; i < changed.length; i++) if (digests[i] !== previous.digests[i]) changed[i] = 1;
  const byFile = new Map(previous.entries.map((e) => [e.file, e]));
  const selection: Selection = { render: [], reuse: [], again: new Map() };
  const anyChanged = (reads: Positions): boolean => {
    for (let i = 0; i < reads.length; i++) if (changed[reads[i]] === 1) return true;
    return false;
  };
  for (const planned of plan) {
    const entry = byFile.get(planned.file);
    if (entry !== undefined && entry.route === keyOf(planned, entry) && !anyChanged(entry.reads)) selection.reuse.push({ planned, entry });
    else {
      selection.render.push(planned);
      if (entry !== undefined) selection.again.set(planned.index, entry);
    }
  }
  return selection;
}
