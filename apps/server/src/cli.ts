/**
 * Depot's command line, for operators:
 *   npm run cli -- user:create --name dara --password 'secret-123' --role cashier [--role …]
 *   npm run cli -- user:password --name admin --password 'new-secret-123'
 *   npm run cli -- gazetteer:import [--file PATH]   (the copy shipped in apps/server/assets by default)
 *   npm run cli -- migrate
 *   npm run cli -- samples:load | samples:remove   (the demo depot of /samples; safe while Depot runs)
 *   npm run cli -- backup [--to DIR] | restore FROM [--force] | backup:verify FROM   (ops/backup.commands.ts)
 * Each command migrates and seeds first, as start-up does, against DATABASE_URL (but the backup ones).
 * In production, without the sources' loader: node apps/server/dist/cli.js COMMAND …
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type MessageParams, PASSWORD_MIN, translate } from '@depot/contracts';
import { loadConfig } from './config.ts';
import { createDatabase, type Database, type Db, now } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seed } from './db/seed.ts';
import { withStartupLock } from './db/startup-lock.ts';
import { transaction } from './db/transaction.ts';
import { AppError } from './http/errors.ts';
import { connectRedis } from './kit/redis.ts';
import { shareTotals } from './kit/totals.ts';
import { hashPassword } from './modules/auth/passwords.ts';
import { gazetteerFilePath, importGazetteer, readGazetteerFile } from './modules/geography/gazetteer.import.ts';
import { sampleService } from './modules/samples/samples.service.ts';
import { BACKUP_COMMANDS, BACKUP_USAGE, runBackupCommand } from './ops/backup.commands.ts';
import { BackupError } from './ops/backup.ts';

const usage = `usage:
  user:create --name NAME --password PASSWORD [--role ROLE …] [--full-name TEXT]
  user:password --name NAME --password PASSWORD
  gazetteer:import [--file PATH]   (default: DEPOT_GAZETTEER_FILE or the shipped copy; .json or .json.gz)
  migrate
  samples:load | samples:remove   (the sample data: a demo depot to try Depot with, and its removal)
${BACKUP_USAGE}`;

class UsageError extends Error {}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`--${flag} is required`);
  return value;
}

function checkPassword(password: string) {
  if (password.length < PASSWORD_MIN) throw new UsageError(`the password must be at least ${PASSWORD_MIN} characters`);
}

async function createUser(db: Db, args: { name: string; password: string; roles: string[]; fullName?: string }) {
  checkPassword(args.password);
  await transaction(db, async (trx) => {
    const taken = await trx
      .selectFrom('users')
      .select('id')
      .where((e) => e(e.fn('lower', ['name']), '=', args.name.toLowerCase()))
      .executeTakeFirst();
    if (taken) throw new UsageError(`a user named ${args.name} already exists`);
    const roles = args.roles.length
      ? await trx.selectFrom('roles').select(['id', 'name']).where('name', 'in', args.roles).execute()
      : [];
    const unknown = args.roles.filter((r) => !roles.some((role) => role.name === r));
    if (unknown.length) throw new UsageError(`unknown role: ${unknown.join(', ')}`);
    const store = await trx.selectFrom('stores').select('id').orderBy('id').executeTakeFirst();
    const at = now();
    const user = await trx
      .insertInto('users')
      .values({
        name: args.name,
        full_name: args.fullName ?? null,
        password_hash: await hashPassword(args.password),
        status: 'active',
        store_id: store?.id ?? null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (store) await trx.insertInto('user_stores').values({ user_id: user.id, store_id: store.id }).execute();
    if (roles.length) {
      await trx
        .insertInto('user_roles')
        .values(roles.map((r) => ({ user_id: user.id, role_id: r.id })))
        .execute();
    }
  });
}

async function setPassword(db: Db, name: string, password: string) {
  checkPassword(password);
  const result = await db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password), updated_at: now() })
    .where((e) => e(e.fn('lower', ['name']), '=', name.toLowerCase()))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new UsageError(`no user named ${name}`);
}

/** The sample data from the command line: its answers in English, as the API's messages say them. */
async function runSamples(db: Db, command: 'samples:load' | 'samples:remove', uploadsDir: string) {
  const samples = sampleService(db, uploadsDir);
  const started = performance.now();
  try {
    if (command === 'samples:load') {
      const done = await samples.load(null);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        done.loaded
          ? `${translate('samples.loaded', 'en', { products: done.products, purchases: done.purchases, orders: done.orders })} (${seconds} s)`
          : translate('samples.already_loaded', 'en'),
      );
    } else {
      await samples.remove();
      console.log(translate('samples.removed', 'en'));
    }
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) {
      const params = Object.fromEntries(
        Object.entries(error.params ?? {}).map(([k, v]) => [k, typeof v === 'object' && 'en' in v ? v.en : v]),
      ) as MessageParams;
      throw new UsageError(translate(error.key, 'en', params));
    }
    throw error;
  }
}

/** What a start does first: migrate and seed, one process at a time; returns the migrations run. */
async function prepare(database: Database): Promise<string[]> {
  const config = loadConfig();
  const { migrated, seeded } = await withStartupLock(database, async () => {
    const migrated = await migrateToLatest(database.db);
    return { migrated, seeded: await seed(database.db, { adminPassword: config.DEPOT_ADMIN_PASSWORD }) };
  });
  if (seeded.generatedAdminPassword) console.log(`First administrator: admin / ${seeded.generatedAdminPassword}`);
  return migrated;
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string', multiple: true },
      'full-name': { type: 'string' },
      file: { type: 'string' },
      to: { type: 'string' },
      keep: { type: 'string' },
      force: { type: 'boolean' },
    },
  });
  const command = positionals[0];
  const backupCommand = BACKUP_COMMANDS.find((c) => c === command);
  const commands = ['user:create', 'user:password', 'gazetteer:import', 'migrate', 'samples:load', 'samples:remove'];
  if (!commands.includes(command) && !backupCommand) {
    throw new UsageError(usage);
  }

  const config = loadConfig();
  if (backupCommand) return runBackupCommand(backupCommand, { ...values, from: positionals[1] }, config, prepare);
  const database = createDatabase(config.DATABASE_URL);
  // bulk writes tell the servers' shared list totals (REDIS_URL) that their tables changed
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL) : undefined;
  if (redis) shareTotals(database.db, { redis, prefix: config.REDIS_PREFIX });
  try {
    await prepare(database);
    if (command === 'user:create') {
      const name = required(values.name, 'name');
      await createUser(database.db, {
        name,
        password: required(values.password, 'password'),
        roles: values.role ?? [],
        fullName: values['full-name'],
      });
      console.log(`created user ${name}`);
    } else if (command === 'gazetteer:import') {
      const file = path.resolve(values.file ?? gazetteerFilePath());
      if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const started = performance.now();
      const result = await importGazetteer(database.db, readGazetteerFile(file));
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `gazetteer: ${result.provinces} provinces, ${result.districts} districts, ${result.communes} communes, ` +
          `${result.villages} villages; ${result.changed} rows inserted or changed, in ${seconds} s`,
      );
    } else if (command === 'samples:load' || command === 'samples:remove') {
      await runSamples(database.db, command, config.DEPOT_UPLOADS_DIR);
    } else if (command === 'user:password') {
      await setPassword(database.db, required(values.name, 'name'), required(values.password, 'password'));
      console.log(`password changed for ${values.name}`);
    }
  } finally {
    await database.close();
    await redis?.quit();
  }
}

main().catch((error: unknown) => {
  const told = error instanceof UsageError || error instanceof BackupError;
  console.error(told ? error.message : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
