import { randomUUID } from 'node:crypto';
import {
  type CartLine,
  type ChangeIn,
  changeGiven,
  choosePrice,
  DELIVERY_FLOW,
  type DeliveryStatus,
  type DiscountRule,
  discountApplies,
  khrToCents,
  type MessageKey,
  type MessageParams,
  type orderInput,
  type PaymentStatus,
  type PriceSource,
  priceCart,
  type Rates,
  type returnInput,
  rielOf,
  type SaleRates,
  settle,
  type tenderInput,
  todayInCambodia,
  usdCentsToKhr,
} from '@depot/contracts';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import { type Db, isPostgres, now } from '../../db/database.ts';
import { type Later, later, runTogether } from '../../db/later.ts';
import { tallyOrder, tallyPaid, tallyPayments, tallyReturned } from '../../db/rollups.ts';
import type { OrderItemBatchesTable, OrdersTable } from '../../db/schema.ts';
import { nextDocumentNumber } from '../../db/sequences.ts';
import { AppError, FieldError } from '../../http/errors.ts';
import type { StepContext } from '../../kit/document.ts';
import { findLive } from '../../kit/resource.ts';
import { indexRecords, LEAD, termRows, termsOf } from '../../kit/search.ts';
import { authorizeSale } from '../../policies/orders.ts';
import type { Actor } from '../../policies/policy.ts';
import { customerPriceGroup, listNames, priceRulesFor } from '../prices/prices.service.ts';
import { drawerShift, movesCash } from '../shifts/shifts.service.ts';
import { issueAll, lockProducts, receive, share } from '../stock/ledger.ts';
import { factorFor } from '../stock/stock.repository.ts';

/*
 * The steps of an order's writes, each a named function that can be read and tested alone. The
 * orders service (orders.service.ts) composes them inside the document building block, which
 * locks, authorizes and runs them in one transaction.
 */

export type OrderInput = z.output<typeof orderInput>;
export type ReturnInput = z.output<typeof returnInput>;
export type Tender = z.output<typeof tenderInput>;
type Problems = Record<string, { key: MessageKey; params?: MessageParams }[]>;
export type OrderRow = Selectable<OrdersTable>;

/** A line of a cart as it will be sold: priced from the catalogue, with the stock it takes. */
export interface Line {
  kind: 'product' | 'combo';
  product_id: number | null;
  combo_id: number | null;
  name_en: string;
  name_kh: string;
  sku: string;
  unit_id: number | null;
  factor: number;
  quantity: number;
  unit_price_cents: number;
  /** Why it costs that (contracts `choosePrice`): the list price before a break, the list's names. */
  price_source: PriceSource;
  list_price_cents: number;
  price_list_en: string | null;
  price_list_kh: string | null;
  taxable: boolean;
  discount: { id: number; name: string; rule: DiscountRule } | null;
  /** The base units of each product the line takes (a combo's items, times the line's quantity). */
  takes: { product_id: number; units: number }[];
}

/** Payment status from what is paid, what is due and whether it goes out for delivery. */
export function paymentStatus(total: number, paid: number, delivery: boolean): PaymentStatus {
  if (paid >= total) return 'paid';
  if (paid > 0) return 'partially_paid';
  return delivery ? 'pending' : 'unpaid';
}

/**
 * The store a sale is made in (the one named, else the seller's home store): live, active and
 * covered by the seller; and its customer, live (answered too: readCart prices by its group).
 */
export async function saleStore(trx: Db, actor: Actor, input: OrderInput) {
  const storeId = input.store_id ?? actor.storeId;
  if (!storeId) throw new FieldError({ store_id: [{ key: 'validation.required' }] });
  const store = await findLive(trx, 'stores', storeId);
  if (!store) throw new FieldError({ store_id: [{ key: 'validation.exists' }] });
  if (store.status !== 'active') throw new FieldError({ store_id: [{ key: 'validation.store_inactive' }] });
  authorizeSale(actor, store.id);
  const customer = await findLive(trx, 'customers', input.customer_id);
  if (!customer) throw new FieldError({ customer_id: [{ key: 'validation.exists' }] });
  return { store, customer };
}

/**
 * Checks a cart against the catalogue: live, active products and combos, a unit of each product,
 * discounts that apply today. Every mistake at once, on its field (`items.2.unit_id`).
 */
