import path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from './paths.ts';

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:|postgres(ql)?:\/\/)/, 'must start with sqlite: or postgres://')
    .default('sqlite:./data/depot.sqlite'),
  DEPOT_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  DEPOT_WEB_DIST: z.string().default(path.join(REPO_ROOT, 'apps/web/dist')),
  /** Where uploaded pictures are kept (product images and their thumbnails). */
  DEPOT_UPLOADS_DIR: z.string().default('./data/uploads'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Trust X-Forwarded-For from a reverse proxy (needed for per-address login throttling behind one). */
  TRUST_PROXY: z.stringbool().default(false),
  /** Scheduled backups: where they go (unset: none are made), how often or at what time, how many kept. */
  DEPOT_BACKUP_DIR: z.string().min(1).optional(),
  DEPOT_BACKUP_INTERVAL_HOURS: z.coerce.number().positive().max(168).optional(),
  DEPOT_BACKUP_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time of day, HH:MM (24-hour, the server's time zone)")
    .optional(),
  DEPOT_BACKUP_KEEP: z.coerce.number().int().min(1).default(14),
  REDIS_URL: z.string().url().optional(),
  /** The start of Depot's keys in Redis: one per installation sharing a Redis server. */
  REDIS_PREFIX: z.string().min(1).default('depot:'),
  /** Bakong Open API token: set, the server checks KHQR payments itself; unset, cashiers confirm by hand. */
  BAKONG_API_TOKEN: z.string().min(1).optional(),
  BAKONG_API_URL: z.url().default('https://api-bakong.nbc.gov.kh'),
  /** How long a network printer may take to accept a job before the till is told it did not answer. */
  PRINTER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
});

const checked = env.superRefine((config, context) => {
  if (config.DEPOT_BACKUP_INTERVAL_HOURS !== undefined && config.DEPOT_BACKUP_AT !== undefined) {
    context.addIssue({
      code: 'custom',
      path: ['DEPOT_BACKUP_AT'],
      message: 'set either DEPOT_BACKUP_AT or DEPOT_BACKUP_INTERVAL_HOURS, not both',
    });
  }
  if ((config.DEPOT_BACKUP_INTERVAL_HOURS ?? config.DEPOT_BACKUP_AT) !== undefined && !config.DEPOT_BACKUP_DIR) {
    context.addIssue({
      code: 'custom',
      path: ['DEPOT_BACKUP_DIR'],
      message: 'is needed for scheduled backups (DEPOT_BACKUP_AT or DEPOT_BACKUP_INTERVAL_HOURS is set)',
    });
  }
});

export type Config = z.infer<typeof env>;

/** The variables Depot reads (deployment files are checked against this list). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(env.shape);

/** Reads and validates the environment; a bad value stops start-up with a message naming it. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = checked.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
