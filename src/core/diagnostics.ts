/**
 * A finding of any stage (load, check, build, audit). Every diagnostic names
 * where the problem is so that a content editor can go straight to it.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** Stable identifier, e.g. `route/duplicate-path`. Never reuse or rename a code. */
  code: string;
  severity: Severity;
  /** Path of the file relative to the project (or data) root, forward slashes. */
  file: string;
  /** RFC 6901 JSON pointer into that file ('' for the whole file). */
  pointer: string;
  /** 1-based line and column of the pointed-at value, when known. */
  line?: number;
  column?: number;
  /** One sentence an editor can act on: what is wrong and what was expected. */
  message: string;
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}

/** Escapes one reference token of a JSON pointer (RFC 6901). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(...tokens: Array<string | number>): string {
  return tokens.map((t) => '/' + pointerToken(t)).join('');
}
