/**
 * Taking a page over from the last build: the temporary folder (the spare
 * of the build before, see output/atomic.ts) gets the page's recorded bytes.
 * Its file already holds them when its stamp says so (nothing is read);
 * else the output's file is copied, by the kernel without reading it here
 * when that file still has its recorded stamp, else read and checked against
 * the record's digest. Copies, not hard links: the output and its spare keep
 * files of their own, so an edit of one never shows in the other and a link
 * never moves the other's stamps. A page that cannot be taken over is rendered.
 */
import { copyFileSync, lstatSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { PositionTally, type TallyEntries } from '../links/scan.js';
import { insideRoot, twinFileOf } from '../output/paths.js';
import { keepStamped, writeStampedBytes, type PageWrite } from '../output/page-file.js';
import { digestOfStamp, pageDigest, stampOf } from '../output/stamps.js';
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
): PageWrite | undefined {
  const target = insideRoot(tmp, planned.file);
  const twin = planned.twin ? insideRoot(tmp, twinFileOf(planned.file)!) : undefined;
  const source = insideRoot(outDir, planned.file);
  const { digest } = entry;
  try {
    if (!fresh && previous !== undefined && digestOfStamp(previous) === digest) {
      const kept = keepStamped(target, digest, previous, twin);
      if (kept !== undefined) return kept;
    }
    const copied = copyRecordedPage(source, target, entry, twin, fresh);
    if (copied !== null) return copied;
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
 * The output's page at `source` copied to `target` (with its twin), by the kernel, when that file still has the
 * stamp its record names, so holds the recorded bytes; null when it does not. Unless `fresh` says nothing is
 * there, a file at `target` is unlinked first, never written through; a folder not made yet is made. The copy's
 * stamp is returned; it is a new file, not one found holding the bytes, so not counted as kept.
 */
export function copyRecordedPage(
  source: string,
  target: string,
  entry: Pick<RecordedEntry, 'digest' | 'stamp'>,
  twin: string | undefined,
  fresh: boolean,
): PageWrite | undefined | null {
  const there = lstatSync(source, { bigint: true, throwIfNoEntry: false });
  if (!there?.isFile() || stampOf(there, entry.digest) !== entry.stamp) return null;
  if (!fresh && lstatSync(target, { throwIfNoEntry: false }) !== undefined) unlinkSync(target);
  try {
    copyFileSync(source, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(source, target);
  }
  const copied = keepStamped(target, entry.digest, stampOf(lstatSync(target, { bigint: true }), entry.digest), twin);
  return copied && { bytes: copied.bytes, stamp: copied.stamp };
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

/** Takes every page of `reuse` over into `tmp` (see takeOver), recording each in `collector`. */
export function takeOverPages(
  tmp: string,
  outDir: string,
  reuse: ReadonlyArray<{ planned: PlannedRoute; entry: RecordedEntry }>,
  held: ReadonlySet<string>,
  stamps: PageStamps,
  previous: BuildRecord,
  collector: RecordCollector,
): TakenOver {
  const result: TakenOver = { facts: [], links: [], unsafe: [], failed: [], kept: 0, byStamp: 0 };
  const tally = new PositionTally(previous.targets, previous.groups);
  for (const { planned, entry } of reuse) {
    const stamp = stamps.previous.get(planned.file);
    stamps.previous.delete(planned.file);
    const written = takeOver(tmp, outDir, planned, entry, stamp, !held.has(planned.file));
    if (written === undefined || written.stamp === undefined) {
      result.failed.push(planned);
      continue;
    }
    stamps.record?.(planned.file, written.stamp);
    if (written.kept !== undefined) result.kept++;
    if (written.kept === 'stamp') result.byStamp++;
    const { index } = planned;
    result.facts.push({ index, ...entry.facts, metaFallback: [...entry.facts.metaFallback] });
    tally.add(entry.internal, entry.group, index);
    for (const u of entry.unsafe) result.unsafe.push([u, index]);
    collector.keep(index, entry, written.stamp);
  }
  result.links = tally.entries();
  return result;
}
