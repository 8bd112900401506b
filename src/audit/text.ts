/**
 * The terminal summary: findings grouped by rule, worst severity and most
 * frequent first, with a few examples each.
 */
import type { Painter } from '../core/paint.js';
import type { AuditReport } from './index.js';

const EXAMPLES = 3;

export function formatText(report: AuditReport, paint: Painter): string {
  const lines: string[] = [];
  const { summary } = report;
  const explanation = new Map(report.rules.map((r) => [r.id, r]));
  for (const { rule, severity, count } of summary.byRule) {
    const colour = severity === 'error' ? paint.red : severity === 'warning' ? paint.yellow : paint.dim;
    const def = explanation.get(rule);
    lines.push(`${colour(severity.padEnd(7))} ${paint.bold(rule)} ${paint.dim(`× ${count}`)}`);
    if (def) lines.push(`        ${def.explanation}`, `        ${paint.dim('fix: ' + def.fix)}`);
    const examples = report.findings.filter((f) => f.rule === rule).slice(0, EXAMPLES);
    for (const f of examples) lines.push(`        - ${f.url ?? f.file}${f.line ? `:${f.line}` : ''}: ${f.message}`);
    if (count > EXAMPLES) lines.push(paint.dim(`        … and ${count - EXAMPLES} more`));
  }
  if (report.lighthouse) {
    lines.push('', paint.bold('Lighthouse'));
    for (const page of report.lighthouse) {
      const scores = Object.entries(page.scores)
        .map(([k, v]) => `${k} ${v === null ? '–' : Math.round(v * 100)}`)
        .join(', ');
      lines.push(`  ${page.url} (${page.screen ?? 'unknown'}): ${page.error ? paint.red(page.error) : scores}`);
    }
  }
  const f = summary.findings;
  lines.push(
    '',
    `${summary.pages} pages (${summary.indexable} indexable) audited in ${report.dir}: ` +
      `${paint.red(`${f.error} errors`)}, ${paint.yellow(`${f.warning} warnings`)}, ${f.info} info` +
      (report.origin ? ` — origin ${report.origin}` : ''),
  );
  return lines.join('\n');
}
