import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rielOf } from './money.ts';
import { afterPercentOff, choosePrice, type PriceAsk, type PriceRule } from './prices.ts';
import { priceCart } from './pricing.ts';

/*
 * The precedence of ARCHITECTURE.md "Wholesale prices", held by properties: the group's unit price,
 * else the base list's, else factor × the product's price; then the lowest break that applies and
 * is lower. Products 1–2, units 10 (own, factor 1) and 11 (carton, factor 12), categories 5–6,
 * groups 1–2: small ranges, so generated rules often name the line.
 */

const groupId = fc.constantFrom(null, 1, 2);
const rule: fc.Arbitrary<PriceRule> = fc.oneof(
  fc.record({
    customer_group_id: groupId,
    scope: fc.constant('product' as const),
    product_id: fc.constantFrom(1, 2),
    unit_id: fc.constantFrom(10, 11),
    category_id: fc.constant(null),
    min_quantity: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 30 })),
    price_cents: fc.integer({ min: 0, max: 100_000 }),
    price_khr: fc.option(fc.integer({ min: 0, max: 400_000_000 })),
    off_bp: fc.constant(null),
  }),
  fc.record({
    customer_group_id: groupId,
    scope: fc.constant('category' as const),
    product_id: fc.constant(null),
    unit_id: fc.constant(null),
    category_id: fc.constantFrom(5, 6),
    min_quantity: fc.integer({ min: 2, max: 300 }),
    price_cents: fc.constant(null),
    price_khr: fc.constant(null),
    off_bp: fc.integer({ min: 1, max: 10_000 }),
  }),
);
/** One live row per list, product, unit (or category) and threshold, as the database keeps them. */
const rules = fc.uniqueArray(rule, {
  maxLength: 25,
  selector: (r) => `${r.customer_group_id}|${r.scope}|${r.product_id}|${r.unit_id}|${r.category_id}|${r.min_quantity}`,
});
const ask: fc.Arbitrary<PriceAsk> = fc
  .record({
    unit: fc.constantFrom({ id: 10, factor: 1 }, { id: 11, factor: 12 }),
    quantity: fc.integer({ min: 1, max: 40 }),
    group_id: groupId,
    price: fc.integer({ min: 0, max: 10_000 }),
    category: fc.constantFrom(5, 6),
  })
  .map(({ unit, quantity, group_id, price, category }) => ({
    product: { id: 1, category_id: category, price_usd_cents: price, unit_id: 10 },
    unit_id: unit.id,
    factor: unit.factor,
    quantity,
    group_id,
  }));

