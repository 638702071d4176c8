import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatCountdown,
  formatDate,
  formatDateTime,
  formatKhr,
  formatPercent,
  formatQuantity,
  formatTime,
  formatUsd,
  quantityDecimal,
} from './format.ts';

describe('the one formatting module', () => {
  it('writes money, counts and percentages in the numerals asked for', () => {
    expect(formatUsd(1_250_000)).toBe('$12,500.00');
    expect(formatUsd(-554, 'khmer')).toBe('-$៥.៥៤');
    expect(formatKhr(22_700, 'khmer')).toBe('២២,៧០០៛');
    expect(formatCount(1200, 'khmer')).toBe('១,២០០');
    expect(formatCount(-1234.5)).toBe('-1,234.5');
    expect(formatPercent(1250)).toBe('12.5%');
    expect(formatPercent(1000, { numerals: 'khmer' })).toBe('១០%');
    expect(formatPercent(1250, { fixed: true })).toBe('12.50%');
  });

  it('reads an instant on the depots’ clock (UTC+7), whatever the machine’s time zone', () => {
    // 20:30 UTC on 12 March is 03:30 on 13 March in Phnom Penh
    const at = '2026-03-12T20:30:00.000Z';
    expect(formatDate(at, 'en')).toBe('13 Mar 2026');
    expect(formatDate(at, 'kh', { numerals: 'khmer' })).toBe('១៣ មីនា ២០២៦');
    expect(formatDateTime(at, 'en')).toBe('13 Mar 2026 03:30');
    expect(formatDateTime(at, 'en', { long: true })).toBe('March 13, 2026 3:30 AM');
    expect(formatDateTime('2026-03-12T07:05:00Z', 'en', { long: true })).toBe('March 12, 2026 2:05 PM');
    expect(formatDateTime(at, 'kh', { long: true })).toBe('13 មីនា 2026 03:30');
    expect(formatTime(at)).toBe('03:30');
  });

  it('writes a countdown as minutes and seconds, never below zero', () => {
    expect(formatCountdown(249_000)).toBe('4:09');
    expect(formatCountdown(600_000, 'khmer')).toBe('១០:០០');
    expect(formatCountdown(400)).toBe('0:01');
    expect(formatCountdown(-5000)).toBe('0:00');
  });

  it('keeps a calendar date the day it names, and unreadable text as it is', () => {
    expect(formatDate('2026-03-12', 'kh')).toBe('12 មីនា 2026');
    expect(formatDate('2026-03-12', 'en', { long: true })).toBe('March 12, 2026');
    expect(formatDate('soon', 'en')).toBe('soon');
    expect(formatDateTime('soon', 'en')).toBe('soon');
  });
});

describe('quantities in steps', () => {
  it('reads grams as kilograms for people, grouped, and for machines, plain', () => {
    expect(formatQuantity(1_250_000, 3)).toBe('1,250.000');
    expect(formatQuantity(1250, 3, 'khmer')).toBe('១.២៥០');
    expect(formatQuantity(-5, 3)).toBe('-0.005');
    expect(formatQuantity(12_500, 0)).toBe('12,500');
    expect(quantityDecimal(1_250_000, 3)).toBe('1250.000');
    expect(quantityDecimal(1250, 3)).toBe('1.250');
    expect(quantityDecimal(5, 2)).toBe('0.05');
    expect(quantityDecimal(-5, 3)).toBe('-0.005');
    expect(quantityDecimal(12, 0)).toBe('12');
  });
});
