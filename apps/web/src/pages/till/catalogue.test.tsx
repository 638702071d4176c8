import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { choose, fieldOf, listAnswer, productRow } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { categoryRow, comboRow, discountRow, previewOf } from '../../test/sales.ts';
import { type ComboDraft, saveComboDraft } from '../combos/comboDraft.ts';

const DISCOUNTS = ['list', 'view', 'create', 'update', 'delete', 'restore'].map((a) => `discounts.${a}`);
const COMBOS = ['list', 'view', 'create', 'update', 'delete', 'restore'].map((a) => `combos.${a}`);

describe('discount form', { timeout: 40_000 }, () => {
  it('asks for the product or the category the scope names, and sends a percentage in basis points', async () => {
    const { calls } = mockFetch({
      'GET products': () => ({ body: listAnswer([productRow(1)]) }),
      'GET categories': () => ({ body: listAnswer([categoryRow(1, 'Drinks', 'ភេសជ្ជៈ')]) }),
      'GET discounts': () => ({ body: listAnswer([]) }),
      'POST discounts': ({ body }) => ({
        status: 201,
        body: { message: 'Discount created.', data: discountRow(5, body as object) },
      }),
    });
    signedIn({ permissions: [...DISCOUNTS, 'products.list', 'categories.list'] });
    const { user, path } = renderApp('/en/discounts/create');
    await screen.findByTestId('record-form');
    // a discount on the whole order names neither
    expect(screen.queryByLabelText('Product')).toBeNull();
    expect(screen.queryByLabelText('Category')).toBeNull();

    await user.click(screen.getByText('A product'));
    expect(await screen.findByLabelText('Product')).toBeTruthy();
    expect(screen.queryByLabelText('Category')).toBeNull();

    await user.click(screen.getByText('A category'));
    expect(await screen.findByLabelText('Category')).toBeTruthy();
    expect(screen.queryByLabelText('Product')).toBeNull();

    await user.type(screen.getByLabelText('Name'), 'Songkran drinks');
    await user.type(screen.getByTestId('discount-amount'), '15');
    expect(within(fieldOf(screen.getByTestId('discount-amount'))).getByText('%')).toBeTruthy();
    await user.click(screen.getByTestId('save'));
    await waitFor(() =>
      expect(within(fieldOf(screen.getByLabelText('Category'))).getByText('This field is required!')).toBeTruthy(),
    );
    expect(calls('POST discounts')).toHaveLength(0);

    await choose(user, screen.getByLabelText('Category'), 'Drinks');
    // the amount off each unit is in dollars: the same figure, now $15.00
    await user.click(screen.getByText('Amount off'));
    expect(within(fieldOf(screen.getByTestId('discount-amount'))).getByText('$')).toBeTruthy();
    await user.click(screen.getByText('Percentage'));
    await user.click(screen.getByTestId('save'));
    await waitFor(() => expect(calls('POST discounts')).toHaveLength(1));
    expect(calls('POST discounts')[0].body).toMatchObject({
      name: 'Songkran drinks',
      type: 'percentage',
      amount: 1500,
      scope: 'category',
      category_id: 1,
    });
    await waitFor(() => expect(path()).toBe('/en/discounts'));
  });
});

const DRAFT: ComboDraft = {
  id: null,
  name_en: 'Party pack',
  name_kh: 'កញ្ចប់ពិធីជប់លៀង',
  description: '',
  sku: 'PARTY-1',
  barcode: '',
  selling_price_cents: 2500,
  status: 'active',
  lines: [
    {
      key: 'a',
      product: {
        id: 1,
        name_en: 'Angkor Beer 330ml',
        name_kh: 'ស្រាបៀរអង្គរ',
        sku: 'ANG-330',
        base_unit_id: 5,
        cost_cents: 90,
      },
      unit: { id: 5, name_en: 'Can', name_kh: 'កំប៉ុង', factor: 1 },
      quantity: 12,
    },
    {
      key: 'b',
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
    },
  ],
};

describe('combo review', { timeout: 40_000 }, () => {
  it("shows the server's preview (price, cost, profit, margin, quantity), then saves", async () => {
    const { calls } = mockFetch({
      'POST combos/preview': () => ({ body: { data: previewOf() } }),
      'POST combos': () => ({
        status: 201,
        body: { message: 'Combo created.', data: { ...comboRow(5), items: previewOf().items } },
      }),
      'GET combos': () => ({ body: listAnswer([comboRow(5)]) }),
    });
    signedIn({ permissions: COMBOS });
    saveComboDraft(DRAFT);
    const { user, path } = renderApp('/en/combos/review');
    await screen.findByTestId('preview-money');
    expect(screen.getByTestId('preview-selling').textContent).toBe('$25.00');
    expect(screen.getByTestId('preview-price').textContent).toBe('$20.88');
    expect(screen.getByTestId('preview-cost').textContent).toBe('$15.30');
    expect(screen.getByTestId('preview-profit').textContent).toBe('$9.70');
    expect(screen.getByTestId('preview-margin').textContent).toBe('38.8%');
    expect(screen.getByTestId('preview-quantity').textContent).toBe('13');
    const body = {
      name_en: 'Party pack',
      sku: 'PARTY-1',
      selling_price_cents: 2500,
      items: [
        { product_id: 1, unit_id: 5, quantity: 12 },
        { product_id: 2, unit_id: 9, quantity: 1 },
      ],
    };
    expect(calls('POST combos/preview')[0].body).toMatchObject(body);

    await user.click(screen.getByTestId('confirm'));
    await waitFor(() => expect(path()).toBe('/en/combos'));
    expect(calls('POST combos')[0].body).toMatchObject(body);
    expect(await screen.findByText('Party pack')).toBeTruthy();
  });

  it('sends a refused preview back to the form, the message on its field', async () => {
    mockFetch({
      'POST combos/preview': () => ({
        status: 422,
        body: { message: 'The given data was invalid.', errors: { sku: ['This SKU is already taken.'] } },
      }),
      'GET products': () => ({ body: listAnswer([]) }),
    });
    signedIn({ permissions: COMBOS });
    saveComboDraft(DRAFT);
    const { path } = renderApp('/en/combos/review');
    await waitFor(() => expect(path()).toBe('/en/combos/create'));
    const sku = await screen.findByLabelText('SKU');
    expect((sku as HTMLInputElement).value).toBe('PARTY-1');
    expect(await within(fieldOf(sku)).findByText('This SKU is already taken.')).toBeTruthy();
  });

  it("puts a refused line's message on that line, as the form names it", async () => {
    mockFetch({
      'POST combos/preview': () => ({
        status: 422,
        body: {
          message: 'The given data was invalid.',
          errors: { 'items.1.quantity': ['Only whole bags.'], 'items.0.unit_id': ['Not a unit of this product.'] },
        },
      }),
      'GET products': () => ({ body: listAnswer([]) }),
    });
    signedIn({ permissions: COMBOS });
    saveComboDraft(DRAFT);
    const { path } = renderApp('/en/combos/review');
    await waitFor(() => expect(path()).toBe('/en/combos/create'));
    const second = await screen.findByTestId('combo-line-1-quantity');
    expect((second as HTMLInputElement).value).toBe('1');
    expect(await within(fieldOf(second)).findByText('Only whole bags.')).toBeTruthy();
    expect(
      await within(fieldOf(screen.getByLabelText('Unit, line 1'))).findByText('Not a unit of this product.'),
    ).toBeTruthy();
    expect(within(fieldOf(screen.getByTestId('combo-line-0-quantity'))).queryByText('Only whole bags.')).toBeNull();
  });
});
