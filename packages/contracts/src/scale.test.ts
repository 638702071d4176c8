import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gtinCheckDigit } from './barcode.ts';
import { formatQuantity } from './format.ts';
import { lineGross, priceCart } from './pricing.ts';
import {
  encodeScaleBarcode,
  parseQuantity,
  parseScaleBarcode,
  quantityForPrice,
  type ScaleLayout,
  scaleCodeCandidates,
  scaleLayout,
  scaleQuantity,
  scaleSettings,
} from './scale.ts';

const layouts: fc.Arbitrary<ScaleLayout> = fc
  .record({
    prefix: fc.integer({ min: 20, max: 29 }).map(String),
    code_length: fc.integer({ min: 1, max: 9 }),
    decimals: fc.integer({ min: 0, max: 3 }),
    kind: fc.constantFrom('weight' as const, 'price' as const),
  })
  .map((l) => ({ ...l, value_length: 10 - l.code_length }));

const digitsOf = (length: number) => fc.stringMatching(new RegExp(`^\\d{${length}}$`));

/** A layout with a code and a value that fit it. */
const scans = layouts.chain((layout) =>
  fc.record({
    layout: fc.constant(layout),
    code: digitsOf(layout.code_length),
    value: fc.integer({ min: 0, max: 10 ** layout.value_length - 1 }),
  }),
);

describe('scale barcodes', () => {
  it('reads back what was encoded, in every layout', () => {
    fc.assert(
      fc.property(scans, ({ layout, code, value }) => {
        expect(scaleLayout.safeParse(layout).success).toBe(true);
        const barcode = encodeScaleBarcode(layout, code, value);
        expect(barcode).toMatch(/^2\d{12}$/);
        expect(parseScaleBarcode(barcode, [layout])).toEqual({ layout, code, value });
      }),
    );
  });

  it('refuses a code whose check digit is wrong', () => {
    fc.assert(
      fc.property(scans, fc.integer({ min: 1, max: 9 }), ({ layout, code, value }, shift) => {
        const good = encodeScaleBarcode(layout, code, value);
        const bad = `${good.slice(0, 12)}${(Number(good[12]) + shift) % 10}`;
        expect(parseScaleBarcode(bad, [layout])).toBeNull();
      }),
    );
  });

  it('refuses a code with one digit changed (the check digit catches it)', () => {
    fc.assert(
      fc.property(scans, fc.integer({ min: 2, max: 11 }), fc.integer({ min: 1, max: 9 }), (scan, at, shift) => {
        const good = encodeScaleBarcode(scan.layout, scan.code, scan.value);
        const changed = `${good.slice(0, at)}${(Number(good[at]) + shift) % 10}${good.slice(at + 1)}`;
        expect(parseScaleBarcode(changed, [scan.layout])).toBeNull();
      }),
    );
  });

  it('does not take a code outside the prefixes 20–29, nor a prefix the store has no layout for', () => {
    fc.assert(
      fc.property(layouts, digitsOf(12), (layout, digits) => {
        const code = `${digits}${gtinCheckDigit(digits)}`;
        const found = parseScaleBarcode(code, [layout]);
        if (!code.startsWith(layout.prefix)) expect(found).toBeNull();
        else expect(found?.layout).toBe(layout);
      }),
    );
    // a real EAN-13 of a product (prefix 884) and an EAN-8 are not scale codes
    expect(parseScaleBarcode('8841234567892', [{ ...layoutOf('20'), prefix: '88' }])).toBeNull();
    expect(parseScaleBarcode('96385074', [layoutOf('20')])).toBeNull();
  });

  it('reads a weight label and a price label as a cashier would', () => {
    const weight = layoutOf('20');
    const price: ScaleLayout = { prefix: '21', code_length: 5, value_length: 5, decimals: 2, kind: 'price' };
    // 1.250 kg of product 00042
    const w = parseScaleBarcode(encodeScaleBarcode(weight, '42', 1250), [weight, price]);
    expect(w).toMatchObject({ code: '00042', value: 1250 });
    expect(scaleQuantity(w!, 3, 450)).toBe(1250);
    expect(formatQuantity(1250, 3)).toBe('1.250');
    // $3.75 of rice at $2.50 a kg buys 1.500 kg, and that line costs $3.75
    const p = parseScaleBarcode(encodeScaleBarcode(price, '42', 375), [weight, price]);
    expect(scaleQuantity(p!, 3, 250)).toBe(1500);
    expect(lineGross(250, 1500, 3)).toBe(375);
    // a weight in grams for a unit kept in tenths of a kilogram: rounded half up
    expect(scaleQuantity(w!, 1, 450)).toBe(13);
    // no weight: nothing to sell
    expect(scaleQuantity({ ...w!, value: 0 }, 3, 450)).toBeNull();
  });

  it('buys with a printed price a quantity whose line costs that price whenever one does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 99_999 }),
        fc.integer({ min: 0, max: 3 }),
        (unitPrice, price, decimals) => {
          const q = quantityForPrice(price, unitPrice, decimals);
          expect(q).toBeGreaterThanOrEqual(1);
          const exact = Array.from({ length: 3 }, (_, i) => q - 1 + i).some(
            (n) => n >= 1 && lineGross(unitPrice, n, decimals) === price,
          );
          // whenever a step of the unit costs at most a cent, the line is exactly the label's price
          if (unitPrice <= 10 ** decimals && price >= unitPrice / 10 ** decimals)
            expect(lineGross(unitPrice, q, decimals)).toBe(price);
          if (exact) expect(lineGross(unitPrice, q, decimals)).toBe(price);
        },
      ),
    );
  });

  it("names a label's product code in every layout for a lookup that does not know them, and nothing else", () => {
    fc.assert(
      fc.property(scans, ({ layout, code, value }) => {
        const barcode = encodeScaleBarcode(layout, code, value);
        expect(scaleCodeCandidates(barcode)).toContain(code);
        expect(scaleCodeCandidates(barcode)).toHaveLength(9);
        expect(scaleCodeCandidates(`${barcode.slice(0, 12)}${(Number(barcode[12]) + 1) % 10}`)).toEqual([]);
      }),
    );
    expect(scaleCodeCandidates('8851959132012')).toEqual([]);
  });

  it('keeps one layout per prefix', () => {
    expect(scaleSettings.safeParse({ layouts: [layoutOf('20'), layoutOf('20')] }).success).toBe(false);
    expect(scaleLayout.safeParse({ ...layoutOf('20'), prefix: '30' }).success).toBe(false);
    expect(scaleLayout.safeParse({ ...layoutOf('20'), value_length: 4 }).success).toBe(false);
  });
});

