/**
 * Presentation of stored inquiries for `site inquiries`: CSV and JSON
 * exports, a terminal table and a detail view. Everything a buyer typed is
 * untrusted: CSV cells are quoted and defused against formula injection,
 * terminal output is stripped of control characters (escape sequences).
 */
import { stripControl } from '../core/inquiry.js';
import type { InquiryRecord } from './store.js';

export const EXPORT_COLUMNS = [
  'id',
  'receivedAt',
  'type',
  'name',
  'email',
  'company',
  'country',
  'phone',
  'product',
  'quantity',
  'message',
  'page',
  'userAgent',
  'ipHash',
  'spam',
  'notification',
] as const satisfies ReadonlyArray<keyof InquiryRecord>;

/**
 * One CSV cell (RFC 4180). A spreadsheet runs a cell starting with = + - @
 * (or a tab or carriage return before one) as a formula; a leading
 * apostrophe makes it text (OWASP "CSV injection").
 */
export function csvCell(value: string | null): string {
  let s = value ?? '';
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export function toCsv(records: readonly InquiryRecord[]): string {
  const lines = [EXPORT_COLUMNS.map((c) => csvCell(c)).join(',')];
  for (const r of records) lines.push(EXPORT_COLUMNS.map((c) => csvCell(r[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

export function toJson(records: readonly InquiryRecord[]): string {
  return JSON.stringify(records, null, 2) + '\n';
}

/** Terminal-safe and one line: no escape sequences, no newlines, at most `max` characters. */
export function terminalText(s: string, max = Infinity): string {
  const line = stripControl(s).replace(/[\r\n\t]+/g, ' ');
  return line.length > max ? `${line.slice(0, Math.max(0, max - 1))}…` : line;
}

export function formatTable(records: readonly InquiryRecord[]): string {
  if (records.length === 0) return 'No inquiries yet.';
  const rows = records.map((r) => [
    r.id,
    r.receivedAt.slice(0, 16).replace('T', ' '),
    r.type,
    terminalText(r.name, 24),
    terminalText(r.email, 32),
    terminalText(r.product || r.page, 32),
    r.spam ? `spam (${r.spam})` : '',
  ]);
  const head = ['ID', 'RECEIVED (UTC)', 'TYPE', 'NAME', 'E-MAIL', 'PRODUCT OR PAGE', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  return [head, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function formatDetail(r: InquiryRecord): string {
  const fields: Array<[string, string]> = [
    ['ID', r.id],
    ['Received', r.receivedAt],
    ['Type', r.type],
    ['Name', r.name],
    ['E-mail', r.email],
    ['Company', r.company],
    ['Country', r.country],
    ['Phone', r.phone],
    ['Product', r.product],
    ['Quantity', r.quantity],
    ['Page', r.page],
    ['User agent', r.userAgent],
    ['IP hash', r.ipHash],
    ['Notification', r.notification],
    ['Spam', r.spam ?? ''],
  ];
  const lines = fields.filter(([, v]) => v !== '').map(([k, v]) => `${`${k}:`.padEnd(14)}${terminalText(v)}`);
  // The message keeps its line breaks; every line is stripped on its own.
  const message = r.message.split(/\r?\n/).map((l) => `  ${terminalText(l)}`);
  return [...lines, 'Message:', ...message].join('\n');
}
