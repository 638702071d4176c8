import { setNumerals } from '@depot/contracts';
import { describe, expect, it } from 'vitest';
import { DATE_INPUT_FORMAT, formatDate, formatDateTime } from './dates.ts';

describe('dates as people read them', () => {
  it('show Khmer month names on Khmer pages, never the raw YYYY-MM-DD', () => {
    expect(formatDate('2026-03-12', 'kh')).toBe('12 មីនា 2026');
    expect(formatDate('2026-12-01', 'en')).toBe('1 Dec 2026');
  });

  it('read an instant on the depots’ clock (UTC+7)', () => {
    expect(formatDate('2026-03-12T18:30:00.000Z', 'kh')).toBe('13 មីនា 2026');
  });

  it('read a date and time on the depots’ clock (UTC+7), not the browser’s', () => {
    // 03:00 UTC is 10:00 in Phnom Penh; 20:30 UTC is already the next day there
    expect(formatDateTime('2026-03-01T03:00:00.000Z', 'en')).toBe('March 1, 2026 10:00 AM');
    expect(formatDateTime('2026-03-12T20:30:00.000Z', 'kh')).toBe('13 មីនា 2026 03:30');
  });

  it('are typed as DD/MM/YYYY', () => {
    expect(DATE_INPUT_FORMAT).toBe('DD/MM/YYYY');
  });

  it('are written in Khmer digits when the page shows Khmer numerals', () => {
    setNumerals('khmer');
    try {
      expect(formatDate('2026-03-12', 'kh')).toBe('១២ មីនា ២០២៦');
    } finally {
      setNumerals('latin');
    }
    expect(formatDate('2026-03-12', 'kh')).toBe('12 មីនា 2026');
  });
});
