import { listQuery, type TaxDocumentDetail, type TaxDocumentSummary } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/inventory.ts';
import { actorOf, taxDocumentPolicy, type Viewer } from '../../test/policies.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { orderRow, SELLING, tillLookups } from '../../test/sales.ts';

const stamp = { created_at: '2026-03-01T03:00:00.000Z', updated_at: '2026-03-01T03:00:00.000Z', deleted_at: null };

/** A tax invoice as the server issues it: 3 beers (VAT 10 %) and a bag of rice (exempt), at the NBC's rate. */
function invoiceOf(extra: Partial<TaxDocumentDetail> = {}, viewer: Viewer = {}): TaxDocumentDetail {
  const row: Omit<TaxDocumentDetail, 'abilities'> = {
    id: 1,
    kind: 'tax_invoice',
    series: 'TI-PP01-2026',
    sequence: 1,
    number: 'TI-PP01-2026-000001',
    issued_at: '2026-03-01T03:00:00.000Z',
    issue_date: '2026-03-01',
    store_id: 1,
    store_code: 'PP01',
    order_id: 9,
    order_number: 'SO-PP01-000009',
    return_id: null,
    original_id: null,
    original_number: null,
    original_issue_date: null,
    reason: null,
    seller: { name: 'Phnom Penh Depot', address: 'Street 2004, Sen Sok', tin: 'K009-123456789', phone: null },
    buyer: { name: 'Sokha Trading Co., Ltd.', address: 'No. 12, Street 271', tin: 'K001-901234567', phone: null },
    customer_id: 5,
    currency: 'USD',
    vat_rate_bp: 1000,
    lines: [
      {
        line_no: 1,
        order_item_id: 301,
        description_kh: 'ស្រាបៀរអង្គរ',
        description_en: 'Angkor Beer',
        sku: 'B1',
        unit_kh: 'កំប៉ុង',
        unit_en: 'Can',
        quantity: 3,
        decimals: 0,
        unit_price_cents: 125,
        currency: 'USD',
        discount_cents: 0,
        tax_category: 'S',
        tax_rate_bp: 1000,
        net_cents: 375,
        tax_cents: 38,
        total_cents: 413,
      },
      {
        line_no: 2,
        order_item_id: 302,
        description_kh: 'អង្ករ',
        description_en: 'Rice',
        sku: 'R1',
        unit_kh: 'បាវ',
        unit_en: 'Bag',
        quantity: 1,
        decimals: 0,
        unit_price_cents: 1000,
        currency: 'USD',
        discount_cents: 0,
        tax_category: 'E',
        tax_rate_bp: 0,
        net_cents: 1000,
        tax_cents: 0,
        total_cents: 1000,
      },
    ],
    net_cents: 1375,
    tax_cents: 38,
    total_cents: 1413,
    taxes: [
      { tax_category: 'S', tax_rate_bp: 1000, net_cents: 375, tax_cents: 38 },
      { tax_category: 'E', tax_rate_bp: 0, net_cents: 1000, tax_cents: 0 },
    ],
    total_khr: 58_004,
    tax_khr: 156,
    net_khr: 57_848,
    rate_khr: 4105,
    rate_source: 'nbc_daily',
    rate_date: '2026-03-01',
    created_by_name: 'Sok Dara',
    notes: [],
    einvoice: null,
    ...extra,
  };
  return { ...row, abilities: extra.abilities ?? taxDocumentPolicy.abilities(actorOf(viewer), row) };
}

const CREDIT = invoiceOf({
  id: 2,
  kind: 'credit_note',
  series: 'CN-PP01-2026',
  number: 'CN-PP01-2026-000001',
  original_id: 1,
  original_number: 'TI-PP01-2026-000001',
  original_issue_date: '2026-03-01',
  reason: 'Dented can',
  lines: [{ ...invoiceOf().lines[0], quantity: 1, net_cents: 125, tax_cents: 13, total_cents: 138 }],
  net_cents: 125,
  tax_cents: 13,
  total_cents: 138,
  taxes: [{ tax_category: 'S', tax_rate_bp: 1000, net_cents: 125, tax_cents: 13 }],
  total_khr: 5665,
  tax_khr: 53,
  net_khr: 5612,
});
const INVOICE = invoiceOf({
  notes: [
    {
      id: 2,
      kind: 'credit_note',
      number: CREDIT.number,
      issued_at: CREDIT.issued_at,
      total_cents: 138,
      total_khr: 5665,
    },
  ],
});
const COMMERCIAL = invoiceOf({
  id: 3,
  kind: 'commercial_invoice',
  series: 'CI-PP01-2026',
  number: 'CI-PP01-2026-000001',
  buyer: { name: 'អតិថិជនទូទៅ', address: null, tin: null, phone: null },
});

