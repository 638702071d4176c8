import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KHR_ROUNDING_STEPS, rielOf, usdCentsToKhr } from './money.ts';
import { type Cart, type DiscountRule, priceCart, settle, type Tender } from './pricing.ts';

const discount: fc.Arbitrary<DiscountRule | null> = fc.oneof(
  fc.constant(null),
  fc.record({ type: fc.constant('percentage' as const), amount: fc.integer({ min: 0, max: 10_000 }) }),
  fc.record({ type: fc.constant('value' as const), amount: fc.integer({ min: 0, max: 50_000 }) }),
  fc.record({ type: fc.constant('fixed' as const), amount: fc.integer({ min: 0, max: 50_000 }) }),
);

const cart: fc.Arbitrary<Cart> = fc.record({
  lines: fc.array(
    fc.record({
      unit_price_cents: fc.integer({ min: 0, max: 1_000_000 }),
      quantity: fc.integer({ min: 1, max: 1000 }),
      taxable: fc.boolean(),
      discount,
    }),
    { minLength: 1, maxLength: 20 },
  ),
  order_discount: discount,
  vat_rate_bp: fc.integer({ min: 0, max: 3000 }),
  delivery_fee_cents: fc.integer({ min: 0, max: 100_000 }),
});

const rates = fc.record({
  rate_khr: fc.integer({ min: 3500, max: 4500 }),
  rate_in_khr: fc.option(fc.integer({ min: 3500, max: 4500 })),
  rate_out_khr: fc.option(fc.integer({ min: 3500, max: 4500 })),
  khr_step: fc.constantFrom(...KHR_ROUNDING_STEPS),
});

const tender: fc.Arbitrary<Tender> = fc.oneof(
  fc.record({ method: fc.constant('cash_usd' as const), amount: fc.integer({ min: 0, max: 500_000 }) }),
  fc.record({
    method: fc.constant('cash_khr' as const),
    amount: fc.integer({ min: 0, max: 2_000_000 }).map((r) => r - (r % 100)),
  }),
  fc.record({
    method: fc.constantFrom('card' as const, 'khqr' as const),
    amount: fc.integer({ min: 0, max: 500_000 }),
  }),
);

