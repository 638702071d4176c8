import {
  type MessageKey,
  type TransferDetail,
  type TransferStatus,
  todayInCambodia,
  transfer,
  transferInput,
} from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import { type Db, now } from '../../db/database.ts';
import { nextDocumentNumber } from '../../db/sequences.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import { findLive, type ResourceDefinition } from '../../kit/resource.ts';
import { indexRecords } from '../../kit/search.ts';
import { tableChanged } from '../../kit/totals.ts';
import { issue, lockProducts, receive } from './ledger.ts';
import { unitFactor } from './stock.repository.ts';

type Input = z.output<typeof transferInput>;

/**
 * Stock transfers between stores: draft → sent (the stock leaves the first store) → received (it
 * arrives in the second, in the same batches and at the same value), or cancelled while not
 * received (a sent transfer's stock goes back where it came from).
 */
export const transfers: ResourceDefinition<'stock_transfers', typeof transferInput, typeof transfer> = {
  table: 'stock_transfers',
  path: '/api/stock-transfers',
  resource: 'stocks',
  entity: 'entity.transfer',
  input: transferInput,
  output: transfer,
  routes: ['list'],
  query: (db) =>
    db
      .selectFrom('stock_transfers')
      .innerJoin('stores as from_store', 'from_store.id', 'stock_transfers.from_store_id')
      .innerJoin('stores as to_store', 'to_store.id', 'stock_transfers.to_store_id')
      .leftJoin('users', 'users.id', 'stock_transfers.created_by')
      .select([
        'stock_transfers.id',
        'stock_transfers.number',
        'stock_transfers.from_store_id',
        'from_store.name as from_store_name',
        'stock_transfers.to_store_id',
        'to_store.name as to_store_name',
        'stock_transfers.status',
        'stock_transfers.note',
        sql<number>`(select count(*) from stock_transfer_items i where i.transfer_id = stock_transfers.id)`.as(
          'items_count',
        ),
        sql<string | null>`coalesce(users.full_name, users.name)`.as('created_by_name'),
        'stock_transfers.sent_at',
        'stock_transfers.received_at',
        'stock_transfers.cancelled_at',
        'stock_transfers.created_at',
        'stock_transfers.updated_at',
        'stock_transfers.deleted_at',
      ]),
  searchable: ['stock_transfers.number', 'stock_transfers.note'],
  sortable: { created_at: 'stock_transfers.created_at', number: 'stock_transfers.number' },
  defaultSort: '-created_at',
  filters: {
    status: { column: 'stock_transfers.status', schema: z.enum(['draft', 'sent', 'received', 'cancelled']) },
    from_store_id: { column: 'stock_transfers.from_store_id', schema: z.coerce.number().int().min(1) },
    to_store_id: { column: 'stock_transfers.to_store_id', schema: z.coerce.number().int().min(1) },
  },
};

const ACTION: Record<'send' | 'receive' | 'cancel' | 'update', MessageKey> = {
  send: 'action.sent',
  receive: 'action.received',
  cancel: 'action.cancelled',
  update: 'action.changed',
};

/**
 * Moves a transfer from one of `from` to `to` in one conditional update: the check and the change
 * are one statement, so two clerks pressing Send at once send it once.
 */
