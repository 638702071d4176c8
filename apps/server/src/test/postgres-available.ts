import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../db/database.ts';
import { hashCheaplyInTests } from '../modules/auth/passwords.ts';
import { prepare } from './constants.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL database migrated and seeded once for the run: each suite's is a copy of it. */
    pgTemplate: string;
  }
}

/**
 * The PostgreSQL half of the suite fails at once, with the reason, when the server cannot be reached.
 * Then migrates and seeds one database, the template every suite's fresh database is copied from
 * (`create database … template`, harness.ts): a copy takes a fraction of a second where migrating
 * and seeding took one to three. Dropped when the run ends.
 */
export default async function postgresAvailable(project: TestProject) {
  hashCheaplyInTests(); // the template's administrator, as setup.ts does in each suite
  const url = process.env.DATABASE_URL_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    await client.end().catch(() => {});
    throw new Error(
      `PostgreSQL is not reachable at ${url} (${(error as Error).message}). Start it or set DATABASE_URL_PG.`,
    );
  }
  const name = `depot_template_${randomBytes(6).toString('hex')}`;
  try {
    await client.query(`create database ${name}`);
    // migrated and seeded without waiting for the disk at each commit, as each suite's copy is (harness.ts)
    await client.query(`alter database ${name} set synchronous_commit = off`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${name}`;
    const template = createDatabase(templateUrl.toString(), { poolSize: 1 });
    try {
      await prepare(template.db);
    } finally {
      await template.close();
    }
  } catch (error) {
    // a template half made is no use to a later run either
    await client.query(`drop database if exists ${name}`).catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
  project.provide('pgTemplate', name);
  return async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`drop database if exists ${name}`);
    } finally {
      await admin.end();
    }
  };
}
