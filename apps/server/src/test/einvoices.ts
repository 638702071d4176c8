import type { EInvoiceDocument, EInvoiceKind, EInvoiceLine, TaxCategory } from '../modules/einvoice/document.ts';

/**
 * Tax documents as the tax-document module hands them to the e-invoicing outbox, made up for tests
 * (the outbox reads documents only through `registerEInvoiceSource`). `seededMix(n, seed)` gives a
 * repeatable mix of invoices, credit and debit notes: dollar and riel lines, S 10 %, Z and E,
 * registered and unregistered buyers, Khmer and Latin text.
 */

export const SELLER = {
  name: 'ដេប៉ូ ភ្នំពេញ',
  name_en: 'Depot Phnom Penh Co., Ltd.',
  address: 'ផ្ទះលេខ ១២ ផ្លូវ ២៧១ ភ្នំពេញ',
  tin: 'K001-901234567',
  endpoint_id: 'KHUID00001234',
};

export const BUYER = {
  name: 'ហាងលក់ទំនិញ សុខា',
  name_en: 'Sokha Mart',
  address: 'Street 63, Phnom Penh',
  tin: 'K002-100200300',
  endpoint_id: 'KHUID00005678',
};

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['ទឹកសុទ្ធ 500ml', 'Angkor Beer 330ml', 'អង្ករផ្ការំដួល 50kg', 'Cooking oil <1L> & "more"', 'ស្ករស'];
const UNITS = ['C62', 'BX', 'KGM', 'BG'];

export function line(over: Partial<EInvoiceLine> = {}): EInvoiceLine {
  const quantity = over.quantity ?? 2;
  const unit_price = over.unit_price ?? 125;
  const tax_category = over.tax_category ?? 'S';
  const tax_percent = over.tax_percent ?? (tax_category === 'S' ? 10 : 0);
  const net = over.net ?? quantity * unit_price;
  return {
    description: 'ទឹកសុទ្ធ 500ml',
    quantity,
    unit_code: 'C62',
    unit_price,
    currency: 'USD',
    tax_category,
    tax_percent,
    net,
    tax: over.tax ?? Math.round((net * tax_percent) / 100),
    sku: 'WAT-500',
    barcode: '8850999320014',
    ...over,
  };
}

/** A document whose riel totals are those of its dollar totals at the rate, rounded once. */
export function document(kind: EInvoiceKind, number: string, lines: EInvoiceLine[], rate = 4100): EInvoiceDocument {
  const riel = (l: EInvoiceLine, v: number) => (l.currency === 'KHR' ? v * 100 : v * rate);
  const netHundredths = lines.reduce((s, l) => s + riel(l, l.net), 0);
  const taxHundredths = lines.reduce((s, l) => s + riel(l, l.tax), 0);
  const round = (h: number) => Math.floor((h + 50) / 100);
  return {
    kind,
    store_id: 1,
    number,
    issue_date: '2026-11-20',
    seller: SELLER,
    buyer: BUYER,
    lines,
    totals: {
      net_khr: round(netHundredths),
      tax_khr: round(taxHundredths),
      total_khr: round(netHundredths + taxHundredths),
    },
    currency: 'KHR',
    exchange_rate: { riel_per_usd: rate, date: '2026-10-31', source: 'gdt' },
    billing_reference: kind === 'invoice' ? null : { number: 'INV-2026-000001', issue_date: '2026-11-01' },
    reason: kind === 'invoice' ? null : kind === 'credit_note' ? 'Goods returned' : 'Price corrected',
  };
}

export function seededMix(count: number, seed = 27): EInvoiceDocument[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const docs: EInvoiceDocument[] = [];
  for (let i = 0; i < count; i++) {
    const kind = pick(['invoice', 'invoice', 'credit_note', 'debit_note'] as const);
    const lines: EInvoiceLine[] = [];
    const n = 1 + Math.floor(next() * 6);
    for (let j = 0; j < n; j++) {
      const currency = next() < 0.8 ? ('USD' as const) : ('KHR' as const);
      const tax_category = pick(['S', 'S', 'S', 'Z', 'E'] as TaxCategory[]);
      const unit_price = currency === 'USD' ? 1 + Math.floor(next() * 250_000) : 100 * (1 + Math.floor(next() * 500));
      lines.push(
        line({
          description: pick(NAMES),
          unit_code: pick(UNITS),
          quantity: 1 + Math.floor(next() * 48),
          unit_price,
          currency,
          tax_category,
          sku: next() < 0.7 ? `SKU-${j}` : null,
          barcode: next() < 0.5 ? `88500000${String(j).padStart(5, '0')}` : null,
        }),
      );
    }
    const doc = document(
      kind,
      `${kind === 'invoice' ? 'INV' : kind === 'credit_note' ? 'CN' : 'DN'}-${i}`,
      lines,
      4000 + Math.floor(next() * 200),
    );
    if (next() < 0.3) doc.buyer = { name: 'Walk-in buyer', address: 'Phnom Penh', tin: null, endpoint_id: null };
    docs.push(doc);
  }
  return docs;
}
