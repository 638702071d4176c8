import { randomBytes } from 'node:crypto';
import type { Shared } from '../../kit/redis.ts';

/**
 * Failed passwords (sign-ins and managers' approvals at the till: one throttle) counted in a sliding
 * window under three keys, with two kinds of answer:
 *
 * - `blocked`: a hard limit per name and address, and per address. The address that guesses is
 *   refused, right password or not, until its failures leave the window.
 * - `slowed`: per name alone, only a growing delay. After `slowAfter` failures for a name, each
 *   further attempt from a new address waits `2^(failures - slowAfter)` seconds after the last
 *   failure (at most `maxDelayMs`). The caller lets an address the user signed in from before
 *   through the delay (auth.service.ts `checkCredentials`), so nobody can lock the owner out by
 *   guessing at their name from elsewhere.
 *
 * Written here rather than with @fastify/rate-limit because that counts every request under one
 * key, and this must count only failures, under three keys. `LoginThrottle` keeps the counts in this
 * process; `RedisLoginThrottle` in Redis, for several processes (REDIS_URL).
 */
export interface Throttle {
  /** Seconds until this name may be tried from this address (`blocked`) or from a new address (`slowed`). */
  check(name: string, address: string): ThrottleState | Promise<ThrottleState>;
  fail(name: string, address: string): void | Promise<void>;
  /** The right password: the count of this name at this address is forgotten. */
  succeed(name: string, address: string): void | Promise<void>;
}

export interface ThrottleState {
  blocked: number;
  slowed: number;
}

export interface ThrottleLimits {
  /** Failures of one name from one address before that address is refused for the name. */
  perPair: number;
  /** Failures from one address (any names) before it is refused. */
  perAddress: number;
  windowMs: number;
  /** Failures of one name (any addresses) before attempts from new addresses are delayed. */
  slowAfter?: number;
  /** The longest delay a name's failures impose. */
  maxDelayMs?: number;
}

export const DEFAULT_THROTTLE = {
  perPair: 10,
  perAddress: 30,
  windowMs: 15 * 60_000,
  slowAfter: 5,
  maxDelayMs: 60_000,
} satisfies Required<ThrottleLimits>;
const MAX_KEYS = 50_000;

const limitsOf = (limits: ThrottleLimits | undefined): Required<ThrottleLimits> => ({
  ...DEFAULT_THROTTLE,
  ...limits,
});

/** The delay after the last failure once a name has `failures` in the window. */
export function nameDelayMs(failures: number, limits: Required<ThrottleLimits>): number {
  if (failures < limits.slowAfter) return 0;
  return Math.min(1000 * 2 ** (failures - limits.slowAfter), limits.maxDelayMs);
}

const keysOf = (name: string, address: string) => {
  const lower = name.toLowerCase();
  return { pair: `p:${lower}\n${address}`, address: `a:${address}`, name: `n:${lower}` };
};

export class LoginThrottle implements Throttle {
  private readonly failures = new Map<string, number[]>();
  private readonly limits: Required<ThrottleLimits>;

  constructor(
    limits?: ThrottleLimits,
    private readonly clock: () => number = () => Date.now(),
  ) {
    this.limits = limitsOf(limits);
  }

  check(name: string, address: string): ThrottleState {
    const keys = keysOf(name, address);
    const blocked = Math.max(
      this.wait(keys.pair, this.limits.perPair),
      this.wait(keys.address, this.limits.perAddress),
    );
    const named = this.recent(keys.name);
    const last = named.length ? named[named.length - 1] : 0;
    const slowed = Math.max(0, last + nameDelayMs(named.length, this.limits) - this.clock());
    return { blocked: Math.ceil(blocked / 1000), slowed: Math.ceil(slowed / 1000) };
  }

