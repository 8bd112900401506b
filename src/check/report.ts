/**
 * How `site check` presents its findings: a text report for people, one JSON
 * document for tools, and GitHub workflow annotations for CI. Pure functions
 * from diagnostics and counts to text.
 */
import { countBySeverity, type Diagnostic, type Severity } from '../core/diagnostics.js';
import type { Catalogue } from '../core/catalogue.js';
import type { Painter as Paint } from '../core/paint.js';
import type { ResolvedRoute } from './index.js';
import { extended } from '../core/objects.js';

export interface CheckCounts {
  /** Routes to build per screen kind (identical duplicates once). */
  routes: Record<string, number>;
  /** Routes to build, then the entries of each part of the catalogue (all 0 when it did not load). */
  totals: { routes: number } & CatalogueSizes;
  diagnostics: Record<Severity, number>;
  /** Findings per code, so that a long report can be read at a glance. */
  codes: Record<string, number>;
}

/** How many entities each part of the catalogue has. */
export interface CatalogueSizes {
  /** Entries of the route registry (a path declared twice counts twice). */
  declarations: number;
  categories: number;
  products: number;
  articles: number;
  news: number;
  pages: number;
  /** Files of data/images/. */
  images: number;
}

export function sizesOf(c: Catalogue): CatalogueSizes {
  return {
    declarations: c.routes.length,
    categories: c.categories.length,
    products: c.products.length,
    articles: c.articles.length,
    news: c.news.length,
    pages: c.pages.length,
    images: c.images.length,
  };
}

const NO_SIZES: CatalogueSizes = { declarations: 0, categories: 0, products: 0, articles: 0, news: 0, pages: 0, images: 0 };

/** From the sizes, not the catalogue: on a cache hit the catalogue then need not be deserialized. */
export function countCatalogue(sizes: CatalogueSizes | null, routes: readonly ResolvedRoute[], diagnostics: readonly Diagnostic[]): CheckCounts {
  const perScreen: Record<string, number> = {};
  for (const r of routes) perScreen[r.screen] = (perScreen[r.screen] ?? 0) + 1;
  const sorted = Object.fromEntries(Object.entries(perScreen).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    routes: sorted,
    totals: { routes: routes.length, ...(sizes ?? NO_SIZES) },
    diagnostics: countBySeverity(diagnostics),
    codes: Object.fromEntries([...tally(diagnostics.map((d) => d.code))].sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

function tally(keys: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** Under --strict a warning is an error: in the report, the annotations and the exit code alike. */
export function applyStrict(diagnostics: readonly Diagnostic[], strict: boolean): Diagnostic[] {
  return strict ? diagnostics.map((d) => (d.severity === 'warning' ? extended(d, { severity: 'error' as const }) : d)) : [...diagnostics];
}

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function formatText(diagnostics: readonly Diagnostic[], counts: CheckCounts, paint: Paint): string {
  const lines: string[] = [];
  const grouped = [...diagnostics].sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
  for (const d of grouped) {
    const where = oneLine(`${d.file}:${d.line ?? 1}:${d.column ?? 1}`);
    const sev = d.severity === 'error' ? paint.red('error') : d.severity === 'warning' ? paint.yellow('warning') : paint.dim('info');
    lines.push(`${where}  ${sev}  ${paint.dim(d.code)}  ${oneLine(d.message)}`);
  }
  if (lines.length > 0) lines.push('');

  const screens = Object.entries(counts.routes);
  if (screens.length > 0) {
    const width = Math.max(...screens.map(([s]) => s.length));
    lines.push(paint.bold('Routes by screen kind'));
    for (const [screen, n] of screens) lines.push(`  ${screen.padEnd(width)}  ${String(n).padStart(5)}`);
    const t = counts.totals;
    const repeated = t.declarations - t.routes;
    lines.push(
      `  ${'total'.padEnd(width)}  ${String(t.routes).padStart(5)}${repeated > 0 ? paint.dim(`  (${t.declarations} declarations, ${repeated} repeated)`) : ''}`,
    );
    lines.push(
      `Content: ${plural(t.categories, 'category', 'categories')}, ${plural(t.products, 'product')}, ${plural(t.articles, 'article')}, ${plural(t.news, 'news item')}, ${plural(t.pages, 'page')}${t.images > 0 ? `, ${plural(t.images, 'image')}` : ''}`,
    );
  }
  const codes = Object.entries(counts.codes);
  if (codes.length > 1) lines.push(`By code: ${codes.map(([code, n]) => `${code} ${n}`).join(', ')}`);
  lines.push(verdict(counts.diagnostics, paint));
  return lines.join('\n') + '\n';
}

/**
 * Messages quote content (paths, names); a control character in content must
 * neither break the one-line-per-finding format nor drive the terminal.
 */
function oneLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}

function verdict(c: Record<Severity, number>, paint: Paint): string {
  const tally = `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}`;
  return c.error > 0 ? paint.red(paint.bold(`✖ The catalogue has problems: ${tally}.`)) : paint.green(`✔ The catalogue is consistent: ${tally}.`);
}

/** How many data files a check validated, took from its cache, and read (see CheckResult). */
export interface CheckedFiles {
  validated: number;
  reused: number;
  read: number;
}

export function formatJson(diagnostics: readonly Diagnostic[], counts: CheckCounts, files?: CheckedFiles): string {
  const doc = {
    diagnostics: diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      file: d.file,
      pointer: d.pointer,
      line: d.line ?? null,
      column: d.column ?? null,
      message: d.message,
    })),
    counts,
    ...(files && { files }),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

/** GitHub workflow commands (`::error file=…::…`), escaped as the runner expects. */
export function formatAnnotations(diagnostics: readonly Diagnostic[]): string {
  const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  return diagnostics
    .map((d) => {
      const command = d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'notice';
      return `::${command} file=${prop(d.file)},line=${d.line ?? 1},col=${d.column ?? 1},title=${prop(d.code)}::${data(d.message)}\n`;
    })
    .join('');
}
