import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSettings } from '../../src/audit/config.js';
import { auditConfigSchema } from '../../src/audit/config-schema.js';
import { runAudit, type AuditReport } from '../../src/audit/index.js';

export const FAULTS = 'tests/fixtures/audit-faults';
export const CLEAN = 'tests/fixtures/audit-clean';
export const TODAY = '2025-06-01';

export function settings(rules: Record<string, unknown> = {}) {
  return resolveSettings(auditConfigSchema.parse({ rules }), 'test');
}

export async function audit(fixture: string, rules: Record<string, unknown> = {}): Promise<AuditReport> {
  return runAudit({ dir: join(fixture, 'site'), reportsDir: join(fixture, 'reports'), settings: settings(rules), threads: 0, today: TODAY });
}

/** A writable copy of a fixture (site and reports). */
export function copyFixture(fixture: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'audit-fixture-'));
  cpSync(fixture, dir, { recursive: true });
  return dir;
}

/** rule → sorted locations (URL, or file[:line] for site files). */
export function locations(report: AuditReport): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of report.findings) {
    const where = f.url ?? f.file + (f.line ? `:${f.line}` : '');
    out.set(f.rule, [...(out.get(f.rule) ?? []), where].sort());
  }
  return out;
}
