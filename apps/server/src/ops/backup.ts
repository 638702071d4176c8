import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { createDatabase, type Database, type Dialect, dialectOf } from '../db/database.ts';
import { MIGRATION_NAMES, migrationLevel } from '../db/migrate.ts';
import { SERVER_ROOT } from '../paths.ts';

/**
 * Backups: one folder per backup, named by its time (depot-backup-2026-11-24T02-30-00Z), holding
 * the database (an SQLite file, or PostgreSQL's custom-format dump), the uploaded pictures, and
 * manifest.json (Depot's version, the migration level, the time, the kind of database, each file's
 * size and SHA-256). A backup is written under a `.partial` name and renamed when whole, so a
 * folder with the plain name is always complete.
 */

export const BACKUP_FORMAT = 'depot-backup/1';
const PREFIX = 'depot-backup-';
const PARTIAL = '.partial';
const MANIFEST = 'manifest.json';
const run = promisify(execFile);

export interface BackupFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  depot_version: string;
  /** The last migration the database had run: a Depot that does not know it cannot restore it. */
  migration: string;
  created_at: string;
  database: { kind: Dialect; file: string; server_version?: string; dump_tool?: string };
  files: BackupFile[];
}

/** An operator's mistake or a refusal: the CLI prints the message alone. */
export class BackupError extends Error {}

export interface BackupOptions {
  /** The folder that receives the backup's folder. */
  dir: string;
  uploadsDir: string;
  /**
   * SQLite pages copied per step of the online backup. The server's own connection copies in
   * small steps, letting requests run between them (its writes reach the copy as they happen);
   * a separate process (the CLI) copies in one step, because another connection's write restarts
   * a stepped copy, and in WAL mode that one long read blocks no writer.
   */
  sqliteStepPages?: number;
}

export function depotVersion(): string {
  return JSON.parse(fs.readFileSync(path.join(SERVER_ROOT, 'package.json'), 'utf8')).version;
}

function stamp(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
}

/** A backup's folders: only the user Depot runs as may open them. */
const PRIVATE_DIR = 0o700;
/** A backup's files: only the user Depot runs as may read them. */
const PRIVATE_FILE = 0o600;

/**
 * Takes every permission but the owner's from `root` and all it holds (folders 0700, files 0600).
 * A backup holds the real-time app secret, password hashes and staff records: whoever else can
 * log in to the machine must not read them, whatever the umask was when they were written.
 */
function tighten(root: string): void {
  fs.chmodSync(root, PRIVATE_DIR);
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
    if (entry.isSymbolicLink()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) fs.chmodSync(file, PRIVATE_DIR);
    else if (entry.isFile()) fs.chmodSync(file, PRIVATE_FILE);
  }
}

/**
 * The backups folder, made 0700 (or tightened to it), and the backups an older Depot left in it
 * with the default modes tightened too: each write leaves the whole folder private.
 */
function privateBackupsFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  fs.chmodSync(dir, PRIVATE_DIR);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.name.startsWith(PREFIX)) continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) tighten(file);
    else if (entry.isFile()) fs.chmodSync(file, PRIVATE_FILE);
  }
}

/** Makes a backup while Depot runs; returns its folder and manifest. */
export async function createBackup(
  database: Database,
  options: BackupOptions,
): Promise<{ path: string; manifest: BackupManifest }> {
  const at = new Date();
  privateBackupsFolder(options.dir);
  const final = path.join(options.dir, `${PREFIX}${stamp(at)}`);
  if (fs.existsSync(final)) throw new BackupError(`${final} already exists`);
  const partial = `${final}${PARTIAL}`;
  fs.rmSync(partial, { recursive: true, force: true });
  // 0700 from the start (a umask only takes bits away): nothing in it is reachable while written
  fs.mkdirSync(partial, { mode: PRIVATE_DIR });
  fs.mkdirSync(path.join(partial, 'uploads'), { mode: PRIVATE_DIR });
  try {
    // Pictures are files named once and never rewritten, written before the database names them.
    // Copied before the database and again after it, the copy holds every picture the database
    // copy names (those added meanwhile come in the second pass).
    const uploads = path.join(partial, 'uploads');
    copyNewFiles(options.uploadsDir, uploads);
    const db =
      database.dialect === 'sqlite'
        ? await backupSqlite(database, path.join(partial, 'database.sqlite'), options.sqliteStepPages ?? 100)
        : await dumpPostgres(database, path.join(partial, 'database.pgdump'));
    copyNewFiles(options.uploadsDir, uploads);

    const files = [db.file, ...listFiles(uploads).map((f) => path.join('uploads', f))].map((file) =>
      describe(partial, file),
    );
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      depot_version: depotVersion(),
      migration: db.migration,
      created_at: at.toISOString(),
      database: { kind: database.dialect, file: db.file, ...db.details },
      files,
    };
    fs.writeFileSync(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: PRIVATE_FILE,
    });
    // the database file (written by SQLite or pg_dump) and the pictures' copies came with the umask's modes
    tighten(partial);
    fs.renameSync(partial, final);
    return { path: final, manifest };
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

