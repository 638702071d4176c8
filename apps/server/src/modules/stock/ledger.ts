import type { AdjustmentReason, MovementType } from '@depot/contracts';
import { type Insertable, sql } from 'kysely';
import { type Db, isPostgres, now } from '../../db/database.ts';
import { writeLast } from '../../db/later.ts';
import { prepared } from '../../db/prepared.ts';
import { tallyMovement } from '../../db/rollups.ts';
import type { StockMovementsTable } from '../../db/schema.ts';
import { emit } from '../../db/transaction.ts';
import { event } from '../../events/events.ts';
import { AppError } from '../../http/errors.ts';

/**
 * The one writer of stock. Every change of a level is a movement row written in the same
 * transaction, and the product's valuation (quantity and value, all stores together) follows it.
 * Nothing else in the code base writes `stock_levels`, `stock_movements` or `stock_valuations`,
 * removal included (`removeProducts`; `backdate` for the sample loader's dates).
 *
 * Concurrency, on both databases: an operation first locks the product's valuation row (an update
 * that changes nothing but takes PostgreSQL's row lock; SQLite runs one transaction at a time), so
 * two sales of the same product take turns; products are locked in id order, so two documents of
 * several products cannot deadlock. An issue is judged on the store's whole quantity of the product
 * (negative levels count) and each decrement is conditional (`quantity >= n`, the rows it returns
 * counted): no level goes below zero, except by the one exception below.
 *
 * The exception: a sale made offline (`allowNegative`, orders only) takes what the store has and
 * the rest anyway, from the product's open batch (lot and expiry unknown), whose level goes below
 * zero; the picks say how many units were beyond the stock. The units beyond the stock are valued
 * at the product's cost price. A later receipt into the open batch settles the level; into another
 * batch, the store's quantity (which every issue is judged on) comes back all the same.
 * Each movement announces a StockChanged of its store and product once the transaction commits,
 * and adds to the reports' daily rollup of the ledger (db/rollups.ts) in the same transaction.
 */

/** What a movement belongs to: a purchase, a transfer, an adjustment, an order… */
export interface Document {
  type: 'purchase' | 'transfer' | 'adjustment' | 'write_off' | 'order' | 'return';
  id: number;
}

interface Common {
  storeId: number;
  productId: number;
  type: MovementType;
  document: Document | null;
  userId: number | null;
  reason?: AdjustmentReason | null;
  note?: string | null;
}

export interface Receipt extends Common {
  /** Into this batch, or the product's batch of this lot and expiry date (made if new). */
  batch: { id: number } | { lot: string | null; expiryDate: string | null };
  quantity: number;
  /** What the units are worth together, in cents (a purchase: their landed cost). */
  valueCents: number;
}

export interface Issue extends Common {
  quantity: number;
  /** Only from this batch; otherwise the first to expire first (FEFO), open batches last. */
  batchId?: number | null;
  /** Only a sale made offline: units beyond the store's stock are taken anyway (see above). */
  allowNegative?: boolean;
}

/** Where an issue took its units from, and what they were worth. */
export interface Pick {
  batchId: number;
  quantity: number;
  valueCents: number;
  /** Of these units, how many the store did not have (an offline sale only). */
  beyond?: number;
}

/** The spec's "Not enough stock for the product", naming it in the reader's language (409). */
export async function notEnoughStock(trx: Db, productId: number): Promise<AppError> {
  const product = await trx
    .selectFrom('products')
    .select(['name_en', 'name_kh'])
    .where('id', '=', productId)
    .executeTakeFirst();
  return new AppError(409, 'stock.not_enough', {
    product: { en: product?.name_en ?? `#${productId}`, kh: product?.name_kh ?? `#${productId}` },
  });
}

/**
 * Locks the valuation rows of these products, in id order, for the rest of the transaction. Call it
 * first with every product a document touches; each operation below locks its own product again,
 * which costs nothing once held.
 */
// The products each transaction holds already: locking again would only cost a statement.
const held = new WeakMap<Db, Set<number>>();

