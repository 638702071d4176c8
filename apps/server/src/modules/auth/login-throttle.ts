/**
 * Failed sign-ins counted per name and per address in a sliding window. Written here rather than
 * with @fastify/rate-limit because that counts every request under one key, and this must count
 * only failures, under two keys, and forget a name's failures when its owner signs in.
 * In memory: one process holds its own counts.
 */
export interface ThrottleLimits {
  perName: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perName: 10, perAddress: 30, windowMs: 15 * 60_000 };
const MAX_KEYS = 50_000;

export class LoginThrottle {
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
