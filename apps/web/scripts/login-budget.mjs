// The sign-in page's budget (issue 34), checked on the built app after `npm run build` (npm test
// runs it): the scripts and stylesheets a browser fetches before the page shows, i.e. what
// dist/signin.html names and every script they import statically (not what is imported later, on
// typing or after sign-in), gzip level 9 as `measure-login.mjs` counts them in Chromium.
// `node apps/web/scripts/login-budget.mjs` fails, saying what it loads, when the page outgrows it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const BUDGET = { scriptsGzipKb: 150, requests: 10 };
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const page = path.join(dist, 'signin.html');
if (!fs.existsSync(page)) {
  console.error(`${page} is missing: run \`npm run build\` first (vite.config.ts builds signin.html)`);
  process.exit(1);
}
const html = fs.readFileSync(page, 'utf8');
const named = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
  (m) => m[1],
);

/** A script's static imports (`import … from "./x.js"`, `import "./x.js"`), not `import("./x.js")`. */
function staticImports(file) {
  const code = fs.readFileSync(path.join(dist, file), 'utf8');
  const found = [...code.matchAll(/\b(?:from\s*|import\s*)"\.\/([^"]+\.js)"/g)].map((m) => m[1]);
  return found.map((name) => path.posix.join(path.posix.dirname(file), name));
}

const loaded = new Set();
const queue = [...named];
while (queue.length > 0) {
  const file = queue.shift();
  if (loaded.has(file)) continue;
  loaded.add(file);
  if (file.endsWith('.js')) queue.push(...staticImports(file));
}

const kB = (n) => n / 1024;
let scripts = 0;
for (const file of loaded) {
  const gzip = zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  if (file.endsWith('.js')) scripts += gzip;
  console.log(`${kB(gzip).toFixed(1).padStart(8)} kB  ${file}`);
}
const summary = `sign-in page: ${loaded.size} requests for scripts and styles, ${kB(scripts).toFixed(1)} kB of scripts (gzip)`;
const over = [];
if (kB(scripts) > BUDGET.scriptsGzipKb) over.push(`scripts over ${BUDGET.scriptsGzipKb} kB gzip`);
if (loaded.size > BUDGET.requests) over.push(`more than ${BUDGET.requests} requests`);
if (over.length > 0) {
  console.error(`${summary}: ${over.join(', ')} (issue 34). What it imports before it shows is listed above.`);
  process.exit(1);
}
console.log(`${summary}: within ${BUDGET.scriptsGzipKb} kB and ${BUDGET.requests} requests`);
