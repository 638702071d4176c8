import { randomBytes } from 'node:crypto';
import type { Shared } from '../../kit/redis.ts';

/**
 * Failed sign-ins counted per name and per address in a sliding window. Written here rather than
 * with @fastify/rate-limit because that counts every request under one key, and this must count
 * only failures, under two keys, and forget a name's failures when its owner signs in.
 * `LoginThrottle` keeps the counts in this process; `RedisLoginThrottle` in Redis, for several
 * processes (REDIS_URL).
 */
export interface Throttle {
  /** Seconds until another attempt is allowed for this name and address; 0 when it is now. */
  retryAfter(name: string, address: string): number | Promise<number>;
  fail(name: string, address: string): void | Promise<void>;
  succeed(name: string): void | Promise<void>;
}

export interface ThrottleLimits {
  perName: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perName: 10, perAddress: 30, windowMs: 15 * 60_000 };
const MAX_KEYS = 50_000;

export class LoginThrottle implements Throttle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Seconds until another attempt is allowed for this name and address; 0 when it is now. */
  retryAfter(name: string, address: string): number {
    const wait = Math.max(
      this.wait(`n:${name.toLowerCase()}`, this.limits.perName),
      this.wait(`a:${address}`, this.limits.perAddress),
    );
    return Math.ceil(wait / 1000);
  }

  fail(name: string, address: string): void {
    for (const key of [`n:${name.toLowerCase()}`, `a:${address}`]) {
      const list = this.recent(key);
      list.push(this.clock());
      this.failures.delete(key);
      this.failures.set(key, list);
    }
    while (this.failures.size > MAX_KEYS) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }

  succeed(name: string): void {
    this.failures.delete(`n:${name.toLowerCase()}`);
  }

  private recent(key: string): number[] {
    const since = this.clock() - this.limits.windowMs;
    return (this.failures.get(key) ?? []).filter((t) => t > since);
  }

  private wait(key: string, limit: number): number {
    const list = this.recent(key);
    if (list.length < limit) return 0;
    return list[list.length - limit] + this.limits.windowMs - this.clock();
  }
}

// The same sliding window in Redis: each key a sorted set of failure times, read and written by
// one script each (atomic), on Redis's clock so the machines' clocks need not agree.
const NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";
const FAIL = `${NOW}
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - tonumber(ARGV[1]))
  redis.call('ZADD', key, now, now .. ARGV[2])
  redis.call('PEXPIRE', key, ARGV[1])
end`;
const WAIT = `${NOW}
local wait = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[i + 1])
  local recent = redis.call('ZRANGEBYSCORE', key, '(' .. (now - tonumber(ARGV[1])), '+inf', 'WITHSCORES')
  local n = #recent / 2
  if n >= limit then
    wait = math.max(wait, tonumber(recent[(n - limit) * 2 + 2]) + tonumber(ARGV[1]) - now)
  end
end
return wait`;

interface ThrottleScripts {
  depotLoginFail(nameKey: string, addressKey: string, windowMs: number, unique: string): Promise<unknown>;
  depotLoginWait(
    nameKey: string,
    addressKey: string,
    windowMs: number,
    perName: number,
    perAddress: number,
  ): Promise<number>;
}

/**
 * The throttle shared by every process through Redis. While Redis cannot be reached, this process
 * counts alone (LoginThrottle) rather than refuse every sign-in or let every attempt through.
 */
export class RedisLoginThrottle implements Throttle {
  private readonly local: LoginThrottle;
  private readonly scripts: ThrottleScripts;

  constructor(
    private readonly shared: Shared,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
  ) {
    this.local = new LoginThrottle(limits);
    shared.redis.defineCommand('depotLoginFail', { numberOfKeys: 2, lua: FAIL });
    shared.redis.defineCommand('depotLoginWait', { numberOfKeys: 2, lua: WAIT });
    this.scripts = shared.redis as unknown as ThrottleScripts;
  }

  private keys(name: string, address: string) {
    return [`${this.shared.prefix}login:n:${name.toLowerCase()}`, `${this.shared.prefix}login:a:${address}`] as const;
  }

  async retryAfter(name: string, address: string): Promise<number> {
    const { perName, perAddress, windowMs } = this.limits;
    try {
      const wait = await this.scripts.depotLoginWait(...this.keys(name, address), windowMs, perName, perAddress);
      return Math.ceil(Number(wait) / 1000);
    } catch {
      return this.local.retryAfter(name, address);
    }
  }

  async fail(name: string, address: string): Promise<void> {
    this.local.fail(name, address);
    const unique = `-${randomBytes(6).toString('hex')}`;
    await this.scripts.depotLoginFail(...this.keys(name, address), this.limits.windowMs, unique).catch(() => {});
  }

  async succeed(name: string): Promise<void> {
    this.local.succeed(name);
    await this.shared.redis.del(this.keys(name, '')[0]).catch(() => {});
  }
}