export async function lockProducts(trx: Db, productIds: Iterable<number>): Promise<void> {
  const at = now();
  // only a transaction holds locks until it ends; outside one, each statement stands alone
  let mine = held.get(trx) ?? new Set<number>();
  if (trx.isTransaction) held.set(trx, mine);
  else mine = new Set();
  const fresh = [...new Set(productIds)].filter((id) => !mine.has(id)).sort((a, b) => a - b);
  // one statement for many products: its rows are written, and locked, in the order given
  for (let i = 0; i < fresh.length; i += LOCK_BATCH) {
    const ids = fresh.slice(i, i + LOCK_BATCH);
    await trx
      .insertInto('stock_valuations')
      .values(ids.map((product_id) => ({ product_id, quantity: 0, value_cents: 0, updated_at: at })))
      .onConflict((oc) => oc.column('product_id').doUpdateSet({ updated_at: at }))
      .execute();
    for (const id of ids) mine.add(id);
  }
}
// products locked by one statement: 4 parameters each, well under either database's limit
const LOCK_BATCH = 200;

// The statements every receipt and issue runs, compiled once (db/prepared.ts).
const valuationRow = prepared((db: Db, p: { productId: number }) =>
  db.selectFrom('stock_valuations').select(['quantity', 'value_cents']).where('product_id', '=', p.productId),
);
const revalue = prepared((db: Db, p: { productId: number; quantity: number; valueCents: number; at: string }) =>
  db
    .updateTable('stock_valuations')
    .set({
      quantity: sql<number>`quantity + ${p.quantity}`,
      value_cents: sql<number>`value_cents + ${p.valueCents}`,
      updated_at: p.at,
    })
    .where('product_id', '=', p.productId),
);
const addToLevel = prepared(
  (db: Db, p: { storeId: number; productId: number; batchId: number; quantity: number; at: string }) =>
    db
      .insertInto('stock_levels')
      .values({
        store_id: p.storeId,
        product_id: p.productId,
        batch_id: p.batchId,
        quantity: p.quantity,
        updated_at: p.at,
      })
      .onConflict((oc) =>
        oc.columns(['store_id', 'batch_id']).doUpdateSet({
          quantity: sql<number>`stock_levels.quantity + ${p.quantity}`,
          updated_at: p.at,
        }),
      )
      .returning('quantity'),
);
const movementRow = prepared((db: Db, p: Insertable<StockMovementsTable>) =>
  db
    .insertInto('stock_movements')
    .values({
      type: p.type,
      store_id: p.store_id,
      product_id: p.product_id,
      batch_id: p.batch_id,
      quantity: p.quantity,
      value_cents: p.value_cents,
      balance: p.balance,
      reason: p.reason,
      note: p.note,
      document_type: p.document_type,
      document_id: p.document_id,
      user_id: p.user_id,
      created_at: p.created_at,
    })
    .returning('id'),
);

async function valuationOf(trx: Db, productId: number) {
  await lockProducts(trx, [productId]);
  const [row] = await valuationRow(trx, { productId });
  if (!row) throw new Error(`no valuation of product ${productId}`);
  return { quantity: Number(row.quantity), value: Number(row.value_cents) };
}

/** `value × part / whole`, rounded half up, in integers of any size. */
export function share(value: number, part: number, whole: number): number {
  if (whole === 0) return 0;
  const n = BigInt(value) * BigInt(part) * 2n + BigInt(whole);
  const d = BigInt(whole) * 2n;
  return Number(n >= 0n ? n / d : -((-n + d - 1n) / d));
}

/** What `quantity` units of the product are worth now: its weighted average cost, exactly. */
export async function worthNow(trx: Db, productId: number, quantity: number): Promise<number> {
  const valuation = await valuationOf(trx, productId);
  if (valuation.quantity > 0) return share(valuation.value, quantity, valuation.quantity);
  // nothing in stock to average: the product's cost price
  const product = await trx
    .selectFrom('products')
    .select('cost_usd_cents')
    .where('id', '=', productId)
    .executeTakeFirst();
  return (product?.cost_usd_cents ?? 0) * quantity;
}

/** The batch of a product with this lot and expiry date, made on first use. */
export async function batchFor(
  trx: Db,
  productId: number,
  lot: string | null,
  expiryDate: string | null,
): Promise<number> {
  const batchKey = `${lot ?? ''}|${expiryDate ?? ''}`;
  await trx
    .insertInto('stock_batches')
    .values({ product_id: productId, lot, expiry_date: expiryDate, batch_key: batchKey, created_at: now() })
    .onConflict((oc) => oc.columns(['product_id', 'batch_key']).doNothing())
    .execute();
  const row = await trx
    .selectFrom('stock_batches')
    .select('id')
    .where('product_id', '=', productId)
    .where('batch_key', '=', batchKey)
    .executeTakeFirstOrThrow();
  return row.id;
}