export async function readCart(
  trx: Db,
  input: OrderInput,
  today: string,
  /** The customer's row, when the caller has read it (saleStore): not read again. */
  customer?: { customer_group_id: number | null },
) {
  const problems: Problems = {};
  const add = (field: string, key: MessageKey, params?: MessageParams) => {
    problems[field] = [...(problems[field] ?? []), { key, params }];
  };
  const productIds = input.items.flatMap((i) => (i.product_id ? [i.product_id] : []));
  const comboIds = input.items.flatMap((i) => (i.combo_id ? [i.combo_id] : []));
  const discountIds = [
    ...input.items.flatMap((i) => (i.discount_id ? [i.discount_id] : [])),
    ...(input.discount_id ? [input.discount_id] : []),
  ];

  const products = new Map(
    (productIds.length
      ? await trx
          .selectFrom('products')
          .selectAll()
          .where('id', 'in', productIds)
          .where('deleted_at', 'is', null)
          .execute()
      : []
    ).map((p) => [p.id, p]),
  );
  // the customer's price list (saleStore has found the customer): their group's rows and the base list's
  const group = (await customerPriceGroup(trx, input.customer_id, customer)) ?? null;
  const priceRules = await priceRulesFor(trx, group?.id ?? null, [...products.values()]);
  const combos = new Map(
    (comboIds.length
      ? await trx.selectFrom('combos').selectAll().where('id', 'in', comboIds).where('deleted_at', 'is', null).execute()
      : []
    ).map((c) => [c.id, c]),
  );
  const comboItems = comboIds.length
    ? await trx
        .selectFrom('combo_items')
        .innerJoin('products', 'products.id', 'combo_items.product_id')
        .select([
          'combo_items.combo_id',
          'combo_items.product_id',
          'combo_items.factor',
          'combo_items.quantity',
          'products.taxable',
        ])
        .where('combo_items.combo_id', 'in', comboIds)
        .execute()
    : [];
  const units = new Map(
    (
      await trx
        .selectFrom('units')
        .select(['id', 'base_unit_id', 'factor', 'name_en', 'name_kh'])
        .where('deleted_at', 'is', null)
        .where('id', 'in', [0, ...input.items.flatMap((i) => (i.unit_id ? [i.unit_id] : []))])
        .execute()
    ).map((u) => [u.id, u]),
  );
  const discounts = new Map(
    (discountIds.length
      ? await trx
          .selectFrom('discounts')
          .selectAll()
          .where('id', 'in', discountIds)
          .where('deleted_at', 'is', null)
          .execute()
      : []
    ).map((d) => [d.id, d]),
  );
  const discountFor = (discountId: number | null, field: string, target: Parameters<typeof discountApplies>[1]) => {
    if (!discountId) return null;
    const found = discounts.get(discountId);
    if (!found || !discountApplies(found, target, today)) {
      add(field, 'order.discount_not_applicable');
      return null;
    }
    return { id: found.id, name: found.name, rule: { type: found.type, amount: Number(found.amount) } as DiscountRule };
  };

  const lines: Line[] = [];
  for (const [index, item] of input.items.entries()) {
    const field = `items.${index}`;
    if (item.product_id) {
      const product = products.get(item.product_id);
      if (!product) {
        add(`${field}.product_id`, 'validation.exists');
        continue;
      }
      if (product.status !== 'active') add(`${field}.product_id`, 'validation.product_inactive');
      const unit = item.unit_id ? units.get(item.unit_id) : null;
      const factor = item.unit_id ? (unit ? factorFor(product.unit_id, unit) : null) : 1;
      if (factor === null) {
        add(`${field}.unit_id`, 'stock.unit_of_product');
        continue;
      }
      const chosen = choosePrice(
        {
          product: { ...product, price_usd_cents: Number(product.price_usd_cents) },
          unit_id: item.unit_id ?? product.unit_id,
          factor,
          quantity: item.quantity,
          group_id: group?.id ?? null,
        },
        priceRules,
      );
      lines.push({
        kind: 'product',
        product_id: product.id,
        combo_id: null,
        name_en: product.name_en,
        name_kh: product.name_kh,
        sku: product.sku,
        unit_id: item.unit_id ?? product.unit_id,
        factor,
        quantity: item.quantity,
        unit_price_cents: chosen.unit_price_cents,
        price_source: chosen.source,
        list_price_cents: chosen.list_price_cents,
        ...listNames(chosen, group),
        taxable: Number(product.taxable) === 1,
        discount: discountFor(item.discount_id, `${field}.discount_id`, {
          product_id: product.id,
          category_id: product.category_id,
        }),
        takes: [{ product_id: product.id, units: item.quantity * factor }],
      });
    } else if (item.combo_id) {
      const combo = combos.get(item.combo_id);
      if (!combo) {
        add(`${field}.combo_id`, 'validation.exists');
        continue;
      }
      if (combo.status !== 'active') add(`${field}.combo_id`, 'validation.product_inactive');
      if (item.discount_id) add(`${field}.discount_id`, 'order.discount_not_applicable');
      const parts = comboItems.filter((c) => c.combo_id === combo.id);
      lines.push({
        kind: 'combo',
        product_id: null,
        combo_id: combo.id,
        name_en: combo.name_en,
        name_kh: combo.name_kh,
        sku: combo.sku,
        unit_id: null,
        factor: 1,
        quantity: item.quantity,
        unit_price_cents: Number(combo.selling_price_cents),
        price_source: 'combo',
        list_price_cents: Number(combo.selling_price_cents),
        price_list_en: null,
        price_list_kh: null,
        // a bundle carries VAT when any of its products does
        taxable: parts.some((p) => Number(p.taxable) === 1),
        // discounts name products and categories; a combo's price is already its own
        discount: null,
        takes: parts.map((p) => ({ product_id: p.product_id, units: item.quantity * p.quantity * p.factor })),
      });
    }
  }
  const orderDiscount = discountFor(input.discount_id, 'discount_id', 'order');
  if (Object.keys(problems).length) throw new FieldError(problems);
  return { lines, orderDiscount };
}

