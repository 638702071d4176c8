import { customer, customerInput, type MessageKey, store, storeInput, supplier, supplierInput } from '@depot/contracts';
import { type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { countLive, findLive, type ResourceDefinition } from '../../kit/resource.ts';
import { creditFields } from '../../policies/credit.ts';
import { customerGroupWrite } from '../../policies/prices.ts';
import { payeeOf, storePolicy } from '../../policies/stores.ts';
import { auditWho, changes, recordAudit } from '../audit/audit.ts';
import { villagePath, villagePathKh } from '../geography/geography.resources.ts';

type Party = 'stores' | 'customers' | 'suppliers';

/** Joins a party's village up to its province, for the `location` path. */
// biome-ignore lint/suspicious/noExplicitAny: the same four joins serve each party table
function withLocation(qb: SelectQueryBuilder<DB, any, object>, table: Party): SelectQueryBuilder<DB, any, object> {
  return qb
    .leftJoin('villages', 'villages.id', `${table}.village_id`)
    .leftJoin('communes', 'communes.id', 'villages.commune_id')
    .leftJoin('districts', 'districts.id', 'communes.district_id')
    .leftJoin('provinces', 'provinces.id', 'districts.province_id');
}

/** The village named by the input must be live. */
async function villageExists(db: Db, villageId: number | null): Promise<Record<string, MessageKey> | null> {
  if (villageId === null) return null;
  return (await findLive(db, 'villages', villageId)) ? null : { village_id: 'validation.exists' };
}

/** A customer's group: a live one (an inactive group's members buy at the base prices). */
async function customerGroupExists(db: Db, groupId: number | null): Promise<Record<string, MessageKey> | null> {
  if (groupId === null) return null;
  return (await findLive(db, 'customer_groups', groupId)) ? null : { customer_group_id: 'validation.exists' };
}

const status = (table: Party) => ({ column: `${table}.status`, schema: z.enum(['active', 'inactive']) });

export const stores: ResourceDefinition<'stores', typeof storeInput, typeof store> = {
  table: 'stores',
  path: '/api/stores',
  resource: 'stores',
  entity: 'entity.store',
  input: storeInput,
  output: store,
  query: (db) =>
    withLocation(db.selectFrom('stores'), 'stores').select([
      'stores.id',
      'stores.name',
      'stores.code',
      'stores.phone',
      'stores.address',
      'stores.village_id',
      villagePath().as('location'),
      villagePathKh().as('location_kh'),
      'stores.status',
      'stores.created_at',
      'stores.updated_at',
      'stores.deleted_at',
      sql<number>`(select count(*) from users u where u.store_id = stores.id and u.deleted_at is null)`.as(
        'users_count',
      ),
      'stores.khqr_account_id',
      'stores.khqr_merchant_name',
      'stores.khqr_merchant_city',
      'stores.khqr_merchant_id',
      'stores.khqr_acquiring_bank',
    ]),
  searchable: ['stores.name', 'stores.code', 'stores.phone'],
  policy: storePolicy,
  sortable: { name: 'stores.name', code: 'stores.code', status: 'stores.status', created_at: 'stores.created_at' },
  defaultSort: 'name',
  filters: { status: status('stores') },
  unique: ['code'],
  check: (db, input) => villageExists(db, input.village_id),
  dependents: async (db, id) => [{ entity: 'entity.users', count: await countLive(db, 'users', 'store_id', id) }],
  // the payee account changed (or given to a new store): a line with the account before and after
  written: async (trx, actor, { action, id, before, after }) => {
    if (action !== 'create' && action !== 'update') return;
    const diff = changes(payeeOf(before), payeeOf(after));
    if (!diff.changed) return;
    await recordAudit(trx, auditWho(actor), {
      action: 'store.payee',
      subject: { type: 'store', id },
      before: payeeOf(before),
      after: payeeOf(after),
    });
  },
};

export const customers: ResourceDefinition<'customers', typeof customerInput, typeof customer> = {
  table: 'customers',
  path: '/api/customers',
  resource: 'customers',
  entity: 'entity.customer',
  input: customerInput,
  output: customer,
  query: (db) =>
    withLocation(db.selectFrom('customers'), 'customers')
      .leftJoin('customer_groups', 'customer_groups.id', 'customers.customer_group_id')
      .select([
        'customers.id',
        'customers.name',
        'customers.phone',
        'customers.address',
        'customers.shipping_address',
        'customers.vat_number',
        'customers.village_id',
        villagePath().as('location'),
        villagePathKh().as('location_kh'),
        'customers.status',
        sql<boolean>`customers.is_walk_in = 1`.as('is_walk_in'),
        'customers.customer_group_id',
        'customers.credit_limit_cents',
        'customers.payment_terms_days',
        'customer_groups.name_en as customer_group_name_en',
        'customer_groups.name_kh as customer_group_name_kh',
        'customers.created_at',
        'customers.updated_at',
        'customers.deleted_at',
      ]),
  searchable: ['customers.name', 'customers.phone'],
  /** The till's customer picker on the device: customers changed since a cursor, the list's scope. */
  changes: true,
  sortable: { name: 'customers.name', status: 'customers.status', created_at: 'customers.created_at' },
  defaultSort: 'name',
  filters: {
    status: status('customers'),
    customer_group_id: { column: 'customers.customer_group_id', schema: z.coerce.number().int().min(1) },
    /** The till looks the walk-in customer up by this. */
    is_walk_in: {
      schema: z.enum(['true', 'false']),
      apply: (query, value) => query.where('customers.is_walk_in', '=', value === 'true' ? 1 : 0),
    },
  },
  check: async (db, input) =>
    (await villageExists(db, input.village_id)) ?? (await customerGroupExists(db, input.customer_group_id)),
  // a customer's group needs prices.update; their credit, credit.update (kept as stored otherwise)
  policy: {
    write: (actor, input, existing) => creditFields(actor, customerGroupWrite(actor, input, existing), existing),
  },
  guardDelete: async (db, id) => {
    const row = await db.selectFrom('customers').select('is_walk_in').where('id', '=', id).executeTakeFirst();
    return row?.is_walk_in ? 'resource.walk_in' : null;
  },
};

export const suppliers: ResourceDefinition<'suppliers', typeof supplierInput, typeof supplier> = {
  table: 'suppliers',
  path: '/api/suppliers',
  resource: 'suppliers',
  entity: 'entity.supplier',
  input: supplierInput,
  output: supplier,
  query: (db) =>
    withLocation(db.selectFrom('suppliers'), 'suppliers').select([
      'suppliers.id',
      'suppliers.name',
      'suppliers.type',
      'suppliers.phone',
      'suppliers.address',
      'suppliers.shipping_address',
      'suppliers.village_id',
      villagePath().as('location'),
      villagePathKh().as('location_kh'),
      'suppliers.status',
      'suppliers.payment_terms_days',
      'suppliers.created_at',
      'suppliers.updated_at',
      'suppliers.deleted_at',
      // base units received from the supplier, over their live purchases
      sql<number>`(select cast(coalesce(sum(cast(pi.received_quantity as bigint) * pi.factor), 0) as bigint)
        from purchase_items pi inner join purchases p on p.id = pi.purchase_id
        where p.supplier_id = suppliers.id and p.deleted_at is null)`.as('total_items'),
    ]),
  searchable: ['suppliers.name', 'suppliers.phone'],
  sortable: { name: 'suppliers.name', type: 'suppliers.type', created_at: 'suppliers.created_at' },
  defaultSort: 'name',
  filters: {
    status: status('suppliers'),
    type: { column: 'suppliers.type', schema: z.enum(['company', 'individual']) },
  },
  check: (db, input) => villageExists(db, input.village_id),
  policy: { write: creditFields },
};

export const partyResources = [stores, customers, suppliers];
