import { setNumerals } from '@depot/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { percentText } from './format.ts';

/** A rate or a discount in percent follows the page's numerals, as every amount does (the till's VAT label). */
describe('percentText', () => {
  afterEach(() => setNumerals('latin'));

  it('writes basis points as a percentage', () => {
    expect(percentText(1000)).toBe('10%');
    expect(percentText(1250)).toBe('12.5%');
    expect(percentText(5)).toBe('0.05%');
  });

  it('in Khmer numerals when the page shows them', () => {
    setNumerals('khmer');
    expect(percentText(1000)).toBe('១០%');
    expect(percentText(1250)).toBe('១២.៥%');
  });
});
