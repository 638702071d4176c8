import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const variables = z.object({
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
  /** Redis for several processes: real-time fan-out and presence (and what else shares state). */
  REDIS_URL: z.string().url().optional(),
  /** Real time: `embedded` (this process), `redis` (several processes, REDIS_URL) or `pusher` (an external server). */
  BROADCAST_DRIVER: z.enum(['embedded', 'redis', 'pusher']).default('embedded'),
  /** The Pusher app: required for `pusher`; key and secret optional otherwise (generated and kept). */
  PUSHER_APP_ID: z.string().min(1).optional(),
  PUSHER_APP_KEY: z
    .string()
    .regex(/^[\w.-]{1,100}$/, 'letters, digits, _ . - only')
    .optional(),
  PUSHER_APP_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** An external Pusher-compatible server's host and port (Reverb, soketi); absent, Pusher's own for the cluster. */
  PUSHER_HOST: z.string().min(1).optional(),
  PUSHER_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  PUSHER_SCHEME: z.enum(['http', 'https']).default('https'),
  PUSHER_CLUSTER: z.string().min(1).default('mt1'),
  /** Seconds of silence after which the server pings a real-time client. */
  REALTIME_ACTIVITY_TIMEOUT: z.coerce.number().int().min(1).max(3600).default(120),
  /** Real-time connections one process holds at most. */
  REALTIME_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(10_000),
  /** Seconds after which a silent process is taken for gone, with its presence members (redis). */
  REALTIME_NODE_TTL: z.coerce.number().int().min(1).max(600).default(15),
});

/** Variables that only mean something together. */
const env = variables.superRefine((value, ctx) => {
  if (value.BROADCAST_DRIVER === 'redis' && !value.REDIS_URL) {
    ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'required when BROADCAST_DRIVER=redis' });
  }
  if (value.BROADCAST_DRIVER === 'pusher') {
    for (const name of ['PUSHER_APP_ID', 'PUSHER_APP_KEY', 'PUSHER_APP_SECRET'] as const) {
      if (!value[name])
        ctx.addIssue({ code: 'custom', path: [name], message: 'required when BROADCAST_DRIVER=pusher' });
    }
  }
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
