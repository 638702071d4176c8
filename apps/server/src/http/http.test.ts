import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ADMIN_PASSWORD, useTestApp } from '../test/harness.ts';

// A built web app in miniature: what `vite build` leaves in dist/.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-dist-'));
fs.mkdirSync(path.join(dist, 'assets'));
fs.mkdirSync(path.join(dist, 'builds'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html lang="km"><head><title>Depot</title></head><body><div id="root"></div></body></html>',
);
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync('console.log("app")'));
fs.writeFileSync(path.join(dist, 'builds', 'latest.json'), '{"id":"b1","timestamp":1}');
// the till's service worker and the app's manifest (vite-plugin-pwa)
fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"Depot","start_url":"/pos"}');
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

const ctx = useTestApp({ webDist: dist });
let base: string;
beforeAll(async () => {
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

describe('over a real port', () => {
  it('answers health, signs in and reads /api/me with the bearer token', async () => {
    expect(await (await fetch(`${base}/api/health`)).json()).toEqual({ status: 'ok' });
    const loginRes = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-localization': 'kh' },
      body: JSON.stringify({ name: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(loginRes.status).toBe(200);
    expect(loginRes.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const { token } = (await loginRes.json()) as { token: string };
    const me = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await me.json()) as { data: { name: string } }).data.name).toBe('admin');
  });

  it('answers an unknown API path with a localized 404 in JSON', async () => {
    const res = await fetch(`${base}/api/nothing-here`, { headers: { 'x-localization': 'kh' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'រកមិនឃើញ' });
  });

  it('answers malformed JSON with a localized 400 and no parser detail', async () => {
    const res = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-localization': 'en' },
      body: '{"name": "admin", ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'The request could not be read.' });
  });

  it('serves the public settings the login page needs', async () => {
    const res = await fetch(`${base}/api/settings/public`);
    const { data } = (await res.json()) as { data: unknown };
    expect(data).toMatchObject({ system_title: 'Sales Management System', primary_color: '#15803d', dark_mode: true });
  });

  it('serves the OpenAPI description at /api/docs', async () => {
    const res = await fetch(`${base}/api/docs/json`);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/login', '/api/refresh', '/api/me']));
  });
});

describe('the web app', () => {
  it('serves index.html for a screen with the run-time configuration and the configured title', async () => {
    await ctx.db
      .updateTable('settings')
      .set({ value: JSON.stringify('ឃ្លាំង <Depot>') })
      .where('key', '=', 'system_title_kh')
      .execute();
    await ctx.db
      .updateTable('settings')
      .set({ value: JSON.stringify('Depot & Co') })
      .where('key', '=', 'system_title')
      .execute();
    // English pages carry the English title, Khmer pages the Khmer one
    expect(await (await fetch(`${base}/en/login`)).text()).toContain('<title>Depot &amp; Co</title>');
    const res = await fetch(`${base}/login`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain('<html lang="km">');
    expect(html).toContain('<title>ឃ្លាំង &lt;Depot&gt;</title>');
    // the broadcaster settings: Depot's own endpoint on this host, with the generated key, never the secret
    // the injected script carries the nonce the answer's Content-Security-Policy allows
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeTruthy();
    // (a base64 nonce may hold + and /: taken literally, not as a pattern)
    const literal = (nonce ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const injected = new RegExp(`<script nonce="${literal}">window\\.__DEPOT__=(.*?)<\\/script>`).exec(html)?.[1] ?? '';
    const secrets = await ctx.db.selectFrom('app_secrets').select(['name', 'value']).execute();
    const stored = Object.fromEntries(secrets.map((row) => [row.name, row.value]));
    expect(JSON.parse(injected)).toEqual({
      apiBase: '/api/',
      broadcasting: {
        broadcaster: 'reverb',
        key: stored['broadcasting.app_key'],
        host: null,
        port: null,
        scheme: null,
        cluster: null,
        authEndpoint: '/broadcasting/auth',
        userAuthEndpoint: '/broadcasting/user-auth',
      },
    });
    expect(stored['broadcasting.app_secret']).toMatch(/^[0-9a-f]{64}$/);
    expect(html).not.toContain(stored['broadcasting.app_secret']);

    const en = await fetch(`${base}/en/dashboards`);
    expect(en.status).toBe(200);
    expect(await en.text()).toContain('<html lang="en">');
  });

  it('answers a path that is no screen with the app and status 404, so it shows "Page Not Found"', async () => {
    const res = await fetch(`${base}/en/no-such-page`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('<div id="root"></div>');
  });

  it('serves hashed assets for a year and the build id uncached', async () => {
    const asset = await fetch(`${base}/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const compressed = await fetch(`${base}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(await compressed.text()).toBe('console.log("app")');
    const build = await fetch(`${base}/builds/latest.json`);
    expect(await build.json()).toEqual({ id: 'b1', timestamp: 1 });
    expect(build.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves the service worker and the manifest from the same origin, uncached, under the CSP', async () => {
    // uncached: a new build's worker is found at the next visit; a script, as a worker must be
    const worker = await fetch(`${base}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    const csp = worker.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    const manifest = await fetch(`${base}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toMatch(/manifest\+json|application\/json/);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(await manifest.json()).toMatchObject({ start_url: '/pos' });
  });
});

describe('a failure inside a handler', () => {
  it('is logged and answered with a localized message and the request id, never the error', async () => {
    const app = await buildApp({ db: ctx.db, uploadsDir: ctx.uploadsDir });
    app.get('/api/boom', { config: { access: 'public' } }, async () => {
      throw new Error('SQLITE_CORRUPT: secret detail at /srv/depot');
    });
    const res = await app.inject({ method: 'GET', url: '/api/boom', headers: { 'x-localization': 'en' } });
    await app.close();
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toEqual({ message: 'An error occurred. Please try again.', request_id: res.headers['x-request-id'] });
    expect(res.body).not.toContain('secret');
  });
});
