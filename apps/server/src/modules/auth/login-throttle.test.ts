import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, useTestApp } from '../../test/harness.ts';
import { LoginThrottle } from './login-throttle.ts';

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
