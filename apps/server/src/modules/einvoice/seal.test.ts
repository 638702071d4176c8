import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { document, line } from '../../test/einvoices.ts';
import { parseUbl } from './received.ts';
import { open, parseSecretKey, seal } from './seal.ts';
import { writeUbl } from './ubl.ts';

describe('sealed secrets', () => {
  const key = randomBytes(32);

  it('open to what was sealed, with a fresh nonce each time', () => {
    const a = seal(key, 'refresh-token-123');
    const b = seal(key, 'refresh-token-123');
    expect(a).not.toBe(b);
    expect(a).not.toContain('refresh-token-123');
    expect(open(key, a)).toBe('refresh-token-123');
  });

  it('refuse a changed byte or another key', () => {
    const sealed = seal(key, 'access');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3], 'base64');
    body[0] ^= 1;
    parts[3] = body.toString('base64');
    expect(() => open(key, parts.join('.'))).toThrow();
    expect(() => open(randomBytes(32), sealed)).toThrow();
  });

  it('take a key of 32 bytes, in hex or base64, and nothing else', () => {
    expect(parseSecretKey(key.toString('hex'))?.equals(key)).toBe(true);
    expect(parseSecretKey(key.toString('base64'))?.equals(key)).toBe(true);
    expect(parseSecretKey('short')).toBeNull();
  });
});

describe('received UBL', () => {
  it('reads back the lines, codes, rate and total Depot writes', () => {
    const doc = document('invoice', 'SUP-1', [
      line({ sku: 'A-1', barcode: '8850999320014', quantity: 3, unit_price: 150 }),
      line({ sku: null, barcode: null, quantity: 2, unit_price: 5000, currency: 'KHR', description: 'ស្ករស' }),
    ]);
    const parsed = parseUbl(writeUbl(doc));
    expect(parsed).toMatchObject({
      number: 'SUP-1',
      issue_date: '2026-11-20',
      rate_khr: 4100,
      total_khr: doc.totals.total_khr,
    });
    expect(parsed.supplier_tin).toBe(doc.seller.tin);
    expect(parsed.lines).toEqual([
      expect.objectContaining({ quantity: 3, unit_price_khr: 6150, barcode: '8850999320014', sku: 'A-1' }),
      expect.objectContaining({ quantity: 2, unit_price_khr: 5000, barcode: null, sku: null, description: 'ស្ករស' }),
    ]);
  });

  it('refuses what is not XML', () => {
    expect(() => parseUbl('not xml <')).toThrow();
  });
});