function summaryOf(doc: TaxDocumentDetail): TaxDocumentSummary {
  return {
    id: doc.id,
    kind: doc.kind,
    series: doc.series,
    sequence: doc.sequence,
    number: doc.number,
    issued_at: doc.issued_at,
    store_id: doc.store_id,
    store_name: 'Phnom Penh Depot',
    order_id: doc.order_id,
    order_number: doc.order_number,
    original_id: doc.original_id,
    original_number: doc.original_number,
    buyer_name: doc.buyer.name,
    buyer_tin: doc.buyer.tin,
    total_cents: doc.total_cents,
    total_khr: doc.total_khr,
    rate_khr: doc.rate_khr,
    rate_source: doc.rate_source,
    ...stamp,
  };
}

const READ = ['tax_documents.list', 'tax_documents.view'];
const MANAGER = [...READ, 'tax_documents.create', 'tax_documents.approve'];

function taxApi(docs: TaxDocumentDetail[], extra = {}) {
  const handlers: Record<string, unknown> = {
    'GET stocks/low/count': { body: { data: { count: 0 } } },
    'GET tax-documents': () => ({ body: listAnswer(docs.map(summaryOf)) }),
  };
  for (const doc of docs) handlers[`GET tax-documents/${doc.id}`] = () => ({ body: { data: doc } });
  Object.assign(handlers, extra);
  return mockFetch(handlers as Parameters<typeof mockFetch>[0]);
}

async function openDocument(number: string) {
  const { user } = renderApp('/en/tax-documents');
  const link = await screen.findByRole('button', { name: number }, { timeout: 30_000 });
  await user.click(link);
  return { user, sheet: await screen.findByTestId('tax-document') };
}

