/**
 * The self-contained HTML report: inline CSS and JS, no external requests
 * (its CSP forbids them), every piece of page content escaped. Findings are
 * grouped by rule, worst severity first; every URL opens a page view (the
 * page, its findings, inlinks and outlinks) drawn by the script from the
 * data embedded in it.
 */
import { escapeHtml } from '../core/html/escape.js';
import type { AuditReport } from './index.js';

export interface HtmlReportOptions {
  /** The report files written beside this one (names in the reports folder), this one included. */
  files?: readonly string[];
  /** The audited folder relative to the reports folder, for links to the page files. */
  siteDir?: string;
}

/** Page rows shown in the pages table; the page view and the other reports have them all. */
export const MAX_ROWS = 5000;
/**
 * Findings shown per rule of warning or info severity: beyond this the group
 * says how many more there are and where. Errors are always all shown.
 */
export const MAX_PER_RULE = 1000;

const STYLE = `
:root{font:14px/1.45 system-ui,sans-serif;color:#1d2327;background:#fff}
body{margin:0 auto;max-width:1200px;padding:1rem 1.5rem;box-sizing:border-box}
a{color:#0969da}td,th,li,p{overflow-wrap:anywhere}details{margin:.4rem 0}summary{cursor:pointer;padding:.2rem 0}
summary .count{color:#57606a}#page-view{border:2px solid #0969da;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
#page-view ul{max-height:20rem;overflow:auto;margin:.3rem 0;padding-left:1.2rem}.files a{margin-right:1rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.15rem;margin:2rem 0 .5rem}
.cards{display:flex;gap:1rem;flex-wrap:wrap}.card{border:1px solid #d0d7de;border-radius:6px;padding:.6rem 1rem;min-width:8rem}
.card b{display:block;font-size:1.4rem}.error{color:#b42318}.warning{color:#9a6700}.info{color:#57606a}
.chart{display:grid;grid-template-columns:minmax(10rem,22rem) 1fr 4rem;gap:.25rem .75rem;align-items:center}
.bar{height:.9rem;border-radius:2px;background:#0969da;min-width:2px}.bar.error{background:#d1242f}.bar.warning{background:#d4a72c}.bar.info{background:#8c959f}
table{border-collapse:collapse;width:100%;margin:.5rem 0;table-layout:fixed}th,td{border-bottom:1px solid #eaeef2;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa;position:sticky;top:0}th button{all:unset;cursor:pointer;font-weight:600}th button:focus-visible{outline:2px solid #0969da}
th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
td.num{text-align:right;font-variant-numeric:tabular-nums}code{font-size:.9em}.note{color:#57606a}
`;

/** Sorts a table when a header button is clicked; numbers by value, text by locale. */
const SCRIPT = `
var DATA = window.AUDIT_DATA;
var view = document.getElementById('page-view');
function el(tag, text, attrs) {
  var e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
  return e;
}
var index = {};
DATA.pages.forEach(function (p, i) { index[p[0]] = i; });
var inlinks = DATA.pages.map(function () { return []; });
DATA.pages.forEach(function (p, i) { p[7].forEach(function (t) { if (typeof t === 'number') inlinks[t].push(i); }); });
function pageLink(target) {
  if (typeof target !== 'number') return el('span', target);
  var url = DATA.pages[target][0];
  return el('a', url, { href: '#page=' + encodeURIComponent(url) });
}
function list(title, items) {
  var box = document.createElement('div');
  box.appendChild(el('h3', title + ' (' + items.length + ')'));
  var ul = document.createElement('ul');
  items.forEach(function (item) { var li = document.createElement('li'); li.appendChild(item); ul.appendChild(li); });
  if (items.length) box.appendChild(ul);
  return box;
}
function show() {
  var m = /^#page=(.*)$/.exec(location.hash);
  var i = m ? index[decodeURIComponent(m[1])] : undefined;
  view.hidden = i === undefined;
  if (i === undefined) return;
  var p = DATA.pages[i];
  view.textContent = '';
  view.appendChild(el('h2', 'Page ' + p[0]));
  var facts = el('p');
  if (DATA.origin) { facts.appendChild(el('a', DATA.origin + p[1], { href: DATA.origin + p[1], rel: 'noreferrer' })); facts.appendChild(document.createTextNode(' · ')); }
  facts.appendChild(DATA.siteDir !== null ? el('a', p[2], { href: DATA.siteDir + '/' + p[2].split('/').map(encodeURIComponent).join('/') }) : el('span', p[2]));
  facts.appendChild(document.createTextNode(' · title: ' + (p[3] === null ? '(none)' : p[3]) + ' · depth ' + (p[5] === null ? '–' : p[5]) + ' · ' + (p[6] ? 'indexable' : 'not indexable')));
  view.appendChild(facts);
  view.appendChild(list('Findings', (DATA.findings[p[0]] || []).map(function (f) {
    var s = el('span'); s.appendChild(el('b', f[0] + ' ', { class: f[1] })); s.appendChild(document.createTextNode(f[2])); return s;
  })));
  view.appendChild(list('Inlinks', inlinks[i].map(pageLink)));
  view.appendChild(list('Outlinks', p[7].map(pageLink)));
  view.scrollIntoView();
}
window.addEventListener('hashchange', show);
show();
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

/** A cell: text, or with `page` a link to that page's view. */
type Cell = { text: unknown; num?: number; cls?: string; page?: string };
type Column = { label: string; number?: boolean; width?: string };

const pageHref = (url: string): string => `#page=${encodeURIComponent(url)}`;
const cellContent = (cell: Cell): string =>
  cell.page !== undefined ? `<a href="${escapeHtml(pageHref(cell.page))}">${escapeHtml(cell.text)}</a>` : escapeHtml(cell.text);

