// Measures what the sign-in page costs: every script the browser fetches for it, gzip level 9.
// Run against a built app: `node apps/web/scripts/measure-login.mjs http://localhost:3311 /login`
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

const [base = 'http://localhost:3000', path = '/login'] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
const page = await browser.newPage({ locale: 'km-KH' });
const scripts = new Map();
page.on('response', async (response) => {
  if (!response.url().endsWith('.js')) return;
  const body = await response.body().catch(() => null);
  if (body)
    scripts.set(new URL(response.url()).pathname, { raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length });
});
await page.goto(base + path, { waitUntil: 'networkidle' });
await page.waitForTimeout(500);
await browser.close();

const kB = (n) => `${(n / 1024).toFixed(1)} kB`;
let raw = 0;
let gzip = 0;
for (const [file, size] of [...scripts].sort((a, b) => b[1].gzip - a[1].gzip)) {
  raw += size.raw;
  gzip += size.gzip;
  console.log(kB(size.gzip).padStart(10), file);
}
console.log(`${scripts.size} scripts for ${path}: ${kB(gzip)} gzip (${kB(raw)} raw)`);
