import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gtinCheckDigit, isValidBarcode } from './barcode.ts';
import { formatKhr, formatUsd } from './format.ts';
import {
  formatUsdCents,
  KHR_ROUNDING_STEPS,
  khrToCents,
  parseUsdCents,
  rielAtStep,
  rielOf,
  roundKhr,
  usdCentsToKhr,
} from './money.ts';

describe('money', () => {
  it('converts dollars to riel exactly and rounds half up to the step', () => {
    expect(usdCentsToKhr(100, 4100)).toBe(4100);
    expect(usdCentsToKhr(125, 4100)).toBe(5100); // 5125 → 5100
    expect(usdCentsToKhr(126, 4100)).toBe(5200); // 5166 → 5200
    expect(usdCentsToKhr(150, 4100, 500)).toBe(6000); // 6150 → 6000
    expect(usdCentsToKhr(163, 4100, 500)).toBe(6500); // 6683 → 6500
    expect(usdCentsToKhr(1, 4100, 1000)).toBe(0);
    expect(usdCentsToKhr(-126, 4100)).toBe(-5200);
    expect(roundKhr(5050)).toBe(5100);
    expect(roundKhr(5049)).toBe(5000);
    expect(() => usdCentsToKhr(1.5, 4100)).toThrow(RangeError);
  });

  it('rounds riel once, half up and away from zero, straight to the step, for any amount', () => {
    // the reference: the nearest multiple of the step to the exact riel, a half going away from zero
    const nearest = (hundredths: bigint, step: number) => {
      const unit = 100n * BigInt(step);
      const size = hundredths < 0n ? -hundredths : hundredths;
      const below = size / unit;
      const up = (size - below * unit) * 2n >= unit;
      const riel = (up ? below + 1n : below) * BigInt(step);
      return Number(hundredths < 0n ? -riel : riel);
    };
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }),
        fc.integer({ min: 1000, max: 10_000 }),
        fc.constantFrom(...KHR_ROUNDING_STEPS),
        (cents, rate, step) => {
          const riel = usdCentsToKhr(cents, rate, step);
          expect(riel).toBe(nearest(BigInt(cents) * BigInt(rate), step));
          expect(Math.abs(riel % step)).toBe(0);
          expect(usdCentsToKhr(-cents, rate, step)).toBe(-riel || 0);
          expect(rielOf(cents, { rate_khr: rate, khr_step: step })).toBe(riel);
          expect(roundKhr(riel, step)).toBe(riel);
          expect(rielAtStep(BigInt(cents) * BigInt(rate), 100n, step)).toBe(riel);
        },
      ),
    );
    // riel is received at its own rate where there is one
    expect(rielOf(150, { rate_khr: 4100, rate_in_khr: 4200, khr_step: 100 })).toBe(6300);
    expect(rielOf(150, { rate_khr: 4100, rate_in_khr: null, khr_step: 100 })).toBe(6200);
    expect(khrToCents(6200, 4100)).toBe(151);
    expect(khrToCents(6149, 4100)).toBe(149);
  });

  it('reads and writes dollar amounts without floats', () => {
    expect(parseUsdCents('12.5')).toBe(1250);
    expect(parseUsdCents('0.07')).toBe(7);
    expect(parseUsdCents(' 3 ')).toBe(300);
    expect(parseUsdCents('1.005')).toBeNull();
    expect(parseUsdCents('abc')).toBeNull();
    expect(formatUsdCents(1250)).toBe('12.50');
    expect(formatUsdCents(7)).toBe('0.07');
    expect(formatUsdCents(-5)).toBe('-0.05');
    expect(formatUsd(126)).toBe('$1.26');
    expect(formatUsd(-5)).toBe('-$0.05');
    expect(formatUsd(1_250_000)).toBe('$12,500.00');
    expect(formatUsd(-123_456_789)).toBe('-$1,234,567.89');
    expect(formatUsd(100_000)).toBe('$1,000.00');
  });

  it('writes riel grouped by thousands with the riel sign', () => {
    expect(formatKhr(5200)).toBe('5,200៛');
    expect(formatKhr(100)).toBe('100៛');
    expect(formatKhr(1_234_567_000)).toBe('1,234,567,000៛');
    expect(formatKhr(-4100)).toBe('-4,100៛');
    expect(() => formatKhr(0.5)).toThrow(RangeError);
  });
});

describe('barcodes', () => {
  it('checks the GTIN check digit of numeric 8, 12, 13 and 14 digit codes only', () => {
    expect(isValidBarcode('8851959132012')).toBe(true); // EAN-13
    expect(isValidBarcode('8851959132013')).toBe(false);
    expect(isValidBarcode('036000291452')).toBe(true); // UPC-A
    expect(isValidBarcode('96385074')).toBe(true); // EAN-8
    expect(isValidBarcode('DEPOT-0001')).toBe(true);
    expect(isValidBarcode('12345')).toBe(true);
    expect(gtinCheckDigit('885195913201')).toBe(2);
  });
});
