import {
  type CartLine,
  centsToKhr,
  DELIVERY_FLOW,
  type DeliveryStatus,
  type DiscountRule,
  discountApplies,
  formatUsd,
  khrToCents,
  type MessageKey,
  type MessageParams,
  type OrderDetail,
  type orderInput,
  type PaymentStatus,
  priceCart,
  type Rates,
  type returnInput,
  settle,
  type tenderInput,
  todayInCambodia,
} from '@depot/contracts';
import { type Insertable, sql } from 'kysely';
import type { z } from 'zod';
import { type Db, now } from '../../db/database.ts';
import type { OrderItemBatchesTable } from '../../db/schema.ts';
import { nextDocumentNumber } from '../../db/sequences.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import { findLive } from '../../kit/resource.ts';
import { indexRecords } from '../../kit/search.ts';
import { tableChanged } from '../../kit/totals.ts';
import { saleRates } from '../rates/rates.service.ts';
import { issue, lockProducts, receive, share } from '../stock/ledger.ts';
import { factorFor } from '../stock/stock.repository.ts';
import { cashiers, orderDetail } from './orders.repository.ts';
import { orders } from './orders.resources.ts';

type Input = z.output<typeof orderInput>;
type Return = z.output<typeof returnInput>;
type Problems = Record<string, { key: MessageKey; params?: MessageParams }[]>;
type Tender = z.output<typeof tenderInput>;

/** "Order ORD-2026-000001 is cancelled: it cannot be paid." */
function refuse(row: { number: string; status: string }, action: MessageKey): AppError {
  return new AppError(409, 'order.state', {
    number: row.number,
    status: { key: `status.${row.status}` as MessageKey },
    action: { key: action },
  });
}

interface Line {
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
  taxable: boolean;
  discount: { id: number; name: string; rule: DiscountRule } | null;
  /** The base units of each product the line takes (a combo's items, times the line's quantity). */
  takes: { product_id: number; units: number }[];
}

/**
 * Checks a cart against the catalogue: live, active products and combos, a unit of each product,
 * discounts that apply today. Every mistake at once, on its field (`items.2.unit_id`).
 */
