import {
  type ComboAction,
  type ComboDetail,
  type ComboItem,
  type ComboPreview,
  type comboInput,
  comboTotals,
  LINE_TOTAL_MAX_CENTS,
  type MessageKey,
  type MessageParams,
  QUANTITY_MAX,
} from '@depot/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import { type DocumentDefinition, documentService } from '../../kit/document.ts';
import type { Read } from '../../kit/resource.ts';
import { comboPolicy, presentCombo } from '../../policies/combos.ts';
import type { Actor } from '../../policies/policy.ts';
import { checkItem } from '../products/products.items.ts';
import { share } from '../stock/ledger.ts';
import {
  comboRow,
  comboRows,
  type ItemRow,
  insertCombo,
  itemRows,
  productsByIds,
  replaceItems,
  takenBy,
  unitsByIds,
  updateCombo,
  userName,
  valuationsOf,
} from './combos.repository.ts';
import { combos } from './combos.resources.ts';

type Input = z.output<typeof comboInput>;
type Problems = Record<string, { key: MessageKey; params?: MessageParams }[]>;

/** What an item is priced from: its product's price and cost, its unit, and how many. */
interface ItemSource {
  product_id: number;
  product_name_en: string;
  product_name_kh: string;
  sku: string;
  price_usd_cents: number;
  cost_usd_cents: number;
  unit_id: number;
  unit_name_en: string;
  unit_name_kh: string;
  factor: number;
  quantity: number;
}

type Valuations = Awaited<ReturnType<typeof valuationsOf>>;

/**
 * An item as the API shows it: its price (the product's price × quantity × factor) and what its
 * base units are worth now, as the ledger's `worthNow` reckons it (the weighted average cost of the
 * stock, or the product's cost price when none is in stock), read without locking the product.
 */
function itemOf(source: ItemSource, valuations: Valuations): ComboItem & { cost_cents: number } {
  const factor = Number(source.factor);
  const quantity = Number(source.quantity);
  const baseQuantity = quantity * factor;
  const valuation = valuations.get(source.product_id);
  const cost =
    valuation && valuation.quantity > 0
      ? share(valuation.value, baseQuantity, valuation.quantity)
      : source.cost_usd_cents * baseQuantity;
  return {
    product_id: source.product_id,
    product_name_en: source.product_name_en,
    product_name_kh: source.product_name_kh,
    sku: source.sku,
    unit_id: source.unit_id,
    unit_name_en: source.unit_name_en,
    unit_name_kh: source.unit_name_kh,
    factor,
    quantity,
    base_quantity: baseQuantity,
    unit_price_cents: source.price_usd_cents * factor,
    price_cents: source.price_usd_cents * baseQuantity,
    cost_cents: cost,
  };
}

async function priced(db: Db, sources: ItemSource[], sellingPriceCents: number) {
  const valuations = await valuationsOf(db, [...new Set(sources.map((s) => s.product_id))]);
  const items = sources.map((source) => itemOf(source, valuations));
  return { ...comboTotals(items, sellingPriceCents), items };
}

/**
 * The rules of a combo's body, all checked before anything is written (one 422 naming every field
 * at fault): the SKU and the barcode are free among live combos and live products; each product is
 * live and active, each unit the product's own or one made of it, no product twice in one unit,
 * and no item worth more than a line may be. Answers the items as they are priced.
 */
async function checkInput(db: Db, input: Input, id: number | null): Promise<ItemSource[]> {
  const problems: Problems = {};
  const add = (field: string, key: MessageKey, params?: MessageParams) => {
    problems[field] ??= [{ key, params }];
  };
  for (const field of ['sku', 'barcode'] as const) {
    const value = input[field];
    if (value === null) continue;
    if (await takenBy(db, 'combos', field, value, id)) add(field, 'validation.unique');
    else if (await takenBy(db, 'products', field, value, null)) add(field, 'validation.used_by_product');
  }

  const products = await productsByIds(db, [...new Set(input.items.map((i) => i.product_id))]);
  const units = await unitsByIds(db, [
    ...new Set(input.items.map((i) => i.unit_id ?? products.get(i.product_id)?.unit_id ?? 0)),
  ]);
  const sources: ItemSource[] = [];
  const seen = new Set<string>();
  for (const [index, item] of input.items.entries()) {
    const field = `items.${index}`;
    const checked = checkItem(item, field, { products, units }, add);
    if (!checked) continue;
    const { product, unit, factor } = checked;
    const pair = `${product.id}:${unit.id}`;
    if (seen.has(pair)) add(`${field}.product_id`, 'combo.duplicate_item');
    seen.add(pair);
    const baseQuantity = item.quantity * factor;
    if (baseQuantity > QUANTITY_MAX) {
      add(`${field}.quantity`, 'validation.number_max', { max: Math.floor(QUANTITY_MAX / factor) });
    } else if (Math.max(product.price_usd_cents, product.cost_usd_cents) * baseQuantity > LINE_TOTAL_MAX_CENTS) {
      add(`${field}.quantity`, 'purchase.line_too_large', { max: { usd: LINE_TOTAL_MAX_CENTS } });
    }
    sources.push({
      product_id: product.id,
      product_name_en: product.name_en,
      product_name_kh: product.name_kh,
      sku: product.sku,
      price_usd_cents: product.price_usd_cents,
      cost_usd_cents: product.cost_usd_cents,
      unit_id: unit.id,
      unit_name_en: unit.name_en,
      unit_name_kh: unit.name_kh,
      factor,
      quantity: item.quantity,
    });
  }
  if (Object.keys(problems).length) throw new FieldError(problems);
  return sources;
}

