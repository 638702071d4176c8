import { describe, expect, it } from 'vitest';
import { document, line, seededMix } from '../../test/einvoices.ts';
import { rielFigures, writeUbl } from './ubl.ts';
import { validateUbl } from './ubl.validate.ts';

describe('UBL 2.1 documents', () => {
  it('validate against the OASIS schemas, every one of a seeded mix', async () => {
    const docs = seededMix(60);
    expect(new Set(docs.map((d) => d.kind))).toEqual(new Set(['invoice', 'credit_note', 'debit_note']));
    for (let i = 0; i < docs.length; i += 10) {
      const batch = docs.slice(i, i + 10);
      const verdicts = await Promise.all(batch.map((doc) => validateUbl(doc.kind, writeUbl(doc))));
      verdicts.forEach((verdict, j) => {
        expect(verdict, `${batch[j].number}: ${verdict.errors}`).toEqual({ valid: true, errors: '' });
      });
    }
  });

  it('refuses what the schema refuses (the validator is real)', async () => {
    const xml = writeUbl(document('invoice', 'INV-1', [line()])).replace('<cbc:IssueDate>', '<cbc:IssueDate>x');
    expect((await validateUbl('invoice', xml)).valid).toBe(false);
    const swapped = writeUbl(document('invoice', 'INV-1', [line()]));
    expect((await validateUbl('credit_note', swapped)).valid).toBe(false);
  });

  it('writes an invoice in riel with the rate, both parties and the tax categories', () => {
    const doc = document('invoice', 'INV-2026-000042', [
      line({ quantity: 3, unit_price: 150, tax_category: 'S' }),
      line({ quantity: 1, unit_price: 999, tax_category: 'Z', description: 'Export' }),
      line({ quantity: 2, unit_price: 5000, currency: 'KHR', tax_category: 'E', description: 'ថ្នាំ' }),
    ]);
    const xml = writeUbl(doc);
    expect(xml).toContain('<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>');
    expect(xml).toContain('<cbc:DocumentCurrencyCode>KHR</cbc:DocumentCurrencyCode>');
    expect(xml).toContain('<cbc:CalculationRate>4100</cbc:CalculationRate>');
    expect(xml).toContain('<cbc:EndpointID schemeID="KHUID">KHUID00001234</cbc:EndpointID>');
    expect(xml).toContain('<cbc:CompanyID>K002-100200300</cbc:CompanyID>');
    // 3 × $1.50 = $4.50 → 18,450៛, tax $0.45 → 1,845៛; $9.99 → 40,959៛; 10,000៛ as it is
    expect(xml).toContain('<cbc:LineExtensionAmount currencyID="KHR">18450</cbc:LineExtensionAmount>');
    expect(xml).toContain('<cbc:PriceAmount currencyID="KHR">6150</cbc:PriceAmount>');
    expect(xml).toContain('<cbc:LineExtensionAmount currencyID="KHR">40959</cbc:LineExtensionAmount>');
    expect(xml).toContain('<cbc:TaxExemptionReason>');
    expect(xml).toContain('ថ្នាំ');
    const figures = rielFigures(doc);
    expect(figures.payable).toBe(doc.totals.total_khr);
    expect(figures.inclusive + figures.rounding).toBe(doc.totals.total_khr);
  });

  it('writes credit and debit notes with their invoice', () => {
    const credit = writeUbl(document('credit_note', 'CN-1', [line()]));
    expect(credit).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(credit).toMatch(
      /<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>INV-2026-000001<\/cbc:ID>/,
    );
    const debit = writeUbl(document('debit_note', 'DN-1', [line()]));
    expect(debit).toContain('<cac:RequestedMonetaryTotal>');
    expect(debit).toContain('<cbc:Note>Price corrected</cbc:Note>');
    expect(() => writeUbl({ ...document('credit_note', 'CN-2', [line()]), billing_reference: null })).toThrow();
  });
});
