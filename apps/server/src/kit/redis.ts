import { Redis } from 'ioredis';

/**
 * What several Depot processes on one database share through Redis (REDIS_URL): the sign-in
 * throttle's counts and the list totals' versions. Keys begin with `prefix` (REDIS_PREFIX), so
 * installations, or test suites, can share one Redis server.
 */
export interface Shared {
  redis: Redis;
  prefix: string;
}

interface Log {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * A connection for commands (not for subscribing: a subscriber needs a connection of its own).
 * A command while Redis is unreachable fails at once instead of waiting in a queue: each user of
 * it has an answer without Redis (count the list, throttle in this process), and a sale or a
 * sign-in must not hang on it. Start-up fails if Redis cannot be reached, since a process that
 * counted alone would break what the processes share; afterwards it reconnects by itself.
 */
export async function connectRedis(url: string, log: Log = console as unknown as Log): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn(
      { err: error.message },
      'Redis is unreachable (retrying): sign-in throttling and list totals fall back to this process, broadcasts reach only its sockets',
    );
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({}, 'Redis is reachable again');
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    const where = new URL(url);
    where.password = '';
    throw new Error(`REDIS_URL: cannot connect to ${where} (${(error as Error).message})`);
  }
  return redis;
}
