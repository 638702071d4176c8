import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { createDatabase, type Database, dialectOf } from '../db/database.ts';
import { BackupError, createBackup, pruneBackups, restoreBackup, verifyBackup } from './backup.ts';

export const BACKUP_COMMANDS = ['backup', 'restore', 'backup:verify'] as const;
export const BACKUP_USAGE = `  backup [--to DIR] [--keep N]   a backup while Depot runs (DIR: DEPOT_BACKUP_DIR, else ./backups);
                                 --keep: then remove all but the newest N there
  restore FROM [--force]         into DATABASE_URL and DEPOT_UPLOADS_DIR, which must be empty
                                 (--force: replace them), then migrate forward
  backup:verify FROM             check a backup's files against its manifest`;

export interface BackupArgs {
  from?: string;
  to?: string;
  keep?: string;
  force?: boolean;
}

/**
 * The CLI's backup commands. None migrates first as the others do: a backup reads the database
 * as the running server has it, and a restore needs its target empty. `prepare` (migrate and seed,
 * under the start-up lock) runs on the restored database.
 */
export async function runBackupCommand(
  command: (typeof BACKUP_COMMANDS)[number],
  args: BackupArgs,
  config: Config,
  prepare: (database: Database) => Promise<string[]>,
): Promise<void> {
  if (command === 'backup') {
    const dir = path.resolve(args.to ?? config.DEPOT_BACKUP_DIR ?? 'backups');
    const keep = args.keep === undefined ? undefined : Number(args.keep);
    if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1))
      throw new BackupError('--keep takes a whole number ≥ 1');
    const file =
      dialectOf(config.DATABASE_URL) === 'sqlite' && path.resolve(config.DATABASE_URL.slice('sqlite:'.length));
    if (file && !fs.existsSync(file)) throw new BackupError(`there is no database at ${file} (DATABASE_URL)`);
    const database = createDatabase(config.DATABASE_URL);
    try {
      const started = performance.now();
      const made = await createBackup(database, {
        dir,
        uploadsDir: config.DEPOT_UPLOADS_DIR,
        sqliteStepPages: Number.POSITIVE_INFINITY,
      });
      const bytes = made.manifest.files.reduce((sum, f) => sum + f.bytes, 0);
      console.log(
        `backup: ${made.path} (${database.dialect}, migration ${made.manifest.migration}, ` +
          `${made.manifest.files.length} files, ${(bytes / 1e6).toFixed(1)} MB, ${Math.round(performance.now() - started)} ms)`,
      );
      for (const removed of keep ? pruneBackups(dir, keep) : []) console.log(`removed ${removed}`);
    } finally {
      await database.close();
    }
    return;
  }
  if (!args.from) throw new BackupError(`${command} FROM: name the backup's folder`);
  const from = path.resolve(args.from);
  if (command === 'backup:verify') {
    const manifest = verifyBackup(from);
    console.log(
      `${from}: whole (${manifest.files.length} files), ${manifest.database.kind}, made ${manifest.created_at} ` +
        `by Depot ${manifest.depot_version} at migration ${manifest.migration}`,
    );
    return;
  }
  const restored = await restoreBackup(from, {
    databaseUrl: config.DATABASE_URL,
    uploadsDir: config.DEPOT_UPLOADS_DIR,
    force: args.force,
  });
  for (const moved of restored.setAside) console.log(`kept aside: ${moved}`);
  const database = createDatabase(config.DATABASE_URL);
  try {
    const migrated = await prepare(database);
    console.log(
      `restored ${from} (made ${restored.manifest.created_at}, migration ${restored.manifest.migration})` +
        (migrated.length ? `; migrated forward: ${migrated.join(', ')}` : ''),
    );
  } finally {
    await database.close();
  }
}