function movementOf(
  op: Common,
  batchId: number,
  quantity: number,
  valueCents: number,
  balance: number,
  at: string,
): Insertable<StockMovementsTable> {
  return {
    type: op.type,
    store_id: op.storeId,
    product_id: op.productId,
    batch_id: batchId,
    quantity,
    value_cents: valueCents,
    balance,
    reason: op.reason ?? null,
    note: op.note ?? null,
    document_type: op.document?.type ?? null,
    document_id: op.document?.id ?? null,
    user_id: op.userId,
    created_at: at,
  };
}

/** What a movement adds to the reports' daily rollup, and its StockChanged (after the commit). */
function tally(trx: Db, op: Common, quantity: number, valueCents: number, at: string): Promise<void> {
  // announced once the transaction commits (db/transaction.ts), merged per store
  emit(trx, event('StockChanged', { store_id: op.storeId, product_ids: [op.productId] }));
  // the reports' daily figures of the ledger, in the same transaction (db/rollups.ts)
  return tallyMovement(trx, {
    at,
    storeId: op.storeId,
    productId: op.productId,
    type: op.type,
    ofOrder: op.document?.type === 'order',
    quantity,
    valueCents,
  });
}

async function writeMovement(
  trx: Db,
  op: Common,
  batchId: number,
  quantity: number,
  valueCents: number,
  balance: number,
  at: string,
): Promise<number> {
  const [row] = await movementRow(trx, movementOf(op, batchId, quantity, valueCents, balance, at));
  await tally(trx, op, quantity, valueCents, at);
  return row.id;
}

/** Units coming into a store: a receipt, a transfer arriving, a return, stock found. */
export async function receive(trx: Db, op: Receipt): Promise<Pick> {
  if (!Number.isSafeInteger(op.quantity) || op.quantity <= 0) throw new RangeError(`quantity ${op.quantity}`);
  if (!Number.isSafeInteger(op.valueCents) || op.valueCents < 0) throw new RangeError(`value ${op.valueCents}`);
  await lockProducts(trx, [op.productId]);
  const batchId = 'id' in op.batch ? op.batch.id : await batchFor(trx, op.productId, op.batch.lot, op.batch.expiryDate);
  const at = now();
  const [level] = await addToLevel(trx, {
    storeId: op.storeId,
    productId: op.productId,
    batchId,
    quantity: op.quantity,
    at,
  });
  await revalue(trx, { productId: op.productId, quantity: op.quantity, valueCents: op.valueCents, at });
  await writeMovement(trx, op, batchId, op.quantity, op.valueCents, Number(level.quantity), at);
  return { batchId, quantity: op.quantity, valueCents: op.valueCents };
}

/**
 * Units leaving a store: a sale, a transfer sent, damage, a write-off. Takes them from the batches
 * that expire first, at the weighted average cost; refuses with 409 when the store has too few.
 */
export async function issue(trx: Db, op: Issue): Promise<Pick[]> {
  return (await issueAll(trx, [op]))[0];
}

/**
 * Several issues at once (a sale's lines, a transfer's), each as `issue` takes it, in the order
 * given, written set-wise: whatever their number, five statements — lock and read the products'
 * valuations (one upsert, id order), read their levels (FEFO), take from the levels (one guarded
 * update), write the movements (one insert), revalue (one update). The picks are planned in memory
 * between the reads and the writes, under the products' locks; answers each issue's picks.
 * `late` (a sale's, orders.stock.ts takeStock): the three writes are left for the transaction's
 * last statement (db/later.ts), the levels' update still guarded; nothing after it in the
 * transaction may read these products' stock. An offline sale's shortage is written at once.
 */
