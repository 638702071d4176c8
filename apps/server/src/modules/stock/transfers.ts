import {
  type TransferAction,
  type TransferDetail,
  type TransferStatus,
  todayInCambodia,
  transfer,
  transferInput,
} from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { nextDocumentNumber } from '../../db/sequences.ts';
import { event } from '../../events/events.ts';
import { FieldError, notFound } from '../../http/errors.ts';
import { type DocumentDefinition, documentService } from '../../kit/document.ts';
import { findLive, type Read, type ResourceDefinition } from '../../kit/resource.ts';
import { type Actor, assertStoreInput } from '../../policies/policy.ts';
import { transferPolicy, transferScope } from '../../policies/transfers.ts';
import { checkSerialCount, claimSerials, landSerials } from '../serials/serials.ledger.ts';
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
  policy: {
    scope: transferScope,
    present: (actor, row) => ({ ...row, abilities: transferPolicy.abilities(actor, row) }),
  },
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

/** A transfer's body: live, active stores (the sending one the actor's), live products in a unit of theirs. */
async function checkInput(trx: Db, actor: Actor, input: Input) {
  for (const field of ['from_store_id', 'to_store_id'] as const) {
    const store = await findLive(trx, 'stores', input[field]);
    if (!store) throw new FieldError({ [field]: [{ key: 'validation.exists' }] });
    if (store.status !== 'active') throw new FieldError({ [field]: [{ key: 'validation.store_inactive' }] });
  }
  // what leaves a store is its own people's doing; the receiving store may be anyone's
  assertStoreInput(actor, 'from_store_id', input.from_store_id);
  const lines: { product_id: number; unit_id: number; factor: number; quantity: number; serials: string | null }[] = [];
  const problems: ConstructorParameters<typeof FieldError>[0] = {};
  for (const [index, item] of input.items.entries()) {
    const product = await findLive(trx, 'products', item.product_id);
    if (!product) throw new FieldError({ [`items.${index}.product_id`]: [{ key: 'validation.exists' }] });
    const factor = await unitFactor(trx, item.product_id, item.unit_id);
    if (factor === null) throw new FieldError({ [`items.${index}.unit_id`]: [{ key: 'stock.unit_of_product' }] });
    // a serial-tracked product's units are named, one serial each (claimed when it is sent)
    const tracked = Number(product.serial_tracked) === 1;
    checkSerialCount(problems, `items.${index}.serials`, {
      tracked,
      units: item.quantity * factor,
      serials: item.serials,
    });
    const { serials, ...rest } = item;
    lines.push({ ...rest, factor, serials: tracked ? JSON.stringify(serials) : null });
  }
  if (Object.keys(problems).length) throw new FieldError(problems);
  return lines;
}

async function writeItems(trx: Db, transferId: number, lines: Awaited<ReturnType<typeof checkInput>>) {
  await trx.deleteFrom('stock_transfer_items').where('transfer_id', '=', transferId).execute();
  await trx
    .insertInto('stock_transfer_items')
    .values(lines.map((line) => ({ transfer_id: transferId, ...line })))
    .execute();
}

/** A transfer as a document (kit/document.ts): its list, policy, detail and what its writes announce. */
export const transferDocument: DocumentDefinition<'stock_transfers', Read<TransferDetail>, TransferAction> = {
  table: 'stock_transfers',
  list: transfers,
  reindex: ['update'],
  policy: transferPolicy,
  async detail(db, id) {
    const head = await transfers.query(db).where('stock_transfers.id', '=', id).executeTakeFirst();
    if (!head) throw notFound();
    const items = await db
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
        'units.decimals as unit_decimals',
        'stock_transfer_items.factor',
        'stock_transfer_items.quantity',
        'stock_transfer_items.serials',
      ])
      .where('stock_transfer_items.transfer_id', '=', id)
      .orderBy('stock_transfer_items.id')
      .execute();
    return {
      ...head,
      status: head.status as TransferStatus,
      items_count: Number(head.items_count),
      items: items.map((item) => ({
        ...item,
        base_quantity: item.quantity * item.factor,
        serials: item.serials ? (JSON.parse(item.serials) as string[]) : [],
      })),
    };
  },
  events: (transfer, action) => {
    const stores = { id: transfer.id, from_store_id: transfer.from_store_id, to_store_id: transfer.to_store_id };
    if (action === 'send') return [event('TransferSent', stores)];
    if (action === 'receive') return [event('TransferReceived', stores)];
    return [];
  },
};

