/**
 * The findings and the pages as CSV (RFC 4180: comma-separated, CRLF line
 * ends, fields quoted when they hold a comma, quote or line break), for
 * spreadsheets. Page content is untrusted: a field that a spreadsheet would
 * run as a formula (starting with =, +, -, @, tab or CR) gets a leading
 * apostrophe.
 */
import type { AuditReport } from './index.js';

export function csvField(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** One row per finding, worst first (the report's order). */
export function findingsCsv(report: AuditReport): string {
  return csv(
    ['severity', 'rule', 'url', 'file', 'line', 'message'],
    report.findings.map((f) => [f.severity, f.rule, f.url ?? '', f.file, f.line ?? '', f.message]),
  );
}

/** One row per page, by URL. */
export function pagesCsv(report: AuditReport): string {
  return csv(
    ['url', 'served', 'file', 'screen', 'title', 'description', 'words', 'inlinks', 'outlinks', 'depth', 'indexable', 'issues', 'rules'],
    report.pages.map((p) => [
      p.url,
      p.served,
      p.file,
      p.screen ?? '',
      p.title ?? '',
      p.description ?? '',
      p.words,
      p.inlinks,
      p.outlinks.length,
      p.depth ?? '',
      p.indexable ? 'yes' : 'no',
      p.issues,
      p.rules.join(' '),
    ]),
  );
}
