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

/**
 * The key a client is limited by: its IPv4 address, or the /64 prefix of its
 * IPv6 address (one subscriber usually holds a whole /64 and can rotate
 * through it at will).
 */
export function rateKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}
