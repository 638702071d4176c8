import { describe, expect, it } from 'vitest';
import { gtinCheckDigit, isValidBarcode } from './barcode.ts';
import { formatKhr, formatUsd, formatUsdCents, parseUsdCents, roundKhr, usdCentsToKhr } from './money.ts';

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