function table(id: string, columns: Column[], rows: Cell[][], note = ''): string {
  const cols = columns.map((c) => `<col${c.width ? ` style="width:${c.width}"` : ''}>`).join('');
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
              ? `<td class="num${cell.cls ? ' ' + cell.cls : ''}" data-value="${cell.num}">${cellContent(cell)}</td>`
              : `<td${cell.cls ? ` class="${cell.cls}"` : ''}>${cellContent(cell)}</td>`,
          )
          .join('') +
        '</tr>',
    )
    .join('\n');
  return `<table id="${id}" data-sortable><colgroup>${cols}</colgroup><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>${note ? `<p class="note">${note}</p>` : ''}`;
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

/** JSON to embed in a script: no '<', so no </script> or <!-- (U+2028 and U+2029 are legal in JS strings since ES2019). */
function scriptJson(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes('<') ? json.replace(/</g, '\\u003c') : json;
}

/** Where the rest is, named by the files actually written (or, without others, audit.json as --json prints it). */
function elsewhere(files: readonly string[]): string {
  const others = files.filter((f) => f !== 'audit.html');
  return others.length > 0 ? others.join(' and ') : 'the JSON report (site audit --json)';
}

export function renderHtmlReport(report: AuditReport, options: HtmlReportOptions = {}): string {
  const { summary } = report;
  const files = options.files ?? ['audit.html'];
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

  // Findings by rule, in the summary's order (worst severity, then most frequent).
  const byRule = new Map<string, AuditReport['findings']>();
  for (const x of report.findings) {
    const group = byRule.get(x.rule);
    if (group) group.push(x);
    else byRule.set(x.rule, [x]);
  }
  const groups = summary.byRule
    .map(({ rule, severity, count }) => {
      const all = byRule.get(rule) ?? [];
      const shown = severity === 'error' ? all : all.slice(0, MAX_PER_RULE);
      const rows = shown.map((x) => [x.url === null ? { text: x.file + (x.line ? `:${x.line}` : '') } : { text: x.url, page: x.url }, { text: x.message }]);
      const note =
        shown.length < all.length
          ? `Showing ${shown.length} of ${all.length}; ${escapeHtml(elsewhere(files))} ${files.length > 2 ? 'have' : 'has'} them all.`
          : '';
      return (
        `<details${severity === 'error' ? ' open' : ''}><summary><b class="${severity}">${severity}</b> <code>${escapeHtml(rule)}</code> <span class="count">× ${count}</span> — ${escapeHtml(rules.get(rule)?.explanation ?? '')}</summary>` +
        table(`findings-${rule.replace(/[^a-z0-9]+/gi, '-')}`, [{ label: 'Where', width: '35%' }, { label: 'Message' }], rows, note) +
        '</details>'
      );
    })
    .join('\n');

  const pages = [...report.pages].sort((a, b) => b.issues - a.issues || a.url.localeCompare(b.url));
  const pageRows = pages
    .slice(0, MAX_ROWS)
    .map((p) => [
      { text: p.url, page: p.url },
      ...(report.routesKnown ? [{ text: p.screen ?? '' }] : []),
      { text: p.title ?? '' },
      { text: p.words, num: p.words },
      { text: p.inlinks, num: p.inlinks },
      { text: p.outlinks.length, num: p.outlinks.length },
      { text: p.depth ?? '–', num: p.depth ?? 9999 },
      { text: p.indexable ? 'yes' : 'no' },
      { text: p.issues, num: p.issues },
      { text: p.rules.join(', ') },
    ]);
  const pageColumns = [
    { label: 'URL', width: '22%' },
    ...(report.routesKnown ? [{ label: 'Screen', width: '7%' }] : []),
    { label: 'Title' },
    { label: 'Words', number: true, width: '5.5%' },
    { label: 'Inlinks', number: true, width: '5.5%' },
    { label: 'Outlinks', number: true, width: '6%' },
    { label: 'Depth', number: true, width: '5%' },
    { label: 'Indexable', width: '6.5%' },
    { label: 'Issues', number: true, width: '5%' },
    { label: 'Rules', width: '18%' },
  ];
  const pagesNote =
    pages.length > pageRows.length
      ? `Showing the ${pageRows.length} pages with the most findings of ${pages.length}; every URL opens its page view, and ${escapeHtml(elsewhere(files))} ${files.length > 2 ? 'have' : 'has'} them all.`
      : '';
  const lighthouse = report.lighthouse
    ? `<h2>Lighthouse</h2>` +
      table(
        'lighthouse',
        [
          { label: 'Page', width: '25%' },
          { label: 'Screen', width: '9%' },
          { label: 'Performance', number: true, width: '9%' },
          { label: 'Accessibility', number: true, width: '9%' },
          { label: 'Best practices', number: true, width: '9%' },
          { label: 'SEO', number: true, width: '6%' },
          { label: 'Failed audits' },
        ],
        report.lighthouse.map((p) => {
          const score = (k: string) => {
            const v = p.scores[k];
            return v === null || v === undefined ? { text: '–', num: -1 } : { text: Math.round(v * 100), num: Math.round(v * 100) };
          };
          return [
            { text: p.url, page: p.url },
            { text: p.screen ?? '' },
            score('performance'),
            score('accessibility'),
            score('best-practices'),
            score('seo'),
            { text: p.error ?? p.failed.map((a) => a.id).join(', ') },
          ];
        }),
      )
    : '';

  // The page view's data: [url, served, file, title, inlinks, depth, indexable, outlinks]; outlinks to pages
  // as their index in `pages`, other targets as strings; findings by page URL.
  const pageIndex = new Map(report.pages.map((p, i) => [p.url, i]));
  const findingsByPage: Record<string, Array<[string, string, string]>> = {};
  for (const x of report.findings) if (x.url !== null) (findingsByPage[x.url] ??= []).push([x.rule, x.severity, x.message]);
  const data = {
    origin: report.origin === null ? null : report.origin,
    siteDir: options.siteDir === undefined ? null : options.siteDir.split(/[\\/]/).map(encodeURIComponent).join('/'),
    pages: report.pages.map((p) => [p.url, p.served, p.file, p.title, p.inlinks, p.depth, p.indexable, p.outlinks.map((o) => pageIndex.get(o) ?? o)]),
    findings: findingsByPage,
  };
  const screens = report.routesKnown
    ? `<h2>Findings by screen kind</h2>\n${chart(summary.byScreen.map((s) => ({ label: `${s.screen} (${s.pages} pages)`, count: s.findings })))}`
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
<p class="note">Origin: ${escapeHtml(report.origin ?? 'unknown')}${report.basePath !== '/' ? `, base path ${escapeHtml(report.basePath)}` : ''}</p>
<p class="files">Reports written: ${files.map((name) => `<a href="${escapeHtml(encodeURIComponent(name))}">${escapeHtml(name)}</a>`).join(' ')}</p>
<div class="cards">${cards}</div>
<section id="page-view" hidden></section>
<h2>Findings by rule</h2>
${chart(summary.byRule.map((r) => ({ label: r.rule, count: r.count, cls: r.severity })))}
${screens}
${lighthouse}
<h2>Findings</h2>
<p class="note">Worst first; every error is listed, and a group of warnings or info says when it shows only part. A URL opens the page's view: its findings, inlinks and outlinks.</p>
${groups}
<h2>Pages</h2>
${table('pages', pageColumns, pageRows, pagesNote)}
<h2>Rules</h2>
${table('rules', [{ label: 'Rule', width: '18%' }, { label: 'Severity', width: '8%' }, { label: 'Count', number: true, width: '6%' }, { label: 'Why' }, { label: 'Fix' }], ruleRows)}
<script>window.AUDIT_DATA = ${scriptJson(data)};
${SCRIPT}</script>
</body>
</html>
`;
}
