import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previousMonth, rielTotals, type TaxCategory, taxRate, taxRiel, vatOf } from './tax.ts';

const rate = fc.integer({ min: 1000, max: 10_000 });
const cents = fc.integer({ min: 0, max: 1_000_000_000 });
const day = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe('the riel of an invoice', () => {
  it('is within half a riel of the exact amount, and a half rounds up', () => {
    fc.assert(
      fc.property(cents, rate, (c, r) => {
        const exact = (c * r) / 100;
        const riel = taxRiel(c, r);
        expect(Number.isInteger(riel)).toBe(true);
        expect(Math.abs(riel - exact)).toBeLessThanOrEqual(0.5);
        if ((c * r) % 100 === 50) expect(riel).toBe(exact + 0.5);
      }),
    );
  });

  it('never falls when the amount or the rate grows', () => {
    fc.assert(
      fc.property(cents, cents, rate, rate, (a, b, r, s) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const [rlo, rhi] = r <= s ? [r, s] : [s, r];
        expect(taxRiel(lo, rlo)).toBeLessThanOrEqual(taxRiel(hi, rlo));
        expect(taxRiel(lo, rlo)).toBeLessThanOrEqual(taxRiel(lo, rhi));
      }),
    );
  });

  it('knows a case by heart: $14.13 at 4,105 is 58,004 ៛; $0.02 at 4,125 is 83 ៛ (82.5 up)', () => {
    expect(taxRiel(1413, 4105)).toBe(58_004);
    expect(taxRiel(2, 4125)).toBe(83);
  });
});

const line = fc.record({
  tax_category: fc.constantFrom<TaxCategory>('S', 'Z', 'E'),
  net_cents: fc.integer({ min: 0, max: 10_000_000 }),
});

describe('a document’s totals', () => {
  it('add up: before tax + each tax = total, in dollars and in riel, each tax on its own line', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), rate, (raw, r) => {
        const lines = raw.map((l) => {
          const bp = l.tax_category === 'S' ? 1000 : 0;
          return { ...l, tax_rate_bp: bp, tax_cents: vatOf(l.net_cents, bp) };
        });
        const totals = rielTotals(lines, r);
        expect(totals.total_cents).toBe(totals.net_cents + totals.tax_cents);
        expect(totals.taxes.reduce((s, t) => s + t.net_cents, 0)).toBe(totals.net_cents);
        expect(totals.taxes.reduce((s, t) => s + t.tax_cents, 0)).toBe(totals.tax_cents);
        expect(new Set(totals.taxes.map((t) => `${t.tax_category}:${t.tax_rate_bp}`)).size).toBe(totals.taxes.length);
        expect(totals.total_khr).toBe(taxRiel(totals.total_cents, r));
        expect(totals.net_khr + totals.tax_khr).toBe(totals.total_khr);
        expect(totals.taxes.filter((t) => t.tax_category !== 'S').every((t) => t.tax_cents === 0)).toBe(true);
      }),
    );
  });

  it('VAT is 10 % of the net, half up to the cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (net) => {
        const vat = vatOf(net, 1000);
        expect(Math.abs(vat - net / 10)).toBeLessThanOrEqual(0.5);
        if (net % 10 === 5) expect(vat).toBe((net + 5) / 10);
      }),
    );
  });
});

describe('which rate an invoice takes', () => {
  it('market: the sale’s rate, never below the NBC’s rate of the last 7 days', () => {
    fc.assert(
      fc.property(day, rate, rate, fc.integer({ min: 0, max: 7 }), (issue, market, nbc, age) => {
        const nbcDate = new Date(Date.parse(`${issue}T00:00:00Z`) - age * 86_400_000).toISOString().slice(0, 10);
        const chosen = taxRate({
          policy: 'market',
          issueDate: issue,
          market: { rate_khr: market, date: issue },
          nbc: { rate_khr: nbc, date: nbcDate },
          gdt: null,
        });
        if ('missing' in chosen) throw new Error('a recent NBC rate was given');
        expect(chosen.rate_khr).toBe(Math.max(market, nbc));
        expect(chosen.rate_khr).toBeGreaterThanOrEqual(nbc);
        expect(chosen.source).toBe(market < nbc ? 'nbc_daily' : 'market');
      }),
    );
  });

  it('market: missing without an NBC rate, or with one older than 7 days', () => {
    const facts = {
      policy: 'market' as const,
      issueDate: '2026-03-10',
      market: { rate_khr: 4100, date: '2026-03-10' },
      gdt: null,
    };
    expect(taxRate({ ...facts, nbc: null })).toEqual({ missing: 'nbc_rate', date: '2026-03-10' });
    expect(taxRate({ ...facts, nbc: { rate_khr: 4000, date: '2026-03-02' } })).toMatchObject({ missing: 'nbc_rate' });
    expect(taxRate({ ...facts, nbc: { rate_khr: 4000, date: '2026-03-03' } })).toMatchObject({ source: 'market' });
  });

  it('gdt_monthly: the rate of the month before the issue date, whatever the sale’s', () => {
    fc.assert(
      fc.property(day, rate, rate, (issue, market, gdt) => {
        const month = previousMonth(issue);
        expect(month < issue).toBe(true);
        expect(month.endsWith('-01')).toBe(true);
        const chosen = taxRate({
          policy: 'gdt_monthly',
          issueDate: issue,
          market: { rate_khr: market, date: issue },
          nbc: null,
          gdt: { rate_khr: gdt, date: month },
        });
        expect(chosen).toEqual({ rate_khr: gdt, source: 'gdt_monthly', date: month });
        expect(
          taxRate({
            policy: 'gdt_monthly',
            issueDate: issue,
            market: { rate_khr: market, date: issue },
            nbc: null,
            gdt: null,
          }),
        ).toEqual({
          missing: 'gdt_rate',
          month,
        });
      }),
    );
    expect(previousMonth('2026-01-31')).toBe('2025-12-01');
  });
});
