import {
  type CountAction,
  type CountDetail,
  type CountStatus,
  countInput,
  type countScanInput,
  QUANTITY_MAX,
  stockCount,
  todayInCambodia,
} from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { nextDocumentNumber } from '../../db/sequences.ts';
import { event } from '../../events/events.ts';
import { FieldError, notFound } from '../../http/errors.ts';
import { type DocumentDefinition, documentService } from '../../kit/document.ts';
import { findLive, type Read, type ResourceDefinition } from '../../kit/resource.ts';
import { countPolicy, countScope, presentCount } from '../../policies/counts.ts';
import { type Actor, assertStoreInput } from '../../policies/policy.ts';
import { batchFor, issue, lockProducts, quantityOf, receive, share, worthNow } from './ledger.ts';
import { closeAdjustment, openAdjustment } from './stock.service.ts';

type Input = z.output<typeof countInput>;
type Scan = z.output<typeof countScanInput>;

/**
 * Stock counts (issue 28): open → submitted → approved (the differences posted as one `count`
 * adjustment through the ledger) or cancelled. Several people scan into one open count at once:
 * each scan locks the count's row (kit/document.ts), so scans of a product add up on its one line
 * and none is lost; a retried scan carries its Idempotency-Key and counts once. A line's first
 * scan records what the store held then (`expected`), read after locking the product as a sale
 * does, so what sells while the count goes on is not counted twice: the approval posts
 * counted − expected, on top of whatever the level is by then.
 */
export const counts: ResourceDefinition<'stock_counts', typeof countInput, typeof stockCount> = {
  table: 'stock_counts',
  path: '/api/stock-counts',
  resource: 'stock_counts',
  entity: 'entity.count',
  input: countInput,
  output: stockCount,
  routes: ['list'],
  policy: {
    scope: countScope,
    present: (actor, row) => ({ ...row, abilities: countPolicy.abilities(actor, row) }),
  },
  query: (db) =>
    db
      .selectFrom('stock_counts')
      .innerJoin('stores', 'stores.id', 'stock_counts.store_id')
      .leftJoin('users', 'users.id', 'stock_counts.created_by')
      .leftJoin('users as approver', 'approver.id', 'stock_counts.approved_by')
      .select([
        'stock_counts.id',
        'stock_counts.number',
        'stock_counts.store_id',
        'stores.name as store_name',
        'stock_counts.zone',
        'stock_counts.note',
        'stock_counts.status',
        sql<number>`(select count(*) from stock_count_lines l where l.count_id = stock_counts.id)`.as('lines_count'),
        sql<string | null>`coalesce(users.full_name, users.name)`.as('created_by_name'),
        sql<string | null>`coalesce(approver.full_name, approver.name)`.as('approved_by_name'),
        'stock_counts.submitted_at',
        'stock_counts.approved_at',
        'stock_counts.cancelled_at',
        'stock_counts.adjustment_id',
        'stock_counts.created_at',
        'stock_counts.updated_at',
        'stock_counts.deleted_at',
      ]),
  searchable: ['stock_counts.number', 'stock_counts.zone', 'stock_counts.note'],
  sortable: { created_at: 'stock_counts.created_at', number: 'stock_counts.number' },
  defaultSort: '-created_at',
  filters: {
    status: { column: 'stock_counts.status', schema: z.enum(['open', 'submitted', 'approved', 'cancelled']) },
    store_id: { column: 'stock_counts.store_id', schema: z.coerce.number().int().min(1) },
  },
};

/** The lines of a count, latest scanned first, with what each difference is worth at cost now. */
async function linesOf(db: Db, countId: number) {
  const rows = await db
    .selectFrom('stock_count_lines')
    .innerJoin('products', 'products.id', 'stock_count_lines.product_id')
    .leftJoin('stock_valuations', 'stock_valuations.product_id', 'stock_count_lines.product_id')
    .select([
      'stock_count_lines.id',
      'stock_count_lines.product_id',
      'products.name_en as product_name_en',
      'products.name_kh as product_name_kh',
      'products.sku',
      'products.barcode',
      'products.cost_usd_cents',
      'stock_count_lines.counted',
      'stock_count_lines.expected',
      'stock_count_lines.difference_value_cents',
      'stock_count_lines.scanned_at',
      'stock_count_lines.updated_at',
      'stock_valuations.quantity as held',
      'stock_valuations.value_cents as held_value',
    ])
    .where('stock_count_lines.count_id', '=', countId)
    .orderBy('stock_count_lines.updated_at', 'desc')
    .orderBy('stock_count_lines.id', 'desc')
    .execute();
  return rows.map(({ cost_usd_cents, held, held_value, ...row }) => {
    const counted = Number(row.counted);
    const expected = Number(row.expected);
    const difference = counted - expected;
    // posted: what the ledger moved; not yet: the weighted average cost (none held: the cost price)
    const value =
      row.difference_value_cents !== null
        ? Number(row.difference_value_cents)
        : Number(held ?? 0) > 0
          ? share(Number(held_value), difference, Number(held))
          : (cost_usd_cents ?? 0) * difference;
    return { ...row, counted, expected, difference, difference_value_cents: value };
  });
}

