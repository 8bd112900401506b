/**
 * The spare brought up to the output between builds. The next build writes
 * into the spare (output/atomic.ts), which holds the output of the build
 * before the last: every page the last build rendered is out of date there,
 * and the next build's take-over links each of them from the output while
 * a save waits for it. After a build that rendered many pages (the first
 * build of `site build --watch` after a code or config change, a new nav
 * label) those links are a large part of the next build (at 100,000 routes
 * seconds of an article's edit). A process that has time before the next
 * build (the watch between saves) copies those pages ahead of it, and
 * records the spare's stamps, so that the take-over finds them kept.
 *
 * The spare's stamps are taken before any file is touched and recorded again
 * at the end, as a build does: stopped half way (a save arrives, the process
 * is killed), the next build finds those it recorded, or none, and compares
 * the other pages itself. Only a page whose output file still has the stamp
 * its record names is copied, so the copy holds the recorded bytes.
 *
 * Copies, not the hard links a build's take-over makes (reuse.ts): a link
 * moves the change time of the output's file, and between builds the output
 * must stay as its manifest and record say, so that the next build finds
 * its pages unchanged without reading them (or nothing to do at all).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { spareDirFor } from '../output/atomic.js';
import { insideRoot, twinFileOf } from '../output/paths.js';
import { digestOfStamp, stampRecorder, takeStamps } from '../output/stamps.js';
import { readOutputRecord, type RecordedEntry } from './record.js';
import { placeRecordedPage } from './reuse.js';

/** Pages copied between two looks at `stop`: each copy is a fraction of a millisecond. */
const CHUNK = 256;

/**
 * Whether a build that rendered `rendered` of `pages` route pages left enough
 * out of date in the spare to refresh it: reading the record and the stamps
 * costs about as much as copying a twentieth of the pages.
 */
export function spareWorthRefreshing(rendered: number, pages: number): boolean {
  return rendered > 0 && rendered * 20 >= pages;
}

/**
 * Copies into the spare of `outDir` each page of the output's record that
 * the spare does not hold (by its stamps), with its twin, and records the
 * spare's stamps. Stops between chunks once `stop()` says so; what it did
 * by then stands. Returns the pages copied.
 */
export async function refreshSpare(cacheDir: string, outDir: string, stop: () => boolean): Promise<number> {
  const spare = spareDirFor(outDir);
  const record = existsSync(spare) ? readOutputRecord(cacheDir, outDir) : undefined;
  if (record === undefined) return 0;
  const stamps = takeStamps(cacheDir, spare);
  const recorder = stampRecorder(cacheDir, spare);
  const output = path.resolve(outDir);
  let copied = 0;
  try {
    for (let at = 0; at < record.entries.length && !stop(); at += CHUNK) {
      for (const entry of record.entries.slice(at, at + CHUNK)) {
        const held = stamps.get(entry.file);
        if (held !== undefined && digestOfStamp(held) === entry.digest) continue;
        const stamp = copyPage(output, spare, entry);
        if (stamp === undefined) continue;
        stamps.set(entry.file, stamp);
        copied++;
      }
      await new Promise(setImmediate);
    }
    for (const [file, stamp] of stamps) recorder.add(file, stamp);
    recorder.keep();
  } catch {
    // Never an error of the watch: without the spare's stamps the next build compares its pages itself.
    recorder.drop();
  }
  return copied;
}

/**
 * The page (and its twin) copied from the output into the spare; its new stamp, or undefined when it could not be
 * (a page changed since the build recorded it is left for the next build to decide).
 */
function copyPage(output: string, spare: string, entry: RecordedEntry): string | undefined {
  try {
    const source = insideRoot(output, entry.file);
    const twinFile = twinFileOf(entry.file);
    const twin = twinFile !== null && existsSync(insideRoot(output, twinFile)) ? insideRoot(spare, twinFile) : undefined;
    return placeRecordedPage(source, insideRoot(spare, entry.file), entry, twin, false, 'copy')?.stamp;
  } catch {
    return undefined;
  }
}