export function transferService(db: Db) {
  const documents = documentService(db, transferDocument);

  return {
    show: (actor: Actor, id: number) => documents.show(actor, id),

    create(actor: Actor, input: Input) {
      return documents.create(actor, async ({ trx, at }) => {
        const lines = await checkInput(trx, actor, input);
        const { id } = await trx
          .insertInto('stock_transfers')
          .values({
            number: await nextDocumentNumber(trx, 'TR', todayInCambodia().slice(0, 4)),
            from_store_id: input.from_store_id,
            to_store_id: input.to_store_id,
            status: 'draft',
            note: input.note,
            created_by: actor.userId,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await writeItems(trx, id, lines);
        return id;
      });
    },

    update(actor: Actor, id: number, input: Input) {
      return documents.act(actor, id, 'update', async ({ trx }) => {
        const lines = await checkInput(trx, actor, input);
        await trx
          .updateTable('stock_transfers')
          .set({ from_store_id: input.from_store_id, to_store_id: input.to_store_id, note: input.note })
          .where('id', '=', id)
          .execute();
        await writeItems(trx, id, lines);
      });
    },

    /** The stock leaves the first store, first to expire first; all lines or none. */
    send(actor: Actor, id: number) {
      return documents.act(actor, id, 'send', async ({ trx, at, row }) => {
        await moveTo(trx, id, 'sent', { sent_at: at });
        const items = await trx.selectFrom('stock_transfer_items').selectAll().where('transfer_id', '=', id).execute();
        await lockProducts(
          trx,
          items.map((i) => i.product_id),
        );
        for (const item of items) {
          await issue(trx, {
            storeId: row.from_store_id,
            productId: item.product_id,
            type: 'transfer_out',
            quantity: item.quantity * item.factor,
            document: { type: 'transfer', id },
            userId: actor.userId,
          });
        }
        // the units named leave with it: each on hand in the sending store until now
        await claimSerials(
          trx,
          row.from_store_id,
          items.map((item, i) => ({
            field: `items.${i}.serials`,
            productId: item.product_id,
            serials: item.serials ? (JSON.parse(item.serials) as string[]) : [],
          })),
          { status: 'moved', transferId: id, at },
        );
      });
    },

    /** What left arrives: the same batches and values, into the second store. */
    receive(actor: Actor, id: number) {
      return documents.act(actor, id, 'receive', async ({ trx, at, row }) => {
        await moveTo(trx, id, 'received', { received_at: at });
        await returnOrArrive(trx, id, row.to_store_id, actor.userId);
        await landSerials(trx, id, row.to_store_id, at);
      });
    },

    /** A draft is dropped; a sent transfer's stock returns to the store it left. */
    cancel(actor: Actor, id: number) {
      return documents.act(actor, id, 'cancel', async ({ trx, at, row }) => {
        await moveTo(trx, id, 'cancelled', { cancelled_at: at });
        if (row.status === 'sent') {
          await returnOrArrive(trx, id, row.from_store_id, actor.userId);
          await landSerials(trx, id, row.from_store_id, at);
        }
      });
    },
  };
}

/** A locked transfer's new status, stamped with when it got there. */
async function moveTo(
  trx: Db,
  id: number,
  status: TransferStatus,
  stamp: Partial<Record<'sent_at' | 'received_at' | 'cancelled_at', string>>,
) {
  await trx
    .updateTable('stock_transfers')
    .set({ status, ...stamp })
    .where('id', '=', id)
    .execute();
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