describe('tax documents', { timeout: 60_000 }, () => {
  it('lists each document with its kind, buyer and TIN, the invoice it corrects, and its totals', async () => {
    signedIn({ permissions: READ });
    const { calls } = taxApi([CREDIT, INVOICE, COMMERCIAL]);
    renderApp('/en/tax-documents');
    const table = (await screen.findByText('CN-PP01-2026-000001', {}, { timeout: 30_000 })).closest('table');
    if (!table) throw new Error('no table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0].textContent)).toEqual([
      'CN-PP01-2026-000001',
      'TI-PP01-2026-000001',
      'CI-PP01-2026-000001',
    ]);
    const credit = within(rows[0]);
    expect(credit.getByText('Credit note')).toBeTruthy();
    expect(credit.getByText('K001-901234567')).toBeTruthy();
    expect(credit.getByText('TI-PP01-2026-000001')).toBeTruthy();
    expect(credit.getByText('$1.38')).toBeTruthy();
    expect(credit.getByText('5,665៛')).toBeTruthy();
    expect(within(rows[1]).getByText('58,004៛')).toBeTruthy();
    // asked for a page the server serves (a page size it does not take answered 422, "Failed to load")
    const asked = Object.fromEntries(calls('GET tax-documents')[0].query);
    expect(listQuery.safeParse(asked).success, JSON.stringify(asked)).toBe(true);
  });

  it('prints a tax invoice with the riel total, the rate and its source, each tax on its own line', async () => {
    signedIn({ permissions: READ });
    taxApi([INVOICE, CREDIT]);
    const { sheet } = await openDocument(INVOICE.number);
    const page = within(sheet);
    expect(page.getByText('វិក្កយបត្រអាករ')).toBeTruthy();
    expect(page.getByText('Tax invoice')).toBeTruthy();
    expect(page.getByTestId('seller-tin').textContent).toBe('K009-123456789');
    expect(page.getByTestId('buyer-tin').textContent).toBe('K001-901234567');
    expect(page.getByTestId('document-total-khr').textContent).toBe('58,004៛');
    expect(page.getByTestId('document-rate').textContent).toBe('1 $ = 4,105៛');
    expect(sheet.textContent).toContain('National Bank, 2026-03-01');
    expect(sheet.textContent).toContain('ធនាគារជាតិ 2026-03-01');
    expect(sheet.textContent).toContain('Total before VAT');
    // VAT on its own line, once (the exempt rice has none); the categories on the lines
    expect(page.getAllByTestId('document-vat').map((v) => v.textContent)).toEqual(['$0.38']);
    const lines = within(page.getAllByRole('table')[0]).getAllByRole('row').slice(1);
    expect(lines.map((row) => within(row).getAllByRole('cell')[4].textContent)).toEqual(['S 10%', 'E']);
  });

  it('shows CamInvoice’s status and prints the verification link as a QR code once valid', async () => {
    signedIn({ permissions: READ });
    const link = 'https://e-invoice.gov.kh/verify/5f0c2b1e';
    const valid = invoiceOf({
      einvoice: { kind: 'invoice', status: 'valid', reason: null, verification_link: link },
    });
    const status = {
      document_kind: 'invoice',
      document_id: 1,
      number: valid.number,
      status: 'valid',
      reason: null,
      platform_document_id: '5f0c2b1e',
      verification_link: link,
      attempts: 1,
      updated_at: '2026-03-01T03:01:00.000Z',
    };
    taxApi([valid], { 'GET einvoices/invoice/1': { body: { data: status } } });
    const { sheet } = await openDocument(valid.number);
    const qr = within(sheet).getByTestId('einvoice-qr');
    expect(qr.getAttribute('data-payload')).toBe(link);
    expect(sheet.textContent).toContain('Verified by CamInvoice');
    expect(sheet.textContent).toContain('ផ្ទៀងផ្ទាត់');
    expect((await screen.findAllByTestId('einvoice-status-invoice-1'))[0].textContent).toBe('CamInvoice: valid');
  });

  it('prints no QR code while the invoice is not cleared', async () => {
    signedIn({ permissions: READ });
    taxApi([invoiceOf({ einvoice: { kind: 'invoice', status: 'submitting', reason: null, verification_link: null } })]);
    const { sheet } = await openDocument(INVOICE.number);
    expect(within(sheet).queryByTestId('einvoice-qr')).toBeNull();
  });

  it('lists an invoice’s credit note under it, and opens it with the invoice it references', async () => {
    signedIn({ permissions: READ });
    taxApi([INVOICE, CREDIT]);
    const { user } = await openDocument(INVOICE.number);
    const notes = await screen.findByTestId('document-notes');
    const note = within(notes).getByTestId('note-link');
    expect(note.textContent).toBe('Credit note CN-PP01-2026-000001');
    expect(notes.textContent).toContain('$1.38 · 5,665៛');
    await user.click(note);
    await waitFor(() =>
      expect(screen.getByTestId('original-number').textContent).toBe('TI-PP01-2026-000001 · 2026-03-01'),
    );
    expect(screen.getByTestId('document-total-khr').textContent).toBe('5,665៛');
    expect(screen.getByTestId('tax-document').textContent).toContain('Dented can');
  });

  it('prints a commercial invoice with prices including tax and no breakdown', async () => {
    signedIn({ permissions: READ });
    taxApi([COMMERCIAL]);
    const { sheet } = await openDocument(COMMERCIAL.number);
    const page = within(sheet);
    expect(page.getByText('Commercial invoice')).toBeTruthy();
    expect(page.queryByTestId('document-vat')).toBeNull();
    expect(sheet.textContent).not.toContain('Total before VAT');
    expect(sheet.textContent).toContain('Price incl. VAT');
    // each line at its price with VAT: 3 × $1.38 (rounded), $4.13
    const lines = within(page.getAllByRole('table')[0]).getAllByRole('row').slice(1);
    expect(
      within(lines[0])
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['1', 'ស្រាបៀរអង្គរAngkor Beer', '3 កំប៉ុង', '$1.38', '$4.13']);
    expect(page.getByTestId('document-total-khr').textContent).toBe('58,004៛');
  });
});