export async function issueAll(trx: Db, ops: readonly Issue[], options: { late?: boolean } = {}): Promise<Pick[][]> {
  for (const op of ops) {
    if (!Number.isSafeInteger(op.quantity) || op.quantity <= 0) throw new RangeError(`quantity ${op.quantity}`);
  }
  if (!ops.length) return [];
  const at = now();
  const { valuations, levels } = await lockAndRead(trx, ops, at);
  const left = new Map(levels.map((l) => [l.id, Number(l.quantity)]));
  const takes = new Map<number, { take: number; productId: number }>();
  const moves: { op: Issue; batchId: number; quantity: number; valueCents: number; balance: number }[] = [];
  const revalued = new Map<number, { quantity: number; value: number }>();
  const shorts: (typeof moves)[number][] = [];
  const answer: Pick[][] = [];
  for (const op of ops) {
    const valuation = valuations.get(op.productId) ?? { quantity: 0, value: 0 };
    valuations.set(op.productId, valuation);
    // this store's levels of the product other than zero: those below zero (an offline sale's
    // shortage) count against those holding units
    const mine = levels.filter(
      (l) =>
        l.store_id === op.storeId &&
        l.product_id === op.productId &&
        (!op.batchId || l.batch_id === op.batchId) &&
        (left.get(l.id) ?? 0) !== 0,
    );
    const held = mine.reduce((sum, l) => sum + Math.max(0, left.get(l.id) ?? 0), 0);
    const has = mine.reduce((sum, l) => sum + (left.get(l.id) ?? 0), 0);
    const beyond = Math.max(0, op.quantity - Math.max(0, has));
    // the guard: never more than the store holds (the level update below checks it again)
    if (beyond > 0 && !op.allowNegative) throw await notEnoughStock(trx, op.productId);
    const short = op.quantity - Math.min(op.quantity, held);
    // the whole issue's value at the average cost; all of it when the last units leave; units the
    // product does not have at all (an offline sale), at its cost price
    const covered = Math.min(op.quantity, Math.max(0, valuation.quantity));
    const coveredValue =
      covered === 0
        ? 0
        : covered === valuation.quantity
          ? valuation.value
          : share(valuation.value, covered, valuation.quantity);
    const total =
      coveredValue + (covered < op.quantity ? (await costPrice(trx, op.productId)) * (op.quantity - covered) : 0);
    const picks: Pick[] = [];
    let rest = op.quantity;
    let valueLeft = total;
    for (const level of mine) {
      if (rest === short) break;
      const had = left.get(level.id) ?? 0;
      if (had <= 0) continue;
      const take = Math.min(rest - short, had);
      const value = take === rest ? valueLeft : share(total, take, op.quantity);
      left.set(level.id, had - take);
      takes.set(level.id, { take: (takes.get(level.id)?.take ?? 0) + take, productId: op.productId });
      moves.push({ op, batchId: level.batch_id, quantity: -take, valueCents: -value, balance: had - take });
      picks.push({ batchId: level.batch_id, quantity: take, valueCents: value });
      rest -= take;
      valueLeft -= value;
    }
    if (short > 0) {
      // an offline sale only: the rest from the open batch (or the one named), below zero, written
      // after the guarded update (below), its balance known then
      const batchId = op.batchId ?? (await batchFor(trx, op.productId, null, null));
      const move = { op, batchId, quantity: -short, valueCents: -valueLeft, balance: 0 };
      moves.push(move);
      shorts.push(move);
      picks.push({ batchId, quantity: short, valueCents: valueLeft });
    }
    if (beyond > 0) picks[picks.length - 1].beyond = beyond;
    valuation.quantity -= op.quantity;
    valuation.value -= total;
    const change = revalued.get(op.productId) ?? { quantity: 0, value: 0 };
    change.quantity -= op.quantity;
    change.value -= total;
    revalued.set(op.productId, change);
    answer.push(picks);
  }

  const taken = [...takes].sort(([a], [b]) => a - b);
  const values = [...revalued].sort(([a], [b]) => a - b);
  const levelsUpdate = sql<{ id: number }>`update stock_levels
    set quantity = stock_levels.quantity - v.column2, updated_at = ${at}
    from (values ${sql.join(taken.map(([id, t]) => sql`(cast(${id} as bigint), cast(${t.take} as bigint))`))}) as v
    where stock_levels.id = v.column1 and stock_levels.quantity >= v.column2
    returning id`;
  const valuationsUpdate = sql`update stock_valuations
    set quantity = stock_valuations.quantity + v.column2, value_cents = stock_valuations.value_cents + v.column3,
      updated_at = ${at}
    from (values ${sql.join(values.map(([id, c]) => sql`(cast(${id} as bigint), cast(${c.quantity} as bigint), cast(${c.value} as bigint))`))}) as v
    where stock_valuations.product_id = v.column1`;
  const movements = (from: number) =>
    trx
      .insertInto('stock_movements')
      .values(
        moves.slice(from, from + 500).map((m) => movementOf(m.op, m.batchId, m.quantity, m.valueCents, m.balance, at)),
      );
  for (const m of moves) await tally(trx, m.op, m.quantity, m.valueCents, at);
  if (options.late && !shorts.length && taken.length) {
    // a sale's: the three writes left for the transaction's end (db/later.ts), the products staying
    // locked; the levels' update still conditional, and if it ever touched fewer rows nothing is sold
    await writeLast(
      trx,
      {
        query: levelsUpdate.compile(trx),
        check: {
          rows: taken.length,
          refused: () => notEnoughStock(trx, taken[0][1].productId),
        },
      },
      ...Array.from({ length: Math.ceil(moves.length / 500) }, (_, i) => ({ query: movements(i * 500).compile() })),
      { query: valuationsUpdate.compile(trx) },
    );
    return answer;
  }
  // the levels, in one statement, each still conditional: with the products locked this cannot
  // fail, and if it ever did nothing is sold
  const updated = taken.length ? await levelsUpdate.execute(trx) : { rows: [] };
  if (updated.rows.length !== taken.length) {
    const done = new Set(updated.rows.map((r) => Number(r.id)));
    const failed = taken.find(([id]) => !done.has(id));
    throw await notEnoughStock(trx, failed?.[1].productId ?? ops[0].productId);
  }
  // an offline sale's shortage: added to its level (made if missing), below zero
  for (const move of shorts) {
    const [level] = await addToLevel(trx, {
      storeId: move.op.storeId,
      productId: move.op.productId,
      batchId: move.batchId,
      quantity: move.quantity,
      at,
    });
    move.balance = Number(level.quantity);
  }
  // the movements, in one statement (13 parameters a row)
  for (let i = 0; i < moves.length; i += 500) await movements(i).execute();
  // the valuations, in one statement
  await valuationsUpdate.execute(trx);
  return answer;
}