describe('pricing a cart', () => {
  it('adds up exactly and never goes below zero, whatever the discounts', () => {
    fc.assert(
      fc.property(cart, (c) => {
        const p = priceCart(c);
        for (const [i, line] of p.lines.entries()) {
          expect(Number.isSafeInteger(line.total_cents)).toBe(true);
          expect(line.gross_cents).toBe(c.lines[i].unit_price_cents * c.lines[i].quantity);
          expect(line.line_discount_cents).toBeGreaterThanOrEqual(0);
          expect(line.order_discount_cents).toBeGreaterThanOrEqual(0);
          expect(line.net_cents).toBe(line.gross_cents - line.line_discount_cents - line.order_discount_cents);
          expect(line.net_cents).toBeGreaterThanOrEqual(0);
          expect(line.tax_cents).toBeGreaterThanOrEqual(0);
          if (!c.lines[i].taxable) expect(line.tax_cents).toBe(0);
        }
        const sum = p.lines.reduce((a, l) => a + l.total_cents, 0);
        expect(p.total_cents).toBe(sum + (c.delivery_fee_cents ?? 0));
        expect(p.total_cents).toBe(p.subtotal_cents - p.discount_cents + p.tax_cents + p.delivery_fee_cents);
        expect(p.total_cents).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('takes VAT on the taxable lines after the discounts, rounded half up per line', () => {
    const p = priceCart({
      lines: [
        { unit_price_cents: 125, quantity: 3, taxable: true, discount: { type: 'value', amount: 10 } },
        { unit_price_cents: 1000, quantity: 1, taxable: false, discount: null },
      ],
      order_discount: { type: 'percentage', amount: 1000 },
      vat_rate_bp: 1000,
    });
    // 375 − 30 = 345 and 1000; 10 % off 1345 = 134.5 → 135, shared 35 / 100 (by value, to the cent)
    expect(p.lines.map((l) => [l.net_cents, l.tax_cents])).toEqual([
      [310, 31],
      [900, 0],
    ]);
    expect(p).toMatchObject({ subtotal_cents: 1375, discount_cents: 165, tax_cents: 31, total_cents: 1241 });
  });
});

describe('settling in dollars and riel', () => {
  it('never gives negative change, never leaves both a due and change, and rounds riel to the step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(tender, { maxLength: 4 }),
        rates,
        (total, tenders, r) => {
          const s = settle(total, tenders, r);
          expect(s.change_cents).toBeGreaterThanOrEqual(0);
          expect(s.due_cents).toBeGreaterThanOrEqual(0);
          expect(s.due_cents > 0 && s.change_cents > 0).toBe(false);
          for (const riel of [s.total_khr, s.due_khr, s.change_khr, s.change_split.khr]) {
            expect(riel % r.khr_step).toBe(0);
            expect(riel).toBeGreaterThanOrEqual(0);
          }
          expect(s.change_split.usd_cents % 100).toBe(0);
          expect(s.change_split.usd_cents).toBeLessThanOrEqual(s.change_cents);
          // change in riel: what was handed over beyond the total, at the rate for riel given, within
          // half a step; change in dollars never more than that
          const rateIn = r.rate_in_khr || r.rate_khr;
          const rateOut = r.rate_out_khr || r.rate_khr;
          const handed = tenders.reduce(
            (a, t) => a + (t.method === 'cash_khr' ? t.amount * 100 : t.amount * rateIn),
            0,
          );
          const over = Math.max(0, handed - total * rateIn);
          expect(Math.abs(s.change_khr - (over * rateOut) / rateIn / 100)).toBeLessThanOrEqual(r.khr_step / 2 + 0.001);
          expect(s.change_cents * rateIn).toBeLessThanOrEqual(over);
          expect(s.status === 'paid').toBe(s.due_cents === 0);
        },
      ),
      {
        // riel once rounded to the riel and then to the step drifted more than half a step off
        examples: [
          [
            409_288,
            [
              { method: 'cash_usd', amount: 499_985 },
              { method: 'cash_khr', amount: 1_830_400 },
            ],
            { rate_khr: 3500, rate_in_khr: 3509, rate_out_khr: 3722, khr_step: 100 },
          ],
        ],
      },
    );
  });

  it('asks a customer paying riel for the total’s riel figure, and counts it, handed over, as paid', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), rates, (total, r) => {
        const riel = rielOf(total, r);
        const s = settle(total, [], r);
        // the riel total shown is what is due in riel before anything is paid, at any rates
        expect(s.total_khr).toBe(riel);
        if (riel === 0) return; // a total under half a step cannot be paid in riel at all
        expect(s.due_khr).toBe(riel);
        const paid = settle(total, [{ method: 'cash_khr', amount: riel }], r);
        expect(paid.status).toBe('paid');
        expect(paid.due_khr).toBe(0);
        expect(paid.change_khr).toBeLessThanOrEqual(r.khr_step);
      }),
      {
        // a rate for riel received: the riel total was once at the day's rate, short of what was due
        examples: [[300, { rate_khr: 4100, rate_in_khr: 4200, rate_out_khr: null, khr_step: 100 }]],
      },
    );
  });

  it('gives a sum the riel of the sum, rounded once: two $1.50 items are 12,300៛, not 2 × 6,200៛', () => {
    const r = { rate_khr: 4100, khr_step: 100 };
    const one = priceCart({ lines: [{ unit_price_cents: 150, quantity: 1, taxable: false }], vat_rate_bp: 0 });
    const two = priceCart({ lines: [{ unit_price_cents: 150, quantity: 2, taxable: false }], vat_rate_bp: 0 });
    expect(settle(one.total_cents, [], r).total_khr).toBe(6200); // 6,150 rounded
    expect(settle(two.total_cents, [], r).total_khr).toBe(12_300);
    // and every riel figure of a sale is that of its dollars, within half a step, never rounded twice
    fc.assert(
      fc.property(cart, rates, (c, rr) => {
        const priced = priceCart(c);
        const exact = (priced.total_cents * (rr.rate_in_khr || rr.rate_khr)) / 100;
        const s = settle(priced.total_cents, [], rr);
        expect(Math.abs(s.total_khr - exact)).toBeLessThanOrEqual(rr.khr_step / 2);
        expect(s.total_khr).toBe(usdCentsToKhr(priced.total_cents, rr.rate_in_khr || rr.rate_khr, rr.khr_step));
      }),
    );
  });

  it('pays part in riel and part in dollars, and gives change in both', () => {
    // $12.35 at 4,100៛ is 50,635៛; 20,000៛ and $10 (41,000៛) are 61,000៛: 10,365៛ back, 10,400៛
    // rounded, or $2 and 2,165៛ → 2,200៛
    const s = settle(
      1235,
      [
        { method: 'cash_khr', amount: 20_000 },
        { method: 'cash_usd', amount: 1000 },
      ],
      {
        rate_khr: 4100,
        khr_step: 100,
      },
    );
    expect(s).toMatchObject({
      total_khr: 50_600,
      tendered_cents: 1487,
      due_cents: 0,
      change_cents: 252,
      change_khr: 10_400,
      change_split: { usd_cents: 200, khr: 2200 },
      status: 'paid',
    });
    const part = settle(1235, [{ method: 'cash_khr', amount: 20_000 }], { rate_khr: 4100, khr_step: 100 });
    expect(part).toMatchObject({ due_cents: 748, due_khr: 30_600, status: 'partially_paid', change_cents: 0 });
  });
});
