/**
 * The self-contained HTML report: inline CSS and JS, no external requests
 * (its CSP forbids them), every piece of page content escaped.
 */
import type { AuditReport } from './index.js';

/** Rows beyond this go to audit.json only; a browser chokes on 100,000-row tables. */
export const MAX_ROWS = 5000;

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
:root{font:14px/1.45 system-ui,sans-serif;color:#1d2327;background:#fff}
body{margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.15rem;margin:2rem 0 .5rem}
.cards{display:flex;gap:1rem;flex-wrap:wrap}.card{border:1px solid #d0d7de;border-radius:6px;padding:.6rem 1rem;min-width:8rem}
.card b{display:block;font-size:1.4rem}.error{color:#b42318}.warning{color:#9a6700}.info{color:#57606a}
.chart{display:grid;grid-template-columns:minmax(10rem,22rem) 1fr 4rem;gap:.25rem .75rem;align-items:center}
.bar{height:.9rem;border-radius:2px;background:#0969da;min-width:2px}.bar.error{background:#d1242f}.bar.warning{background:#d4a72c}.bar.info{background:#8c959f}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border-bottom:1px solid #eaeef2;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa;position:sticky;top:0}th button{all:unset;cursor:pointer;font-weight:600}th button:focus-visible{outline:2px solid #0969da}
th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
td.num{text-align:right;font-variant-numeric:tabular-nums}code{font-size:.9em}.note{color:#57606a}
`;

/** Sorts a table when a header button is clicked; numbers by value, text by locale. */
const SCRIPT = `
document.querySelectorAll('table[data-sortable]').forEach(function (table) {
  var headers = table.querySelectorAll('th');
  headers.forEach(function (th, col) {
    var button = th.querySelector('button');
    if (!button) return;
    button.addEventListener('click', function () {
      var asc = th.getAttribute('aria-sort') !== 'ascending';
      headers.forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
      var numeric = th.dataset.type === 'number';
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col].dataset.value !== undefined ? a.cells[col].dataset.value : a.cells[col].textContent;
        var y = b.cells[col].dataset.value !== undefined ? b.cells[col].dataset.value : b.cells[col].textContent;
        var d = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return asc ? d : -d;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
`;

type Cell = { text: unknown; num?: number; cls?: string };
type Column = { label: string; number?: boolean };

function table(id: string, columns: Column[], rows: Cell[][], total: number): string {
  const head = columns
    .map((c) => `<th scope="col"${c.number ? ' data-type="number"' : ''}><button type="button">${escapeHtml(c.label)}</button></th>`)
    .join('');
  const body = rows
    .map(
      (row) =>
        '<tr>' +
        row
          .map((cell) =>
            cell.num !== undefined
              ? `<td class="num${cell.cls ? ' ' + cell.cls : ''}" data-value="${cell.num}">${escapeHtml(cell.text)}</td>`
              : `<td${cell.cls ? ` class="${cell.cls}"` : ''}>${escapeHtml(cell.text)}</td>`,
          )
          .join('') +
        '</tr>',
    )
    .join('\n');
  const note = total > rows.length ? `<p class="note">Showing ${rows.length} of ${total} rows; reports/audit.json has them all.</p>` : '';
  return `<table id="${id}" data-sortable><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>${note}`;
}

function chart(items: Array<{ label: string; count: number; cls?: string }>): string {
  const max = Math.max(1, ...items.map((i) => i.count));
  return (
    '<div class="chart">' +
    items
      .map(
        (i) =>
          `<span>${escapeHtml(i.label)}</span><div class="bar ${i.cls ?? ''}" style="width:${((i.count / max) * 100).toFixed(1)}%" role="img" aria-label="${escapeHtml(`${i.label}: ${i.count}`)}"></div><span class="num">${i.count}</span>`,
      )
      .join('') +
    '</div>'
  );
}

export function renderHtmlReport(report: AuditReport): string {
  const { summary } = report;
  const rules = new Map(report.rules.map((r) => [r.id, r]));
  const f = summary.findings;
  const cards = [
    ['Pages', summary.pages, ''],
    ['Indexable', summary.indexable, ''],
    ['Errors', f.error, 'error'],
    ['Warnings', f.warning, 'warning'],
    ['Info', f.info, 'info'],
  ]
    .map(([label, n, cls]) => `<div class="card ${cls}"><b>${n}</b>${label}</div>`)
    .join('');

  const ruleRows = summary.byRule.map((r) => [
    { text: r.rule },
    { text: r.severity, cls: r.severity },
    { text: r.count, num: r.count },
    { text: rules.get(r.rule)?.explanation ?? '' },
    { text: rules.get(r.rule)?.fix ?? '' },
  ]);
  const findingRows = report.findings.slice(0, MAX_ROWS).map((x) => [
    { text: x.rule },
    { text: x.severity, cls: x.severity },
    { text: (x.url ?? x.file) + (x.line ? `:${x.line}` : '') },
    { text: x.message },
  ]);
  const pages = [...report.pages].sort((a, b) => b.issues - a.issues || a.url.localeCompare(b.url));
  const pageRows = pages.slice(0, MAX_ROWS).map((p) => [
    { text: p.url },
    { text: p.screen ?? '' },
    { text: p.title ?? '' },
    { text: p.description ?? '' },
    { text: p.words, num: p.words },
    { text: p.inlinks, num: p.inlinks },
    { text: p.depth ?? '–', num: p.depth ?? 9999 },
    { text: p.indexable ? 'yes' : 'no' },
    { text: p.issues, num: p.issues },
    { text: p.rules.join(', ') },
  ]);
  const lighthouse = report.lighthouse
    ? `<h2>Lighthouse</h2>` +
      table(
        'lighthouse',
        [{ label: 'Page' }, { label: 'Screen' }, { label: 'Performance', number: true }, { label: 'Accessibility', number: true }, { label: 'Best practices', number: true }, { label: 'SEO', number: true }, { label: 'Failed audits' }],
        report.lighthouse.map((p) => {
          const score = (k: string) => {
            const v = p.scores[k];
            return v === null || v === undefined ? { text: '–', num: -1 } : { text: Math.round(v * 100), num: Math.round(v * 100) };
          };
          return [
            { text: p.url },
            { text: p.screen ?? '' },
            score('performance'),
            score('accessibility'),
            score('best-practices'),
            score('seo'),
            { text: p.error ?? p.failed.map((a) => a.id).join(', ') },
          ];
        }),
        report.lighthouse.length,
      )
    : '';

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>SEO audit — ${escapeHtml(report.dir)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>SEO audit of ${escapeHtml(report.dir)}</h1>
<p class="note">Origin: ${escapeHtml(report.origin ?? 'unknown')}</p>
<div class="cards">${cards}</div>
<h2>Findings by rule</h2>
${chart(summary.byRule.map((r) => ({ label: r.rule, count: r.count, cls: r.severity })))}
<h2>Findings by screen kind</h2>
${chart(summary.byScreen.map((s) => ({ label: `${s.screen} (${s.pages} pages)`, count: s.findings })))}
${lighthouse}
<h2>Rules</h2>
${table('rules', [{ label: 'Rule' }, { label: 'Severity' }, { label: 'Count', number: true }, { label: 'Why' }, { label: 'Fix' }], ruleRows, ruleRows.length)}
<h2>Pages</h2>
${table('pages', [{ label: 'URL' }, { label: 'Screen' }, { label: 'Title' }, { label: 'Description' }, { label: 'Words', number: true }, { label: 'Inlinks', number: true }, { label: 'Depth', number: true }, { label: 'Indexable' }, { label: 'Issues', number: true }, { label: 'Rules' }], pageRows, pages.length)}
<h2>Findings</h2>
${table('findings', [{ label: 'Rule' }, { label: 'Severity' }, { label: 'Where' }, { label: 'Message' }], findingRows, report.findings.length)}
<script>${SCRIPT}</script>
</body>
</html>
`;
}