async function backupSqlite(database: Database, target: string, stepPages: number) {
  const source = database.sqlite;
  if (!source) throw new Error('not an SQLite database');
  // better-sqlite3 takes at most 2^31-1 pages a step: that many is "all of it at once". Sales go on
  // between the steps and the database grows: a step that leaves more to copy than the one before
  // doubles the next, so the copy catches up with a busy depot instead of chasing it for ever.
  let step = Math.min(stepPages, 0x7fffffff);
  let left = Number.POSITIVE_INFINITY;
  await source.backup(target, {
    progress: ({ remainingPages }) => {
      if (remainingPages >= left) step = Math.min(step * 2, 0x7fffffff);
      left = remainingPages;
      return step;
    },
  });
  // one self-contained file (the source is in WAL mode, and so would the copy be), checked
  const copy = new SQLite(target);
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy of the database is damaged: ${check}`);
    const migrated = copy.prepare("select 1 from sqlite_master where name = 'kysely_migration'").get();
    const row = migrated
      ? (copy.prepare('select max(name) as name from kysely_migration').get() as { name: string })
      : null;
    if (!row?.name) throw new BackupError('the database is empty (Depot has never started on it): nothing to back up');
    return { file: 'database.sqlite', migration: row.name, details: {} };
  } finally {
    copy.close();
  }
}

/** The URL without its password, and the password for the PGPASSWORD variable (not the command line). */
function pgConnection(url: string) {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** A PostgreSQL client tool's major version, or a clear refusal when it is missing or too old. */
async function pgTool(tool: 'pg_dump' | 'pg_restore', serverMajor: number): Promise<string> {
  let version: string;
  try {
    version = (await run(tool, ['--version'])).stdout.trim();
  } catch {
    throw new BackupError(
      `${tool} was not found. Install PostgreSQL's client tools of the server's version ` +
        `(${serverMajor}), e.g. on Debian: apt-get install postgresql-client-${serverMajor}, and put ${tool} on PATH.`,
    );
  }
  const major = Number(/(\d+)(\.\d+)?/.exec(version)?.[1]);
  if (!(major >= serverMajor)) {
    throw new BackupError(
      `${version} is older than the PostgreSQL server (${serverMajor}): install postgresql-client-${serverMajor} or newer.`,
    );
  }
  return version;
}

async function serverVersion(database: Database) {
  const { rows } = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(database.db);
  const version = rows[0].v;
  return { version, major: Number.parseInt(version, 10) };
}

async function dumpPostgres(database: Database, target: string) {
  const server = await serverVersion(database);
  const tool = await pgTool('pg_dump', server.major);
  const before = await migrationLevel(database.db);
  if (!before) throw new BackupError('the database is empty (Depot has never started on it): nothing to back up');
  const { url, env } = pgConnection(database.url);
  // one snapshot of the whole database; it takes no lock that stops a sale
  try {
    await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${target}`, url], { env });
  } catch (error) {
    throw new BackupError(`pg_dump failed: ${(error as { stderr?: string }).stderr?.trim() || error}`);
  }
  if ((await migrationLevel(database.db)) !== before) {
    throw new BackupError('the database was upgraded while it was being dumped: make the backup again');
  }
  return {
    file: 'database.pgdump',
    migration: before,
    details: { server_version: server.version, dump_tool: tool },
  };
}

