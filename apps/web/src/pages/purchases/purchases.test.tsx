import { formatUsd, purchaseTotals, todayInCambodia } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  choose,
  fieldOf,
  listAnswer,
  openDropdown,
  productRow,
  purchaseRow,
  STORES,
  supplierRow,
  unitRow,
} from '../../test/inventory.ts';
import { type Handler, mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { emptyDraft, type PurchaseDraft, saveDraft } from './draft.ts';

const PURCHASES = ['list', 'view', 'create', 'update', 'approve', 'cancel'].map((action) => `purchases.${action}`);
const LOOKUPS = ['stores.list', 'stores.view', 'suppliers.list', 'suppliers.view', 'products.list', 'units.list'];

const beer = productRow(1);
const rice = productRow(2, {
  name_en: 'Jasmine rice 5kg',
  name_kh: 'អង្ករផ្កាម្លិះ',
  sku: 'RICE-5',
  barcode: '8850000000002',
  unit_id: 9,
  unit_name_en: 'Bag',
  unit_name_kh: 'បាវ',
  cost_usd_cents: 450,
});

const lookups: Record<string, Handler> = {
  'GET suppliers': () => ({ body: listAnswer([supplierRow(1, 'Cambrew Ltd'), supplierRow(2, 'Rice Co')]) }),
  'GET stores': () => ({ body: listAnswer(STORES) }),
  'GET products': ({ query }) => {
    const search = (query.get('search') ?? '').toLowerCase();
    return {
      body: listAnswer(
        [beer, rice].filter(
          (p) =>
            p.sku.toLowerCase().startsWith(search) || p.barcode === search || p.name_en.toLowerCase().includes(search),
        ),
      ),
    };
  },
  'GET units': ({ query }) => ({
    body: listAnswer(query.get('filter[base_unit_id]') === '5' ? [unitRow(6)] : []),
  }),
  'GET stocks/low/count': () => ({ body: { data: { count: 0 } } }),
};

async function scan(user: UserEvent, code: string) {
  const finder = screen.getByTestId('product-finder');
  await user.type(finder, `${code}{Enter}`);
}

async function retype(user: UserEvent, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.type(input, text);
}

describe('purchase form', { timeout: 40_000 }, () => {
  it('adds scanned lines, totals them as the server does, sends cents and puts a refusal on its line', async () => {
    let refused = false;
    const { calls } = mockFetch({
      ...lookups,
      'POST purchases': () => {
        if (!refused) {
          refused = true;
          return {
            status: 422,
            body: {
              message: 'The given data was invalid.',
              errors: { 'items.1.quantity': ['More than is still due on this line (5).'] },
            },
          };
        }
        return { status: 201, body: { message: 'Purchase created.', data: purchaseRow(9, { status: 'ordered' }) } };
      },
      'GET purchases': () => ({ body: listAnswer([purchaseRow(9)]) }),
      'GET purchases/9': () => ({ body: { data: purchaseRow(9) } }),
    });
    signedIn({ permissions: [...PURCHASES, ...LOOKUPS, 'stocks.list'] });
    const { user, path, router } = renderApp('/en/purchases/create');
    const form = await screen.findByTestId('purchase-form');
    await choose(user, screen.getByLabelText('Supplier'), 'Cambrew Ltd');
    // the store starts as the user's own, the date as today in Cambodia
    await waitFor(() =>
      expect(within(fieldOf(screen.getByLabelText('Store'))).getByText('Phnom Penh Depot (PP01)')).toBeTruthy(),
    );
    expect(screen.getByDisplayValue(todayInCambodia().split('-').reverse().join('/'))).toBeTruthy();

    // a scanner: the code and Enter; the same code again is one more of it
    await scan(user, 'ANG-330');
    await waitFor(() => expect(screen.getByTestId('line-0-quantity')).toBeTruthy());
    await scan(user, 'ANG-330');
    await waitFor(() => expect((screen.getByTestId('line-0-quantity') as HTMLInputElement).value).toBe('2'));
    await scan(user, '8850000000002');
    await waitFor(() => expect(screen.getByTestId('line-1-quantity')).toBeTruthy());
    // prices start from the product's cost; a carton costs 24 cans
    expect((screen.getByTestId('line-0-price') as HTMLInputElement).value).toBe('0.90');
    await choose(user, screen.getByRole('combobox', { name: 'Unit, line 1' }), 'Carton (24)');
    expect((screen.getByTestId('line-0-price') as HTMLInputElement).value).toBe('21.60');

    await retype(user, screen.getByTestId('line-0-quantity'), '3');
    await retype(user, screen.getByTestId('line-0-price'), '21.65');
    await retype(user, screen.getByTestId('line-1-quantity'), '7');
    await retype(user, screen.getByTestId('line-1-price'), '4.35');
    await user.type(screen.getByLabelText('Lot, line 2'), 'R-77');
    // a line's lot and expiry sit under its product, so its money stays in sight on a laptop
    const riceCell = screen.getByText('Jasmine rice 5kg').closest('td');
    expect(screen.getByLabelText('Lot, line 2').closest('td')).toBe(riceCell);
    expect(screen.getByLabelText('Expiry date, line 2').closest('td')).toBe(riceCell);
    await retype(user, screen.getByLabelText('Shipping'), '3.33');
    await retype(user, screen.getByLabelText('Tax'), '1.5');

    const expected = purchaseTotals(
      [
        { quantity: 3, unit_price_cents: 2165 },
        { quantity: 7, unit_price_cents: 435 },
      ],
      333,
      150,
    );
    expect(screen.getByTestId('line-0-total').textContent).toBe(formatUsd(expected.lines[0].line_total_cents));
    expect(screen.getByTestId('line-1-total').textContent).toBe(formatUsd(expected.lines[1].line_total_cents));
    expect(screen.getByTestId('line-0-shipping').textContent).toBe(formatUsd(expected.lines[0].shipping_share_cents));
    expect(screen.getByTestId('line-1-shipping').textContent).toBe(formatUsd(expected.lines[1].shipping_share_cents));
    expect(screen.getByTestId('total-subtotal').textContent).toBe('$95.40');
    expect(screen.getByTestId('total-grand').textContent).toBe(formatUsd(expected.grand_total_cents));
    expect(expected.grand_total_cents).toBe(9540 + 333 + 150);

    await user.click(within(form).getByTestId('review'));
    await waitFor(() => expect(path()).toBe('/en/purchases/review'));
    const review = await screen.findByTestId('purchase-review');
    expect(within(review).getByTestId('review-supplier').textContent).toBe('Cambrew Ltd');
    expect(within(review).getByTestId('review-1-shipping').textContent).toBe(
      formatUsd(expected.lines[1].shipping_share_cents),
    );
    expect(within(review).getByTestId('total-grand').textContent).toBe(formatUsd(expected.grand_total_cents));

    await user.click(within(review).getByTestId('confirm'));
    await waitFor(() => expect(path()).toBe('/en/purchases/create'));
    expect(calls('POST purchases')[0].body).toEqual({
      supplier_id: 1,
      store_id: 1,
      purchase_date: todayInCambodia(),
      notes: null,
      shipping_cents: 333,
      tax_cents: 150,
      ordered: true,
      items: [
        { product_id: 1, unit_id: 6, quantity: 3, unit_price_cents: 2165, lot: null, expiry_date: null },
        { product_id: 2, unit_id: 9, quantity: 7, unit_price_cents: 435, lot: 'R-77', expiry_date: null },
      ],
    });
    // back on the form, with what was typed, the message on line 2's quantity
    const second = await screen.findByTestId('line-1-quantity');
    expect((second as HTMLInputElement).value).toBe('7');
    expect(await within(fieldOf(second)).findByText('More than is still due on this line (5).')).toBeTruthy();
    expect(within(fieldOf(screen.getByTestId('line-0-quantity'))).queryByText(/More than/)).toBeNull();

    await retype(user, second, '5');
    expect(fieldOf(second).className).not.toContain('ant-form-item-has-error');
    await user.click(screen.getByTestId('review'));
    await user.click(await screen.findByTestId('confirm'));
    await waitFor(() => expect(path()).toBe('/en/purchases'));
    expect(router.state.location.search).toBe('?view=9');
    expect(await screen.findByText('Purchase created.')).toBeTruthy();
    expect(sessionStorage.length).toBe(0);
  });

  it('offers as its store only the stores the user covers', async () => {
    mockFetch({ ...lookups });
    signedIn({ permissions: [...PURCHASES, ...LOOKUPS], coverage: { all: false, store_ids: [2] } });
    const { user } = renderApp('/en/purchases/create');
    await screen.findByTestId('purchase-form');
    await user.click(screen.getByLabelText('Store'));
    const offered = await waitFor(() => {
      const list = within(openDropdown());
      expect(list.getByText('Siem Reap Depot (SR01)')).toBeTruthy();
      return list;
    });
    expect(offered.queryByText('Phnom Penh Depot (PP01)')).toBeNull();
  });

  it('checks the purchase in the browser before the review', async () => {
    const { calls } = mockFetch(lookups);
    signedIn({ permissions: [...PURCHASES, ...LOOKUPS] });
    const { user, path } = renderApp('/en/purchases/create');
    await user.click(await screen.findByTestId('review'));
    expect(await within(fieldOf(screen.getByLabelText('Supplier'))).findByText('This field is required!')).toBeTruthy();
    expect(within(fieldOf(screen.getByTestId('product-finder'))).getByText('Choose at least 1.')).toBeTruthy();
    await scan(user, 'RICE-5');
    await retype(user, await screen.findByTestId('line-0-price'), '4.5.0');
    await user.click(screen.getByTestId('review'));
    expect(
      await within(fieldOf(screen.getByTestId('line-0-price'))).findByText('The value is not valid.'),
    ).toBeTruthy();
    expect(path()).toBe('/en/purchases/create');
    expect(calls('POST purchases')).toHaveLength(0);
  });
});

describe('purchase review', { timeout: 30_000 }, () => {
  function draft(): PurchaseDraft {
    return {
      ...emptyDraft(1),
      supplier_id: 2,
      purchase_date: '2026-03-01',
      shipping_cents: 100,
      tax_cents: 0,
      ordered: false,
      lines: [
        {
          key: 'a',
          product: {
            id: 2,
            name_en: 'Jasmine rice 5kg',
            name_kh: 'អង្ករផ្កាម្លិះ',
            sku: 'RICE-5',
            base_unit_id: 9,
            cost_cents: 450,
          },
          unit: { id: 9, name_en: 'Bag', name_kh: 'បាវ', factor: 1 },
          quantity: 1,
          unit_price_cents: 100,
          lot: '',
          expiry_date: '2027-01-31',
        },
        {
          key: 'b',
          product: {
            id: 1,
            name_en: 'Angkor Beer 330ml',
            name_kh: 'ស្រាបៀរអង្គរ',
            sku: 'ANG-330',
            base_unit_id: 5,
            cost_cents: 90,
          },
          unit: { id: 5, name_en: 'Can', name_kh: 'កំប៉ុង', factor: 1 },
          quantity: 2,
          unit_price_cents: 100,
          lot: '',
          expiry_date: null,
        },
      ],
    };
  }

  it('shows the draft a reload left, with each line’s share of the shipping, and confirms it', async () => {
    const { calls } = mockFetch({
      ...lookups,
      'POST purchases': () => ({
        status: 201,
        body: { message: 'Purchase created.', data: purchaseRow(12, { status: 'draft' }) },
      }),
      'GET purchases': () => ({ body: listAnswer([purchaseRow(12, { status: 'draft' })]) }),
      'GET purchases/12': () => ({ body: { data: purchaseRow(12, { status: 'draft' }) } }),
    });
    saveDraft(draft());
    signedIn({ permissions: [...PURCHASES, ...LOOKUPS] });
    const { user, path } = renderApp('/en/purchases/review');
    const review = await screen.findByTestId('purchase-review');
    await waitFor(() => expect(within(review).getByTestId('review-supplier').textContent).toBe('Rice Co'));
    expect(within(review).getByTestId('review-store').textContent).toBe('Phnom Penh Depot');
    expect(within(review).getByText('Draft')).toBeTruthy();
    expect(within(review).getByText('1 Bag')).toBeTruthy();
    // the expiry under the product it belongs to, not in a column of its own
    const rice = within(review).getByText('Jasmine rice 5kg').closest('td') as HTMLElement;
    expect(within(rice).getByText('31 Jan 2027')).toBeTruthy();
    expect(within(review).queryByRole('columnheader', { name: 'Expiry date' })).toBeNull();
    // $1.00 of shipping over $1.00 and $2.00 of goods: 33 and 67 cents, to the cent
    expect(within(review).getByTestId('review-0-shipping').textContent).toBe('$0.33');
    expect(within(review).getByTestId('review-1-shipping').textContent).toBe('$0.67');
    expect(within(review).getByTestId('total-subtotal').textContent).toBe('$3.00');
    expect(within(review).getByTestId('total-grand').textContent).toBe('$4.00');

    await user.click(within(review).getByTestId('confirm'));
    await waitFor(() => expect(calls('POST purchases')).toHaveLength(1));
    await waitFor(() => expect(path()).toBe('/en/purchases'));
    expect(calls('POST purchases')[0].body).toMatchObject({
      supplier_id: 2,
      store_id: 1,
      ordered: false,
      shipping_cents: 100,
      items: [
        { product_id: 2, unit_id: 9, quantity: 1, unit_price_cents: 100, lot: null, expiry_date: '2027-01-31' },
        { product_id: 1, unit_id: 5, quantity: 2, unit_price_cents: 100, lot: null, expiry_date: null },
      ],
    });
    expect(await screen.findByTestId('purchase-details')).toBeTruthy();
  });

  it('goes back to the form with the draft', async () => {
    mockFetch(lookups);
    saveDraft(draft());
    signedIn({ permissions: [...PURCHASES, ...LOOKUPS] });
    const { user, path } = renderApp('/en/purchases/review');
    await user.click(await screen.findByTestId('back-to-edit'));
    await waitFor(() => expect(path()).toBe('/en/purchases/create'));
    expect(((await screen.findByTestId('line-1-quantity')) as HTMLInputElement).value).toBe('2');
    expect(screen.getByTestId('total-grand').textContent).toBe('$4.00');
  });
});

describe('purchase details', { timeout: 30_000 }, () => {
  it('receives what is still due, prefilled, and records a payment of the due', async () => {
    const { calls } = mockFetch({
      ...lookups,
      'GET purchases': () => ({ body: listAnswer([purchaseRow(9)]) }),
      'GET purchases/9': () => ({ body: { data: purchaseRow(9) } }),
      'POST purchases/9/receive': () => ({
        body: { message: 'Goods received into stock.', data: purchaseRow(9, { status: 'partially_received' }) },
      }),
      'POST purchases/9/payments': () => ({
        body: { message: 'Payment recorded.', data: purchaseRow(9, { paid_cents: 2260, due_cents: 0 }) },
      }),
    });
    signedIn({ permissions: [...PURCHASES, ...LOOKUPS] });
    const { user } = renderApp('/en/purchases?view=9');
    const details = await screen.findByTestId('purchase-details');
    expect(within(details).getByTestId('received-71').textContent).toBe('4 / 10 Carton');
    expect(within(details).getByTestId('total-due').textContent).toBe('$22.60');
    expect(within(details).getByTestId('purchase-edit')).toBeTruthy();
    expect(within(details).queryByTestId('purchase-order')).toBeNull();

    await user.click(within(details).getByTestId('purchase-receive'));
    const receive = await screen.findByTestId('receive-form');
    const quantity = within(receive).getByTestId('receive-71') as HTMLInputElement;
    expect(quantity.value).toBe('6');
    await retype(user, quantity, '2');
    await user.click(within(receive).getByTestId('receive-all'));
    expect(quantity.value).toBe('6');
    await user.click(screen.getByRole('button', { name: 'Receive goods' }));
    expect(await screen.findByText('Goods received into stock.')).toBeTruthy();
    expect(calls('POST purchases/9/receive')[0].body).toEqual({
      received_at: todayInCambodia(),
      items: [{ item_id: 71, quantity: 6, serials: [] }],
    });

    await user.click(within(details).getByTestId('purchase-pay'));
    const payment = await screen.findByTestId('payment-form');
    expect((within(payment).getByLabelText('Amount') as HTMLInputElement).value).toBe('22.60');
    await user.type(within(payment).getByLabelText('Reference'), 'INV-88');
    await user.click(screen.getByRole('button', { name: 'Record payment' }));
    expect(await screen.findByText('Payment recorded.')).toBeTruthy();
    expect(calls('POST purchases/9/payments')[0].body).toEqual({
      amount_cents: 2260,
      method: 'cash_usd',
      paid_at: todayInCambodia(),
      reference: 'INV-88',
      note: null,
    });
  });
});

describe('a purchase’s payments', { timeout: 30_000 }, () => {
  it('shows the day paid as people read a date, not the raw date', async () => {
    const paid = purchaseRow(9, { paid_cents: 1000, due_cents: 1260 });
    paid.payments = [
      {
        id: 3,
        amount_cents: 1000,
        method: 'cash_usd',
        paid_at: '2026-03-12',
        reference: null,
        note: null,
        created_by_name: 'Dara',
        created_at: '2026-03-12T02:00:00.000Z',
      },
    ];
    mockFetch({
      ...lookups,
      'GET purchases': () => ({ body: listAnswer([paid]) }),
      'GET purchases/9': () => ({ body: { data: paid } }),
    });
    signedIn({ permissions: [...PURCHASES, ...LOOKUPS] });
    renderApp('/en/purchases?view=9');
    const details = await screen.findByTestId('purchase-details');
    const reference = await within(details).findByText('Dara');
    const row = reference.closest('tr') as HTMLElement;
    expect(within(row).getByText('12 Mar 2026')).toBeTruthy();
    expect(within(row).queryByText('2026-03-12')).toBeNull();
  });
});

describe('a supplier’s purchases', { timeout: 30_000 }, () => {
  const handlers = {
    ...lookups,
    'GET purchases': () => ({ body: listAnswer([purchaseRow(9)]) }),
  };

  it('opens the purchases list narrowed to the supplier, the filter showing it', async () => {
    const { calls } = mockFetch(handlers);
    signedIn({ permissions: [...PURCHASES, ...LOOKUPS] });
    const { user, path, router } = renderApp('/en/suppliers');
    await user.click(await screen.findByTestId('purchases-2'));
    await waitFor(() => expect(path()).toBe('/en/purchases'));
    expect(new URLSearchParams(router.state.location.search).get('filter[supplier_id]')).toBe('2');
    await waitFor(() => expect(calls('GET purchases').at(-1)?.query.get('filter[supplier_id]')).toBe('2'));
    const filter = screen.getByTestId('filter-supplier_id');
    expect(await within(filter).findByText('Rice Co')).toBeTruthy();
  });

  it('is not offered without the permission to list purchases', async () => {
    mockFetch(handlers);
    signedIn({ permissions: ['suppliers.list', 'suppliers.update'] });
    renderApp('/en/suppliers');
    expect(await screen.findByTestId('edit-2')).toBeTruthy();
    expect(screen.queryByTestId('purchases-2')).toBeNull();
  });
});

describe('labels for a purchase', { timeout: 30_000 }, () => {
  it('offers one label per unit received and says the server’s refusal in the dialog', async () => {
    const { calls } = mockFetch({
      ...lookups,
      'GET purchases': () => ({ body: listAnswer([purchaseRow(9)]) }),
      'GET purchases/9': () => ({ body: { data: purchaseRow(9) } }),
      'GET labels/settings': () => ({ body: { data: { barcode_sheet: '3x8', tag_sheet: '2x5' } } }),
      'POST labels/pdf': () => ({
        status: 422,
        body: {
          message: 'The given data was invalid.',
          errors: {
            'items.0.product_id': [
              '“Angkor Beer 330ml” has no barcode yet: someone who may edit products must print its first label.',
            ],
          },
        },
      }),
    });
    signedIn({ permissions: [...PURCHASES, ...LOOKUPS, 'products.generate'] });
    const { user } = renderApp('/en/purchases?view=9');
    const details = await screen.findByTestId('purchase-details');
    await user.click(within(details).getByTestId('purchase-labels'));
    // 4 cartons of 24 received: 96 labels of the beer
    const quantity = (await screen.findByTestId('labels-quantity-5')) as HTMLInputElement;
    expect(quantity.value).toBe('96');
    expect(screen.getByText('96 labels in all')).toBeTruthy();
    await user.click(screen.getByTestId('labels-pdf'));
    expect((await screen.findByTestId('labels-problem')).textContent).toContain('has no barcode yet');
    expect(calls('POST labels/pdf')[0].body).toEqual({
      kind: 'barcode',
      items: [{ product_id: 5, quantity: 96 }],
      sheet: '3x8',
      skip: 0,
    });
  });

  it('is not offered without the permission to print labels', async () => {
    mockFetch({
      ...lookups,
      'GET purchases': () => ({ body: listAnswer([purchaseRow(9)]) }),
      'GET purchases/9': () => ({ body: { data: purchaseRow(9) } }),
    });
    signedIn({ permissions: [...PURCHASES, ...LOOKUPS] });
    renderApp('/en/purchases?view=9');
    const details = await screen.findByTestId('purchase-details');
    expect(within(details).getByTestId('purchase-receive')).toBeTruthy();
    expect(within(details).queryByTestId('purchase-labels')).toBeNull();
  });
});
