import {
  type SerialRecord,
  type SerialStatus,
  serialRecord,
  serialSearchQuery,
  todayInCambodia,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import type { Actor } from '../../policies/policy.ts';
import { inStores } from '../../policies/policy.ts';

/** The units found at most, newest first. */
const LIMIT = 50;

/**
 * Who bought a serial (an IMEI): the units whose serial is the one typed or begins with it, in the
 * actor's stores (where the unit is, or the store that sold it), with the sale, the customer and
 * the warranty's end. Whoever may see sales may ask: it shows their customers.
 */
export async function findSerials(db: Db, actor: Actor, search: string): Promise<SerialRecord[]> {
  const typed = search.toUpperCase().replace(/[%_\\]/g, '');
  const query = db
    .selectFrom('product_serials as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .innerJoin('stores as st', 'st.id', 's.store_id')
    .leftJoin('purchase_items as pi', 'pi.id', 's.purchase_item_id')
    .leftJoin('purchases as pu', 'pu.id', 'pi.purchase_id')
    .leftJoin('order_items as oi', 'oi.id', 's.order_item_id')
    .leftJoin('orders as o', 'o.id', 'oi.order_id')
    .leftJoin('customers as c', 'c.id', 'o.customer_id')
    .leftJoin('invoices as inv', (join) => join.onRef('inv.order_id', '=', 'o.id').on('inv.deleted_at', 'is', null))
    .select([
      's.id',
      's.serial',
      's.product_id',
      'p.name_en as product_name_en',
      'p.name_kh as product_name_kh',
      'p.sku',
      's.store_id',
      'st.name as store_name',
      's.status',
      's.warranty_months',
      's.created_at as received_at',
      'pu.number as purchase_number',
      'o.id as order_id',
      'o.number as order_number',
      'inv.number as invoice_number',
      'c.name as customer_name',
      'c.phone as customer_phone',
      's.sold_at',
    ])
    .where((eb) => eb.or([eb('s.serial', '=', typed), eb('s.serial', 'like', `${typed}%`)]))
    .orderBy('s.updated_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(LIMIT);
  const rows = await inStores(query, actor, 's.store_id', 'o.store_id').execute();
  return rows.map((row) => {
    const sold = row.status === 'sold' && row.sold_at !== null;
    return {
      ...row,
      status: row.status as SerialStatus,
      warranty_months: Number(row.warranty_months),
      // what the customer was told: a sale's day plus the product's months, on the depots' calendar
      warranty_until:
        sold && Number(row.warranty_months) > 0 ? warrantyEnd(row.sold_at!, Number(row.warranty_months)) : null,
      sold_at: row.sold_at ? new Date(row.sold_at).toISOString() : null,
      received_at: new Date(row.received_at).toISOString(),
    };
  });
}

/** The day a warranty of `months` from a sale ends (the same day of the month, or the month's last). */
export function warrantyEnd(soldAt: string, months: number): string {
  // the day of the sale in Cambodia, then whole months on
  const [year, month0, day] = todayInCambodia(new Date(soldAt)).split('-').map(Number);
  const month = month0 - 1 + months;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(day, last))).toISOString().slice(0, 10);
}

export const serialRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/serials',
    {
      config: { access: 'orders.list' },
      schema: {
        tags: ['serials'],
        summary: 'Units found by serial or IMEI: where, sold to whom, when, the warranty',
        querystring: serialSearchQuery,
        response: { 200: z.object({ data: z.array(serialRecord) }) },
      },
    },
    async (request) => ({ data: await findSerials(db, authOf(request), request.query.search) }),
  );
};