async function advance(
  trx: Db,
  id: number,
  from: TransferStatus[],
  to: TransferStatus,
  action: keyof typeof ACTION,
  stamp: Partial<Record<'sent_at' | 'received_at' | 'cancelled_at', string>> = {},
) {
  const at = now();
  const moved = await trx
    .updateTable('stock_transfers')
    .set({ status: to, updated_at: at, ...stamp })
    .where('id', '=', id)
    .where('status', 'in', from)
    .where('deleted_at', 'is', null)
    .returning(['id', 'status', 'from_store_id', 'to_store_id'])
    .executeTakeFirst();
  if (moved) return moved;
  const current = await trx
    .selectFrom('stock_transfers')
    .select(['number', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!current) throw notFound();
  throw new AppError(409, 'transfer.state', {
    number: current.number,
    status: { key: `status.${current.status}` as MessageKey },
    action: { key: ACTION[action] },
  });
}

async function checkInput(trx: Db, input: Input) {
  for (const field of ['from_store_id', 'to_store_id'] as const) {
    const store = await findLive(trx, 'stores', input[field]);
    if (!store) throw new FieldError({ [field]: [{ key: 'validation.exists' }] });
    if (store.status !== 'active') throw new FieldError({ [field]: [{ key: 'validation.store_inactive' }] });
  }
  const lines: { product_id: number; unit_id: number; factor: number; quantity: number }[] = [];
  for (const [index, item] of input.items.entries()) {
    if (!(await findLive(trx, 'products', item.product_id))) {
      throw new FieldError({ [`items.${index}.product_id`]: [{ key: 'validation.exists' }] });
    }
    const factor = await unitFactor(trx, item.product_id, item.unit_id);
    if (factor === null) throw new FieldError({ [`items.${index}.unit_id`]: [{ key: 'stock.unit_of_product' }] });
    lines.push({ ...item, factor });
  }
  return lines;
}

async function writeItems(trx: Db, transferId: number, lines: Awaited<ReturnType<typeof checkInput>>) {
  await trx.deleteFrom('stock_transfer_items').where('transfer_id', '=', transferId).execute();
  await trx
    .insertInto('stock_transfer_items')
    .values(lines.map((line) => ({ transfer_id: transferId, ...line })))
    .execute();
}

export function transferService(db: Db) {
  const list = transfers.query;

  async function detail(trx: Db, id: number): Promise<TransferDetail> {
    const head = await list(trx).where('stock_transfers.id', '=', id).executeTakeFirst();
    if (!head) throw notFound();
    const items = await trx
      .selectFrom('stock_transfer_items')
      .innerJoin('products', 'products.id', 'stock_transfer_items.product_id')
      .innerJoin('units', 'units.id', 'stock_transfer_items.unit_id')
      .select([
        'stock_transfer_items.id',
        'stock_transfer_items.product_id',
        'products.name_en as product_name_en',
        'products.name_kh as product_name_kh',
        'products.sku',
        'stock_transfer_items.unit_id',
        'units.name_en as unit_name_en',
        'units.name_kh as unit_name_kh',
        'stock_transfer_items.factor',
        'stock_transfer_items.quantity',
      ])
      .where('stock_transfer_items.transfer_id', '=', id)
      .orderBy('stock_transfer_items.id')
      .execute();
    return {
      ...(head as Omit<TransferDetail, 'items'>),
      items_count: Number(head.items_count),
      items: items.map((item) => ({ ...item, base_quantity: item.quantity * item.factor })),
    };
  }

  /** A write, then the transfer as it is now; the list's totals follow. */
  function write(work: (trx: Db) => Promise<number>): Promise<TransferDetail> {
    return db
      .transaction()
      .execute(async (trx) => detail(trx, await work(trx)))
      .finally(() => tableChanged(db, 'stock_transfers'));
  }

  return {
    show: (id: number) => detail(db, id),

    create(input: Input, userId: number) {
      return write(async (trx) => {
        const lines = await checkInput(trx, input);
        const at = now();
        const { id } = await trx
          .insertInto('stock_transfers')
          .values({
            number: await nextDocumentNumber(trx, 'TR', todayInCambodia().slice(0, 4)),
            from_store_id: input.from_store_id,
            to_store_id: input.to_store_id,
            status: 'draft',
            note: input.note,
            created_by: userId,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await writeItems(trx, id, lines);
        await indexRecords(trx, transfers, [id]);
        return id;
      });
    },

    update(id: number, input: Input) {
      return write(async (trx) => {
        await advance(trx, id, ['draft'], 'draft', 'update');
        const lines = await checkInput(trx, input);
        await trx
          .updateTable('stock_transfers')
          .set({ from_store_id: input.from_store_id, to_store_id: input.to_store_id, note: input.note })
          .where('id', '=', id)
          .execute();
        await writeItems(trx, id, lines);
        await indexRecords(trx, transfers, [id]);
        return id;
      });
    },

    /** The stock leaves the first store, first to expire first; all lines or none. */
    send(id: number, userId: number) {
      return write(async (trx) => {
        const head = await advance(trx, id, ['draft'], 'sent', 'send', { sent_at: now() });
        const items = await trx.selectFrom('stock_transfer_items').selectAll().where('transfer_id', '=', id).execute();
        await lockProducts(
          trx,
          items.map((i) => i.product_id),
        );
        for (const item of items) {
          await issue(trx, {
            storeId: head.from_store_id,
            productId: item.product_id,
            type: 'transfer_out',
            quantity: item.quantity * item.factor,
            document: { type: 'transfer', id },
            userId,
          });
        }
        return id;
      });
    },

    /** What left arrives: the same batches and values, into the second store. */
    receive(id: number, userId: number) {
      return write(async (trx) => {
        const head = await advance(trx, id, ['sent'], 'received', 'receive', { received_at: now() });
        await returnOrArrive(trx, id, head.to_store_id, userId);
        return id;
      });
    },

    /** A draft is dropped; a sent transfer's stock returns to the store it left. */
    cancel(id: number, userId: number) {
      return write(async (trx) => {
        const head = await advance(trx, id, ['draft', 'sent'], 'cancelled', 'cancel', { cancelled_at: now() });
        await returnOrArrive(trx, id, head.from_store_id, userId);
        return id;
      });
    },
  };
}

/** Puts what a transfer sent into a store (its destination, or its origin on cancel). */
async function returnOrArrive(trx: Db, transferId: number, storeId: number, userId: number) {
  const out = await trx
    .selectFrom('stock_movements')
    .select(['product_id', 'batch_id', 'quantity', 'value_cents'])
    .where('document_type', '=', 'transfer')
    .where('document_id', '=', transferId)
    .where('type', '=', 'transfer_out')
    .orderBy('id')
    .execute();
  await lockProducts(
    trx,
    out.map((m) => m.product_id),
  );
  for (const movement of out) {
    await receive(trx, {
      storeId,
      productId: movement.product_id,
      type: 'transfer_in',
      batch: { id: movement.batch_id },
      quantity: -Number(movement.quantity),
      valueCents: -Number(movement.value_cents),
      document: { type: 'transfer', id: transferId },
      userId,
    });
  }
}

export type TransferService = ReturnType<typeof transferService>;