const valuesOf = (input: Input) => ({
  name_en: input.name_en,
  name_kh: input.name_kh,
  description: input.description,
  sku: input.sku,
  barcode: input.barcode,
  selling_price_cents: input.selling_price_cents,
  status: input.status,
});

const itemRowsOf = (sources: ItemSource[]): ItemRow[] =>
  sources.map((s) => ({ product_id: s.product_id, unit_id: s.unit_id, factor: s.factor, quantity: s.quantity }));

/** The combo with its items, priced now (a deleted combo too: its detail stays readable). */
async function detail(db: Db, id: number): Promise<Read<ComboDetail>> {
  const head = await comboRows(db).where('combos.id', '=', id).executeTakeFirst();
  if (!head) throw notFound();
  const sources = (await itemRows(db, id)).map((row) => ({
    ...row,
    price_usd_cents: Number(row.price_usd_cents),
    cost_usd_cents: Number(row.cost_usd_cents),
  }));
  return { ...head, ...(await priced(db, sources, head.selling_price_cents)) };
}

/** A combo as a document (kit/document.ts): its list, policy and detail, what the actor sees of it. */
export const comboDocument: DocumentDefinition<'combos', Read<ComboDetail>, ComboAction> = {
  table: 'combos',
  list: combos,
  reindex: ['update'],
  onDeleted: ['restore'],
  policy: comboPolicy,
  detail,
  present: presentCombo,
};

export function comboService(db: Db) {
  const documents = documentService(db, comboDocument);

  return {
    show: (actor: Actor, id: number) => documents.show(actor, id),

    /**
     * The combo a body would make, priced as the saved one would be, nothing written: the review
     * screen shows the server's numbers. With `comboId`, the combo being edited (its own SKU and
     * barcode are no conflict, and its creator stays).
     */
    async preview(actor: Actor, input: Input, comboId?: number): Promise<ComboPreview> {
      let createdBy: number | null = actor.userId;
      if (comboId !== undefined) {
        const existing = await comboRow(db, comboId);
        if (!existing || existing.deleted_at !== null) throw notFound();
        createdBy = existing.created_by;
      }
      const sources = await checkInput(db, input, comboId ?? null);
      return presentCombo(actor, {
        ...valuesOf(input),
        ...(await priced(db, sources, input.selling_price_cents)),
        created_by: createdBy,
        created_by_name: await userName(db, createdBy),
      });
    },

    create(actor: Actor, input: Input) {
      return documents.create(actor, async ({ trx, at }) => {
        const sources = await checkInput(trx, input, null);
        const id = await insertCombo(trx, {
          ...valuesOf(input),
          created_by: actor.userId,
          created_at: at,
          updated_at: at,
        });
        await replaceItems(trx, id, itemRowsOf(sources));
        return id;
      });
    },

    /** Replaces the whole combo, items included. */
    update(actor: Actor, id: number, input: Input) {
      return documents.act(actor, id, 'update', async ({ trx }) => {
        const sources = await checkInput(trx, input, id);
        await updateCombo(trx, id, valuesOf(input));
        await replaceItems(trx, id, itemRowsOf(sources));
      });
    },

    /** Soft delete (404 for a combo already deleted). */
    remove(actor: Actor, id: number) {
      return documents.act(actor, id, 'delete', async ({ trx, at }) => {
        await updateCombo(trx, id, { deleted_at: at });
      });
    },

    /**
     * Brings a deleted combo back, unless its SKU or barcode has been taken meanwhile (by a combo
     * or a product: 422 on the field) or one of its products has been deleted (409). A live combo
     * is answered as it is.
     */
    async restore(actor: Actor, id: number) {
      const row = await comboRow(db, id);
      if (row && row.deleted_at === null) return documents.show(actor, id);
      return documents.act(actor, id, 'restore', async ({ trx, at, row }) => {
        const problems: Problems = {};
        for (const field of ['sku', 'barcode'] as const) {
          const value = row[field];
          if (value === null) continue;
          if (await takenBy(trx, 'combos', field, value, id)) problems[field] = [{ key: 'validation.unique' }];
          else if (await takenBy(trx, 'products', field, value, null))
            problems[field] = [{ key: 'validation.used_by_product' }];
        }
        if (Object.keys(problems).length) throw new FieldError(problems);
        const gone = (await itemRows(trx, id)).find((item) => item.product_deleted_at !== null);
        if (gone)
          throw new AppError(409, 'combo.product_deleted', {
            product: { en: gone.product_name_en, kh: gone.product_name_kh },
          });
        // updated_at with it: the till's catalogue reads a restored combo as changed
        await trx.updateTable('combos').set({ deleted_at: null, updated_at: at }).where('id', '=', id).execute();
      });
    },
  };
}

export type ComboService = ReturnType<typeof comboService>;