export type Cart = Awaited<ReturnType<typeof readCart>>;

/** The money of a cart: `priceCart`, the function the till shows the same numbers with. */
export function priceOrder(cart: Cart, rates: SaleRates, delivery: OrderInput['delivery']) {
  const lines: CartLine[] = cart.lines.map((l) => ({
    unit_price_cents: l.unit_price_cents,
    quantity: l.quantity,
    taxable: l.taxable,
    discount: l.discount?.rule ?? null,
  }));
  return priceCart({
    lines,
    order_discount: cart.orderDiscount?.rule ?? null,
    vat_rate_bp: rates.vat_rate_bp,
    delivery_fee_cents: delivery?.fee_cents ?? 0,
  });
}

export type Priced = ReturnType<typeof priceOrder>;

/** The order row of a priced cart: held (no stock, payment on hold) or sold (confirmed, nothing paid yet). */
export function orderValues(
  input: OrderInput,
  sale: { storeId: number; cashierId: number; cart: Cart; priced: Priced; rates: SaleRates; held: boolean; at: string },
) {
  const { priced, rates, held } = sale;
  return {
    store_id: sale.storeId,
    customer_id: input.customer_id,
    cashier_id: sale.cashierId,
    order_date: sale.at,
    status: held ? ('held' as const) : ('confirmed' as const),
    payment_status: held ? ('onhold' as const) : paymentStatus(priced.total_cents, 0, input.delivery !== null),
    subtotal_cents: priced.subtotal_cents,
    discount_cents: priced.discount_cents,
    tax_cents: priced.tax_cents,
    delivery_fee_cents: priced.delivery_fee_cents,
    total_cents: priced.total_cents,
    paid_cents: 0,
    change_cents: 0,
    change_khr: 0,
    change_given_cents: 0,
    change_given_khr: 0,
    exchange_rate_khr: rates.rate_khr,
    rate_in_khr: rates.rate_in_khr ?? null,
    rate_out_khr: rates.rate_out_khr ?? null,
    khr_step: rates.khr_step,
    total_khr: rielOf(priced.total_cents, rates),
    vat_rate_bp: rates.vat_rate_bp,
    discount_id: sale.cart.orderDiscount?.id ?? null,
    note: input.note,
    shipping_address: input.delivery?.shipping_address ?? null,
    delivery_status: input.delivery && !held ? ('preparing' as const) : null,
    // lines, as a purchase and a combo count them (the invoices list and the held orders read it)
    items_count: sale.cart.lines.length,
    // made on the till with no connection (orders.service.ts `create` checks the claim)
    offline_sold_at: input.offline ? new Date(input.offline.sold_at).toISOString() : null,
    offline_receipt_no: input.offline?.device_receipt_no ?? null,
    updated_at: sale.at,
  };
}

export type OrderValues = ReturnType<typeof orderValues>;

/**
 * Writes the order row: a held order's new values, or a new one under a provisional number that
 * `numberSale` replaces in the sale's last statement (see there).
 */
