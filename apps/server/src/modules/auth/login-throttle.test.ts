import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { connectRedis } from '../../kit/redis.ts';
import { createUser, freshDatabase, TEST_REDIS_URL, testRedisPrefix, useTestApp } from '../../test/harness.ts';
import { DEFAULT_THROTTLE, LoginThrottle, nameDelayMs, RedisLoginThrottle } from './login-throttle.ts';

describe('LoginThrottle', () => {
  it('refuses a name at one address after its limit, until the oldest failure leaves the window', () => {
    let clock = 0;
    const throttle = new LoginThrottle({ perPair: 3, perAddress: 100, windowMs: 60_000, slowAfter: 100 }, () => clock);
    for (let i = 0; i < 3; i++) {
      expect(throttle.check('Dara', '10.0.0.1')).toEqual({ blocked: 0, slowed: 0 });
      throttle.fail('Dara', '10.0.0.1');
      clock += 1000;
    }
    expect(throttle.check('dara', '10.0.0.1').blocked).toBe(57);
    // another address is not refused for the name
    expect(throttle.check('dara', '10.0.0.2').blocked).toBe(0);
    clock = 60_001;
    expect(throttle.check('dara', '10.0.0.1').blocked).toBe(0);
  });

  it('refuses an address that tries many names, and forgets a name at an address when it signs in', () => {
    const throttle = new LoginThrottle({ perPair: 2, perAddress: 3, windowMs: 60_000 }, () => 0);
    throttle.fail('a', 'ip');
    throttle.fail('b', 'ip');
    throttle.fail('c', 'ip');
    expect(throttle.check('d', 'ip').blocked).toBe(60);
    expect(throttle.check('d', 'other-ip').blocked).toBe(0);
    throttle.fail('e', 'x');
    throttle.fail('e', 'x');
    expect(throttle.check('e', 'x').blocked).toBe(60);
    throttle.succeed('e', 'x');
    expect(throttle.check('e', 'x').blocked).toBe(0);
  });

  it('only slows a name down, by a delay that doubles with each failure up to its ceiling', () => {
    let clock = 0;
    const limits = { perPair: 100, perAddress: 100, windowMs: 15 * 60_000, slowAfter: 3, maxDelayMs: 8000 };
    const throttle = new LoginThrottle(limits, () => clock);
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      throttle.fail('dara', `10.0.0.${i}`);
      const { blocked, slowed } = throttle.check('dara', '10.0.1.1');
      expect(blocked).toBe(0);
      delays.push(slowed);
      clock += slowed * 1000;
    }
    expect(delays).toEqual([0, 0, 1, 2, 4, 8, 8, 8]);
    expect(throttle.check('dara', '10.0.1.1').slowed).toBe(0);
    expect(nameDelayMs(2, { ...DEFAULT_THROTTLE, slowAfter: 3 })).toBe(0);
  });
});

