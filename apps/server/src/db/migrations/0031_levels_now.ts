import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../database.ts';

/**
 * PostgreSQL: `stock_levels_now`, a sale's levels read in the statement that locks its products
 * (modules/stock/ledger.ts `issueAll`). A statement reads as of its start, before it waited for the
 * products' lock; a VOLATILE function's query takes a snapshot of its own when it runs, so called
 * after the lock it sees the levels as the last holder committed them: the rows it changed and the
 * rows it made. `locked` is
 * only there to be computed from the lock's rows, so the function runs after every lock is taken.
 * PL/pgSQL, not SQL: it keeps its query's plan for the session (a SQL function's body is planned
 * again at every call).
 * The levels other than zero of these products in these stores, first to expire first, open
 * batches last (as `levelsOf`). SQLite (one writer at a time) reads its levels with a statement of
 * their own, and needs nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function stock_levels_now(stores integer[], products integer[], locked bigint)
    returns table (id integer, batch_id integer, store_id integer, product_id integer, quantity bigint)
    language plpgsql volatile
    as $$
    begin
      return query
        select l.id, l.batch_id, l.store_id, l.product_id, l.quantity
        from stock_levels l join stock_batches b on b.id = l.batch_id
        where l.store_id = any(stores) and l.product_id = any(products) and l.quantity <> 0 and locked >= 0
        order by case when b.expiry_date is null then 1 else 0 end, b.expiry_date, b.id;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop function stock_levels_now(integer[], integer[], bigint)`.execute(db);
}
