import { afterEach, describe, expect, it } from 'vitest';
import { formatCount, formatKhr, formatUsd } from './format.ts';
import { translate } from './messages.ts';
import { parseUsdCents } from './money.ts';
import { khmerDigits, latinDigits, numeralsFor, setNumerals } from './numerals.ts';
import { formatChange } from './pricing.ts';

afterEach(() => setNumerals('latin'));

describe('Khmer numerals (a setting for Khmer pages)', () => {
  it('are shown only on Khmer pages with the setting on', () => {
    expect(numeralsFor(true, 'kh')).toBe('khmer');
    expect(numeralsFor(true, 'en')).toBe('latin');
    expect(numeralsFor(false, 'kh')).toBe('latin');
  });

  it('write dollars, riel, change and counts in Khmer digits once set', () => {
    setNumerals('khmer');
    expect(formatUsd(1250050)).toBe('$១២,៥០០.៥០');
    expect(formatUsd(-5)).toBe('-$០.០៥');
    expect(formatKhr(52000)).toBe('៥២,០០០៛');
    expect(formatChange({ usd_cents: 500, khr: 3600 })).toBe('$៥.០០ + ៣,៦០០៛');
    expect(formatCount(1234567)).toBe('១,២៣៤,៥៦៧');
  });

  it('leave Latin digits by default and when told (the server’s messages)', () => {
    expect(formatUsd(1250050)).toBe('$12,500.50');
    expect(formatKhr(52000)).toBe('52,000៛');
    expect(formatCount(-1500)).toBe('-1,500');
    setNumerals('khmer');
    expect(formatUsd(126, 'latin')).toBe('$1.26');
  });

  it('convert both ways, and what is typed in Khmer digits is read', () => {
    expect(khmerDigits('12 មីនា 2026')).toBe('១២ មីនា ២០២៦');
    expect(latinDigits('១២ មីនា ២០២៦')).toBe('12 មីនា 2026');
    expect(latinDigits(khmerDigits('0123456789'))).toBe('0123456789');
    expect(parseUsdCents('១២.៥០')).toBe(1250);
    expect(parseUsdCents('១២x')).toBeNull();
  });
});

describe('messages in Khmer numerals', () => {
  it('write the numbers and amounts given and the template’s digits in the numerals asked; names stay', () => {
    expect(translate('validation.string_max', 'kh', { max: 255 }, 'khmer')).toBe('មិនត្រូវលើសពី ២៥៥ តួអក្សរ។');
    expect(translate('purchase.over_paid', 'en', { due: { usd: 125050 } }, 'latin')).toContain('$1,250.50');
    expect(translate('purchase.over_paid', 'kh', { due: { usd: 125050 } }, 'khmer')).toContain('$១,២៥០.៥០');
    expect(translate('stock.not_enough', 'kh', { product: '7UP 330ml' }, 'khmer')).toContain('7UP 330ml');
  });

  it('follow the page’s numerals by default (the web), Latin until set (the server)', () => {
    expect(translate('validation.string_max', 'kh', { max: 30 })).toBe('មិនត្រូវលើសពី 30 តួអក្សរ។');
    setNumerals('khmer');
    expect(translate('validation.string_max', 'kh', { max: 30 })).toBe('មិនត្រូវលើសពី ៣០ តួអក្សរ។');
  });
});