/** A count as a document (kit/document.ts): its list, policy, detail, and what the actor may see. */
export const countDocument: DocumentDefinition<'stock_counts', Read<CountDetail>, CountAction> = {
  table: 'stock_counts',
  list: counts,
  policy: countPolicy,
  async detail(db, id) {
    const head = await counts.query(db).where('stock_counts.id', '=', id).executeTakeFirst();
    if (!head) throw notFound();
    const lines = await linesOf(db, id);
    return {
      ...head,
      status: head.status as CountStatus,
      lines_count: Number(head.lines_count),
      adjustment_id: head.adjustment_id === null ? null : Number(head.adjustment_id),
      lines,
      difference_value_cents: lines.reduce((sum, line) => sum + line.difference_value_cents, 0),
    };
  },
  present: (actor, detail) => presentCount(actor, detail),
  // every scan and step: the count's screen on the other counters' phones and the manager's reads it again
  events: (count) => [event('StockCountChanged', { id: count.id, store_id: count.store_id, status: count.status })],
};

/** The product a scan names: by barcode or SKU (without case; live products), or by id. */
async function productOfScan(trx: Db, scan: Scan): Promise<number> {
  if (scan.product_id !== undefined) {
    if (!(await findLive(trx, 'products', scan.product_id))) {
      throw new FieldError({ product_id: [{ key: 'validation.exists' }] });
    }
    return scan.product_id;
  }
  const code = (scan.code as string).toLowerCase();
  const live = (column: 'barcode' | 'sku') =>
    sql`select id from products where lower(${sql.ref(column)}) = ${code} and deleted_at is null`;
  const found = await trx
    .selectFrom('products')
    .select('id')
    .where(sql<boolean>`products.id in (${live('barcode')} union all ${live('sku')})`)
    .orderBy('id')
    .executeTakeFirst();
  if (!found) throw new FieldError({ code: [{ key: 'count.unknown_code', params: { code: scan.code as string } }] });
  return found.id;
}

/** Where found units go: the product's only batch in the store, else its open batch. */
async function batchOfFound(trx: Db, storeId: number, productId: number): Promise<number> {
  const held = await trx
    .selectFrom('stock_levels')
    .select('batch_id')
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .where('quantity', '>', 0)
    .execute();
  return held.length === 1 ? held[0].batch_id : batchFor(trx, productId, null, null);
}

