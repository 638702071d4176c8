import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc16, decodeKhqr, encodeKhqr, KHQR_LIMITS, KhqrError, type KhqrFields } from './khqr.ts';

const base: KhqrFields = {
  account_id: 'depot_store@aclb',
  merchant_id: null,
  acquiring_bank: null,
  merchant_name: 'Depot Psar Thmei',
  merchant_city: 'Phnom Penh',
  mcc: '5999',
  currency: 'USD',
  amount: 1250,
  bill_number: 'ORD-2026-000001',
  store_label: 'PP01',
  terminal_label: null,
  created_at: 1_767_225_600_000,
  expires_at: 1_767_226_500_000,
};

const ascii = (min: number, max: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: min,
    maxLength: max,
  });
const word = (max: number) =>
  fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_.-'.split('')),
    minLength: 1,
    maxLength: max,
  });

const fields: fc.Arbitrary<KhqrFields> = fc
  .record({
    name: word(14),
    bank: word(14),
    merchant: fc.option(
      fc.record({ id: ascii(1, KHQR_LIMITS.merchant_id), bank: ascii(1, KHQR_LIMITS.acquiring_bank) }),
    ),
    individualBank: fc.option(ascii(1, KHQR_LIMITS.acquiring_bank)),
    merchant_name: ascii(1, KHQR_LIMITS.merchant_name),
    merchant_city: ascii(1, KHQR_LIMITS.merchant_city),
    mcc: fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    currency: fc.constantFrom('USD' as const, 'KHR' as const),
    amount: fc.integer({ min: 1, max: 999_999_999 }),
    bill_number: fc.option(ascii(1, KHQR_LIMITS.bill_number)),
    store_label: fc.option(ascii(1, KHQR_LIMITS.store_label)),
    terminal_label: fc.option(ascii(1, KHQR_LIMITS.terminal_label)),
    created_at: fc.integer({ min: 1_000_000_000_000, max: 9_000_000_000_000 }),
    lasts: fc.integer({ min: 1, max: 86_400_000 }),
  })
  .map((r) => ({
    account_id: `${r.name}@${r.bank}`,
    merchant_id: r.merchant?.id ?? null,
    acquiring_bank: r.merchant ? r.merchant.bank : r.individualBank,
    merchant_name: r.merchant_name,
    merchant_city: r.merchant_city,
    mcc: r.mcc,
    currency: r.currency,
    amount: r.amount,
    bill_number: r.bill_number,
    store_label: r.store_label,
    terminal_label: r.terminal_label,
    created_at: r.created_at,
    expires_at: r.created_at + r.lasts,
  }));