describe('a weighed line', { timeout: 60_000 }, () => {
  // 1.250 kg of pork at $4.99 a kg: kept as 1250 grams with the unit's 3 decimals
  const pork = {
    ...invoiceOf().lines[0],
    description_kh: 'សាច់ជ្រូក',
    description_en: 'Pork',
    unit_kh: 'គីឡូ',
    unit_en: 'kg',
    quantity: 1250,
    decimals: 3,
    unit_price_cents: 499,
    net_cents: 624,
    tax_cents: 62,
    total_cents: 686,
  };
  const weighed = (extra: Partial<TaxDocumentDetail>) =>
    invoiceOf({ lines: [pork], net_cents: 624, tax_cents: 62, total_cents: 686, ...extra });
  const cells = (sheet: HTMLElement) =>
    within(within(within(sheet).getAllByRole('table')[0]).getAllByRole('row')[1])
      .getAllByRole('cell')
      .map((c) => c.textContent);

  it('prints the kilograms, not the grams, at the price of a kilogram', async () => {
    signedIn({ permissions: READ });
    taxApi([weighed({})]);
    const { sheet } = await openDocument(INVOICE.number);
    expect(cells(sheet)).toEqual(['1', 'សាច់ជ្រូកPork', '1.250 គីឡូ', '$4.99', 'S 10%', '$6.24']);
  });

  it('prints a commercial invoice’s price with VAT of a kilogram', async () => {
    signedIn({ permissions: READ });
    const doc = weighed({ id: 3, kind: 'commercial_invoice', number: COMMERCIAL.number, buyer: COMMERCIAL.buyer });
    taxApi([doc]);
    const { sheet } = await openDocument(doc.number);
    // $6.86 for 1.250 kg: $5.49 a kg
    expect(cells(sheet)).toEqual(['1', 'សាច់ជ្រូកPork', '1.250 គីឡូ', '$5.49', '$6.86']);
  });
});

describe('a sale’s invoice', { timeout: 60_000 }, () => {
  const sale = orderRow(9, { customer_id: 5, customer_name: 'Sokha Trading', customer_vat_number: 'K001-901234567' });
  const orderApi = (extra: Record<string, unknown>) =>
    mockFetch({
      ...tillLookups(),
      'GET orders': { body: listAnswer([sale]) },
      'GET orders/9': { body: { data: sale } },
      'GET tax-documents': { body: listAnswer([]) },
      ...extra,
    } as Parameters<typeof mockFetch>[0]);

  it('shows each field the server names when it refuses a tax invoice, and sends nothing else', async () => {
    signedIn({ permissions: [...SELLING, ...MANAGER] });
    const { calls } = orderApi({
      'POST tax-documents': {
        status: 422,
        body: {
          message: 'This tax invoice cannot be issued.',
          errors: {
            'seller.tin': ['The seller’s VAT number (TIN) is missing: set it in the settings.'],
            'seller.address': ['The seller’s address is missing: set it in the settings.'],
          },
        },
      },
    });
    const { user } = renderApp('/en/orders?view=9');
    const issue = await screen.findByTestId('issue-tax-document', {}, { timeout: 30_000 });
    expect(issue.textContent).toBe('Issue tax invoice');
    await user.click(issue);
    const alert = await screen.findByText(/seller’s VAT number \(TIN\) is missing/);
    expect(alert.textContent).toBe(
      'The seller’s VAT number (TIN) is missing: set it in the settings.\nThe seller’s address is missing: set it in the settings.',
    );
    expect(calls('POST tax-documents')).toHaveLength(1);
    expect(calls('POST tax-documents')[0].body).toEqual({ order_id: 9 });
    expect(calls('POST tax-documents')[0].headers['idempotency-key']).toBeTruthy();
  });

  it('opens the sale’s invoice once it has one, and offers no issue without the permission', async () => {
    signedIn({ permissions: [...SELLING, ...READ] });
    orderApi({ 'GET tax-documents': { body: listAnswer([summaryOf(INVOICE)]) } });
    renderApp('/en/orders?view=9');
    const view = await screen.findByTestId('open-tax-document', {}, { timeout: 30_000 });
    expect(view.textContent).toBe('View TI-PP01-2026-000001');
    expect(screen.queryByTestId('issue-tax-document')).toBeNull();
  });
});

