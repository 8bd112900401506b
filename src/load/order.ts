import type { Diagnostic } from '../core/diagnostics.js';
import { pointerTokens } from './locate.js';

/**
 * Orders diagnostics by file, then pointer (array indices numerically, so
 * /9 comes before /10), then code: stable output for people and for diffs.
 */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  const pa = pointerTokens(a.pointer);
  const pb = pointerTokens(b.pointer);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] === pb[i]) continue;
    const na = /^\d+$/.test(pa[i]) ? Number(pa[i]) : NaN;
    const nb = /^\d+$/.test(pb[i]) ? Number(pb[i]) : NaN;
    if (!Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
    return pa[i] < pb[i] ? -1 : 1;
  }
  if (pa.length !== pb.length) return pa.length - pb.length;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}