export async function writeOrder(trx: Db, orderId: number | null, values: OrderValues): Promise<number> {
  if (orderId !== null) {
    await trx.updateTable('orders').set(values).where('id', '=', orderId).execute();
    return orderId;
  }
  const made = await trx
    .insertInto('orders')
    .values({
      ...values,
      number: `ORD~${randomUUID().replaceAll('-', '').slice(0, 24)}`,
      created_at: values.updated_at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return made.id;
}

/**
 * A sale's numbers, taken last: its invoice's (INV-<store>-<year>-<6 digits>, when `openInvoice`
 * made one) and a new order's (ORD-<year>-<6 digits>). Their counters' rows are one for every till
 * of the store (the invoice's) or of the depot (the order's), and on PostgreSQL locked until the
 * commit: taken first they made every sale wait for the whole of the one before (12 sales/s at 32
 * tills). So the counters, the numbers and their search terms are all among the transaction's last
 * writes (db/later.ts: on PostgreSQL one statement, the counters' upsert a WITH the others read),
 * and a counter is held for that statement and the commit only. A new order's terms are written
 * here (its number's, its note's and address's): the kit does not read it back (`ctx.indexed`).
 */
export async function numberSale(
  ctx: StepContext,
  sale: {
    order?: { id: number; note: string | null; shipping_address: string | null };
    invoice?: { id: number; code: string } | null;
  },
): Promise<void> {
  const { trx } = ctx;
  const year = todayInCambodia().slice(0, 4);
  const numbered = [
    ...(sale.invoice
      ? [{ table: 'invoices' as const, id: sale.invoice.id, prefix: `INV-${sale.invoice.code}`, texts: [] }]
      : []),
    ...(sale.order
      ? [
          {
            table: 'orders' as const,
            id: sale.order.id,
            prefix: 'ORD',
            texts: [sale.order.note, sale.order.shipping_address],
          },
        ]
      : []),
  ];
  if (!numbered.length) return;
  const pg = isPostgres(trx);
  const writes: Later[] = [
    {
      name: 'numbers',
      query: trx
        .insertInto('sequences')
        .values(numbered.map((n) => ({ key: `${n.prefix}:${year}`, value: 1 })))
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql<number>`sequences.value + 1` }))
        .returning(['key', 'value'])
        .compile(),
    },
  ];
  for (const n of numbered) {
    const key = `${n.prefix}:${year}`;
    // the counter's new value as six digits (or more): PostgreSQL reads the upsert's WITH (a
    // statement's parts see none of each other's writes), SQLite the row just counted
    const digits = pg
      ? sql`(select case when value < 1000000 then lpad(cast(value as text), 6, '0') else cast(value as text) end
          from numbers where key = ${key})`
      : sql`(select printf('%06d', value) from sequences where key = ${key})`;
    const head = `${n.prefix}-${year}-`;
    writes.push({
      query: sql`update ${sql.table(n.table)} set number = ${head} || ${digits} where id = ${n.id}`.compile(trx),
    });
    // the number's terms end with its digits (contracts termsOf: the whole, and what follows each
    // separator); the other texts' are known
    const heads = termsOf([`${head}000000`]).map((term) => term.slice(0, -6));
    // the note's and address's terms, all of them (a phone number's digits too): one the number
    // also has (the note repeating it) is written once, whichever insert comes first
    const others = termRows(n.table, [{ id: n.id, sortKey: null, texts: n.texts }]);
    writes.push({
      query: sql`insert into search_terms (resource, term, lead, record_id, sort_key)
        select ${n.table}, t.column1 || d.n, substr(t.column1 || d.n, 1, ${LEAD}), cast(${n.id} as bigint), null
        from (select ${digits} as n) d, (values ${sql.join(heads.map((h) => sql`(${h})`))}) t
        where true on conflict do nothing`.compile(trx),
    });
    if (others.length) {
      writes.push({
        query: trx
          .insertInto('search_terms')
          .values(others)
          .onConflict((oc) => oc.doNothing())
          .compile(),
      });
    }
  }
  if (sale.order) ctx.indexed = true;
  await later(trx, ...writes);
}

/**
 * Writes the priced lines of an order (replacing a held order's) in one statement; answers their
 * ids in order. A sale's (the order's values as written: confirmed) count in the reports' rollups.
 */
