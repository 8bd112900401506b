/**
 * Links between the pages of a list: plain <a href> in sequence (crawlers
 * follow prev/next), with a window of page numbers around the current one.
 */
import { listPageIndex, type ListPageRef } from '../model/model.js';

/**
 * Every fifth page is always linked, so that on a long list (the knowledge
 * library has 72 pages) every page is at most two clicks from the list's first
 * page: a milestone, then the window around it. Crawlers give up on pages
 * deeper than three clicks from home.
 */
const MILESTONE = 5;

/** Milestones of one step shown at most: more would make every page of a very long list mostly page links. */
const MAX_MILESTONES = 20;

/**
 * The milestone steps for a list of `count` pages, coarsest first: [5] up to
 * 100 pages (every fifth page, on every page of the list), then [50, 5],
 * [500, 50, 5] and so on. A coarser step is linked everywhere; each finer
 * one only within the current page's block of the step above it. A
 * 7,000-page list then shows about 40 page links instead of 1,400, and
 * every page stays a few clicks from the first.
 */
export function milestoneSteps(count: number): number[] {
  const steps = [MILESTONE];
  while (count / steps[0] > MAX_MILESTONES) steps.unshift(steps[0] * 10);
  return steps;
}

/** The page numbers of a list as a set, made once per array (listPageIndex's `numbers`). */
const numberSets = new WeakMap<readonly number[], ReadonlySet<number>>();
function numberSet(pages: readonly number[]): ReadonlySet<number> {
  let set = numberSets.get(pages);
  if (set === undefined) numberSets.set(pages, (set = new Set(pages)));
  return set;
}

/**
 * Page numbers to show: first, last, milestones and two either side of the
 * current one, and the one page a gap would hide; 0 marks a longer gap. Made from the few candidates, never by looking
 * at every page of the list: that was quadratic in the list's length.
 */
export function pageWindow(pages: readonly number[], current: number): number[] {
  if (pages.length === 0) return [];
  const present = numberSet(pages);
  const wanted = new Set<number>([pages[0], pages[pages.length - 1]]);
  for (let n = current - 2; n <= current + 2; n++) wanted.add(n);
  const steps = milestoneSteps(pages.length);
  const first = Math.min(pages[0], pages[pages.length - 1]);
  const last = Math.max(pages[0], pages[pages.length - 1]);
  steps.forEach((step, k) => {
    // The coarsest step over the whole list; each finer one within the current page's block of the step above.
    const from = k === 0 ? first : Math.floor(current / steps[k - 1]) * steps[k - 1];
    const to = k === 0 ? last : from + steps[k - 1] - 1;
    for (let n = Math.ceil(from / step) * step; n <= to; n += step) wanted.add(n);
  });
  const shown = [...wanted].filter((n) => present.has(n)).sort((a, b) => a - b);
  const out: number[] = [];
  for (const n of shown) {
    const previous = out[out.length - 1];
    // A gap that would hide one page only ("3 … 5") shows that page: the link takes the gap's place.
    if (previous !== undefined && n - previous === 2 && present.has(n - 1)) out.push(n - 1);
    else if (previous !== undefined && n - previous > 1) out.push(0);
    out.push(n);
  }
  return out;
}

/**
 * Which items of a pageWindow list a phone leaves out (styles.css hides them
 * below 40rem): all but the first and last page, the two either side of the
 * current one, and between those one gap, or the one page a gap would stand
 * for. The 72-page knowledge library took four rows of links at 375 px, and
 * takes one. Every link stays in the page for crawlers.
 */
export function compactMask(shown: readonly number[], current: number): boolean[] {
  const last = shown.length - 1;
  const kept = (i: number) => shown[i] !== 0 && (i === 0 || i === last || Math.abs(shown[i] - current) <= 2);
  const hidden = shown.map((_, i) => !kept(i));
  let previous = 0;
  for (let i = 1; i <= last; i++) {
    if (!kept(i)) continue;
    if (i - previous > 1) {
      const between = shown.slice(previous + 1, i);
      const gap = between.indexOf(0);
      if (gap >= 0) hidden[previous + 1 + gap] = false;
      else if (between.length === 1) hidden[previous + 1] = false;
      else for (let k = previous + 1; k < i; k++) hidden[k] = false; // no gap to stand for them: all stay
    }
    previous = i;
  }
  return hidden;
}

const classes = (...names: Array<string | false>): string | undefined => names.filter(Boolean).join(' ') || undefined;

/** One item of the page list: a link, the current page or a gap (0); `far` outside the window, `extra` not on phones. */
function item(n: number, i: number, current: number, byNumber: ReadonlyMap<number, string>, far = false, extra = false) {
  return n === 0 ? (
    <li key={`gap${i}`} className={classes('page-gap', extra && 'page-extra')} aria-hidden="true">
      …
    </li>
  ) : n === current ? (
    <li key={n}>
      <span aria-current="page">{n}</span>
    </li>
  ) : (
    <li key={n} className={classes(far && 'page-far', extra && 'page-extra')}>
      <a href={byNumber.get(n)} aria-label={`Page ${n}`}>
        {n}
      </a>
    </li>
  );
}

/** A run of page links and the gaps between them, outside the window around the current page. */
function Run({ run, extra, byNumber }: { run: readonly number[]; extra: readonly boolean[]; byNumber: ReadonlyMap<number, string> }) {
  if (run.length === 0) return null;
  // Milestones are smaller than the window's links: a list of 72 pages took three rows on a desktop and five on a phone.
  return <>{run.map((n, i) => item(n, i, 0, byNumber, true, extra[i]))}</>;
}

export function Pagination({ pages, current }: { pages: readonly ListPageRef[]; current: number }) {
  if (pages.length < 2) return null;
  const { numbers, pathOf: byNumber } = listPageIndex(pages);
  const prev = byNumber.get(current - 1);
  const next = byNumber.get(current + 1);
  const shown = pageWindow(numbers, current);
  const extra = compactMask(shown, current);
  // Links before and after the window (and the gaps among them) are runs; the window, with the gaps that border it, is this page's own.
  const near = (n: number) => n !== 0 && Math.abs(n - current) <= 2;
  let from = shown.findIndex(near);
  let to = shown.length - 1 - [...shown].reverse().findIndex(near);
  if (from < 0) [from, to] = [shown.length, shown.length - 1];
  if (from > 0 && shown[from - 1] === 0) from--;
  if (to + 1 < shown.length && shown[to + 1] === 0) to++;
  return (
    <nav className="pagination" aria-label="Pagination">
      {prev ? (
        <a href={prev} rel="prev" className="page-step">
          ← Previous
        </a>
      ) : null}
      <ol>
        <Run run={shown.slice(0, from)} extra={extra.slice(0, from)} byNumber={byNumber} />
        {shown.slice(from, to + 1).map((n, i) => item(n, from + i, current, byNumber, false, extra[from + i]))}
        <Run run={shown.slice(to + 1)} extra={extra.slice(to + 1)} byNumber={byNumber} />
      </ol>
      {next ? (
        <a href={next} rel="next" className="page-step">
          Next →
        </a>
      ) : null}
    </nav>
  );
}
