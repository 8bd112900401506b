/**
 * The audit's configuration: the `audit` section of site.config.json (or a
 * file given with --config). It can turn rules off, change their severity
 * and change their thresholds; every key is validated so a typo is an error,
 * not a silently ignored setting.
 */
import { UserError } from '../core/errors.js';
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { AuditConfig } from './config-schema.js';
import { isRuleId, RULES, RULES_BY_ID } from './rules.js';
import type { RuleSettings } from './types.js';

export type { AuditConfig };

export class ConfigError extends UserError {
  override name = 'ConfigError';
}

/** Turns a parsed config into one setting per rule, rejecting unknown rules and options. */
export function resolveSettings(config: AuditConfig, file: string): RuleSettings {
  // Every registered rule, by its id (RULES lists each id once).
  const settings = Object.fromEntries(
    RULES.map((rule) => [rule.id, { enabled: true, severity: rule.severity, options: { ...(rule.options ?? {}) } }]),
  ) as RuleSettings;
  for (const [id, value] of Object.entries(config.rules)) {
    const where = `${file}: /audit/rules/${id.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!isRuleId(id)) throw new ConfigError(`${where}: unknown rule "${id}" (run \`site audit --json\` to see the rule ids)`);
    const rule = RULES_BY_ID.get(id)!;
    const setting = settings[id];
    if (value === 'off') setting.enabled = false;
    else if (typeof value === 'string') setting.severity = value;
    else {
      const { severity: sev, ...options } = value;
      if (sev === 'off') setting.enabled = false;
      else if (sev) setting.severity = sev;
      for (const [name, n] of Object.entries(options)) {
        if (!(name in (rule.options ?? {}))) {
          const known = Object.keys(rule.options ?? {});
          throw new ConfigError(
            `${where}/${name}: rule "${id}" has no option "${name}"; expected ${known.length ? known.map((k) => `"${k}"`).join(', ') : 'only "severity"'}`,
          );
        }
        if (!Number.isFinite(n) || n < 0) throw new ConfigError(`${where}/${name}: expected a non-negative number`);
        setting.options[name] = n as number;
      }
    }
  }
  return settings;
}

function describeZodError(error: z.ZodError, file: string, prefix: string): string {
  return error.issues
    .map((issue) => `${file}: ${prefix}${issue.path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('')}: ${issue.message}`)
    .join('\n');
}

/**
 * Reads the config. With `explicit` the file must exist; otherwise a missing
 * default file (site.config.json) or one without an `audit` section means defaults.
 */
export async function loadAuditConfig(file: string, explicit: boolean): Promise<AuditConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (!explicit && (err as NodeJS.ErrnoException).code === 'ENOENT') return { rules: {} };
    throw new ConfigError(`${file}: cannot read the config file (${(err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ConfigError(`${file}: expected a JSON object with an "audit" section`);
  }
  const hasSection = 'audit' in json;
  // A file passed with --config may be the section itself; site.config.json holds other sections too.
  const section = hasSection ? (json as { audit: unknown }).audit : explicit ? json : {};
  const { auditConfigSchema } = await import('./config-schema.js');
  const parsed = auditConfigSchema.safeParse(section);
  if (!parsed.success) throw new ConfigError(describeZodError(parsed.error, file, hasSection ? '/audit' : ''));
  return parsed.data;
}