export async function writeLines(
  trx: Db,
  orderId: number,
  lines: Line[],
  priced: Priced,
  replace: boolean,
  order: OrderValues,
) {
  if (replace) await trx.deleteFrom('order_items').where('order_id', '=', orderId).execute();
  const rows = await trx
    .insertInto('order_items')
    .values(
      lines.map((line, i) => {
        const p = priced.lines[i];
        return {
          order_id: orderId,
          kind: line.kind,
          product_id: line.product_id,
          combo_id: line.combo_id,
          name_en: line.name_en,
          name_kh: line.name_kh,
          sku: line.sku,
          unit_id: line.unit_id,
          factor: line.factor,
          quantity: line.quantity,
          unit_price_cents: line.unit_price_cents,
          discount_id: line.discount?.id ?? null,
          discount_name: line.discount?.name ?? null,
          line_discount_cents: p.line_discount_cents,
          order_discount_cents: p.order_discount_cents,
          net_cents: p.net_cents,
          tax_cents: p.tax_cents,
          total_cents: p.total_cents,
          taxable: line.taxable ? 1 : 0,
          returned_quantity: 0,
          price_source: line.price_source,
          list_price_cents: line.list_price_cents,
          price_list_en: line.price_list_en,
          price_list_kh: line.price_list_kh,
        };
      }),
    )
    .returning('id')
    .execute();
  // a sale (not a held cart) counts in the reports' daily rollups (db/rollups.ts) from now on: the
  // order and lines as just written, not read back
  if (order.status === 'confirmed') {
    await tallyOrder(trx, orderId, 1, {
      order,
      lines: lines.map((line, i) => ({
        kind: line.kind,
        product_id: line.product_id,
        combo_id: line.combo_id,
        quantity: line.quantity,
        returned_quantity: 0,
        unit_price_cents: line.unit_price_cents,
        line_discount_cents: priced.lines[i].line_discount_cents,
        order_discount_cents: priced.lines[i].order_discount_cents,
        net_cents: priced.lines[i].net_cents,
        tax_cents: priced.lines[i].tax_cents,
      })),
    });
  }
  // one statement numbers its rows in the order given, on both databases; RETURNING's own order is
  // not promised, so the ids are put back in order
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** An order as taking a payment reads it. */
export type Payable = Pick<
  OrderRow,
  | 'id'
  | 'total_cents'
  | 'paid_cents'
  | 'exchange_rate_khr'
  | 'rate_in_khr'
  | 'rate_out_khr'
  | 'khr_step'
  | 'shipping_address'
  // the change already given back, and the keys its rollups are counted by: known to the caller
  // (the locked row, or the sale's values), not read back
  | 'change_given_cents'
  | 'change_given_khr'
  | 'order_date'
  | 'store_id'
  | 'cashier_id'
  | 'customer_id'
  | 'status'
>;

/**
 * Records what was handed over against what is due. Cash may be more than due (the change is
 * worked out in both currencies); card, transfer and KHQR may not. Answers the new payment status
 * and what the order has paid. The payments' insert and the order's update are one statement on
 * PostgreSQL (db/later.ts runTogether); nothing is read back. The cash goes into, and the change
 * comes out of, the drawer of whoever takes it (`drawerShift`; the sale passes its own, known).
 */
export async function recordPayments(
  trx: Db,
  order: Payable,
  tenders: Tender[],
  userId: number,
  changeIn: ChangeIn = 'split',
  drawer?: number | null,
) {
  const total = Number(order.total_cents);
  const due = total - Number(order.paid_cents);
  if (due <= 0) throw new FieldError({ payments: [{ key: 'order.nothing_due' }] });
  const shiftId =
    drawer !== undefined
      ? drawer
      : await drawerShift(trx, userId, order.store_id, movesCash(tenders.map((t) => t.method)) ? 'cash' : null);
  const rates: Rates = {
    rate_khr: order.exchange_rate_khr,
    rate_in_khr: order.rate_in_khr,
    rate_out_khr: order.rate_out_khr,
    khr_step: order.khr_step,
  };
  const exact = tenders.filter((t) => !t.method.startsWith('cash_')).reduce((sum, t) => sum + t.amount, 0);
  if (exact > due) throw new FieldError({ payments: [{ key: 'order.over_paid_card', params: { due: { usd: due } } }] });
  const s = settle(due, tenders, rates);
  const at = now();
  const rateIn = rates.rate_in_khr || rates.rate_khr;
  const rows = tenders.map((tender) => ({
    order_id: order.id,
    kind: 'payment' as const,
    method: tender.method,
    amount: tender.amount,
    amount_cents: tender.method === 'cash_khr' ? khrToCents(tender.amount, rateIn) : tender.amount,
    transaction_id: tender.transaction_id,
    received_by: userId,
    shift_id: shiftId,
    created_at: at,
  }));
  await tallyPayments(trx, order.id, rows, order);
  const before = {
    change_cents: Number(order.change_given_cents),
    change_khr: Number(order.change_given_khr),
    paid_cents: Number(order.paid_cents),
  };
  // paid: what was handed over, up to the total (a riel total rounded down by the step is paid)
  const given = changeGiven(s, changeIn);
  const paid = s.status === 'paid' ? total : Number(order.paid_cents) + s.tendered_cents;
  const status = paymentStatus(total, paid, order.shipping_address !== null);
  await runTogether(trx, [
    { query: trx.insertInto('order_payments').values(rows).compile() },
    {
      query: trx
        .updateTable('orders')
        .set({
          paid_cents: paid,
          payment_status: status,
          change_cents: s.change_cents,
          change_khr: s.change_khr,
          change_given_cents: given.usd_cents,
          change_given_khr: given.khr,
          change_shift_id: shiftId,
        })
        .where('id', '=', order.id)
        .compile(),
    },
  ]);
  await tallyPaid(
    trx,
    order.id,
    before,
    { change_cents: given.usd_cents, change_khr: given.khr, paid_cents: paid },
    order,
  );
  return { status, paid_cents: paid };
}

/** What an order's invoice is made of, or null when it has one (a later payment's: issueInvoice). */
export async function invoiceDraft(trx: Db, orderId: number) {
  const row = await trx
    .selectFrom('orders')
    .innerJoin('stores', 'stores.id', 'orders.store_id')
    .select(['orders.store_id', 'stores.code', 'orders.total_cents', 'orders.tax_cents', 'orders.items_count'])
    .where('orders.id', '=', orderId)
    .executeTakeFirstOrThrow();
  const exists = await trx.selectFrom('invoices').select('id').where('order_id', '=', orderId).executeTakeFirst();
  return exists ? null : row;
}

/**
 * A sale's invoice, made before its stock under a provisional number (`INV~…`) that `numberSale`
 * replaces as the sale's last step, in the same transaction: the numbers stay gapless.
 */
export async function openInvoice(
  trx: Db,
  orderId: number,
  draft: { store_id: number; code: string; total_cents: number; tax_cents: number; items_count: number },
) {
  const at = now();
  const { id } = await trx
    .insertInto('invoices')
    .values({
      number: `INV~${randomUUID().replaceAll('-', '').slice(0, 24)}`,
      order_id: orderId,
      store_id: draft.store_id,
      total_cents: Number(draft.total_cents),
      tax_cents: Number(draft.tax_cents),
      items_count: draft.items_count,
      paid_at: at,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, code: draft.code };
}

/**
 * An invoice once the order is paid in full, by a later payment: numbered per store and year
 * (INV-PP01-2026-000001). A sale makes its own with `openInvoice` and `numberSale`.
 */
export async function issueInvoice(trx: Db, orderId: number, draft?: Awaited<ReturnType<typeof invoiceDraft>>) {
  const row = draft === undefined ? await invoiceDraft(trx, orderId) : draft;
  if (!row) return;
  const at = now();
  const year = todayInCambodia().slice(0, 4);
  const { id } = await trx
    .insertInto('invoices')
    .values({
      number: await nextDocumentNumber(trx, `INV-${row.code}`, year),
      order_id: orderId,
      store_id: row.store_id,
      total_cents: Number(row.total_cents),
      tax_cents: Number(row.tax_cents),
      items_count: row.items_count,
      paid_at: at,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await indexRecords(trx, { table: 'invoices', searchable: ['invoices.number'] }, [id]);
}

/**
 * The stock of a sale leaves the store: each line's units, first to expire first, as sales. A sale
 * made offline (`allowNegative`) takes units beyond the stock too: each line keeps how many base
 * units it oversold and the order is marked; the answer says whether any did.
 */
export async function takeStock(
  trx: Db,
  order: { id: number; storeId: number; userId: number; allowNegative?: boolean },
  lines: Line[],
  itemIds: number[],
): Promise<boolean> {
  // every line's products at once, set-wise (the ledger locks them in id order, then a few statements)
  const ops = lines.flatMap((line, i) =>
    line.takes.map((take) => ({
      line: i,
      productId: take.product_id,
      issue: {
        storeId: order.storeId,
        productId: take.product_id,
        type: line.kind === 'combo' ? ('bundle_consumption' as const) : ('sale' as const),
        quantity: take.units,
        document: { type: 'order' as const, id: order.id },
        userId: order.userId,
        allowNegative: order.allowNegative === true,
      },
    })),
  );
  // the ledger's writes are left for the transaction's end (db/later.ts), but for an offline sale's
  // (its shortage is written in between): the products stay locked until the commit either way
  const picked = await issueAll(
    trx,
    ops.map((op) => op.issue),
    { late: true },
  );
  const oversold = new Map<number, number>();
  const taken: Insertable<OrderItemBatchesTable>[] = ops.flatMap((op, k) =>
    picked[k].map((pick) => {
      const itemId = itemIds[op.line];
      if (pick.beyond) oversold.set(itemId, (oversold.get(itemId) ?? 0) + pick.beyond);
      return {
        order_item_id: itemId,
        product_id: op.productId,
        batch_id: pick.batchId,
        quantity: pick.quantity,
        value_cents: pick.valueCents,
        returned: 0,
      };
    }),
  );
  // which batches each line took, for returns: one statement (6 parameters a row)
  for (let i = 0; i < taken.length; i += 100) {
    await later(trx, {
      query: trx
        .insertInto('order_item_batches')
        .values(taken.slice(i, i + 100))
        .compile(),
    });
  }
  for (const [itemId, units] of oversold) {
    await trx.updateTable('order_items').set({ oversold: units }).where('id', '=', itemId).execute();
  }
  if (oversold.size) await trx.updateTable('orders').set({ oversold: 1 }).where('id', '=', order.id).execute();
  return oversold.size > 0;
}

/** Lines given back, each with the part of it that is back so far (returned / quantity). */
export type Back = { itemId: number; share: [number, number] }[];

/**
 * Puts back, as returns through the ledger, the part `share` (returned so far / quantity) of what
 * some lines took: per line and product the units due back so far, less those already back,
 * batch by batch; a line given back whole returns exactly its units and their value.
 */
export async function putBack(
  trx: Db,
  order: { id: number; storeId: number; userId: number },
  back: Back,
  note: string | null,
) {
  if (!back.length) return;
  const rows = await trx
    .selectFrom('order_item_batches')
    .selectAll()
    .where(
      'order_item_id',
      'in',
      back.map((b) => b.itemId),
    )
    .orderBy('id')
    .execute();
  await lockProducts(
    trx,
    rows.map((r) => r.product_id),
  );
  for (const {
    itemId,
    share: [part, whole],
  } of back) {
    for (const productId of new Set(rows.filter((r) => r.order_item_id === itemId).map((r) => r.product_id))) {
      const group = rows.filter((r) => r.order_item_id === itemId && r.product_id === productId);
      const taken = group.reduce((sum, r) => sum + Number(r.quantity), 0);
      const already = group.reduce((sum, r) => sum + Number(r.returned), 0);
      // a line's units are its quantity times the units of one: the part is always whole units
      let need = (taken * part) / whole - already;
      for (const row of group) {
        if (need <= 0) break;
        const quantity = Number(row.quantity);
        const returned = Number(row.returned);
        const units = Math.min(need, quantity - returned);
        if (units <= 0) continue;
        const value = Number(row.value_cents);
        const worth =
          returned + units === quantity
            ? value - share(value, returned, quantity)
            : share(value, returned + units, quantity) - share(value, returned, quantity);
        await receive(trx, {
          storeId: order.storeId,
          productId,
          type: 'return',
          batch: { id: row.batch_id },
          quantity: units,
          valueCents: worth,
          document: { type: 'order', id: order.id },
          userId: order.userId,
          note,
        });
        await trx
          .updateTable('order_item_batches')
          .set({ returned: returned + units })
          .where('id', '=', row.id)
          .execute();
        need -= units;
      }
    }
  }
}

/** Every line of a sale, whole: what a void gives back. */
export async function everyLine(trx: Db, orderId: number): Promise<Back> {
  const items = await trx.selectFrom('order_items').select('id').where('order_id', '=', orderId).execute();
  return items.map((i) => ({ itemId: i.id, share: [1, 1] }));
}

/** What was paid and not yet given back goes back in dollars cash, from the voider's drawer: a void's refund. */
export async function refundTheRest(
  trx: Db,
  order: Pick<OrderRow, 'id' | 'paid_cents' | 'store_id'>,
  userId: number,
  at: string,
) {
  const refunded = Number(
    (
      await trx
        .selectFrom('order_payments')
        .select(sql<number>`coalesce(sum(amount_cents), 0)`.as('n'))
        .where('order_id', '=', order.id)
        .where('kind', '=', 'refund')
        .executeTakeFirstOrThrow()
    ).n,
  );
  const owed = Number(order.paid_cents) - refunded;
  if (owed <= 0) return;
  const row = {
    order_id: order.id,
    kind: 'refund' as const,
    method: 'cash_usd',
    amount: owed,
    amount_cents: owed,
    transaction_id: null,
    received_by: userId,
    shift_id: await drawerShift(trx, userId, order.store_id, 'cash'),
    created_at: at,
  };
  await trx.insertInto('order_payments').values(row).execute();
  await tallyPayments(trx, order.id, [row]);
}

/** A voided sale's invoice is void too (deleted: invoice numbers are never reused). */
export async function voidInvoice(trx: Db, orderId: number, at: string) {
  await trx.updateTable('invoices').set({ deleted_at: at, updated_at: at }).where('order_id', '=', orderId).execute();
}

/** The order is cancelled: when, by whom, why, and which manager approved. */
export async function markCancelled(
  trx: Db,
  orderId: number,
  cancel: { at: string; userId: number; reason: string | null; approvedBy: number | null },
) {
  const before = await trx.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow();
  await trx
    .updateTable('orders')
    .set({
      status: 'cancelled',
      cancelled_at: cancel.at,
      cancelled_by: cancel.userId,
      cancel_reason: cancel.reason,
      approved_by: cancel.approvedBy,
    })
    .where('id', '=', orderId)
    .execute();
  // a sale voided counts out of the reports' daily rollups (a held order never counted)
  if (before.status === 'confirmed') await tallyOrder(trx, orderId, -1);
}

/**
 * The lines a return names, checked against what is left of each (every mistake at once), their
 * returned quantities moved on, and the refund: each line's share by quantity, the last unit back
 * taking the rest of the line.
 */
export async function returnLines(trx: Db, orderId: number, items: ReturnInput['items']) {
  const lines = new Map(
    (await trx.selectFrom('order_items').selectAll().where('order_id', '=', orderId).execute()).map((i) => [i.id, i]),
  );
  const was = new Map([...lines].map(([id, i]) => [id, i.returned_quantity]));
  const problems: Problems = {};
  let refund = 0;
  // a line named twice: the second counts from where the first left it, and the last share stands
  const shares = new Map<number, [number, number]>();
  for (const [index, line] of items.entries()) {
    const item = lines.get(line.order_item_id);
    if (!item) {
      problems[`items.${index}.order_item_id`] = [{ key: 'order.not_item' }];
      continue;
    }
    const left = item.quantity - item.returned_quantity;
    if (line.quantity > left) {
      problems[`items.${index}.quantity`] = [{ key: 'order.over_returned', params: { left } }];
      continue;
    }
    const total = Number(item.total_cents);
    const after = item.returned_quantity + line.quantity;
    refund += share(total, after, item.quantity) - share(total, item.returned_quantity, item.quantity);
    shares.set(item.id, [after, item.quantity]);
    item.returned_quantity = after;
  }
  if (Object.keys(problems).length) throw new FieldError(problems);
  const back: Back = [...shares].map(([itemId, share]) => ({ itemId, share }));
  const given: Parameters<typeof tallyReturned>[2] = [];
  for (const {
    itemId,
    share: [after],
  } of back) {
    await trx.updateTable('order_items').set({ returned_quantity: after }).where('id', '=', itemId).execute();
    const line = lines.get(itemId)!;
    const units = after - (was.get(itemId) ?? 0);
    given.push({ kind: line.kind, product_id: line.product_id, combo_id: line.combo_id, units });
  }
  await tallyReturned(trx, orderId, given);
  return { refund, back };
}

/**
 * A return's refund in the method chosen (riel at the sale's rate out), from the drawer of whoever
 * hands it back, and the return itself.
 */
export async function recordReturn(
  trx: Db,
  order: Pick<OrderRow, 'id' | 'exchange_rate_khr' | 'rate_out_khr' | 'khr_step' | 'store_id'>,
  refund: { cents: number; method: 'cash_usd' | 'cash_khr'; note: string | null },
  by: { userId: number; approvedBy: number | null; at: string },
) {
  const rateOut = order.rate_out_khr || order.exchange_rate_khr;
  const payment = {
    order_id: order.id,
    kind: 'refund' as const,
    method: refund.method,
    amount: refund.method === 'cash_khr' ? usdCentsToKhr(refund.cents, rateOut, order.khr_step) : refund.cents,
    amount_cents: refund.cents,
    transaction_id: null,
    received_by: by.userId,
    shift_id: await drawerShift(trx, by.userId, order.store_id, 'cash'),
    created_at: by.at,
  };
  await trx.insertInto('order_payments').values(payment).execute();
  await tallyPayments(trx, order.id, [payment]);
  await trx
    .insertInto('order_returns')
    .values({
      order_id: order.id,
      refund_cents: refund.cents,
      note: refund.note,
      created_by: by.userId,
      approved_by: by.approvedBy,
      created_at: by.at,
    })
    .execute();
}

/** Moves a delivery one of its allowed steps on (DELIVERY_FLOW), or refuses naming both. */
export async function moveDelivery(trx: Db, order: Pick<OrderRow, 'id' | 'delivery_status'>, to: DeliveryStatus) {
  const from = order.delivery_status as DeliveryStatus;
  if (!DELIVERY_FLOW[from].includes(to)) {
    throw new AppError(409, 'order.delivery_step', {
      from: { key: `delivery.${from}` as MessageKey },
      to: { key: `delivery.${to}` as MessageKey },
    });
  }
  await trx.updateTable('orders').set({ delivery_status: to }).where('id', '=', order.id).execute();
}