describe('throttled sign-in', () => {
  const ctx = useTestApp();
  afterEach(() => {
    vi.useRealTimers();
  });

  const attempt = (name: string, password: string, address: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: address,
      headers: { 'x-localization': 'en' },
      payload: { name, password },
    });

  /** A minute passes (the name's longest delay): each guess is answered, and all stay in the window. */
  const aMinuteLater = () => vi.setSystemTime(Date.now() + 61_000);

  it('never locks the owner out: ten wrong passwords from elsewhere leave a known address signing in', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const owner = await createUser(ctx.db, { roles: ['administrator'] });
    expect((await attempt(owner.name, owner.password, '10.9.0.2')).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect((await attempt(owner.name, 'wrong-password', '10.9.0.66')).statusCode).toBe(401);
      aMinuteLater();
    }
    // the address the owner signed in from before is never refused the right password
    expect((await attempt(owner.name, owner.password, '10.9.0.2')).statusCode).toBe(200);
    // the guessing address is refused, right password or not (the limit per name and address)
    const guesser = await attempt(owner.name, owner.password, '10.9.0.66');
    expect(guesser.statusCode).toBe(429);
    expect(Number(guesser.headers['retry-after'])).toBeGreaterThan(60);
  });

  it('slows a name down from new addresses with a growing delay, then lets the right password in', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const owner = await createUser(ctx.db, { roles: ['cashier'] });
    for (let i = 0; i < 10; i++) {
      expect((await attempt(owner.name, 'wrong-password', `10.9.1.${i}`)).statusCode).toBe(401);
      aMinuteLater();
    }
    // right after the tenth failure, a new address waits, right password or not
    vi.setSystemTime(Date.now() - 61_000);
    const slowed = await attempt(owner.name, owner.password, '10.9.1.200');
    expect(slowed.statusCode).toBe(429);
    const wait = Number(slowed.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(slowed.json()).toEqual({
      status: 'error',
      message: `Too many failed attempts for this name. Wait ${wait} seconds before trying again.`,
    });
    vi.setSystemTime(Date.now() + wait * 1000);
    expect((await attempt(owner.name, owner.password, '10.9.1.200')).statusCode).toBe(200);
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

  it('counts the failures of every process together, and forgets a name at an address when it signs in', async () => {
    const shared = { redis, prefix: testRedisPrefix() };
    const limits = { perPair: 4, perAddress: 100, windowMs: 60_000, slowAfter: 100 };
    // two processes: each sees two failures of its own, and the throttle counts four
    const [one, two] = [new RedisLoginThrottle(shared, limits), new RedisLoginThrottle(shared, limits)];
    for (const throttle of [one, two, one, two]) {
      expect(await throttle.check('Dara', '10.0.0.1')).toEqual({ blocked: 0, slowed: 0 });
      await throttle.fail('Dara', '10.0.0.1');
    }
    expect((await one.check('dara', '10.0.0.1')).blocked).toBe(60);
    expect((await two.check('DARA', '10.0.0.1')).blocked).toBe(60);
    expect((await two.check('dara', '10.0.0.9')).blocked).toBe(0);
    expect((await two.check('sokha', '10.0.0.1')).blocked).toBe(0);
    await two.succeed('dara', '10.0.0.1');
    expect((await one.check('dara', '10.0.0.1')).blocked).toBe(0);
  });

  it('counts per address across names', async () => {
    const shared = { redis, prefix: testRedisPrefix() };
    const throttle = new RedisLoginThrottle(shared, { perPair: 100, perAddress: 3, windowMs: 60_000 });
    for (const name of ['a', 'b', 'c']) await throttle.fail(name, '10.1.1.1');
    expect((await throttle.check('d', '10.1.1.1')).blocked).toBe(60);
    expect((await throttle.check('d', '10.1.1.2')).blocked).toBe(0);
  });

  it('slows a name down across processes by the same growing delay', async () => {
    const shared = { redis, prefix: testRedisPrefix() };
    const limits = { perPair: 100, perAddress: 100, windowMs: 60_000, slowAfter: 2, maxDelayMs: 4000 };
    const [one, two] = [new RedisLoginThrottle(shared, limits), new RedisLoginThrottle(shared, limits)];
    await one.fail('dara', '10.2.0.1');
    expect((await two.check('dara', '10.2.0.9')).slowed).toBe(0);
    await two.fail('dara', '10.2.0.2');
    expect((await one.check('dara', '10.2.0.9')).slowed).toBe(1);
    for (let i = 3; i < 8; i++) await one.fail('dara', `10.2.0.${i}`);
    const state = await two.check('dara', '10.2.0.9');
    expect(state.blocked).toBe(0);
    expect(state.slowed).toBe(4);
  });

  it('counts in this process while Redis cannot be reached', async () => {
    const unreachable = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    try {
      const throttle = new RedisLoginThrottle(
        { redis: unreachable, prefix: 'x:' },
        { ...DEFAULT_THROTTLE, perPair: 2 },
      );
      await throttle.fail('dara', 'ip');
      expect((await throttle.check('dara', 'ip')).blocked).toBe(0);
      await throttle.fail('dara', 'ip');
      expect((await throttle.check('dara', 'ip')).blocked).toBeGreaterThan(0);
    } finally {
      unreachable.disconnect();
    }
  });
});

// TRUST_PROXY=true as it was documented (now one proxy in front, not every hop), and the proxy's network
describe.each(['true', '10.6.0.0/24'])('behind a reverse proxy (TRUST_PROXY=%s)', (trustProxy) => {
  let database: Database;
  let app: FastifyInstance;
  let uploadsDir: string;
  beforeAll(async () => {
    database = await freshDatabase();
    uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-uploads-'));
    const config = loadConfig({ TRUST_PROXY: trustProxy });
    app = await buildApp({ db: database.db, uploadsDir, trustProxy: config.TRUST_PROXY });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (uploadsDir) fs.rmSync(uploadsDir, { recursive: true, force: true });
  });

  it('counts the address the proxy saw, whatever the client puts first in X-Forwarded-For', async () => {
    const attempt = (i: number) =>
      app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: '10.6.0.1',
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.5` },
        payload: { name: `nobody${i}`, password: 'wrong-password' },
      });
    for (let i = 0; i < DEFAULT_THROTTLE.perAddress; i++) expect((await attempt(i)).statusCode).toBe(401);
    const failed = await database.db
      .selectFrom('audit_log')
      .select('ip')
      .distinct()
      .where('action', '=', 'auth.login_failed')
      .execute();
    expect(failed).toEqual([{ ip: '203.0.113.5' }]);
    expect((await attempt(99)).statusCode).toBe(429);
  });
});