async function costPrice(trx: Db, productId: number): Promise<number> {
  const product = await trx
    .selectFrom('products')
    .select('cost_usd_cents')
    .where('id', '=', productId)
    .executeTakeFirst();
  return product?.cost_usd_cents ?? 0;
}

/**
 * Locks the valuation rows of these products in id order, as `lockProducts` does, and answers
 * them: one upsert that makes a missing row, locks and reads, for all of them.
 */
async function lockAndValue(trx: Db, productIds: number[], at: string) {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  const found = new Map<number, { quantity: number; value: number }>();
  for (let i = 0; i < ids.length; i += LOCK_BATCH) {
    const rows = await trx
      .insertInto('stock_valuations')
      .values(
        ids.slice(i, i + LOCK_BATCH).map((product_id) => ({ product_id, quantity: 0, value_cents: 0, updated_at: at })),
      )
      .onConflict((oc) => oc.column('product_id').doUpdateSet({ updated_at: at }))
      .returning(['product_id', 'quantity', 'value_cents'])
      .execute();
    for (const row of rows)
      found.set(row.product_id, { quantity: Number(row.quantity), value: Number(row.value_cents) });
  }
  if (trx.isTransaction) {
    const mine = held.get(trx) ?? new Set<number>();
    held.set(trx, mine);
    for (const id of ids) mine.add(id);
  }
  return found;
}

/**
 * Locks the issues' products (`lockAndValue`) and reads their valuations and levels (`levelsOf`).
 * On PostgreSQL in a transaction, one statement: the lock's upsert, then `stock_levels_now`
 * (migration 0031), a function whose query takes its own snapshot once every lock is taken, so it
 * reads the levels as the last holder committed them, not as they were when the statement began
 * waiting. One round trip fewer in the time the products are locked. SQLite, and a transaction of
 * more products than one statement locks: the two statements.
 */
