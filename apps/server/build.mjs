/**
 * Builds the server ahead of time, so a production start runs plain JavaScript and compiles
 * nothing: apps/server/dist/main.js (the server) and dist/cli.js (the operator's commands), each
 * one ES module with its source map. Depot's own code (and @depot/contracts, which is TypeScript
 * source) is bundled; every installed package stays external, loaded from node_modules as it is
 * during development: native modules (better-sqlite3, @node-rs/argon2, sharp) cannot be bundled,
 * and others read files beside their code (swagger-ui's pages, playwright-core's scripts).
 *
 *   npm run build -w @depot/server
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const workspace = (name) => name.startsWith('@depot/');
const external = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((n) => !workspace(n));

const outdir = process.env.DEPOT_SERVER_DIST ?? path.join(root, 'dist');
fs.rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
await build({
  entryPoints: { main: path.join(root, 'src/main.ts'), cli: path.join(root, 'src/cli.ts') },
  outdir,
  bundle: true,
  // both entry points share their modules: one copy of each, loaded once
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // a package named here is external with its subpaths (kysely/migration, …)
  external,
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log(`server built in ${outdir} (${Math.round(performance.now() - started)} ms)`);
