import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder (apps/server): the nearest folder above this module holding its
 * package.json, found the same way from the source (src/paths.ts) and from the built bundle
 * (dist/…), so the shipped assets and the web build are found wherever this code was put.
 */
function serverRoot(): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === '@depot/server') return dir;
    if (path.dirname(dir) === dir) throw new Error(`apps/server/package.json not found above ${start}`);
  }
}

export const SERVER_ROOT = serverRoot();
export const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');