  fail(name: string, address: string): void {
    const keys = keysOf(name, address);
    for (const key of [keys.pair, keys.address, keys.name]) {
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

  succeed(name: string, address: string): void {
    this.failures.delete(keysOf(name, address).pair);
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
// KEYS: pair, address, name; ARGV: window, perPair, perAddress, slowAfter, maxDelay. Answers
// {blocked, slowed} in milliseconds (nameDelayMs's rule for the name).
const CHECK = `${NOW}
local window = tonumber(ARGV[1])
local blocked = 0
for i = 1, 2 do
  local limit = tonumber(ARGV[i + 1])
  local recent = redis.call('ZRANGEBYSCORE', KEYS[i], '(' .. (now - window), '+inf', 'WITHSCORES')
  local n = #recent / 2
  if n >= limit then
    blocked = math.max(blocked, tonumber(recent[(n - limit) * 2 + 2]) + window - now)
  end
end
local slowed = 0
local n = redis.call('ZCOUNT', KEYS[3], '(' .. (now - window), '+inf')
local after = tonumber(ARGV[4])
if n >= after then
  local last = redis.call('ZREVRANGEBYSCORE', KEYS[3], '+inf', '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
  local delay = math.min(1000 * 2 ^ (n - after), tonumber(ARGV[5]))
  slowed = math.max(0, tonumber(last[2]) + delay - now)
end
return {math.floor(blocked), math.floor(slowed)}`;

interface ThrottleScripts {
  depotLoginFail(
    pairKey: string,
    addressKey: string,
    nameKey: string,
    windowMs: number,
    unique: string,
  ): Promise<unknown>;
  depotLoginCheck(
    pairKey: string,
    addressKey: string,
    nameKey: string,
    windowMs: number,
    perPair: number,
    perAddress: number,
    slowAfter: number,
    maxDelayMs: number,
  ): Promise<[number, number]>;
}

/**
 * The throttle shared by every process through Redis. While Redis cannot be reached, this process
 * counts alone (LoginThrottle) rather than refuse every sign-in or let every attempt through.
 */
export class RedisLoginThrottle implements Throttle {
  private readonly local: LoginThrottle;
  private readonly scripts: ThrottleScripts;
  private readonly limits: Required<ThrottleLimits>;

  constructor(
    private readonly shared: Shared,
    limits?: ThrottleLimits,
  ) {
    this.limits = limitsOf(limits);
    this.local = new LoginThrottle(this.limits);
    shared.redis.defineCommand('depotLoginFail', { numberOfKeys: 3, lua: FAIL });
    shared.redis.defineCommand('depotLoginCheck', { numberOfKeys: 3, lua: CHECK });
    this.scripts = shared.redis as unknown as ThrottleScripts;
  }

  private keys(name: string, address: string) {
    const keys = keysOf(name, address);
    const prefix = `${this.shared.prefix}login:`;
    return [`${prefix}${keys.pair}`, `${prefix}${keys.address}`, `${prefix}${keys.name}`] as const;
  }

  async check(name: string, address: string): Promise<ThrottleState> {
    const { perPair, perAddress, windowMs, slowAfter, maxDelayMs } = this.limits;
    try {
      const [blocked, slowed] = await this.scripts.depotLoginCheck(
        ...this.keys(name, address),
        windowMs,
        perPair,
        perAddress,
        slowAfter,
        maxDelayMs,
      );
      return { blocked: Math.ceil(Number(blocked) / 1000), slowed: Math.ceil(Number(slowed) / 1000) };
    } catch {
      return this.local.check(name, address);
    }
  }

  async fail(name: string, address: string): Promise<void> {
    this.local.fail(name, address);
    const unique = `-${randomBytes(6).toString('hex')}`;
    await this.scripts.depotLoginFail(...this.keys(name, address), this.limits.windowMs, unique).catch(() => {});
  }

  async succeed(name: string, address: string): Promise<void> {
    this.local.succeed(name, address);
    await this.shared.redis.del(this.keys(name, address)[0]).catch(() => {});
  }
}
