import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:|postgres(ql)?:\/\/)/, 'must start with sqlite: or postgres://')
    .default('sqlite:./data/depot.sqlite'),
  DEPOT_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  DEPOT_WEB_DIST: z.string().default(path.join(repoRoot, 'apps/web/dist')),
  /** Where uploaded pictures are kept (product images and their thumbnails). */
  DEPOT_UPLOADS_DIR: z.string().default('./data/uploads'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Trust X-Forwarded-For from a reverse proxy (needed for per-address login throttling behind one). */
  TRUST_PROXY: z.stringbool().default(false),
  /** Bakong Open API token: set, the server checks KHQR payments itself; unset, cashiers confirm by hand. */
  BAKONG_API_TOKEN: z.string().min(1).optional(),
  BAKONG_API_URL: z.url().default('https://api-bakong.nbc.gov.kh'),
  /** How long a network printer may take to accept a job before the till is told it did not answer. */
  PRINTER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
});

export type Config = z.infer<typeof env>;

/** Reads and validates the environment; a bad value stops start-up with a message naming it. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = env.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
