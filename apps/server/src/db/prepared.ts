import type { Compilable, CompiledQuery, Kysely } from 'kysely';

class Param {
  constructor(readonly name: string) {}
}

/**
 * A query built and compiled once, run many times with new parameters. Kysely has no prepared
 * queries of its own, and building plus compiling a three-table join costs about four times what
 * running it does; on paths every request takes (token lookup, roles) that is most of the cost.
 * Only scalar parameters: the builder sees a marker for each, which must reach the compiled
 * parameters unchanged (so not inside `in` lists or JSON helpers).
 */
export function prepared<P extends Record<string, unknown>, R, Schema>(
  db: Kysely<Schema>,
  build: (params: P) => Compilable<R>,
): (params: P) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined;
  return async (params) => {
    if (!compiled) {
      const markers = new Proxy({} as P, { get: (_, name) => new Param(String(name)) });
      compiled = build(markers).compile();
      if (!compiled.parameters.some((p) => p instanceof Param)) throw new Error('prepared query has no parameters');
    }
    const parameters = compiled.parameters.map((p) => (p instanceof Param ? params[p.name] : p));
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}
