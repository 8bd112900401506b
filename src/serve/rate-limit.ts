/**
 * Per-client sliding-window limit on accepted inquiries. In memory: a
 * restart forgets it, which is fine for a limit whose window is a minute.
 */

export interface RateLimiter {
  /** Takes one slot for `key`, or says how many seconds until one frees up. */
  take(key: string, nowMs?: number): { ok: true } | { ok: false; retryAfterSeconds: number };
}

export function createRateLimiter(limit: number, windowMs = 60_000): RateLimiter {
  const hits = new Map<string, number[]>();
  let lastSweep = 0;

  function sweep(now: number): void {
    // Forget clients whose newest hit left the window, at most once per window.
    if (now - lastSweep < windowMs) return;
    lastSweep = now;
    for (const [key, times] of hits) if (times[times.length - 1] <= now - windowMs) hits.delete(key);
  }

  return {
    take(key, now = Date.now()) {
      if (limit <= 0) return { ok: true };
      sweep(now);
      const times = (hits.get(key) ?? []).filter((t) => t > now - windowMs);
      if (times.length >= limit) {
        hits.set(key, times);
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((times[0] + windowMs - now) / 1000)) };
      }
      times.push(now);
      hits.set(key, times);
      return { ok: true };
    },
  };
}
