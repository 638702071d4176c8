import { combo, comboInput, RECORD_STATUSES } from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { ResourceDefinition } from '../../kit/resource.ts';
import { comboPolicy, hiddenComboSorts, presentCombo } from '../../policies/combos.ts';
import { comboRows } from './combos.repository.ts';

/**
 * The list of combos from the resource kit: search by names, SKU and barcode, sort by the money
 * too (price, cost, profit, margin), `filter[product_id]` for the combos holding a product. The
 * detail and every write are combos.routes.ts: a combo has items, which the kit does not write.
 */
export const combos: ResourceDefinition<'combos', typeof comboInput, typeof combo> = {
  table: 'combos',
  path: '/api/combos',
  resource: 'combos',
  entity: 'entity.combo',
  input: comboInput,
  output: combo,
  routes: ['list'],
  query: comboRows,
  /** The till's local catalogue: combos changed since a cursor; their items from the detail. */
  changes: true,
  policy: {
    present: (actor, row) => ({ ...presentCombo(actor, row), abilities: comboPolicy.abilities(actor, row) }),
    hiddenSorts: hiddenComboSorts,
  },
  searchable: ['combos.name_en', 'combos.name_kh', 'combos.sku', 'combos.barcode'],
  sortable: {
    name_en: 'combos.name_en',
    name_kh: 'combos.name_kh',
    sku: 'combos.sku',
    selling_price: 'combos.selling_price_cents',
    price: 'price_cents',
    total_cost: 'total_cost_cents',
    profit: 'profit_cents',
    margin: 'margin_bp',
    total_quantity: 'total_quantity',
    status: 'combos.status',
    created_at: 'combos.created_at',
  },
  defaultSort: 'name_en',
  filters: {
    status: { column: 'combos.status', schema: z.enum(RECORD_STATUSES) },
    product_id: {
      schema: z.coerce.number().int().min(1),
      apply: (query, value) =>
        query.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('combo_items')
              .select(sql`1`.as('one'))
              .whereRef('combo_items.combo_id', '=', 'combos.id')
              .where('combo_items.product_id', '=', value as number),
          ),
        ),
    },
  },
};
