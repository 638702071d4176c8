import { describe, expect, it } from 'vitest';
import { readsSql } from '../../test/sql.ts';
import {
  cartCombos,
  cartDiscounts,
  cartProducts,
  cartUnits,
  cashiers,
  comboParts,
  hasInvoice,
  invoiceOf,
  invoiceSource,
  itemsOf,
  orderDetail,
  orderLineIds,
  orderLines,
  orderStatus,
  paymentsOf,
  refundedCents,
  takenBy,
} from './orders.repository.ts';

describe('the orders repository’s reads', () => {
  it('send the SQL committed in orders.repository.sql, on both databases', async () => {
    const text = await readsSql({
      'orderDetail: its head': (db) => orderDetail(db, 1),
      'orderDetail: its lines': (db) => itemsOf(db, { id: 1 }),
      'orderDetail: its payments': (db) => paymentsOf(db, { id: 1 }),
      'orderDetail: its invoice': (db) => invoiceOf(db, { id: 1 }),
      cashiers: (db) => cashiers(db, (orders) => orders),
      cartProducts: (db) => cartProducts(db, [1, 2]),
      cartCombos: (db) => cartCombos(db, [1]),
      comboParts: (db) => comboParts(db, [1]),
      cartUnits: (db) => cartUnits(db, [1]),
      cartDiscounts: (db) => cartDiscounts(db, [1]),
      orderStatus: (db) => orderStatus(db, 1),
      orderLines: (db) => orderLines(db, 1),
      orderLineIds: (db) => orderLineIds(db, 1),
      refundedCents: (db) => refundedCents(db, 1),
      invoiceSource: (db) => invoiceSource(db, 1),
      hasInvoice: (db) => hasInvoice(db, 1),
      takenBy: (db) => takenBy(db, [1, 2]),
    });
    await expect(text).toMatchFileSnapshot('./orders.repository.sql');
  });
});
