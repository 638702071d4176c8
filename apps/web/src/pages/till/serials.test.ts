import { describe, expect, it } from 'vitest';
import {
  addLine,
  emptyCart,
  orderBody,
  productLine,
  readyToSell,
  type SoldProduct,
  withoutSerial,
  withSerial,
} from './cart.ts';

const phone: SoldProduct = {
  id: 7,
  name_en: 'Phone A5',
  name_kh: 'ទូរស័ព្ទ A5',
  sku: 'PH-A5',
  barcode: null,
  category_id: 1,
  thumbnail_url: null,
  unit_id: 3,
  unit_name_en: 'Set',
  unit_name_kh: 'គ្រឿង',
  price_usd_cents: 18_900,
  taxable: false,
  serial_tracked: true,
};

/** The till's cart with a product sold by serial (issue 28): one serial per unit, the quantity their count. */
describe('a cart line sold by serial', () => {
  it('waits for its serial, counts its serials, and sends them', () => {
    let cart = addLine(emptyCart(1, 1), productLine(phone));
    expect(cart.lines[0].serials).toEqual([]);
    expect(readyToSell(cart)).toBe(false);
    // the product again: the line grows by its serials, not by a second tap
    cart = addLine(cart, productLine(phone));
    expect(cart.lines).toHaveLength(1);
    const line = withSerial(withSerial(cart.lines[0], '359593267380419'), '359593267380427');
    expect(line.quantity).toBe(2);
    expect(withSerial(line, '359593267380419').serials).toHaveLength(2);
    cart = { ...cart, lines: [line] };
    expect(readyToSell(cart)).toBe(true);
    expect(orderBody(cart, { hold: false }).items[0]).toMatchObject({
      product_id: 7,
      quantity: 2,
      serials: ['359593267380419', '359593267380427'],
    });
    const fewer = withoutSerial(withoutSerial(line, '359593267380419'), '359593267380427');
    expect(fewer).toMatchObject({ serials: [], quantity: 1 });
    expect(readyToSell({ ...cart, lines: [fewer] })).toBe(false);
  });

  it('a product without serials sends none and adds up as before', () => {
    const tea = productLine({ ...phone, id: 8, serial_tracked: false });
    expect(tea.serials).toBeUndefined();
    const cart = addLine(addLine(emptyCart(1, 1), tea), productLine({ ...phone, id: 8, serial_tracked: false }));
    expect(cart.lines[0].quantity).toBe(2);
    expect(orderBody(cart, { hold: false }).items[0]).not.toHaveProperty('serials');
  });
});
