import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../kit/redis.ts';
import { ADMIN_PASSWORD, TEST_REDIS_URL, testRedisPrefix, useTestApp } from '../../test/harness.ts';
import { DEFAULT_THROTTLE, LoginThrottle, RedisLoginThrottle } from './login-throttle.ts';

describe('LoginThrottle', () => {
  it('blocks a name after its limit of failures until the oldest leaves the window', () => {
    let clock = 0;
    const throttle = new LoginThrottle({ perName: 3, perAddress: 100, windowMs: 60_000 }, () => clock);
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfter('Dara', '10.0.0.1')).toBe(0);
      throttle.fail('Dara', '10.0.0.1');
      clock += 1000;
    }
    expect(throttle.retryAfter('dara', '10.0.0.2')).toBe(57);
    clock = 60_001;
    expect(throttle.retryAfter('dara', '10.0.0.2')).toBe(0);
  });

  it('blocks an address that tries many names, and forgets a name when its owner signs in', () => {
    const throttle = new LoginThrottle({ perName: 2, perAddress: 3, windowMs: 60_000 }, () => 0);
    throttle.fail('a', 'ip');
    throttle.fail('b', 'ip');
    throttle.fail('c', 'ip');
    expect(throttle.retryAfter('d', 'ip')).toBe(60);
    expect(throttle.retryAfter('d', 'other-ip')).toBe(0);
    throttle.fail('e', 'x');
    throttle.fail('e', 'y');
    expect(throttle.retryAfter('e', 'z')).toBe(60);
    throttle.succeed('e');
    expect(throttle.retryAfter('e', 'z')).toBe(0);
  });
});

describe('throttled sign-in', () => {
  const ctx = useTestApp({ throttle: { perName: 3, perAddress: 50, windowMs: 60_000 } });

  it('answers 429 with Retry-After once a name has failed too often, even with the right password', async () => {
    const attempt = (password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'x-localization': 'en' },
        payload: { name: 'admin', password },
      });
    for (let i = 0; i < 3; i++) expect((await attempt('wrong-password')).statusCode).toBe(401);
    const blocked = await attempt(ADMIN_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    const retry = Number(blocked.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(blocked.json()).toEqual({
      status: 'error',
      message: `Too many failed sign-in attempts. Try again in ${retry} seconds.`,
    });
  });
});

describe('RedisLoginThrottle', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await connectRedis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await redis?.quit();
  });

  it('counts the failures of every process together, and forgets a name when its owner signs in', async () => {
    const shared = { redis, prefix: testRedisPrefix() };
    const limits = { perName: 4, perAddress: 100, windowMs: 60_000 };
    // two processes: each sees two failures of its own, and the throttle counts four
    const [one, two] = [new RedisLoginThrottle(shared, limits), new RedisLoginThrottle(shared, limits)];
    for (const throttle of [one, two, one, two]) {
      expect(await throttle.retryAfter('Dara', '10.0.0.1')).toBe(0);
      await throttle.fail('Dara', `10.0.0.${Math.random()}`);
    }
    expect(await one.retryAfter('dara', '10.0.0.9')).toBe(60);
    expect(await two.retryAfter('DARA', '10.0.0.9')).toBe(60);
    expect(await two.retryAfter('sokha', '10.0.0.9')).toBe(0);
    await two.succeed('dara');
    expect(await one.retryAfter('dara', '10.0.0.9')).toBe(0);
  });

  it('counts per address across names', async () => {
    const shared = { redis, prefix: testRedisPrefix() };
    const throttle = new RedisLoginThrottle(shared, { perName: 100, perAddress: 3, windowMs: 60_000 });
    for (const name of ['a', 'b', 'c']) await throttle.fail(name, '10.1.1.1');
    expect(await throttle.retryAfter('d', '10.1.1.1')).toBe(60);
    expect(await throttle.retryAfter('d', '10.1.1.2')).toBe(0);
  });

  it('counts in this process while Redis cannot be reached', async () => {
    const unreachable = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    try {
      const throttle = new RedisLoginThrottle(
        { redis: unreachable, prefix: 'x:' },
        { ...DEFAULT_THROTTLE, perName: 2 },
      );
      await throttle.fail('dara', 'ip');
      expect(await throttle.retryAfter('dara', 'ip')).toBe(0);
      await throttle.fail('dara', 'ip');
      expect(await throttle.retryAfter('dara', 'ip')).toBeGreaterThan(0);
    } finally {
      unreachable.disconnect();
    }
  });
});
