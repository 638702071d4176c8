import type { Compilable, CompiledQuery, Kysely } from 'kysely';

class Param {
  constructor(readonly name: string) {}
}

/**
 * A query built and compiled once, run many times with new parameters, on whichever database or
 * transaction the caller passes. Kysely has no prepared queries of its own, and building plus
 * compiling a query costs several times what running it does on SQLite; on the paths every request
 * takes (token lookup, roles) and the ledger's statements (a sale runs five a product) that is most
 * of the cost. Compiled once per dialect: SQLite and PostgreSQL write their placeholders apart.
 * Only scalar parameters: the builder sees a marker for each, which must reach the compiled
 * parameters unchanged (so not inside `in` lists or JSON helpers).
 */
export function prepared<P extends Record<string, unknown>, R, Schema>(
  build: (db: Kysely<Schema>, params: P) => Compilable<R>,
): ((db: Kysely<Schema>, params: P) => Promise<R[]>) & {
  /** The query with these parameters, compiled, not run (a write left for the end: db/later.ts). */
  compiled(db: Kysely<Schema>, params: P): CompiledQuery<R>;
} {
  const compiled = new Map<unknown, CompiledQuery<R>>();
  const withParameters = (db: Kysely<Schema>, params: P): CompiledQuery<R> => {
    const dialect = db.getExecutor().adapter.constructor;
    let query = compiled.get(dialect);
    if (!query) {
      const markers = new Proxy({} as P, { get: (_, name) => new Param(String(name)) });
      query = build(db, markers).compile();
      if (!query.parameters.some((p) => p instanceof Param)) throw new Error('prepared query has no parameters');
      compiled.set(dialect, query);
    }
    return { ...query, parameters: query.parameters.map((p) => (p instanceof Param ? params[p.name] : p)) };
  };
  const run = async (db: Kysely<Schema>, params: P) => (await db.executeQuery<R>(withParameters(db, params))).rows;
  return Object.assign(run, { compiled: withParameters });
}
