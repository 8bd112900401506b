/**
 * docs/CODES.md from the code catalogues: every load, check and build code
 * (src/core/codes.ts) and every audit rule (src/audit/rules.ts). `npm run
 * codes` writes it; tests/architecture/codes.test.ts fails while it is stale.
 */
import { writeFileSync } from 'node:fs';
import { RULES } from '../src/audit/rules.js';
import { CODES } from '../src/core/codes.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function codesMarkdown(): string {
  const out: string[] = [
    '# Diagnostic codes',
    '',
    '<!-- Generated from src/core/codes.ts and src/audit/rules.ts by `npm run codes`; do not edit. -->',
    '',
    'Every finding of `site check`, `site build` and `site audit` carries one of these codes. Codes are stable: filter on them in CI.',
    '`--strict` makes warnings errors; `site.config.json` can turn audit rules off or change their severity.',
  ];
  const stages: Array<[string, string]> = [
    ['load', 'Load: reading and validating `data/`'],
    ['check', 'Check: the catalogue as a whole'],
    ['build', 'Build: rendering, writing and the link check'],
  ];
  for (const [prefix, heading] of stages) {
    out.push('', `## ${heading}`, '', '| code | severity | meaning | fix |', '|---|---|---|---|');
    for (const [code, info] of Object.entries(CODES)) {
      if (code.startsWith(`${prefix}/`)) out.push(`| \`${code}\` | ${info.severity} | ${cell(info.title)} | ${cell(info.fix)} |`);
    }
  }
  out.push('', '## Audit rules', '', '| rule | severity | meaning | fix |', '|---|---|---|---|');
  for (const rule of RULES) out.push(`| \`${rule.id}\` | ${rule.severity} | ${cell(rule.explanation)} | ${cell(rule.fix)} |`);
  return out.join('\n') + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL('../../docs/CODES.md', import.meta.url), codesMarkdown());
  process.stdout.write('docs/CODES.md written\n');
}