/** Files under `dir`, relative to it, with '/' between folders. */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** Copies what `to` lacks or holds in another size (a file copied while it was being written). */
function copyNewFiles(from: string, to: string) {
  for (const file of listFiles(from)) {
    const source = path.join(from, file);
    const target = path.join(to, file);
    let size: number;
    try {
      size = fs.statSync(source).size;
    } catch {
      continue; // removed meanwhile (a picture replaced)
    }
    if (fs.existsSync(target) && fs.statSync(target).size === size) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    try {
      fs.copyFileSync(source, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

function sha256(file: string): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    for (let n = fs.readSync(fd, buffer); n > 0; n = fs.readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

function describe(root: string, file: string): BackupFile {
  const full = path.join(root, file);
  return { path: file.split(path.sep).join('/'), bytes: fs.statSync(full).size, sha256: sha256(full) };
}

/** The backups in `dir`, newest first (complete ones only). */
export function listBackups(dir: string): string[] {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(PREFIX) && !name.endsWith(PARTIAL))
    .filter((name) => fs.existsSync(path.join(dir, name, MANIFEST)))
    .sort()
    .reverse()
    .map((name) => path.join(dir, name));
}

/** The time of the newest complete backup in `dir`, if any. */
export function newestBackupAt(dir: string): Date | undefined {
  const [newest] = listBackups(dir);
  if (!newest) return undefined;
  return new Date(readManifest(newest).created_at);
}

/** Keeps the newest `keep` backups of `dir` and removes the others; returns what it removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  const removed = listBackups(dir).slice(keep);
  for (const old of removed) fs.rmSync(old, { recursive: true, force: true });
  return removed;
}

function readManifest(from: string): BackupManifest {
  const file = path.join(from, MANIFEST);
  if (!fs.existsSync(file)) throw new BackupError(`${from} is not a Depot backup: it has no ${MANIFEST}`);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) {
    throw new BackupError(`${from} is in a format this Depot does not read (${manifest.format})`);
  }
  return manifest;
}

/**
 * Reads a backup's manifest and checks it whole: every file's size and checksum, and a migration
 * level this code knows (a backup made by a newer Depot is refused).
 */
export function verifyBackup(from: string): BackupManifest {
  const manifest = readManifest(from);
  for (const file of manifest.files) {
    const full = path.join(from, file.path);
    if (!fs.existsSync(full)) throw new BackupError(`the backup is incomplete: ${file.path} is missing`);
    const found = describe(from, file.path);
    if (found.bytes !== file.bytes || found.sha256 !== file.sha256) {
      throw new BackupError(`the backup is damaged: ${file.path} does not match its checksum`);
    }
  }
  if (!MIGRATION_NAMES.includes(manifest.migration)) {
    throw new BackupError(
      `this backup was made by a newer Depot (version ${manifest.depot_version}, migration ${manifest.migration}); ` +
        `this one (version ${depotVersion()}) knows migrations up to ${MIGRATION_NAMES.at(-1)}. ` +
        'Upgrade Depot, then restore it.',
    );
  }
  return manifest;
}

export interface RestoreTarget {
  databaseUrl: string;
  uploadsDir: string;
  /** Replace what the target holds (SQLite: the old file and pictures are kept aside, renamed). */
  force?: boolean;
}

/**
 * Brings a backup back into an empty database and pictures folder; refuses a non-empty one unless
 * `force`. The caller migrates forward afterwards (a backup older than the code).
 */
export async function restoreBackup(
  from: string,
  target: RestoreTarget,
): Promise<{ manifest: BackupManifest; setAside: string[] }> {
  const manifest = verifyBackup(from);
  const kind = dialectOf(target.databaseUrl);
  if (manifest.database.kind !== kind) {
    throw new BackupError(`this is a backup of a ${manifest.database.kind} database; DATABASE_URL names a ${kind} one`);
  }
  const setAside: string[] = [];
  const aside = (file: string) => {
    const moved = `${file}.before-restore-${stamp(new Date())}`;
    fs.renameSync(file, moved);
    setAside.push(moved);
  };
  const uploadsInUse = listFiles(target.uploadsDir).length > 0;
  if (uploadsInUse && !target.force) {
    throw new BackupError(`${target.uploadsDir} is not empty: restore refuses to overwrite it (--force replaces it)`);
  }

  if (kind === 'sqlite') {
    const file = path.resolve(target.databaseUrl.slice('sqlite:'.length));
    const present = [file, `${file}-wal`, `${file}-shm`].filter((f) => fs.existsSync(f));
    if (present.length && !target.force) {
      throw new BackupError(`${file} already exists: restore refuses to overwrite it (--force replaces it)`);
    }
    present.forEach(aside);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(path.join(from, manifest.database.file), `${file}${PARTIAL}`);
    fs.renameSync(`${file}${PARTIAL}`, file);
  } else {
    await restorePostgres(path.join(from, manifest.database.file), target);
  }

  if (uploadsInUse) aside(target.uploadsDir);
  copyNewFiles(path.join(from, 'uploads'), target.uploadsDir);
  return { manifest, setAside };
}

async function restorePostgres(dump: string, target: RestoreTarget) {
  const database = createDatabase(target.databaseUrl, { poolSize: 1 });
  try {
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from information_schema.tables where table_schema = current_schema()`
      .execute(database.db)
      .catch((error: { code?: string }) => {
        if (error.code !== '3D000') throw error;
        const name = new URL(target.databaseUrl).pathname.slice(1);
        throw new BackupError(`the database ${name} does not exist: create it empty first (createdb ${name})`);
      });
    if (Number(rows[0].n) > 0) {
      if (!target.force) {
        throw new BackupError(
          'the database DATABASE_URL names is not empty: restore refuses to overwrite it (--force replaces it)',
        );
      }
      await sql`drop schema public cascade`.execute(database.db);
      await sql`create schema public`.execute(database.db);
    }
    await pgTool('pg_restore', (await serverVersion(database)).major);
  } finally {
    await database.close();
  }
  const { url, env } = pgConnection(target.databaseUrl);
  try {
    await run(
      'pg_restore',
      ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`, dump],
      { env },
    );
  } catch (error) {
    throw new BackupError(`pg_restore failed: ${(error as { stderr?: string }).stderr?.trim() || error}`);
  }
}