export function countService(db: Db) {
  const documents = documentService(db, countDocument);

  return {
    show: (actor: Actor, id: number) => documents.show(actor, id),

    /** A new open count of a store (live, active, covered) and zone. */
    create(actor: Actor, input: Input) {
      return documents.create(actor, async ({ trx, at }) => {
        const store = await findLive(trx, 'stores', input.store_id);
        if (!store) throw new FieldError({ store_id: [{ key: 'validation.exists' }] });
        if (store.status !== 'active') throw new FieldError({ store_id: [{ key: 'validation.store_inactive' }] });
        assertStoreInput(actor, 'store_id', input.store_id);
        const { id } = await trx
          .insertInto('stock_counts')
          .values({
            number: await nextDocumentNumber(trx, 'SC', todayInCambodia().slice(0, 4)),
            store_id: input.store_id,
            zone: input.zone,
            note: input.note,
            status: 'open',
            created_by: actor.userId,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return id;
      });
    },

    /**
     * One scan into an open count: adds to (or, `set`, corrects) the product's line; the line's
     * first scan records what the store holds at that moment. Answers the count and the line.
     */
    async scan(actor: Actor, id: number, input: Scan) {
      let productId = 0;
      const detail = await documents.act(actor, id, 'scan', async ({ trx, at, row }) => {
        productId = await productOfScan(trx, input);
        // after the product's lock, as a sale takes it: the level no sale is halfway through
        await lockProducts(trx, [productId]);
        const line = await trx
          .selectFrom('stock_count_lines')
          .select(['id', 'counted'])
          .where('count_id', '=', id)
          .where('product_id', '=', productId)
          .executeTakeFirst();
        if (line) {
          const counted = input.mode === 'set' ? input.quantity : Number(line.counted) + input.quantity;
          // a line is one product on one shelf: past the ledger's guard it is a mistyped count
          if (counted > QUANTITY_MAX) {
            throw new FieldError({ quantity: [{ key: 'validation.number_max', params: { max: QUANTITY_MAX } }] });
          }
          await trx
            .updateTable('stock_count_lines')
            .set({ counted, updated_at: at })
            .where('id', '=', line.id)
            .execute();
        } else {
          // one count of a product per store at a time: two would each post their own difference
          // against the same shelf
          const other = await trx
            .selectFrom('stock_count_lines')
            .innerJoin('stock_counts', 'stock_counts.id', 'stock_count_lines.count_id')
            .select('stock_counts.number')
            .where('stock_count_lines.product_id', '=', productId)
            .where('stock_counts.store_id', '=', row.store_id)
            .where('stock_counts.id', '!=', id)
            .where('stock_counts.status', 'in', ['open', 'submitted'])
            .where('stock_counts.deleted_at', 'is', null)
            .executeTakeFirst();
          if (other) {
            const field = input.code !== undefined ? 'code' : 'product_id';
            throw new FieldError({ [field]: [{ key: 'count.counted_elsewhere', params: { number: other.number } }] });
          }
          await trx
            .insertInto('stock_count_lines')
            .values({
              count_id: id,
              product_id: productId,
              counted: input.quantity,
              expected: await quantityOf(trx, row.store_id, productId),
              scanned_by: actor.userId,
              scanned_at: at,
              updated_at: at,
            })
            .execute();
        }
      });
      const line = detail.lines.find((l) => l.product_id === productId);
      return { detail, line: line as NonNullable<typeof line> };
    },

    /** The counters are done: a manager reviews it. */
    submit(actor: Actor, id: number) {
      return documents.act(actor, id, 'submit', async ({ trx, at }) => {
        await trx
          .updateTable('stock_counts')
          .set({ status: 'submitted', submitted_at: at })
          .where('id', '=', id)
          .execute();
      });
    },

    /** Back to the counters (a shelf to count again); what was counted stays. */
    reopen(actor: Actor, id: number) {
      return documents.act(actor, id, 'reopen', async ({ trx }) => {
        await trx
          .updateTable('stock_counts')
          .set({ status: 'open', submitted_at: null })
          .where('id', '=', id)
          .execute();
      });
    },

    /**
     * The differences posted, all or none: one `count` adjustment whose movements are each line's
     * counted − expected (more: received at the weighted average cost into the product's batch;
     * fewer: issued first to expire first), each line keeping the value the ledger gave it.
     */
    approve(actor: Actor, id: number) {
      return documents.act(actor, id, 'approve', async ({ trx, at, row }) => {
        const lines = await trx
          .selectFrom('stock_count_lines')
          .select(['id', 'product_id', 'counted', 'expected'])
          .where('count_id', '=', id)
          .orderBy('product_id')
          .execute();
        const differing = lines.filter((line) => Number(line.counted) !== Number(line.expected));
        let adjustmentId: number | null = null;
        if (differing.length > 0) {
          await lockProducts(
            trx,
            differing.map((line) => line.product_id),
          );
          const head = {
            store_id: row.store_id,
            reason: 'count' as const,
            note: row.zone ? `${row.number} · ${row.zone}` : row.number,
          };
          const adjustment = await openAdjustment(trx, actor, head);
          for (const line of differing) {
            const change = Number(line.counted) - Number(line.expected);
            const op = { ...adjustment.common, productId: line.product_id };
            let value: number;
            if (change > 0) {
              value = await worthNow(trx, line.product_id, change);
              const batchId = await batchOfFound(trx, row.store_id, line.product_id);
              await receive(trx, { ...op, batch: { id: batchId }, quantity: change, valueCents: value });
            } else {
              const picks = await issue(trx, { ...op, quantity: -change });
              value = -picks.reduce((sum, pick) => sum + pick.valueCents, 0);
            }
            await trx
              .updateTable('stock_count_lines')
              .set({ difference_value_cents: value })
              .where('id', '=', line.id)
              .execute();
          }
          await closeAdjustment(
            trx,
            actor,
            adjustment.id,
            head,
            differing.map((line) => ({
              product_id: line.product_id,
              counted: Number(line.counted),
              expected: Number(line.expected),
            })),
          );
          adjustmentId = adjustment.id;
        }
        await trx
          .updateTable('stock_counts')
          .set({ status: 'approved', approved_at: at, approved_by: actor.userId, adjustment_id: adjustmentId })
          .where('id', '=', id)
          .execute();
      });
    },

    /** Dropped: nothing was posted, nothing will be. */
    cancel(actor: Actor, id: number) {
      return documents.act(actor, id, 'cancel', async ({ trx, at }) => {
        await trx
          .updateTable('stock_counts')
          .set({ status: 'cancelled', cancelled_at: at })
          .where('id', '=', id)
          .execute();
      });
    },
  };
}

export type CountService = ReturnType<typeof countService>;
