/**
 * Group commit: inquiries whose bodies arrive in the same turn of the event
 * loop are inserted in one transaction, so one fsync (synchronous=FULL)
 * covers all of them. The SQLite driver blocks the loop while it commits; one
 * commit per batch instead of one per inquiry keeps page latency flat under
 * a burst of forms. Each promise resolves only after its row is committed.
 */
import type { InquiryRecord, InquiryStore, NewInquiry } from './store.js';

export type Commit = (input: NewInquiry) => Promise<InquiryRecord>;

export function createCommitQueue(store: InquiryStore): Commit {
  let pending: Array<{ input: NewInquiry; resolve(r: InquiryRecord): void; reject(e: unknown): void }> = [];

  function flush(): void {
    const batch = pending;
    pending = [];
    try {
      const records = store.addMany(batch.map((b) => b.input));
      batch.forEach((b, i) => b.resolve(records[i]));
    } catch {
      // The transaction rolled back as a whole: commit one by one so that one bad row fails alone.
      for (const b of batch) {
        try {
          b.resolve(store.add(b.input));
        } catch (err) {
          b.reject(err);
        }
      }
    }
  }

  return (input) =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ input, resolve, reject });
    });
}
