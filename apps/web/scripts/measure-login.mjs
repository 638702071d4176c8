// Measures what the sign-in page costs: every script the browser fetches for it, gzip level 9, and
// every request the page makes (the page, scripts, styles, fonts, pictures, API calls).
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
const requests = [];
const reading = [];
page.on('request', (request) => requests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`));
page.on('response', (response) => {
  if (!response.url().endsWith('.js')) return;
  reading.push(
    response.body().then(
      (body) => {
        const size = { raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length };
        scripts.set(new URL(response.url()).pathname, size);
      },
      () => undefined,
    ),
  );
});
await page.goto(base + path, { waitUntil: 'networkidle' });
await page.waitForTimeout(500);
await Promise.all(reading);
await browser.close();

const kB = (n) => `${(n / 1024).toFixed(1)} kB`;
let raw = 0;
let gzip = 0;
for (const [file, size] of [...scripts].sort((a, b) => b[1].gzip - a[1].gzip)) {
  raw += size.raw;
  gzip += size.gzip;
  console.log(kB(size.gzip).padStart(10), file);
}
if (process.argv.includes('--requests')) for (const request of requests) console.log(`  ${request}`);
console.log(
  `${scripts.size} scripts for ${path}: ${kB(gzip)} gzip (${kB(raw)} raw); ${requests.length} requests in all`,
);
