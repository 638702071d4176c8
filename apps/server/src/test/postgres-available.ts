import pg from 'pg';

/** The PostgreSQL half of the suite fails at once, with the reason, when the server cannot be reached. */
export default async function postgresAvailable() {
  const url = process.env.DATABASE_URL_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${url} (${(error as Error).message}). Start it or set DATABASE_URL_PG.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}
