/**
 * Loading lazily split code. A deploy replaces hashed chunk files, so a page
 * opened before the deploy can fail to fetch its chunk: reloading once gets the
 * new page and its new chunk names. The guard in sessionStorage stops a reload
 * loop when the chunk is really broken (spec section 8).
 */
import { CHUNK, STORAGE } from './constants.js';

export class ChunkLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkLoadError'; // set in the constructor: a class field costs a helper at es2020
  }
}

/** True when a reload is allowed now (none in the last `guardMs`); records it. */
export function claimReload(storage: Pick<Storage, 'getItem' | 'setItem'>, now: number, guardMs: number = CHUNK.reloadGuardMs): boolean {
  let last = NaN;
  try {
    last = Number(storage.getItem(STORAGE.reloadAt));
  } catch {
    return false; // storage disabled: never risk a loop
  }
  if (Number.isFinite(last) && last > 0 && now - last < guardMs) return false;
  try {
    storage.setItem(STORAGE.reloadAt, String(now));
  } catch {
    return false;
  }
  return true;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`chunk did not load within ${ms} ms`)), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    );
  });
}

/**
 * Imports a chunk; on failure reloads the page once (guarded), otherwise
 * rejects with a ChunkLoadError so the caller can tell the visitor.
 * `isCodeFailure` narrows which failures a reload can cure: a missing data
 * file is not fixed by fetching the page again.
 */
export async function loadChunk<T>(load: () => Promise<T>, isCodeFailure: (err: unknown) => boolean = () => true): Promise<T> {
  try {
    return await withTimeout(load(), CHUNK.timeoutMs);
  } catch (err) {
    if (!isCodeFailure(err)) throw err;
    if (claimReload(sessionStorage, Date.now())) {
      location.reload();
      // The page is going away; never settle so callers do not flash an error.
      return new Promise<T>(() => undefined);
    }
    throw err instanceof ChunkLoadError ? err : new ChunkLoadError(err instanceof Error ? err.message : String(err));
  }
}
