/**
 * Links between the pages of a list: plain <a href> in sequence (crawlers
 * follow prev/next), with a window of page numbers around the current one.
 */
import type { ListPageRef } from '../render/model.js';

/**
 * Every fifth page is always linked, so that on a long list (the knowledge
 * library has 72 pages) every page is at most two clicks from the list's first
 * page: a milestone, then the window around it. Crawlers give up on pages
 * deeper than three clicks from home.
 */
const MILESTONE = 5;

/** Page numbers to show: first, last, milestones and two either side of the current one; 0 marks a gap. */
export function pageWindow(pages: readonly number[], current: number): number[] {
  const shown = pages.filter(
    (n, i) => i === 0 || i === pages.length - 1 || Math.abs(n - current) <= 2 || n % MILESTONE === 0,
  );
  const out: number[] = [];
  for (const n of shown) {
    if (out.length > 0 && n - out[out.length - 1] > 1) out.push(0);
    out.push(n);
  }
  return out;
}

export function Pagination({ pages, current }: { pages: readonly ListPageRef[]; current: number }) {
  if (pages.length < 2) return null;
  const byNumber = new Map(pages.map((p) => [p.page, p.path]));
  const prev = byNumber.get(current - 1);
  const next = byNumber.get(current + 1);
  return (
    <nav className="pagination" aria-label="Pagination">
      {prev ? (
        <a href={prev} rel="prev" className="page-step">
          ← Previous
        </a>
      ) : null}
      <ol>
        {pageWindow(
          pages.map((p) => p.page),
          current,
        ).map((n, i) =>
          n === 0 ? (
            <li key={`gap${i}`} className="page-gap" aria-hidden="true">
              …
            </li>
          ) : n === current ? (
            <li key={n}>
              <span aria-current="page">{n}</span>
            </li>
          ) : (
            <li key={n}>
              <a href={byNumber.get(n)} aria-label={`Page ${n}`}>
                {n}
              </a>
            </li>
          ),
        )}
      </ol>
      {next ? (
        <a href={next} rel="next" className="page-step">
          Next →
        </a>
      ) : null}
    </nav>
  );
}
