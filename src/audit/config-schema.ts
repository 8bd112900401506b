/**
 * The zod schema of the audit config, in its own module: loading zod is slow
 * (docs/PERFORMANCE.md), and the audit pays for it only when a config file exists.
 */
import { z } from 'zod';

const severity = z.enum(['error', 'warning', 'info']);

const ruleSetting = z.union([z.literal('off'), severity, z.object({ severity: z.union([severity, z.literal('off')]).optional() }).catchall(z.number())]);

export const auditConfigSchema = z
  .object({
    /** The URL the audited folder is served at; its path is the base path. */
    origin: z.url({ protocol: /^https?$/ }).optional(),
    /** Globs (relative to the audited folder) of HTML files that are not pages. */
    exclude: z.array(z.string().min(1)).optional(),
    rules: z.record(z.string(), ruleSetting).default({}),
  })
  .strict();
export type AuditConfig = z.infer<typeof auditConfigSchema>;
