/**
 * Taking a page over from the last build: the temporary folder (the spare
 * of the build before, see output/atomic.ts) gets the page's recorded bytes.
 * Its file already holds them when its stamp says so: the stamp the spare's
 * build recorded for it, or the record's stamp of the output's file, which
 * an earlier take-over linked there (a stamp names the device and inode, so
 * only that very file, unchanged since, has it). Nothing is read then. Else
 * the output's file is linked there when it still has its recorded stamp
 * (copied where the file system has no hard links), else read and checked
 * against the record's digest. A page that cannot be taken over is rendered.
 *
 * Links, not copies: after a build that rendered every page, the next one
 * takes over nearly all of them, and at 100,000 routes copying them was
 * 20 s of an article's edit (docs/PERFORMANCE.md, "Pages taken over by hard
 * links"). A link is safe because no writer of an output folder writes
 * through a file: each unlinks it first (page-file.ts, site-writer.ts). It
 * moves the change time of the output's file, so of its stamp; the new
 * record and the stamps of the temporary folder are taken after it, and the
 * output's, still the manifest's until the swap, only matter when this
 * build fails: the next one then reads those pages back once.
 */
import { copyFileSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PositionTally, type TallyEntries } from '../links/scan.js';
import { insideRoot, twinFileOf } from '../output/paths.js';
import { seenPage, type PageStatsTaken } from '../output/page-stats.js';
import { keepStamped, linkOrCopy, unlinkIfThere, writeStampedBytes, type PageWrite, type SeenPage } from '../output/page-file.js';
import { pageDigest, stampOf } from '../output/stamps.js';
import type { PageFacts } from '../threads/protocol.js';
import type { PageStamps, PlannedRoute } from '../types.js';
import type { BuildRecord, RecordCollector, RecordedEntry } from './record.js';

function takeOver(
  tmp: string,
  outDir: string,
  planned: PlannedRoute,
  entry: RecordedEntry,
  previous: string | undefined,
  fresh: boolean,
  seen: SeenPage | undefined,
): PageWrite | undefined {
  const target = insideRoot(tmp, planned.file);
  const twin = planned.twin ? insideRoot(tmp, twinFileOf(planned.file)!) : undefined;
  const { digest } = entry;
  try {
    if (!fresh) {
      // A stamp ends in its page's digest: the spare's own stamp of another version of the page never matches.
      const kept = keepStamped(target, digest, [previous, entry.stamp], twin, seen);
      if (kept !== undefined) return kept;
    }
    // Only now: nearly every page of a build after another is kept where it is, and needs no source.
    const source = insideRoot(outDir, planned.file);
    const placed = placeRecordedPage(source, target, entry, twin, fresh, 'link');
    if (placed !== null) return placed;
    const bytes = readFileSync(source);
    // Changed by hand since it was recorded: rendered again rather than copied.
    if (pageDigest(bytes) !== digest) return undefined;
    return writeStampedBytes(target, bytes, fresh, twin, previous);
  } catch {
    // Whatever stands in the way (a missing file, a folder where the page goes): the render path clears it.
    return undefined;
  }
}

/**
 * The output's page at `source` placed at `target` (with its twin) when that file still has the stamp its record
 * names, so holds the recorded bytes; null when it does not. `how`: a hard link to it (a copy where the file system
 * refuses the link), or a copy by the kernel, which leaves the output's file and its stamp untouched; the twin is
 * then a link to the copy. Unless `fresh` says nothing is there, whatever is at `target` and at the twin is unlinked
 * first, never written through; a folder not made yet is made. The new file's stamp is taken once both names are
 * placed; it was not found holding the bytes, so is not counted as kept.
 */
export function placeRecordedPage(
  source: string,
  target: string,
  entry: Pick<RecordedEntry, 'digest' | 'stamp'>,
  twin: string | undefined,
  fresh: boolean,
  how: 'link' | 'copy',
): PageWrite | null {
  const there = lstatSync(source, { bigint: true, throwIfNoEntry: false });
  if (!there?.isFile() || stampOf(there, entry.digest) !== entry.stamp) return null;
  if (!fresh) unlinkIfThere(target);
  try {
    place(source, target, how);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(target), { recursive: true });
    place(source, target, how);
  }
  if (twin !== undefined) {
    if (!fresh) unlinkIfThere(twin);
    linkOrCopy(target, twin);
  }
  const placed = lstatSync(target, { bigint: true });
  return { bytes: Number(placed.size), stamp: stampOf(placed, entry.digest) };
}

/** `target` made another name of `source` (see linkOrCopy), or a copy of it. */
function place(source: string, target: string, how: 'link' | 'copy'): void {
  if (how === 'link') linkOrCopy(source, target);
  else copyFileSync(source, target);
}

export interface TakenOver {
  facts: PageFacts[];
  links: TallyEntries;
  unsafe: Array<[string, number]>;
  /** Pages that could not be taken over: to render. */
  failed: PlannedRoute[];
  kept: number;
  byStamp: number;
}

/**
 * Takes every page of `reuse` over into `tmp` (see takeOver), recording each in `collector`. With `pageStats`
 * (taken with the folder's stock, see output/page-stats.ts), a page's file and twin are judged by those.
 */
export function takeOverPages(
  tmp: string,
  outDir: string,
  reuse: ReadonlyArray<{ planned: PlannedRoute; entry: RecordedEntry }>,
  held: ReadonlySet<string>,
  stamps: PageStamps,
  previous: BuildRecord,
  collector: RecordCollector,
  pageStats?: PageStatsTaken,
): TakenOver {
  const result: TakenOver = { facts: [], links: [], unsafe: [], failed: [], kept: 0, byStamp: 0 };
  const tally = new PositionTally(previous.targets, previous.groups);
  for (const { planned, entry } of reuse) {
    const stamp = stamps.previous.get(planned.file);
    stamps.previous.delete(planned.file);
    const written = takeOver(tmp, outDir, planned, entry, stamp, !held.has(planned.file), pageStats && seenPage(pageStats, planned.index));
    if (written === undefined || written.stamp === undefined) {
      result.failed.push(planned);
      continue;
    }
    stamps.record?.(planned.file, written.stamp);
    if (written.kept !== undefined) result.kept++;
    if (written.kept === 'stamp') result.byStamp++;
    const { index } = planned;
    // Assigned, not spread: on Node 20 a spread gives each of 100,000 facts a hidden class of its own (core/objects.ts).
    result.facts.push(Object.assign({ index }, entry.facts, { metaFallback: [...entry.facts.metaFallback] }));
    tally.add(entry.internal, entry.group, index);
    for (const u of entry.unsafe) result.unsafe.push([u, index]);
    collector.keep(index, entry, written.stamp);
  }
  result.links = tally.entries();
  return result;
}