describe('KHQR', () => {
  it('computes CRC-16/CCITT-FALSE as four upper-case, zero-padded hex digits', () => {
    // the standard check value of CRC-16/CCITT-FALSE
    expect(crc16('123456789')).toBe('29B1');
    expect(crc16('')).toBe('FFFF');
    // a value whose CRC has a leading zero stays four digits (the bug of a TypeScript port)
    const padded = Array.from({ length: 5000 }, (_, i) => `x${i}`).find((s) => crc16(s).startsWith('0'));
    expect(padded && crc16(padded)).toMatch(/^0[0-9A-F]{3}$/);
  });

  it('lays out a dynamic individual KHQR tag by tag', () => {
    const payload = encodeKhqr(base);
    expect(payload).toBe(
      '000201010212' +
        '2920' +
        '0016depot_store@aclb' +
        '52045999' +
        '5303840' +
        '540512.50' +
        '5802KH' +
        '5916Depot Psar Thmei' +
        '6010Phnom Penh' +
        '6227' +
        '0115ORD-2026-000001' +
        '0304PP01' +
        '9934' +
        '00131767225600000' +
        '01131767226500000' +
        `6304${crc16(payload.slice(0, -4))}`,
    );
  });

  it('writes riel whole and dollars with cents', () => {
    expect(encodeKhqr({ ...base, currency: 'KHR', amount: 52_000 })).toContain('5303116540552000');
    expect(encodeKhqr({ ...base, amount: 7 })).toContain('54040.07');
    expect(encodeKhqr({ ...base, amount: 300 })).toContain('54043.00');
  });

  it('makes a merchant account (tag 30) with its merchant id and acquiring bank', () => {
    const payload = encodeKhqr({ ...base, merchant_id: '123456', acquiring_bank: 'ACLEDA Bank' });
    expect(payload).toContain('30450016depot_store@aclb01061234560211ACLEDA Bank');
    expect(decodeKhqr(payload)).toMatchObject({ merchant_id: '123456', acquiring_bank: 'ACLEDA Bank' });
    expect(() => encodeKhqr({ ...base, merchant_id: '123456' })).toThrow(/acquiring_bank/);
  });

  it('refuses what the SDK refuses, naming the field', () => {
    const refusal = (patch: Partial<KhqrFields>) => {
      try {
        encodeKhqr({ ...base, ...patch });
      } catch (error) {
        return error instanceof KhqrError ? [error.problem, error.field] : error;
      }
      return null;
    };
    expect(refusal({ account_id: 'no-bank' })).toEqual(['account', 'account_id']);
    expect(refusal({ account_id: `${'a'.repeat(30)}@bank` })).toEqual(['length', 'account_id']);
    expect(refusal({ merchant_name: 'x'.repeat(26) })).toEqual(['length', 'merchant_name']);
    expect(refusal({ merchant_name: 'ហាងដេប៉ូ' })).toEqual(['text', 'merchant_name']);
    expect(refusal({ merchant_city: 'x'.repeat(16) })).toEqual(['length', 'merchant_city']);
    expect(refusal({ bill_number: 'x'.repeat(26) })).toEqual(['length', 'bill_number']);
    expect(refusal({ amount: 0 })).toEqual(['amount', 'amount']);
    expect(refusal({ amount: 1.5 })).toEqual(['amount', 'amount']);
    expect(refusal({ currency: 'KHR', amount: 99_999_999_999_999 })).toEqual(['amount', 'amount']);
    expect(refusal({ expires_at: base.created_at })).toEqual(['timestamp', 'expires_at']);
    expect(refusal({ created_at: 12345 })).toEqual(['timestamp', 'created_at']);
    expect(refusal({ mcc: '59' })).toEqual(['format', 'mcc']);
  });

  it('refuses a payload whose CRC, lengths or tags are wrong', () => {
    const payload = encodeKhqr(base);
    const problem = (text: string) => {
      try {
        decodeKhqr(text);
        return null;
      } catch (error) {
        return (error as KhqrError).problem;
      }
    };
    expect(problem(`${payload.slice(0, -1)}0`) ?? problem(`${payload.slice(0, -1)}1`)).toBe('crc');
    expect(problem(payload.slice(0, -8))).toBe('format');
    expect(problem('')).toBe('text');
    // a length that runs past the end, with a CRC made to match
    const broken = payload.replace('993400', '994000').slice(0, -4);
    expect(problem(broken + crc16(broken))).toBe('length');
    // a static KHQR (tag 01 = 11) has no amount to pay
    const fixed = payload.replace('010212', '010211').slice(0, -4);
    expect(problem(fixed + crc16(fixed))).toBe('static');
    const euro = payload.replace('5303840', '5303978').slice(0, -4);
    expect(problem(euro + crc16(euro))).toBe('currency');
  });

  it('decodes what it encodes', () => {
    fc.assert(
      fc.property(fields, (x) => {
        expect(decodeKhqr(encodeKhqr(x))).toEqual(x);
      }),
    );
  });

  it('always ends with a CRC that verifies', () => {
    fc.assert(
      fc.property(fields, (x) => {
        const payload = encodeKhqr(x);
        expect(payload.slice(-8, -4)).toBe('6304');
        expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)));
      }),
    );
  });

  it('fails the CRC when any one character changes', () => {
    fc.assert(
      fc.property(fields, fc.nat(), fc.integer({ min: 0x20, max: 0x7e }), (x, where, code) => {
        const payload = encodeKhqr(x);
        const at = where % payload.length;
        fc.pre(payload.charCodeAt(at) !== code);
        const changed = payload.slice(0, at) + String.fromCharCode(code) + payload.slice(at + 1);
        expect(() => decodeKhqr(changed)).toThrow(KhqrError);
        // the CRC itself, or a CRC that no longer matches: never a payload read as valid
        if (at < payload.length - 4) expect(crc16(changed.slice(0, -4))).not.toBe(changed.slice(-4));
      }),
    );
  });
});