async function lockAndRead(trx: Db, ops: readonly Issue[], at: string) {
  const ids = [...new Set(ops.map((op) => op.productId))].sort((a, b) => a - b);
  if (!isPostgres(trx) || !trx.isTransaction || ids.length > LOCK_BATCH)
    return { valuations: await lockAndValue(trx, ids, at), levels: await levelsOf(trx, ops) };
  const stores = [...new Set(ops.map((op) => op.storeId))];
  const { rows } = await lockAndReadStatement(stores, ids, at).execute(trx);
  const valuations = new Map<number, { quantity: number; value: number }>();
  const levels: { id: number; batch_id: number; store_id: number; product_id: number; quantity: number }[] = [];
  for (const row of rows) {
    if (row.kind === 0)
      valuations.set(row.product_id, { quantity: Number(row.quantity), value: Number(row.value_cents) });
    else
      levels.push({
        id: Number(row.id),
        batch_id: Number(row.batch_id),
        store_id: Number(row.store_id),
        product_id: row.product_id,
        quantity: Number(row.quantity),
      });
  }
  const mine = held.get(trx) ?? new Set<number>();
  held.set(trx, mine);
  for (const id of ids) mine.add(id);
  return { valuations, levels };
}

/**
 * lockAndRead's one statement on PostgreSQL: the products' lock (the valuations' upsert, in id
 * order) and the levels read after it by `stock_levels_now`. bench/floor.ts runs the same.
 */
export function lockAndReadStatement(stores: readonly number[], ids: readonly number[], at: string) {
  return sql<{
    kind: number;
    id: number | null;
    batch_id: number | null;
    store_id: number | null;
    product_id: number;
    quantity: string | number;
    value_cents: string | number | null;
  }>`with v as (
      insert into stock_valuations (product_id, quantity, value_cents, updated_at)
      values ${sql.join(ids.map((id) => sql`(${id}, 0, 0, ${at})`))}
      on conflict (product_id) do update set updated_at = excluded.updated_at
      returning product_id, quantity, value_cents
    )
    select 0 as kind, 0 as n, null as id, null as batch_id, null as store_id, product_id, quantity, value_cents from v
    union all
    select 1, l.n, l.id, l.batch_id, l.store_id, l.product_id, l.quantity, null
    from stock_levels_now(${stores}, ${ids}, (select count(*) from v)) with ordinality as l(id, batch_id, store_id, product_id, quantity, n)
    order by kind, n`;
}

/**
 * The levels other than zero of the issues' products in their stores, the first to expire first,
 * open batches last: those holding units are taken from, those below zero (an offline sale's
 * shortage) count against them.
 */
function levelsOf(trx: Db, ops: readonly Issue[]) {
  return trx
    .selectFrom('stock_levels')
    .innerJoin('stock_batches', 'stock_batches.id', 'stock_levels.batch_id')
    .select([
      'stock_levels.id',
      'stock_levels.batch_id',
      'stock_levels.store_id',
      'stock_levels.product_id',
      'stock_levels.quantity',
    ])
    .where('stock_levels.store_id', 'in', [...new Set(ops.map((op) => op.storeId))])
    .where('stock_levels.product_id', 'in', [...new Set(ops.map((op) => op.productId))])
    .where('stock_levels.quantity', '<>', 0)
    .orderBy(sql`case when stock_batches.expiry_date is null then 1 else 0 end`)
    .orderBy('stock_batches.expiry_date')
    .orderBy('stock_batches.id')
    .execute();
}

/**
 * Dates a document's movements at `at`: the sample loader's documents, written through the
 * services today and dated over the past weeks. Quantities, values, balances, levels and
 * valuations stay as they are; the reports' daily rollups of the ledger are the caller's to rebuild
 * (db/rollups.ts rebuildRollups), as the loader does once it has dated all its documents.
 */
export async function backdate(trx: Db, document: Document, at: string): Promise<void> {
  await trx
    .updateTable('stock_movements')
    .set({ created_at: at })
    .where('document_type', '=', document.type)
    .where('document_id', '=', document.id)
    .execute();
}

/**
 * Takes products out of the ledger altogether: their movements, levels, valuations and batches,
 * all of each product's rows, so the audit holds after. Only for products no one else's record
 * uses (the sample data's removal, which checks that first); the reports' daily rollups of the
 * ledger are the caller's to rebuild, as for `backdate`.
 */