describe('weighed lines', () => {
  it('prices a weighed line once, exactly: price × quantity / 10^decimals', () => {
    // 1.250 kg at $4.99: $6.2375 → $6.24
    expect(lineGross(499, 1250, 3)).toBe(624);
    const priced = priceCart({
      lines: [{ unit_price_cents: 499, quantity: 1250, decimals: 3, taxable: false }],
      vat_rate_bp: 0,
    });
    expect(priced.total_cents).toBe(624);
    // a value discount is per whole unit: 50¢ off a kg, on 1.250 kg, is 63¢ off
    const off = priceCart({
      lines: [
        { unit_price_cents: 499, quantity: 1250, decimals: 3, taxable: false, discount: { type: 'value', amount: 50 } },
      ],
      vat_rate_bp: 0,
    });
    expect(off.discount_cents).toBe(63);
  });

  it('reads a typed quantity exactly, in its unit decimals', () => {
    expect(parseQuantity('1.25', 3)).toBe(1250);
    expect(parseQuantity('១.២៥០', 3)).toBe(1250);
    expect(parseQuantity('0.005', 3)).toBe(5);
    expect(parseQuantity('2', 3)).toBe(2000);
    expect(parseQuantity('1.2345', 3)).toBeNull();
    expect(parseQuantity('1.5', 0)).toBeNull();
    expect(parseQuantity('abc', 3)).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 3 }), (steps, decimals) => {
        expect(parseQuantity(formatQuantity(steps, decimals).replace(/,/g, ''), decimals)).toBe(steps);
      }),
    );
  });

  it('writes quantities at their unit decimals', () => {
    expect(formatQuantity(5, 3)).toBe('0.005');
    expect(formatQuantity(1234567, 3)).toBe('1,234.567');
    expect(formatQuantity(150, 2)).toBe('1.50');
    expect(formatQuantity(12, 0)).toBe('12');
    expect(formatQuantity(1250, 3, 'khmer')).toBe('១.២៥០');
  });
});

function layoutOf(prefix: string): ScaleLayout {
  return { prefix, code_length: 5, value_length: 5, decimals: 3, kind: 'weight' };
}
