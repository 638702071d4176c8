import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { createDatabase, type Database } from '../db/database.ts';
import { MIGRATION_NAMES, migrateTo, migrateToLatest, migrationLevel } from '../db/migrate.ts';
import { seed } from '../db/seed.ts';
import { auditLedger } from '../modules/stock/ledger.ts';
import { REPO_ROOT } from '../paths.ts';
import { ADMIN_PASSWORD, emptyDatabase, TEST_DB } from '../test/harness.ts';
import { type HttpClient, httpClient, productOnSale } from '../test/http.ts';
import { nextBackupAt, scheduleBackups } from './backup.schedule.ts';
import { createBackup, listBackups, restoreBackup, verifyBackup } from './backup.ts';

const run = promisify(execFile);
const INITIAL = 100_000;

let live: Database;
let app: FastifyInstance;
let dir: string;
let uploadsDir: string;
let admin: HttpClient;
let shop: Awaited<ReturnType<typeof productOnSale>>;
let picture: string;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const target = await emptyDatabase();
  cleanups.push(target.drop);
  dir = target.dir;
  uploadsDir = path.join(dir, 'uploads');
  live = createDatabase(target.url, { poolSize: 20 });
  await migrateToLatest(live.db);
  await seed(live.db, { adminPassword: ADMIN_PASSWORD });
  app = await buildApp({ db: live.db, uploadsDir });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  admin = await httpClient(url).signIn('admin', ADMIN_PASSWORD);
  shop = await productOnSale(admin, INITIAL);

  const form = new FormData();
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'beer.png');
  const res = await fetch(`${url}/api/products/${shop.product}/image`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}` },
    body: form,
  });
  expect(res.status).toBe(200);
  picture = ((await res.json()) as { data: { image_url: string } }).data.image_url.replace('/uploads/', '');
});

afterAll(async () => {
  await app?.close();
  await live?.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * Sales from three tills, keyed as the till sends them, for as long as `work` runs and a few after;
 * returns what `work` returned and the orders answered before it began.
 */
async function duringSales<T>(work: () => Promise<T>) {
  const answered: number[] = [];
  let selling = true;
  const till = async () => {
    while (selling) {
      const res = await shop.sell(admin);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      answered.push(res.body.data.id);
    }
  };
  const tills = [till(), till(), till()];
  await vi.waitFor(() => expect(answered.length).toBeGreaterThanOrEqual(6), { timeout: 20_000, interval: 5 });
  const before = [...answered];
  const result = await work();
  const after = answered.length;
  await vi.waitFor(() => expect(answered.length).toBeGreaterThanOrEqual(after + 3), { timeout: 20_000, interval: 5 });
  selling = false;
  await Promise.all(tills);
  return { result, before, all: answered };
}

/** Restores into a new, empty database and folder; the restored database, opened. */
async function restoreFresh(from: string) {
  const target = await emptyDatabase();
  const restoredUploads = path.join(target.dir, 'uploads');
  await restoreBackup(from, { databaseUrl: target.url, uploadsDir: restoredUploads });
  const restored = createDatabase(target.url);
  cleanups.push(async () => {
    await restored.close();
    await target.drop();
  });
  return { restored, restoredUploads, target };
}

/** The restored copy is whole: ledger audit, the same orders as the live database, stock that follows them. */
async function expectWhole(restored: Database, answeredBefore: number[], restoredUploads: string) {
  expect(await auditLedger(restored.db)).toEqual([]);
  const columns = ['id', 'number', 'total_cents', 'paid_cents', 'payment_status', 'status'] as const;
  const copy = await restored.db.selectFrom('orders').select(columns).orderBy('id').execute();
  const ids = copy.map((o) => o.id);
  expect(ids).toEqual(expect.arrayContaining(answeredBefore));
  const original = await live.db.selectFrom('orders').select(columns).where('id', 'in', ids).orderBy('id').execute();
  expect(copy).toEqual(original);
  const items = await restored.db
    .selectFrom('order_items')
    .select(({ fn }) => fn.sum<number>('quantity').as('n'))
    .where('product_id', '=', shop.product)
    .executeTakeFirstOrThrow();
  const level = await restored.db
    .selectFrom('stock_levels')
    .select(({ fn }) => fn.sum<number>('quantity').as('n'))
    .where('product_id', '=', shop.product)
    .executeTakeFirstOrThrow();
  expect(Number(level.n)).toBe(INITIAL - Number(items.n));
  expect(fs.readFileSync(path.join(restoredUploads, picture))).toEqual(fs.readFileSync(path.join(uploadsDir, picture)));
}

describe('a backup while Depot sells', () => {
  it('made by the server in small steps between sales, restores whole into an empty database', async () => {
    const backups = path.join(dir, 'backups-server');
    const sales = await duringSales(() =>
      // two pages a step: the copy is taken in many steps with sales running between them
      createBackup(live, { dir: backups, uploadsDir, sqliteStepPages: 2 }),
    );
    const made = sales.result;
    expect(made.manifest).toMatchObject({
      format: 'depot-backup/1',
      migration: MIGRATION_NAMES.at(-1),
      database: { kind: TEST_DB },
    });
    expect(made.manifest.files.map((f) => f.path)).toContain(`uploads/${picture}`);
    expect(path.basename(made.path)).toMatch(/^depot-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);

    const { restored, restoredUploads } = await restoreFresh(made.path);
    await expectWhole(restored, sales.before, restoredUploads);
  });

  it('made by the CLI in another process, restores whole and the CLI migrates it', async () => {
    const backups = path.join(dir, 'backups-cli');
    const env = { ...process.env, DATABASE_URL: live.url, DEPOT_UPLOADS_DIR: uploadsDir };
    const cli = ['--import', 'tsx', 'apps/server/src/cli.ts'];
    const sales = await duringSales(() =>
      run(process.execPath, [...cli, 'backup', '--to', backups], { cwd: REPO_ROOT, env }),
    );
    expect(sales.result.stdout).toMatch(/^backup: .*depot-backup-.*\(.*migration \d{4}_\w+/);
    const [made] = listBackups(backups);

    const target = await emptyDatabase();
    const restoredUploads = path.join(target.dir, 'uploads');
    const restore = await run(process.execPath, [...cli, 'restore', made], {
      cwd: REPO_ROOT,
      env: { ...env, DATABASE_URL: target.url, DEPOT_UPLOADS_DIR: restoredUploads },
    });
    expect(restore.stdout).toContain(`restored ${made}`);
    const restored = createDatabase(target.url);
    cleanups.push(async () => {
      await restored.close();
      await target.drop();
    });
    await expectWhole(restored, sales.before, restoredUploads);
  });
});

describe('a backup holds secrets (the real-time app secret, staff records)', () => {
  /** Every folder under `root` (itself included) and every file, with its permission bits. */
  function modes(root: string) {
    const entries = fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[];
    const all = [root, ...entries.map((e) => path.join(e.parentPath, e.name))];
    return all.map((file) => {
      const stat = fs.statSync(file);
      return { file, dir: stat.isDirectory(), mode: stat.mode & 0o777 };
    });
  }

  it('is written 0600 in folders 0700, the backups folder too, tightening one an older Depot left open', async () => {
    const backups = path.join(dir, 'backups-modes');
    // an older Depot's folder and backup, made with the default modes
    fs.mkdirSync(path.join(backups, 'depot-backup-2026-01-01T00-00-00Z', 'uploads'), { recursive: true, mode: 0o755 });
    fs.chmodSync(backups, 0o755);
    fs.writeFileSync(path.join(backups, 'depot-backup-2026-01-01T00-00-00Z', 'manifest.json'), '{}', { mode: 0o644 });
    const made = await createBackup(live, { dir: backups, uploadsDir });
    expect(made.manifest.database.kind).toBe(TEST_DB);
    expect(fs.statSync(backups).mode & 0o777).toBe(0o700);
    const found = modes(backups).filter((m) => m.file !== backups);
    expect(found.filter((m) => m.dir).length).toBeGreaterThanOrEqual(4);
    expect(found.filter((m) => !m.dir).length).toBeGreaterThanOrEqual(3);
    for (const { file, dir: folder, mode } of found) {
      expect(mode.toString(8), file).toBe(folder ? '700' : '600');
    }
  });
});

describe('restore refuses', () => {
  let made: string;
  beforeAll(async () => {
    made = (await createBackup(live, { dir: path.join(dir, 'backups-refusals'), uploadsDir })).path;
  });

  it('a database or pictures folder that is not empty, unless told to replace it', async () => {
    const { target, restoredUploads } = await restoreFresh(made);
    const again = () => restoreBackup(made, { databaseUrl: target.url, uploadsDir: restoredUploads });
    await expect(again()).rejects.toThrow(/is not empty: restore refuses to overwrite it \(--force replaces it\)/);
    fs.rmSync(restoredUploads, { recursive: true });
    await expect(again()).rejects.toThrow(/restore refuses to overwrite it \(--force replaces it\)/);
  });

  it('a damaged backup, naming the file', async () => {
    const copy = path.join(dir, 'damaged');
    fs.cpSync(made, copy, { recursive: true });
    fs.appendFileSync(path.join(copy, 'uploads', picture), 'x');
    expect(() => verifyBackup(copy)).toThrow(`the backup is damaged: uploads/${picture} does not match its checksum`);
    fs.rmSync(path.join(copy, 'uploads', picture));
    expect(() => verifyBackup(copy)).toThrow(`the backup is incomplete: uploads/${picture} is missing`);
  });

  it('a backup made by a newer Depot, saying which', async () => {
    const copy = path.join(dir, 'newer');
    fs.cpSync(made, copy, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(copy, 'manifest.json'), 'utf8'));
    fs.writeFileSync(
      path.join(copy, 'manifest.json'),
      JSON.stringify({ ...manifest, migration: '9999_future', depot_version: '9.0.0' }),
    );
    const target = await emptyDatabase();
    cleanups.push(target.drop);
    await expect(
      restoreBackup(copy, { databaseUrl: target.url, uploadsDir: path.join(target.dir, 'u') }),
    ).rejects.toThrow(
      `this backup was made by a newer Depot (version 9.0.0, migration 9999_future); this one (version 0.1.0) knows migrations up to ${MIGRATION_NAMES.at(-1)}. Upgrade Depot, then restore it.`,
    );
  });

  it.runIf(TEST_DB === 'postgres')('without pg_dump, saying what to install', async () => {
    const PATH = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await expect(createBackup(live, { dir: path.join(dir, 'backups-no-pg-dump'), uploadsDir })).rejects.toThrow(
        /pg_dump was not found\. Install PostgreSQL's client tools of the server's version \(\d+\), e\.g\. on Debian: apt-get install postgresql-client-\d+/,
      );
    } finally {
      process.env.PATH = PATH;
    }
  });
});

describe('a backup of an older Depot', () => {
  it('restores and migrates forward', async () => {
    const older = await emptyDatabase();
    cleanups.push(older.drop);
    const database = createDatabase(older.url);
    const made = await (async () => {
      try {
        await migrateTo(database.db, '0005_products');
        const backups = path.join(older.dir, 'backups');
        return await createBackup(database, { dir: backups, uploadsDir: path.join(older.dir, 'uploads') });
      } finally {
        await database.close();
      }
    })();
    expect(made.manifest.migration).toBe('0005_products');
    const { restored } = await restoreFresh(made.path);
    expect(await migrationLevel(restored.db)).toBe('0005_products');
    expect(await migrateToLatest(restored.db)).toEqual(
      MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf('0005_products') + 1),
    );
  });
});

describe('scheduled backups', () => {
  it('are due an interval after the newest one, soon when overdue, or daily at a time', () => {
    const now = new Date(2026, 10, 24, 15, 0);
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
    expect(nextBackupAt({ dir, uploadsDir, keep: 3, intervalHours: 6 }, now, hoursAgo(2))).toEqual(
      new Date(2026, 10, 24, 19, 0),
    );
    expect(nextBackupAt({ dir, uploadsDir, keep: 3, intervalHours: 6 }, now, hoursAgo(7))).toEqual(
      new Date(2026, 10, 24, 15, 1),
    );
    expect(nextBackupAt({ dir, uploadsDir, keep: 3 }, now, undefined)).toEqual(new Date(2026, 10, 24, 15, 1));
    expect(nextBackupAt({ dir, uploadsDir, keep: 3, at: '02:30' }, now, hoursAgo(1))).toEqual(
      new Date(2026, 10, 25, 2, 30),
    );
    expect(nextBackupAt({ dir, uploadsDir, keep: 3, at: '16:00' }, now, undefined)).toEqual(
      new Date(2026, 10, 24, 16, 0),
    );
  });

  it('run in the server, keep the newest few and log what they did', { timeout: 90_000 }, async () => {
    const backups = path.join(dir, 'backups-scheduled');
    const logged: { level: string; details: Record<string, unknown>; message: string }[] = [];
    const log = {
      info: (details: object, message: string) => logged.push({ level: 'info', details: { ...details }, message }),
      error: (details: object, message: string) => logged.push({ level: 'error', details: { ...details }, message }),
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const schedule = scheduleBackups(live, { dir: backups, uploadsDir, keep: 2, intervalHours: 1 }, log);
      for (let i = 0; i < 3; i++) {
        await vi.advanceTimersByTimeAsync(3_600_000);
        // a backup is a real pg_dump or SQLite copy: on a busy machine it takes seconds, not one
        await vi.waitFor(
          () => expect(logged.filter((l) => l.message === 'scheduled backup made')).toHaveLength(i + 1),
          {
            timeout: 20_000,
          },
        );
      }
      await schedule.stop();
    } finally {
      vi.useRealTimers();
    }
    const made = logged.filter((l) => l.message === 'scheduled backup made');
    expect(listBackups(backups)).toHaveLength(2);
    expect(made[2].details).toMatchObject({ backup: listBackups(backups)[0], removed: [made[0].details.backup] });
    expect(logged.filter((l) => l.level === 'error')).toEqual([]);

    const failing = path.join(dir, 'not-a-folder');
    fs.writeFileSync(failing, '');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const schedule = scheduleBackups(live, { dir: failing, uploadsDir, keep: 2 }, log);
      await vi.advanceTimersByTimeAsync(60_000);
      await vi.waitFor(
        () =>
          expect(logged).toContainEqual(
            expect.objectContaining({ level: 'error', message: 'scheduled backup failed' }),
          ),
        { timeout: 20_000 },
      );
      await schedule.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