export async function removeProducts(trx: Db, productIds: readonly number[]): Promise<void> {
  if (!productIds.length) return;
  for (const table of ['stock_movements', 'stock_levels', 'stock_valuations', 'stock_batches'] as const)
    await trx.deleteFrom(table).where('product_id', 'in', productIds).execute();
}

/** A store's quantity of a product (one batch, or all of them). */
export async function quantityOf(
  trx: Db,
  storeId: number,
  productId: number,
  batchId?: number | null,
): Promise<number> {
  let query = trx
    .selectFrom('stock_levels')
    .select(sql<number>`coalesce(sum(quantity), 0)`.as('n'))
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId);
  if (batchId) query = query.where('batch_id', '=', batchId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** A store's quantity of each of some products (all batches, as a sale takes them), in one query. */
export async function quantitiesIn(
  db: Db,
  storeId: number,
  productIds: readonly number[],
): Promise<Map<number, number>> {
  const rows = productIds.length
    ? await db
        .selectFrom('stock_levels')
        .select(['product_id', sql<number>`sum(quantity)`.as('n')])
        .where('store_id', '=', storeId)
        .where('product_id', 'in', productIds)
        .groupBy('product_id')
        .execute()
    : [];
  return new Map(rows.map((row) => [row.product_id, Number(row.n)]));
}

/**
 * What must always hold: each level equals the sum of its movements and is not negative (but an
 * open batch's, which only an offline sale takes below zero), and each
 * product's valuation counts the units of all its levels. Empty when the ledger is right.
 */
export async function auditLedger(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const levels = await db
    .selectFrom('stock_levels')
    .innerJoin('stock_batches', 'stock_batches.id', 'stock_levels.batch_id')
    .select([
      'stock_levels.store_id',
      'stock_levels.batch_id',
      'stock_levels.product_id',
      'stock_levels.quantity',
      sql<string>`stock_batches.batch_key`.as('batch_key'),
    ])
    .execute();
  const sums = await db
    .selectFrom('stock_movements')
    .select(['store_id', 'batch_id', sql<number>`sum(quantity)`.as('n'), sql<number>`count(*)`.as('c')])
    .groupBy(['store_id', 'batch_id'])
    .execute();
  const moved = new Map(sums.map((s) => [`${s.store_id}/${s.batch_id}`, Number(s.n)]));
  const perProduct = new Map<number, number>();
  for (const level of levels) {
    const key = `${level.store_id}/${level.batch_id}`;
    const quantity = Number(level.quantity);
    // below zero only by an offline sale, and only on the product's open batch
    if (quantity < 0 && level.batch_key !== '|') problems.push(`level ${key} is negative: ${quantity}`);
    if ((moved.get(key) ?? 0) !== quantity)
      problems.push(`level ${key} is ${quantity}, its movements sum to ${moved.get(key) ?? 0}`);
    moved.delete(key);
    perProduct.set(level.product_id, (perProduct.get(level.product_id) ?? 0) + quantity);
  }
  for (const [key, n] of moved) if (n !== 0) problems.push(`movements of ${key} sum to ${n} without a level`);
  const values = await db
    .selectFrom('stock_movements')
    .select(['product_id', sql<number>`sum(value_cents)`.as('v')])
    .groupBy('product_id')
    .execute();
  const valued = new Map(values.map((v) => [v.product_id, Number(v.v)]));
  const valuations = await db
    .selectFrom('stock_valuations')
    .select(['product_id', 'quantity', 'value_cents'])
    .execute();
  for (const v of valuations) {
    if ((valued.get(v.product_id) ?? 0) !== Number(v.value_cents)) {
      problems.push(
        `valuation of product ${v.product_id} is worth ${v.value_cents}, its movements ${valued.get(v.product_id) ?? 0}`,
      );
    }
    const quantity = Number(v.quantity);
    if ((perProduct.get(v.product_id) ?? 0) !== quantity) {
      problems.push(
        `valuation of product ${v.product_id} counts ${quantity}, its levels ${perProduct.get(v.product_id) ?? 0}`,
      );
    }
    if (quantity === 0 && Number(v.value_cents) !== 0)
      problems.push(`product ${v.product_id} has no stock but a value of ${v.value_cents}`);
  }
  return problems;
}