async function readCart(trx: Db, input: Input, today: string) {
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
        unit_price_cents: product.price_usd_cents * factor,
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

/** Payment status from what is paid, what is due and whether it goes out for delivery. */
function paymentStatus(total: number, paid: number, delivery: boolean): PaymentStatus {
  if (paid >= total) return 'paid';
  if (paid > 0) return 'partially_paid';
  return delivery ? 'pending' : 'unpaid';
}

export function orderService(db: Db) {
  /** A write in one transaction, then the order as it is now; lists and search follow. */
  async function write(work: (trx: Db) => Promise<number>): Promise<OrderDetail> {
    try {
      const id = await db.transaction().execute(work);
      // read after the commit: nothing here holds a lock any more
      return await orderDetail(db, id);
    } finally {
      await Promise.all([tableChanged(db, 'orders'), tableChanged(db, 'invoices')]);
    }
  }

  /**
   * A sale's money, then its stock. Taking the stock locks the products until the commit (on
   * PostgreSQL, other tills selling them wait), so it comes last: the locks are held for the ledger's
   * own statements only. A refusal of either undoes both.
   */
  async function sell(trx: Db, cart: Awaited<ReturnType<typeof writeCart>>, payments: Tender[], userId: number) {
    if (payments.length) await pay(trx, cart.id, payments, userId);
    else if (cart.total === 0) await issueInvoice(trx, cart.id);
    await takeStock(trx, cart.id, cart.storeId, cart.lines, cart.itemIds, userId);
  }

  /** Takes the order row's lock (PostgreSQL) before anything else: one write per order at a time. */
  async function lock(trx: Db, id: number) {
    const row = await trx
      .updateTable('orders')
      .set({ updated_at: now() })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  async function storeFor(trx: Db, input: Input, userId: number) {
    const user = await trx.selectFrom('users').select('store_id').where('id', '=', userId).executeTakeFirst();
    const storeId = input.store_id ?? user?.store_id ?? null;
    if (!storeId) throw new FieldError({ store_id: [{ key: 'validation.required' }] });
    const store = await findLive(trx, 'stores', storeId);
    if (!store) throw new FieldError({ store_id: [{ key: 'validation.exists' }] });
    if (store.status !== 'active') throw new FieldError({ store_id: [{ key: 'validation.store_inactive' }] });
    const customer = await findLive(trx, 'customers', input.customer_id);
    if (!customer) throw new FieldError({ customer_id: [{ key: 'validation.exists' }] });
    return store;
  }

  /** Writes the priced cart as the order's lines (replacing a held order's), answers the money. */
  async function writeCart(trx: Db, orderId: number | null, input: Input, userId: number, held: boolean) {
    const today = todayInCambodia();
    const store = await storeFor(trx, input, userId);
    const { lines, orderDiscount } = await readCart(trx, input, today);
    const rates = await saleRates(trx);
    const cart: CartLine[] = lines.map((l) => ({
      unit_price_cents: l.unit_price_cents,
      quantity: l.quantity,
      taxable: l.taxable,
      discount: l.discount?.rule ?? null,
    }));
    const priced = priceCart({
      lines: cart,
      order_discount: orderDiscount?.rule ?? null,
      vat_rate_bp: rates.vat_rate_bp,
      delivery_fee_cents: input.delivery?.fee_cents ?? 0,
    });
    const at = now();
    const values = {
      store_id: store.id,
      customer_id: input.customer_id,
      cashier_id: userId,
      order_date: at,
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
      exchange_rate_khr: rates.rate_khr,
      rate_in_khr: rates.rate_in_khr ?? null,
      rate_out_khr: rates.rate_out_khr ?? null,
      khr_step: rates.khr_step,
      total_khr: centsToKhr(priced.total_cents, rates.rate_khr, rates.khr_step),
      vat_rate_bp: rates.vat_rate_bp,
      discount_id: orderDiscount?.id ?? null,
      note: input.note,
      shipping_address: input.delivery?.shipping_address ?? null,
      delivery_status: input.delivery && !held ? ('preparing' as const) : null,
      items_count: lines.reduce((sum, l) => sum + l.quantity, 0),
      updated_at: at,
    };
    let id = orderId;
    if (id === null) {
      const made = await trx
        .insertInto('orders')
        .values({ ...values, number: await nextDocumentNumber(trx, 'ORD', today.slice(0, 4)), created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = made.id;
    } else {
      await trx.updateTable('orders').set(values).where('id', '=', id).execute();
      await trx.deleteFrom('order_items').where('order_id', '=', id).execute();
    }
    const rows = await trx
      .insertInto('order_items')
      .values(
        lines.map((line, i) => {
          const p = priced.lines[i];
          return {
            order_id: id,
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
          };
        }),
      )
      .returning('id')
      .execute();
    // one statement numbers its rows in the order given, on both databases; RETURNING's own order is
    // not promised, so the ids are put back in order
    const itemIds = rows.map((r) => r.id).sort((a, b) => a - b);
    // the order is found by its number, its note and its delivery address
    await indexRecords(trx, orders, [id]);
    return { id, storeId: store.id, lines, itemIds, total: priced.total_cents, rates };
  }

  /** The stock of a sale leaves the store: each line's units, first to expire first, as sales. */
  async function takeStock(
    trx: Db,
    orderId: number,
    storeId: number,
    lines: Line[],
    itemIds: number[],
    userId: number,
  ) {
    await lockProducts(
      trx,
      lines.flatMap((l) => l.takes.map((t) => t.product_id)),
    );
    const taken: Insertable<OrderItemBatchesTable>[] = [];
    for (const [i, line] of lines.entries()) {
      for (const take of line.takes) {
        const picks = await issue(trx, {
          storeId,
          productId: take.product_id,
          type: line.kind === 'combo' ? 'bundle_consumption' : 'sale',
          quantity: take.units,
          document: { type: 'order', id: orderId },
          userId,
        });
        for (const pick of picks) {
          taken.push({
            order_item_id: itemIds[i],
            product_id: take.product_id,
            batch_id: pick.batchId,
            quantity: pick.quantity,
            value_cents: pick.valueCents,
            returned: 0,
          });
        }
      }
    }
    // which batches each line took, for returns: one statement (6 parameters a row)
    for (let i = 0; i < taken.length; i += 100) {
      await trx
        .insertInto('order_item_batches')
        .values(taken.slice(i, i + 100))
        .execute();
    }
  }

  /**
   * Records what was handed over against what is due. Cash may be more than due (the change is
   * worked out in both currencies); card, transfer and KHQR may not. Paid in full: the invoice.
   */
  async function pay(trx: Db, orderId: number, tenders: Tender[], userId: number) {
    const row = await lock(trx, orderId);
    const due = Number(row.total_cents) - Number(row.paid_cents);
    if (due <= 0) throw new FieldError({ payments: [{ key: 'order.nothing_due' }] });
    const rates: Rates = {
      rate_khr: row.exchange_rate_khr,
      rate_in_khr: row.rate_in_khr,
      rate_out_khr: row.rate_out_khr,
      khr_step: row.khr_step,
    };
    const exact = tenders.filter((t) => !t.method.startsWith('cash_')).reduce((sum, t) => sum + t.amount, 0);
    if (exact > due)
      throw new FieldError({ payments: [{ key: 'order.over_paid_card', params: { due: formatUsd(due) } }] });
    const s = settle(due, tenders, rates);
    const at = now();
    const rateIn = rates.rate_in_khr || rates.rate_khr;
    await trx
      .insertInto('order_payments')
      .values(
        tenders.map((tender) => ({
          order_id: orderId,
          kind: 'payment' as const,
          method: tender.method,
          amount: tender.amount,
          amount_cents: tender.method === 'cash_khr' ? khrToCents(tender.amount, rateIn) : tender.amount,
          transaction_id: tender.transaction_id,
          received_by: userId,
          created_at: at,
        })),
      )
      .execute();
    // paid: what was handed over, up to the total (a riel total rounded down by the step is paid)
    const paid = s.status === 'paid' ? Number(row.total_cents) : Number(row.paid_cents) + s.tendered_cents;
    const status = paymentStatus(Number(row.total_cents), paid, row.shipping_address !== null);
    await trx
      .updateTable('orders')
      .set({ paid_cents: paid, payment_status: status, change_cents: s.change_cents, change_khr: s.change_khr })
      .where('id', '=', orderId)
      .execute();
    if (status === 'paid') await issueInvoice(trx, orderId);
  }

  /** An invoice once the order is paid in full: numbered per store and year (INV-PP01-2026-000001). */
  async function issueInvoice(trx: Db, orderId: number) {
    const row = await trx
      .selectFrom('orders')
      .innerJoin('stores', 'stores.id', 'orders.store_id')
      .select(['orders.store_id', 'stores.code', 'orders.total_cents', 'orders.tax_cents', 'orders.items_count'])
      .where('orders.id', '=', orderId)
      .executeTakeFirstOrThrow();
    const exists = await trx.selectFrom('invoices').select('id').where('order_id', '=', orderId).executeTakeFirst();
    if (exists) return;
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
   * Puts back, as returns through the ledger, the part `share` (returned so far / quantity) of what
   * some lines took: per line and product the units due back so far, less those already back,
   * batch by batch; a line given back whole returns exactly its units and their value.
   */
  async function putBack(
    trx: Db,
    orderId: number,
    storeId: number,
    back: { itemId: number; share: [number, number] }[],
    userId: number,
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
            storeId,
            productId,
            type: 'return',
            batch: { id: row.batch_id },
            quantity: units,
            valueCents: worth,
            document: { type: 'order', id: orderId },
            userId,
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

  return {
    show: (id: number) => orderDetail(db, id),
    cashiers: () => cashiers(db),

    /** A sale from the till: held, or sold at once (stock out, tenders recorded, invoice when paid). */
    create(input: Input, userId: number) {
      return write(async (trx) => {
        if (input.hold && input.payments.length) throw new FieldError({ payments: [{ key: 'validation.choice' }] });
        const cart = await writeCart(trx, null, input, userId, input.hold);
        if (!input.hold) await sell(trx, cart, input.payments, userId);
        return cart.id;
      });
    },

    /** A held order changed, or (hold: false) checked out: the cart as the till sends it now. */
    update(id: number, input: Input, userId: number) {
      return write(async (trx) => {
        const row = await lock(trx, id);
        if (row.status !== 'held') throw refuse(row, input.hold ? 'action.changed' : 'action.checked_out');
        if (input.hold && input.payments.length) throw new FieldError({ payments: [{ key: 'validation.choice' }] });
        const cart = await writeCart(trx, id, input, userId, input.hold);
        if (!input.hold) await sell(trx, cart, input.payments, userId);
        return id;
      });
    },

    /** Confirm payment: tenders against what is still due. */
    pay(id: number, tenders: Tender[], userId: number) {
      return write(async (trx) => {
        const row = await lock(trx, id);
        if (row.status !== 'confirmed') throw refuse(row, 'action.paid');
        await pay(trx, id, tenders, userId);
        return id;
      });
    },

    /**
     * Cancel: a held order is dropped; a sold one gives back every unit still out (through the
     * ledger, as returns), refunds what was paid in dollars, and voids its invoice.
     */
    cancel(id: number, reason: string | null, userId: number) {
      return write(async (trx) => {
        const row = await lock(trx, id);
        if (row.status === 'cancelled') throw refuse(row, 'action.cancelled');
        const at = now();
        if (row.status === 'confirmed') {
          const items = await trx
            .selectFrom('order_items')
            .select(['id', 'quantity'])
            .where('order_id', '=', id)
            .execute();
          await putBack(
            trx,
            id,
            row.store_id,
            items.map((i) => ({ itemId: i.id, share: [1, 1] as [number, number] })),
            userId,
            reason,
          );
          const refunded = Number(
            (
              await trx
                .selectFrom('order_payments')
                .select(sql<number>`coalesce(sum(amount_cents), 0)`.as('n'))
                .where('order_id', '=', id)
                .where('kind', '=', 'refund')
                .executeTakeFirstOrThrow()
            ).n,
          );
          const owed = Number(row.paid_cents) - refunded;
          if (owed > 0) {
            await trx
              .insertInto('order_payments')
              .values({
                order_id: id,
                kind: 'refund',
                method: 'cash_usd',
                amount: owed,
                amount_cents: owed,
                transaction_id: null,
                received_by: userId,
                created_at: at,
              })
              .execute();
          }
          await trx
            .updateTable('invoices')
            .set({ deleted_at: at, updated_at: at })
            .where('order_id', '=', id)
            .execute();
        }
        await trx
          .updateTable('orders')
          .set({ status: 'cancelled', cancelled_at: at, cancelled_by: userId, cancel_reason: reason })
          .where('id', '=', id)
          .execute();
        return id;
      });
    },

    /** A return of some or all of a paid order's lines: the units go back, the money goes out. */
    giveBack(id: number, input: Return, userId: number) {
      return write(async (trx) => {
        const row = await lock(trx, id);
        if (row.status !== 'confirmed') throw refuse(row, 'action.returned');
        if (row.payment_status !== 'paid') throw new AppError(409, 'order.not_paid');
        const items = new Map(
          (await trx.selectFrom('order_items').selectAll().where('order_id', '=', id).execute()).map((i) => [i.id, i]),
        );
        const problems: Problems = {};
        let refund = 0;
        const back: { itemId: number; share: [number, number] }[] = [];
        for (const [index, line] of input.items.entries()) {
          const item = items.get(line.order_item_id);
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
          // the refund of the line so far, by quantity; the last unit back takes the rest of the line
          refund += share(total, after, item.quantity) - share(total, item.returned_quantity, item.quantity);
          back.push({ itemId: item.id, share: [after, item.quantity] });
          await trx.updateTable('order_items').set({ returned_quantity: after }).where('id', '=', item.id).execute();
        }
        if (Object.keys(problems).length) throw new FieldError(problems);
        await putBack(trx, id, row.store_id, back, userId, input.note);
        const at = now();
        const rateOut = row.rate_out_khr || row.exchange_rate_khr;
        await trx
          .insertInto('order_payments')
          .values({
            order_id: id,
            kind: 'refund',
            method: input.refund_method,
            amount: input.refund_method === 'cash_khr' ? centsToKhr(refund, rateOut, row.khr_step) : refund,
            amount_cents: refund,
            transaction_id: null,
            received_by: userId,
            created_at: at,
          })
          .execute();
        await trx
          .insertInto('order_returns')
          .values({ order_id: id, refund_cents: refund, note: input.note, created_by: userId, created_at: at })
          .execute();
        return id;
      });
    },

    /** Moves a delivery along its allowed steps. */
    deliver(id: number, status: DeliveryStatus) {
      return write(async (trx) => {
        const row = await lock(trx, id);
        if (row.status !== 'confirmed') throw refuse(row, 'action.changed');
        if (!row.delivery_status) throw new AppError(409, 'order.no_delivery');
        const from = row.delivery_status as DeliveryStatus;
        if (!DELIVERY_FLOW[from].includes(status)) {
          throw new AppError(409, 'order.delivery_step', {
            from: { key: `delivery.${from}` as MessageKey },
            to: { key: `delivery.${status}` as MessageKey },
          });
        }
        await trx.updateTable('orders').set({ delivery_status: status }).where('id', '=', id).execute();
        return id;
      });
    },
  };
}

export type OrderService = ReturnType<typeof orderService>;