describe('a debit note', { timeout: 60_000 }, () => {
  it('is offered only where the server allows it: a manager, on an invoice', async () => {
    signedIn({ permissions: READ });
    const cashierView = invoiceOf({}, { as: 'cashier' });
    expect(cashierView.abilities.debit).toBe(false);
    taxApi([cashierView]);
    await openDocument(INVOICE.number);
    expect(screen.queryByTestId('debit-note')).toBeNull();
  });

  it('checks the lines, previews the total at the invoice’s VAT and rate, and issues it once', async () => {
    signedIn({ permissions: MANAGER });
    const DEBIT = invoiceOf({
      id: 4,
      kind: 'debit_note',
      number: 'DN-PP01-2026-000001',
      original_id: 1,
      original_number: INVOICE.number,
      original_issue_date: '2026-03-01',
      reason: 'Price list error',
    });
    expect(INVOICE.abilities.debit).toBe(true);
    const { calls } = taxApi([INVOICE, CREDIT, DEBIT], {
      'POST tax-documents/1/debit-notes': () => ({
        status: 201,
        body: { message: 'Debit note DN-PP01-2026-000001 issued.', data: DEBIT },
      }),
    });
    const { user } = await openDocument(INVOICE.number);
    await user.click(screen.getByTestId('debit-note'));
    const form = await screen.findByTestId('debit-form');
    // nothing typed: the shared schema's messages on the fields, nothing sent
    await user.click(screen.getByTestId('debit-submit'));
    expect(await within(form).findAllByText(/required|at least 1/i)).not.toHaveLength(0);
    expect(calls('POST tax-documents/1/debit-notes')).toHaveLength(0);

    await user.type(within(form).getByLabelText('Reason'), 'Price list error');
    await user.type(within(form).getByLabelText('Description, line 1'), 'Beer price correction');
    await user.clear(within(form).getByLabelText('Quantity'));
    await user.type(within(form).getByLabelText('Quantity'), '3');
    await user.type(within(form).getByLabelText('Unit price before VAT'), '0.10');
    // 3 × $0.10 = $0.30, VAT $0.03, $0.33 at 4,105៛ = 1,355៛ (1,354.65, half up)
    const preview = screen.getByTestId('debit-preview');
    expect(preview.textContent).toContain('$0.30');
    expect(preview.textContent).toContain('$0.33 · 1,355៛');
    await user.click(screen.getByTestId('debit-submit'));
    await waitFor(() => expect(calls('POST tax-documents/1/debit-notes')).toHaveLength(1));
    const sent = calls('POST tax-documents/1/debit-notes')[0];
    expect(sent.body).toEqual({
      reason: 'Price list error',
      lines: [{ description: 'Beer price correction', quantity: 3, unit_price_cents: 10, tax_category: 'S' }],
    });
    expect(sent.headers['idempotency-key']).toBeTruthy();
    // the new note opens, referencing its invoice
    await waitFor(() => expect(screen.getByTestId('document-number').textContent).toBe('DN-PP01-2026-000001'));
    expect(screen.getByTestId('original-number').textContent).toContain(INVOICE.number);
  });

  it('puts the server’s refusal of a line on that line', async () => {
    signedIn({ permissions: MANAGER });
    taxApi([INVOICE, CREDIT], {
      'POST tax-documents/1/debit-notes': {
        status: 422,
        body: {
          message: 'The given data was invalid.',
          errors: { 'lines.0.tax_category': ['VAT 10 % needs a VAT rate in the settings.'] },
        },
      },
    });
    const { user } = await openDocument(INVOICE.number);
    await user.click(screen.getByTestId('debit-note'));
    const form = await screen.findByTestId('debit-form');
    await user.type(within(form).getByLabelText('Reason'), 'Price list error');
    await user.type(within(form).getByLabelText('Description, line 1'), 'Beer');
    await user.type(within(form).getByLabelText('Unit price before VAT'), '0.10');
    await user.click(screen.getByTestId('debit-submit'));
    expect(await within(form).findByText('VAT 10 % needs a VAT rate in the settings.')).toBeTruthy();
  });
});
