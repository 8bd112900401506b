/**
 * The audit's report files: audit.json, audit.html and the two CSV files,
 * whichever of them are asked for, in one folder. The HTML report names the
 * files actually written.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditReport } from './index.js';

export const REPORT_FORMATS = ['html', 'json', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface WrittenReports {
  /** The files written, relative to the reports folder, in the order written. */
  files: string[];
  /** audit.json's text, when JSON was asked for (or `json`): one string for the file and stdout. */
  json: string;
}

export async function writeAuditReports(
  report: AuditReport,
  options: { reportsDir: string; formats: ReadonlySet<ReportFormat>; json?: boolean; siteDir: string },
): Promise<WrittenReports> {
  const { reportsDir, formats } = options;
  await mkdir(reportsDir, { recursive: true });
  // One string for the file and --json: a large site's report is tens of MB, and a second copy would be most of the peak memory.
  const json = formats.has('json') || options.json ? JSON.stringify(report, null, 2) + '\n' : '';
  const files: string[] = [];
  if (formats.has('json')) {
    await writeFile(join(reportsDir, 'audit.json'), json);
    files.push('audit.json');
  }
  if (formats.has('csv')) {
    const { findingsCsv, pagesCsv } = await import('./csv.js');
    await writeFile(join(reportsDir, 'audit-findings.csv'), findingsCsv(report));
    await writeFile(join(reportsDir, 'audit-pages.csv'), pagesCsv(report));
    files.push('audit-findings.csv', 'audit-pages.csv');
  }
  if (formats.has('html')) {
    const { renderHtmlReport } = await import('./html.js');
    files.push('audit.html');
    await writeFile(join(reportsDir, 'audit.html'), renderHtmlReport(report, { files, siteDir: options.siteDir }));
  }
  return { files, json };
}
