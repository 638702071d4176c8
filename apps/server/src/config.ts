import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { PRINTER_PORTS, parsePorts } from './http/network-guard.ts';
import { parseSecretKey } from './modules/einvoice/seal.ts';
import { REPO_ROOT } from './paths.ts';

const variables = z.object({
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
  /**
   * Which reverse proxies' X-Forwarded-For to believe (per-address sign-in throttling behind one):
   * `false`, a number of proxies in front (`true` is 1), or their addresses (see trustProxyOf).
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context) => {
      const trust = trustProxyOf(value);
      if (trust === undefined) {
        context.addIssue({
          code: 'custom',
          message:
            "must be false, the number of proxies in front of Depot (1, 2, …; true means 1), or the proxies' addresses, comma-separated (10.0.0.5, 10.0.0.0/8, loopback)",
        });
        return z.NEVER;
      }
      return trust;
    }),
  /** A sign-in's absolute lifetime in days: refreshing keeps it alive until then, never longer. */
  DEPOT_SESSION_MAX_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Scheduled backups: where they go (unset: none are made), how often or at what time, how many kept. */
  DEPOT_BACKUP_DIR: z.string().min(1).optional(),
  DEPOT_BACKUP_INTERVAL_HOURS: z.coerce.number().positive().max(168).optional(),
  DEPOT_BACKUP_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time of day, HH:MM (24-hour, the server's time zone)")
    .optional(),
  DEPOT_BACKUP_KEEP: z.coerce.number().int().min(1).default(14),
  /** Redis for several processes: sign-in throttle, list totals, real-time fan-out and presence. */
  REDIS_URL: z.string().url().optional(),
  /** The start of Depot's keys in Redis: one per installation sharing a Redis server. */
  REDIS_PREFIX: z.string().min(1).default('depot:'),
  /** Bakong Open API token: set, the server checks KHQR payments itself; unset, cashiers confirm by hand. */
  BAKONG_API_TOKEN: z.string().min(1).optional(),
  BAKONG_API_URL: z.url().default('https://api-bakong.nbc.gov.kh'),
  /**
   * The National Bank's daily rate feed, in its XML format (https://www.nbc.gov.kh/api/exRate.php):
   * set, the server fetches it every DEPOT_RATE_FEED_HOURS; unset, the NBC's rate is entered by hand.
   */
  DEPOT_RATE_FEED_URL: z.url().optional(),
  DEPOT_RATE_FEED_HOURS: z.coerce.number().int().min(1).max(168).default(6),
  /**
   * Bakong answers only calls from Cambodian addresses: a server elsewhere calls through a relay in
   * Cambodia that forwards the same paths and headers (docs/OPERATIONS.md). Set, calls go there.
   */
  BAKONG_RELAY_URL: z.url().optional(),
  /** How long a till's dynamic KHQR may be paid, in minutes (1-10). */
  BAKONG_QR_MINUTES: z.coerce.number().int().min(1).max(10).default(10),
  /** How long Bakong may take to answer a check (the till waits on it). */
  BAKONG_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(8000),
  /** CamInvoice (GDT e-invoicing): the software provider's credentials; both set, e-invoicing is on. */
  CAMINVOICE_CLIENT_ID: z.string().min(1).optional(),
  CAMINVOICE_CLIENT_SECRET: z.string().min(1).optional(),
  /** The platform: the sandbox by default; production's address when GDT approves the integration. */
  CAMINVOICE_BASE_URL: z.url().default('https://sandbox.e-invoice.gov.kh'),
  /** The secret part of the webhook's address; absent, one is generated and kept in the database. */
  CAMINVOICE_WEBHOOK_SECRET: z.string().min(24, 'must be at least 24 characters').optional(),
  /** Seconds between sending queued documents and reading statuses and received documents. */
  CAMINVOICE_POLL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** The key (32 bytes, base64 or hex) tokens are sealed with; absent, one kept in the database. */
  DEPOT_SECRET_KEY: z
    .string()
    .optional()
    .transform((text, context) => {
      if (text === undefined || text === '') return undefined;
      const key = parseSecretKey(text);
      if (!key) {
        context.addIssue({ code: 'custom', message: 'must be 32 bytes, base64 or hex (openssl rand -base64 32)' });
        return z.NEVER;
      }
      return key;
    }),
  /** How long a network printer may take to accept a job before the till is told it did not answer. */
  PRINTER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** The ports the server may connect to for a network printer (http/network-guard.ts): `9100-9109,515`. */
  PRINTER_PORTS: z
    .string()
    .default(PRINTER_PORTS)
    .transform((text, context) => {
      try {
        return parsePorts(text);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /** Tests on one machine only (fake printers on 127.0.0.1): printers may be on the loopback. Never in production. */
  PRINTER_ALLOW_LOOPBACK: z.stringbool().default(false),
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
  /**
   * Server processes on this machine sharing the port (node:cluster), each a whole Depot: 1 by
   * default; more need what several processes share (REDIS_URL, real time not embedded).
   */
  DEPOT_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
});

/**
 * TRUST_PROXY as Fastify's `trustProxy`: false (the connection's address is the client's), a number
 * of hops (the client is that many addresses from the right of X-Forwarded-For, so a client's own
 * leftmost entries are never believed), or the proxies' addresses and networks (every hop from one
 * of them is skipped). `true` meant "every hop", which let any client choose its address; it now
 * means one proxy. Undefined when the value is none of these.
 */
export function trustProxyOf(value: string): false | number | string[] | undefined {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0' || text === 'no' || text === 'off') return false;
  if (text === 'true' || text === 'yes' || text === 'on') return 1;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops >= 1 && hops <= 10 ? hops : undefined;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const address = (a: string) => ipaddr.IPv4.isValidFourPartDecimal(a) || ipaddr.IPv6.isValid(a);
  const valid = (entry: string) => {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
    const [base, bits, extra] = entry.split('/');
    if (extra !== undefined || !address(base)) return false;
    return bits === undefined || (/^\d+$/.test(bits) && ipaddr.isValidCIDR(entry));
  };
  return entries.length && entries.every(valid) ? entries : undefined;
}

/** Variables that only mean something together. */
const env = variables.superRefine((config, context) => {
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
  if (Boolean(config.CAMINVOICE_CLIENT_ID) !== Boolean(config.CAMINVOICE_CLIENT_SECRET)) {
    context.addIssue({
      code: 'custom',
      path: [config.CAMINVOICE_CLIENT_ID ? 'CAMINVOICE_CLIENT_SECRET' : 'CAMINVOICE_CLIENT_ID'],
      message: 'CAMINVOICE_CLIENT_ID and CAMINVOICE_CLIENT_SECRET go together',
    });
  }
  if (config.BROADCAST_DRIVER === 'redis' && !config.REDIS_URL) {
    context.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'required when BROADCAST_DRIVER=redis' });
  }
  if (config.DEPOT_WORKERS > 1 && !config.REDIS_URL) {
    context.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'required when DEPOT_WORKERS is more than 1' });
  }
  if (config.DEPOT_WORKERS > 1 && config.BROADCAST_DRIVER === 'embedded') {
    context.addIssue({
      code: 'custom',
      path: ['BROADCAST_DRIVER'],
      message: 'must be redis or pusher when DEPOT_WORKERS is more than 1',
    });
  }
  if (config.BROADCAST_DRIVER === 'pusher') {
    for (const name of ['PUSHER_APP_ID', 'PUSHER_APP_KEY', 'PUSHER_APP_SECRET'] as const) {
      if (!config[name])
        context.addIssue({ code: 'custom', path: [name], message: 'required when BROADCAST_DRIVER=pusher' });
    }
  }
});

export type Config = z.infer<typeof env>;

/** The variables Depot reads (deployment files are checked against this list). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(variables.shape);

/** Reads and validates the environment; a bad value stops start-up with a message naming it. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = env.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