/** The documented rule, written out the long way: the oracle the function is held to. */
function expected(a: PriceAsk, rs: readonly PriceRule[]) {
  const unitRow = (g: number | null) =>
    rs.find(
      (r) =>
        r.customer_group_id === g &&
        r.scope === 'product' &&
        r.product_id === a.product.id &&
        r.unit_id === a.unit_id &&
        r.min_quantity === 1,
    );
  const group = a.group_id === null ? undefined : unitRow(a.group_id);
  const base = unitRow(null);
  const list = group?.price_cents ?? base?.price_cents ?? a.product.price_usd_cents * a.factor;
  const source = group ? 'group' : base ? 'base' : 'product';
  const breaks = rs
    .filter((r) => r.customer_group_id === null || r.customer_group_id === a.group_id)
    .filter((r) => r.min_quantity >= 2)
    .flatMap((r) => {
      if (
        r.scope === 'product' &&
        r.product_id === a.product.id &&
        r.unit_id === a.unit_id &&
        r.min_quantity <= a.quantity
      )
        return [r.price_cents as number];
      if (r.scope === 'category' && r.category_id === a.product.category_id && r.min_quantity <= a.quantity * a.factor)
        return [afterPercentOff(list, r.off_bp as number)];
      return [];
    });
  const best = Math.min(list, ...breaks);
  return { unit_price_cents: best, list_price_cents: list, source: best < list ? 'break' : source };
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('choosePrice', () => {
  it('follows the documented precedence: group unit price, base unit price, factor × price; then the lowest break', () => {
    fc.assert(
      fc.property(ask, rules, (a, rs) => {
        const chosen = choosePrice(a, rs);
        expect({
          unit_price_cents: chosen.unit_price_cents,
          list_price_cents: chosen.list_price_cents,
          source: chosen.source,
        }).toEqual(expected(a, rs));
      }),
      { numRuns: 2000 },
    );
  });

  it('is deterministic: the same line and rows give the same answer in any order, whatever other lists hold', () => {
    fc.assert(
      fc.property(ask, rules, rules, fc.integer({ min: 0, max: 2 ** 30 }), (a, rs, others, seed) => {
        const first = choosePrice(a, rs);
        expect(choosePrice(a, shuffled(rs, seed))).toEqual(first);
        // rows of another group, product or category change nothing
        const elsewhere = others.map((r) => ({
          ...r,
          customer_group_id: r.customer_group_id === null ? 99 : r.customer_group_id + 90,
        }));
        expect(choosePrice(a, [...elsewhere, ...rs])).toEqual(first);
      }),
      { numRuns: 1000 },
    );
  });

  it('never charges more for buying more: a longer line never has a dearer unit', () => {
    fc.assert(
      fc.property(ask, rules, fc.integer({ min: 1, max: 40 }), (a, rs, more) => {
        const bigger = choosePrice({ ...a, quantity: a.quantity + more }, rs);
        expect(bigger.unit_price_cents).toBeLessThanOrEqual(choosePrice(a, rs).unit_price_cents);
      }),
    );
  });

  it('prices a cart exactly in cents, and its riel is rielOf the dollar total', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(ask, fc.boolean()), { minLength: 1, maxLength: 8 }),
        rules,
        fc.integer({ min: 3_800, max: 4_300 }),
        fc.constantFrom(1, 100),
        (lines, rs, rate, step) => {
          const chosen = lines.map(([a]) => choosePrice(a, rs));
          for (const c of chosen) {
            expect(Number.isSafeInteger(c.unit_price_cents)).toBe(true);
            expect(c.unit_price_cents).toBeGreaterThanOrEqual(0);
            expect(c.unit_price_cents).toBeLessThanOrEqual(c.list_price_cents);
          }
          const priced = priceCart({
            lines: lines.map(([a, taxable], i) => ({
              unit_price_cents: chosen[i].unit_price_cents,
              quantity: a.quantity,
              taxable,
            })),
            vat_rate_bp: 1000,
          });
          expect(priced.subtotal_cents).toBe(
            lines.reduce((sum, [a], i) => sum + chosen[i].unit_price_cents * a.quantity, 0),
          );
          expect(Number.isSafeInteger(priced.total_cents)).toBe(true);
          const khr = rielOf(priced.total_cents, { rate_khr: rate, khr_step: step });
          expect(khr % step).toBe(0);
          expect(Math.abs(khr - (priced.total_cents * rate) / 100)).toBeLessThanOrEqual(step / 2);
        },
      ),
    );
  });

  it('sells three wholesale cartons at the group price and five at the break', () => {
    const product = { id: 1, category_id: 5, price_usd_cents: 125, unit_id: 10 };
    const rs: PriceRule[] = [
      {
        customer_group_id: 1,
        scope: 'product',
        product_id: 1,
        unit_id: 11,
        category_id: null,
        min_quantity: 1,
        price_cents: 1400,
        price_khr: 57_000,
        off_bp: null,
      },
      {
        customer_group_id: 1,
        scope: 'product',
        product_id: 1,
        unit_id: 11,
        category_id: null,
        min_quantity: 5,
        price_cents: 1350,
        price_khr: null,
        off_bp: null,
      },
      {
        customer_group_id: null,
        scope: 'category',
        product_id: null,
        unit_id: null,
        category_id: 5,
        min_quantity: 120,
        price_cents: null,
        price_khr: null,
        off_bp: 500,
      },
    ];
    const line = (group_id: number | null, quantity: number) =>
      choosePrice({ product, unit_id: 11, factor: 12, quantity, group_id }, rs);
    expect(line(1, 3)).toMatchObject({ unit_price_cents: 1400, source: 'group', group_id: 1, price_khr: 57_000 });
    expect(line(1, 5)).toMatchObject({ unit_price_cents: 1350, source: 'break', min_quantity: 5 });
    // from 120 cans (10 cartons) the base list's category break, 5 % off the group's $14.00: $13.30
    expect(line(1, 10)).toMatchObject({ unit_price_cents: 1330, source: 'break', group_id: null, min_quantity: 120 });
    // retail: 12 × $1.25 = $15.00; from 10 cartons 5 % off: $14.25
    expect(line(null, 9)).toMatchObject({ unit_price_cents: 1500, source: 'product', group_id: null });
    expect(line(null, 10)).toMatchObject({ unit_price_cents: 1425, source: 'break', list_price_cents: 1500 });
  });
});
