import type { ProductInput } from '@depot/contracts';
import type { Db } from '../db/database.ts';
import { lockProducts, receive } from '../modules/stock/ledger.ts';
import type { TestContext } from './harness.ts';

/**
 * The server tests' shared catalogue: the drinks category, its units and products, made through the
 * API as a user makes them (so every rule on the way applies), and stock put in through the ledger.
 * A suite names what it needs; what it asserts stays in the suite.
 */

export const DRINKS = { name_en: 'Drinks', name_kh: 'ភេសជ្ជៈ' };

/** The units a suite may ask for besides the can, in the order it names them. */
const UNITS = {
  can: { name_en: 'Can', name_kh: 'កំប៉ុង', short_name: 'can' },
  carton: { name_en: 'Carton', name_kh: 'កេស', short_name: 'ctn', factor: 24 },
  kilo: { name_en: 'Kilogram', name_kh: 'គីឡូក្រាម', short_name: 'kg' },
  bag: { name_en: 'Bag', name_kh: 'បាវ', short_name: 'bag' },
};
type Unit = Exclude<keyof typeof UNITS, 'can'>;

/** Names of the products most suites sell. */
export const BEER = { name_en: 'Angkor beer', name_kh: 'ស្រាបៀរអង្គរ' };
export const WATER = { name_en: 'Vital water', name_kh: 'ទឹកវីតាល់' };
export const RICE = { name_en: 'Jasmine rice', name_kh: 'អង្ករម្លិះ' };
/** The till suites' beer: $1.25 a can, with VAT. */
export const TAXED_BEER = { ...BEER, sku: 'BEER-1', price_usd_cents: 125, taxable: true };

/**
 * Makers over a suite's app (`useTestApp`), as the user whose `headers` are given (read when
 * called: a suite signs in in its `beforeAll`). Each answers the new record's id; an answer
 * other than 201 fails the set-up with the server's answer.
 */
export function factories(ctx: TestContext, headers: () => Record<string, string>) {
  async function create(url: string, payload: object): Promise<number> {
    const res = await ctx.app.inject({ method: 'POST', url, headers: headers(), payload });
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.body}`);
    return res.json().data.id as number;
  }

  return {
    create,

    /**
     * The Drinks category, a can, and the other units named (a carton is 24 cans), made in that
     * order.
     */
    async catalogue<U extends Unit>(...units: U[]): Promise<{ drinks: number; can: number } & Record<U, number>> {
      const drinks = await create('/api/categories', DRINKS);
      const can = await create('/api/units', UNITS.can);
      const made: Record<string, number> = { drinks, can };
      for (const unit of units)
        made[unit] = await create(
          '/api/units',
          unit === 'carton' ? { ...UNITS.carton, base_unit_id: can } : UNITS[unit],
        );
      return made as { drinks: number; can: number } & Record<U, number>;
    },

    /** A product: sold at $1.00 unless the fields say otherwise. */
    product: (fields: Omit<ProductInput, 'price_usd_cents'> & Partial<Pick<ProductInput, 'price_usd_cents'>>) =>
      create('/api/products', { price_usd_cents: 100, ...fields }),
  };
}

/** The first store (the one a fresh database has). */
export async function firstStore(db: Db): Promise<number> {
  return (await db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
}

/** The walk-in customer. */
export async function walkIn(db: Db): Promise<number> {
  return (await db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()).id;
}

/** Stock as a purchase receipt would bring it: straight through the ledger, the one writer. */
export async function stockIn(
  db: Db,
  to: { store: number; product: number; quantity: number; valueCents: number; lot?: string; expiryDate?: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockProducts(trx, [to.product]);
    await receive(trx, {
      storeId: to.store,
      productId: to.product,
      type: 'purchase_receipt',
      batch: { lot: to.lot ?? null, expiryDate: to.expiryDate ?? null },
      quantity: to.quantity,
      valueCents: to.valueCents,
      document: null,
      userId: null,
    });
  });
}
