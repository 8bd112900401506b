/**
 * The zod schema of the audit config, in its own module: zod costs about
 * 100 ms to load, which the audit pays only when a config file exists.
 */
import { z } from 'zod';

const severity = z.enum(['error', 'warning', 'info']);

const ruleSetting = z.union([
  z.literal('off'),
  severity,
  z.object({ severity: z.union([severity, z.literal('off')]).optional() }).catchall(z.number()),
]);

export const auditConfigSchema = z
  .object({
    origin: z.url({ protocol: /^https?$/ }).optional(),
    rules: z.record(z.string(), ruleSetting).default({}),
  })
  .strict();
export type AuditConfig = z.infer<typeof auditConfigSchema>;
