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

  it('stops start-up with a message that names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', DEPOT_ADMIN_PASSWORD: 'short' })).toThrow(
      /PORT[\s\S]*DATABASE_URL: must start with sqlite: or postgres:\/\/[\s\S]*DEPOT_ADMIN_PASSWORD: must be at least 8/,
    );
  });
});
