import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite:./data/depot.sqlite',
      TRUST_PROXY: false,
    });
    expect(config.DEPOT_ADMIN_PASSWORD).toBeUndefined();
  });

  it('trusts a number of proxies or their addresses, never every hop (TRUST_PROXY=true is one proxy)', () => {
    const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.5, 10.1.0.0/16,loopback,::1')).toEqual(['10.0.0.5', '10.1.0.0/16', 'loopback', '::1']);
    for (const bad of ['everything', '10.0.0.0/40', '10.0.0', '11', '-1', '10.0.0.5,']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /TRUST_PROXY: must be false, the number of proxies in front of Depot/,
      );
    }
  });

  it('ends sign-ins after 30 days unless told, and checks the number of days', () => {
    expect(loadConfig({}).DEPOT_SESSION_MAX_DAYS).toBe(30);
    expect(loadConfig({ DEPOT_SESSION_MAX_DAYS: '7' }).DEPOT_SESSION_MAX_DAYS).toBe(7);
    expect(() => loadConfig({ DEPOT_SESSION_MAX_DAYS: '0' })).toThrow(/DEPOT_SESSION_MAX_DAYS/);
    expect(() => loadConfig({ DEPOT_SESSION_MAX_DAYS: 'a month' })).toThrow(/DEPOT_SESSION_MAX_DAYS/);
  });

  it('stops start-up with a message that names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', DEPOT_ADMIN_PASSWORD: 'short' })).toThrow(
      /PORT[\s\S]*DATABASE_URL: must start with sqlite: or postgres:\/\/[\s\S]*DEPOT_ADMIN_PASSWORD: must be at least 8/,
    );
  });

  it('checks the scheduled backups: off by default, a time of day or an interval, a folder for them', () => {
    expect(loadConfig({}).DEPOT_BACKUP_DIR).toBeUndefined();
    expect(loadConfig({ DEPOT_BACKUP_DIR: '/srv/backups' })).toMatchObject({ DEPOT_BACKUP_KEEP: 14 });
    expect(loadConfig({ DEPOT_BACKUP_DIR: '/b', DEPOT_BACKUP_AT: '02:30', DEPOT_BACKUP_KEEP: '7' })).toMatchObject({
      DEPOT_BACKUP_AT: '02:30',
      DEPOT_BACKUP_KEEP: 7,
    });
    expect(() => loadConfig({ DEPOT_BACKUP_DIR: '/b', DEPOT_BACKUP_AT: '25:00' })).toThrow(
      /DEPOT_BACKUP_AT: must be a time of day, HH:MM/,
    );
    expect(() =>
      loadConfig({ DEPOT_BACKUP_DIR: '/b', DEPOT_BACKUP_AT: '02:30', DEPOT_BACKUP_INTERVAL_HOURS: '6' }),
    ).toThrow(/DEPOT_BACKUP_AT: set either DEPOT_BACKUP_AT or DEPOT_BACKUP_INTERVAL_HOURS, not both/);
    expect(() => loadConfig({ DEPOT_BACKUP_INTERVAL_HOURS: '6' })).toThrow(
      /DEPOT_BACKUP_DIR: is needed for scheduled backups/,
    );
    expect(() => loadConfig({ DEPOT_BACKUP_DIR: '/b', DEPOT_BACKUP_KEEP: '0' })).toThrow(/DEPOT_BACKUP_KEEP/);
  });

  it('runs real time embedded unless told, and names what a driver lacks', () => {
    expect(loadConfig({})).toMatchObject({ BROADCAST_DRIVER: 'embedded', REALTIME_ACTIVITY_TIMEOUT: 120 });
    expect(() => loadConfig({ BROADCAST_DRIVER: 'redis' })).toThrow(/REDIS_URL: required when BROADCAST_DRIVER=redis/);
    expect(() => loadConfig({ BROADCAST_DRIVER: 'pusher', PUSHER_APP_KEY: 'k' })).toThrow(
      /PUSHER_APP_ID: required when BROADCAST_DRIVER=pusher[\s\S]*PUSHER_APP_SECRET: required/,
    );
    expect(() => loadConfig({ BROADCAST_DRIVER: 'socket.io' })).toThrow(/BROADCAST_DRIVER/);
    expect(
      loadConfig({
        BROADCAST_DRIVER: 'pusher',
        PUSHER_APP_ID: '1',
        PUSHER_APP_KEY: 'key',
        PUSHER_APP_SECRET: 'a-secret-of-16-chars',
        PUSHER_PORT: '6001',
      }),
    ).toMatchObject({ PUSHER_PORT: 6001, PUSHER_SCHEME: 'https', PUSHER_CLUSTER: 'mt1' });
  });

  it('runs one server process unless told, and more only with what several processes share', () => {
    expect(loadConfig({}).DEPOT_WORKERS).toBe(1);
    expect(() => loadConfig({ DEPOT_WORKERS: '2' })).toThrow(
      /REDIS_URL: required when DEPOT_WORKERS is more than 1[\s\S]*BROADCAST_DRIVER: must be redis or pusher/,
    );
    expect(() => loadConfig({ DEPOT_WORKERS: '0' })).toThrow(/DEPOT_WORKERS/);
    const redis = { REDIS_URL: 'redis://127.0.0.1:6379', BROADCAST_DRIVER: 'redis' };
    expect(loadConfig({ ...redis, DEPOT_WORKERS: '2' }).DEPOT_WORKERS).toBe(2);
  });
});
