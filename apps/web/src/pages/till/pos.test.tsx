import { formatKhr, formatUsd, priceCart, rielOf, settle } from '@depot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { choose, listAnswer, productRow } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { BEER, comboRow, DARA, orderRow, previewOf, RATES, RICE, SELLING, tillLookups } from '../../test/sales.ts';
import { addLine, type Cart, emptyCart, productLine, shortOf, type TillLine } from './cart.ts';

const text = (testId: string) => screen.getByTestId(testId).textContent;
/** A $1.50 can without VAT: 6,200៛ at 4,100 (6,150 rounded), as the server lists it. */
const COLA = productRow(3, {
  name_en: 'Cola',
  sku: 'COLA',
  barcode: null,
  price_usd_cents: 150,
  price_khr_effective: 6200,
  taxable: false,
});
/** Another, with its own riel price (a label price no sale charges), which the list once showed. */
const SODA = productRow(4, {
  ...COLA,
  id: 4,
  name_en: 'Soda',
  sku: 'SODA',
  price_khr: 6000,
  price_khr_effective: 6000,
});
/** The riel figure a tile shows. */
const tileRiel = (id: number) => within(screen.getByTestId(`tile-${id}`)).getByText(/៛/).textContent;

/** A scanner: the code typed within microseconds, then Enter, with the focus on no field. */
function scan(code: string) {
  for (const key of code) fireEvent.keyDown(document.body, { key });
  fireEvent.keyDown(document.body, { key: 'Enter' });
}

describe('the till', { timeout: 40_000 }, () => {
  it('totals the cart exactly as priceCart does, with a line discount, an order discount and VAT', async () => {
    mockFetch(tillLookups());
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/pos');
    await user.click(await screen.findByTestId('tile-1'));
    await user.click(screen.getByTestId('tile-2'));
    await user.click(screen.getByRole('button', { name: 'One more, line 1' }));
    await user.click(screen.getByRole('button', { name: 'One more, line 1' }));
    await choose(user, screen.getByRole('combobox', { name: 'Discount, line 1' }), 'Drinks 10% (−10%)');
    await choose(user, screen.getByRole('combobox', { name: 'Discount on the whole order' }), 'Loyalty $1 (−$1.00)');

    const expected = priceCart({
      lines: [
        { unit_price_cents: 126, quantity: 3, taxable: true, discount: { type: 'percentage', amount: 1000 } },
        { unit_price_cents: 450, quantity: 1, taxable: false },
      ],
      order_discount: { type: 'value', amount: 100 },
      vat_rate_bp: 1000,
    });
    await waitFor(() => expect(text('cart-total-usd')).toBe(formatUsd(expected.total_cents)));
    expect(text('cart-subtotal')).toBe(formatUsd(expected.subtotal_cents));
    expect(text('cart-discount')).toBe(`−${formatUsd(expected.discount_cents)}`);
    expect(text('cart-vat')).toBe(formatUsd(expected.tax_cents));
    expect(text('cart-total-khr')).toBe(formatKhr(rielOf(expected.total_cents, RATES)));
    expect(text('line-0-discount-cents')).toBe(`−${formatUsd(expected.lines[0].line_discount_cents)}`);
    // the rate the till sells at, and when it was set
    expect(text('pos-rate')).toContain('1 $ = 4,100៛');
  });

  it('shows riel for what is paid at once, the same figure on the tile, the cart and the review', async () => {
    // two $1.50 items at 4,100៛: 6,200៛ each (6,150 rounded), 12,300៛ together (the riel of $3.00,
    // rounded once); a line shows no riel that the total would contradict (6,200 + 6,200)
    mockFetch(tillLookups([COLA, SODA]));
    signedIn({ permissions: SELLING });
    const { user, path } = renderApp('/en/pos');
    await user.click(await screen.findByTestId('tile-3'));
    expect(tileRiel(3)).toBe('6,200៛');
    expect(tileRiel(4)).toBe('6,200៛');
    await waitFor(() => expect(text('cart-total-khr')).toBe('6,200៛'));
    await user.click(screen.getByTestId('tile-4'));
    await waitFor(() => expect(text('cart-total-khr')).toBe('12,300៛'));
    expect(text('cart-total-usd')).toBe('$3.00');
    const riel = within(screen.getByTestId('pos-cart')).getAllByText(/៛/);
    expect(riel.map((shown) => shown.textContent)).toEqual(['12,300៛']);
    expect(screen.queryByTestId('line-0-gross-khr')).toBeNull();

    await user.click(screen.getByTestId('pos-pay'));
    await waitFor(() => expect(path()).toBe('/en/orders/review'));
    expect((await screen.findByTestId('settle-total')).textContent).toContain('12,300៛');
    expect(text('due-khr')).toBe('12,300៛');
  });

  it('prices riel at the rate riel is received at, on the tile, the total and what is due', async () => {
    mockFetch({
      ...tillLookups([COLA]),
      'GET exchange-rates/current': () => ({ body: { data: { ...RATES, rate_in_khr: 4200 } } }),
    });
    signedIn({ permissions: SELLING });
    const { user, path } = renderApp('/en/pos');
    await user.click(await screen.findByTestId('tile-3'));
    // $1.50 at 4,200៛: 6,300៛, what a customer paying riel hands over
    expect(tileRiel(3)).toBe('6,300៛');
    await waitFor(() => expect(text('cart-total-khr')).toBe('6,300៛'));
    expect(text('pos-rate')).toContain('1 $ = 4,200៛');
    await user.click(screen.getByTestId('pos-pay'));
    await waitFor(() => expect(path()).toBe('/en/orders/review'));
    expect((await screen.findByTestId('settle-total')).textContent).toContain('6,300៛');
    expect(text('due-khr')).toBe('6,300៛');
  });

  it('before its catalogue is on the device, asks the server a scan’s code once and a search at each key', async () => {
    const { calls } = mockFetch(tillLookups());
    signedIn({ permissions: SELLING });
    renderApp('/en/pos');
    // (the till's code, compiled on its first use, is slow to come on a busy machine)
    await screen.findByTestId('tile-2', {}, { timeout: 30_000 });
    scan(RICE.barcode as string);
    await waitFor(() => expect(screen.getByTestId('cart-line-0').textContent).toContain('Jasmine rice 5kg'));
    // one round trip: the code's product, not a search of the whole catalogue
    const coded = calls('GET products/till').filter((call) => call.query.has('filter[code]'));
    expect(coded.map((call) => call.query.get('filter[code]'))).toEqual([RICE.barcode]);
    expect(calls('GET products')).toHaveLength(0);
    // typing: each key asked at once (no pause waited for), the tile of the last shown
    const search = screen.getByTestId('pos-search');
    fireEvent.change(search, { target: { value: 'J' } });
    fireEvent.change(search, { target: { value: 'Ja' } });
    await waitFor(() => expect(screen.queryByTestId('tile-1')).toBeNull());
    const searched = calls('GET products/till').map((call) => call.query.get('search'));
    expect(searched).toContain('J');
    expect(searched).toContain('Ja');
  });

  it('shows each product’s stock in the till’s store and refuses at once what the store has not', async () => {
    const stock: Record<number, number> = { 1: 10, 2: 5, 3: 2, 4: 0 };
    // the stock comes with the products, for the store asked: the till's (the user's, store 1)
    const withStock = (row: ReturnType<typeof productRow>, store: string | null) =>
      store === '1' ? { ...row, stock: stock[row.id] } : row;
    const { calls } = mockFetch({
      ...tillLookups([COLA, SODA]),
      'GET products/till': ({ query }) => ({
        body: listAnswer([COLA, SODA].map((row) => withStock(row, query.get('stock_store')))),
      }),
      'GET products/1': ({ query }) => ({ body: { data: withStock(BEER, query.get('stock_store')) } }),
      'GET products/2': ({ query }) => ({ body: { data: withStock(RICE, query.get('stock_store')) } }),
      'GET combos': () => ({ body: listAnswer([comboRow(5)]) }),
      'GET combos/5': () => ({ body: { data: { ...comboRow(5), items: previewOf().items } } }),
    });
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/pos');
    await waitFor(() => expect(text('tile-3-stock')).toBe('2 Can in stock'));
    expect(text('tile-4-stock')).toBe('Out of stock');
    expect(calls('GET products/till').at(-1)?.query.get('stock_store')).toBe('1');

    // none in the store: refused at the tap, in the spec's words, and the cart stays empty
    await user.click(screen.getByTestId('tile-4'));
    expect(text('pos-problem')).toBe('Not enough stock for the product “Soda”.');
    expect(screen.queryByTestId('cart-line-0')).toBeNull();

    // two in the store: a third is refused, by the button and typed alike
    await user.click(screen.getByTestId('tile-3'));
    expect(screen.queryByTestId('pos-problem')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'One more, line 1' }));
    await waitFor(() => expect(text('cart-total-usd')).toBe('$3.00'));
    await user.click(screen.getByRole('button', { name: 'One more, line 1' }));
    expect(text('pos-problem')).toBe('Not enough stock for the product “Cola”.');
    await user.click(screen.getByTestId('tile-3'));
    expect(text('pos-problem')).toBe('Not enough stock for the product “Cola”.');
    const quantity = screen.getByTestId('line-0-quantity') as HTMLInputElement;
    fireEvent.change(quantity, { target: { value: '5' } });
    expect(text('pos-problem')).toBe('Not enough stock for the product “Cola”.');
    fireEvent.blur(quantity);
    expect(text('cart-total-usd')).toBe('$3.00');
    // one fewer is always allowed
    await user.click(screen.getByRole('button', { name: 'One less, line 1' }));
    await waitFor(() => expect(text('cart-total-usd')).toBe('$1.50'));
    expect(screen.queryByTestId('pos-problem')).toBeNull();

    // a combo of 12 beers, with 10 in the store: its part is short
    await user.click(screen.getByTestId('chip-combos'));
    await user.click(await screen.findByTestId('combo-tile-5'));
    await waitFor(() => expect(text('pos-problem')).toBe('Not enough stock for the product “Angkor Beer 330ml”.'));
    expect(screen.queryByTestId('cart-line-1')).toBeNull();
    expect(calls('GET products/1')[0].query.get('stock_store')).toBe('1');
  });

  it('adds the product a scanner types anywhere on the page, but not keys typed in a field', async () => {
    mockFetch(tillLookups());
    signedIn({ permissions: SELLING });
    renderApp('/en/pos');
    await screen.findByTestId('tile-1');
    scan('8851959132012');
    await waitFor(() => expect(screen.getByTestId('cart-line-0').textContent).toContain('Angkor Beer 330ml'));
    expect((screen.getByTestId('line-0-quantity') as HTMLInputElement).value).toBe('1');

    // the same burst in the note is the cashier typing there
    const note = screen.getByRole('textbox', { name: 'Note' });
    for (const key of '8850000000002') fireEvent.keyDown(note, { key });
    fireEvent.keyDown(note, { key: 'Enter' });
    // the same code again is one more of it; the SKU works too, in any case
    scan('8851959132012');
    await waitFor(() => expect((screen.getByTestId('line-0-quantity') as HTMLInputElement).value).toBe('2'));
    // (a lookup started by the note's burst would have answered before the scan's)
    expect(screen.queryByTestId('cart-line-1')).toBeNull();
    scan('rice-5');
    await waitFor(() => expect(screen.getByTestId('cart-line-1').textContent).toContain('Jasmine rice 5kg'));
    // one bag: the burst in the note added none
    expect((screen.getByTestId('line-1-quantity') as HTMLInputElement).value).toBe('1');
    expect(screen.queryByTestId('cart-line-2')).toBeNull();
  });

  it('asks for a customer and a product before paying (the spec rule)', async () => {
    mockFetch({ ...tillLookups(), 'GET customers': () => ({ body: listAnswer([DARA]) }) });
    signedIn({ permissions: SELLING });
    const { user, path } = renderApp('/en/pos');
    await screen.findByTestId('tile-1');
    await user.click(screen.getByTestId('pos-pay'));
    expect(text('pos-problem')).toBe('Select a customer and at least one product.');

    await user.click(screen.getByTestId('tile-1'));
    // F9 is Pay
    fireEvent.keyDown(window, { key: 'F9' });
    expect(text('pos-problem')).toBe('Select a customer and at least one product.');
    expect(path()).toBe('/en/pos');

    await choose(user, screen.getByRole('combobox', { name: 'Customer' }), 'Sok Dara · 012 345 678');
    await user.click(screen.getByTestId('pos-pay'));
    await waitFor(() => expect(path()).toBe('/en/orders/review'));
    expect(await screen.findByTestId('review-customer')).toBeTruthy();
  });

  it("prices the cart at the chosen customer's price list, as the server quotes it, and names the list", async () => {
    type Asked = { customer_id: number; items: { product_id: number; unit_id: number; quantity: number }[] };
    const { calls } = mockFetch({
      ...tillLookups(),
      'GET customers': () => ({ body: listAnswer([DARA]) }),
      // Sok Dara's shop is in the wholesale group: a can at $1.00 instead of $1.26
      'POST prices/quote': ({ body }) => {
        const asked = body as Asked;
        const wholesale = asked.customer_id === DARA.id;
        return {
          body: {
            data: {
              customer_group_id: wholesale ? 7 : null,
              group_name_en: wholesale ? 'Wholesale' : null,
              group_name_kh: wholesale ? 'លក់ដុំ' : null,
              lines: asked.items.map((item) => ({
                ...item,
                unit_price_cents: wholesale ? 100 : 126,
                list_price_cents: wholesale ? 100 : 126,
                source: wholesale ? 'group' : 'product',
                price_list_en: wholesale ? 'Wholesale' : null,
                price_list_kh: wholesale ? 'លក់ដុំ' : null,
                min_quantity: null,
              })),
            },
          },
        };
      },
    });
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/pos');
    await user.click(await screen.findByTestId('tile-1'));
    expect(text('line-0-unit-price')).toBe('$1.26');
    expect(screen.queryByTestId('line-0-price-source')).toBeNull();

    await choose(user, screen.getByRole('combobox', { name: 'Customer' }), 'Sok Dara · 012 345 678');
    await waitFor(() => expect(text('line-0-unit-price')).toBe('$1.00'));
    expect(text('line-0-price-source')).toBe('Group price');
    expect(text('price-list')).toBe('Price list: Wholesale');
    expect(text('cart-subtotal')).toBe('$1.00');
    expect(calls('POST prices/quote').at(-1)?.body).toEqual({
      customer_id: DARA.id,
      items: [{ product_id: BEER.id, unit_id: BEER.unit_id, quantity: 1 }],
    });
  });

  it('takes part in riel and part in dollars, shows the change in both, and keeps a lost sale on the device, sent again with the same key', async () => {
    let attempts = 0;
    const sold = orderRow(9, { change_cents: 189, change_khr: 7800 });
    const { calls } = mockFetch({
      ...tillLookups(),
      'POST orders': () => {
        attempts += 1;
        return attempts === 1
          ? { networkError: true }
          : { status: 201, body: { message: 'Sale recorded.', data: sold } };
      },
    });
    signedIn({ permissions: SELLING });
    const { user, path } = renderApp('/en/pos');
    await user.click(await screen.findByTestId('tile-1'));
    for (let i = 0; i < 3; i += 1) await user.click(screen.getByRole('button', { name: 'One more, line 1' }));
    await user.click(screen.getByTestId('pos-pay'));
    await waitFor(() => expect(path()).toBe('/en/orders/review'));
    await screen.findByTestId('tenders');

    const total = priceCart({ lines: [{ unit_price_cents: 126, quantity: 4, taxable: true }], vat_rate_bp: 1000 });
    await user.click(screen.getByTestId('note-khr-10000'));
    await user.click(screen.getByTestId('note-usd-5'));
    const expected = settle(
      total.total_cents,
      [
        { method: 'cash_khr', amount: 10_000 },
        { method: 'cash_usd', amount: 500 },
      ],
      { rate_khr: 4100, khr_step: 100 },
    );
    expect(expected.change_cents).toBeGreaterThan(0);
    expect(text('change-usd')).toBe(formatUsd(expected.change_cents));
    expect(text('change-khr')).toBe(formatKhr(expected.change_khr));
    expect(text('change-split')).toBe(
      `${formatUsd(expected.change_split.usd_cents)} + ${formatKhr(expected.change_split.khr)}`,
    );
    expect(text('due-usd')).toBe('$0.00');

    await user.click(screen.getByTestId('complete-sale'));
    // no answer: the sale is kept on this device, numbered by it, and marked unsynced
    expect(await screen.findByTestId('kept-unsynced')).toBeTruthy();
    expect(screen.getByText(/^Sale OFF-[A-Z0-9]{4}-0001 kept on this device$/)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('new-sale')));
    // the cart is gone: a new sale starts empty, and the till sends the kept one by itself
    await user.click(screen.getByTestId('new-sale'));
    await waitFor(() => expect(path()).toBe('/en/pos'));
    expect(await screen.findByText('Scan a barcode or tap a product')).toBeTruthy();
    await waitFor(() => expect(calls('POST orders')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByTestId('queue-count')).toBeNull());

    const posts = calls('POST orders');
    const key = posts[0].headers['idempotency-key'];
    expect(key).toMatch(/^[\w.:-]{8,100}$/);
    expect(posts[1].headers['idempotency-key']).toBe(key);
    expect(posts[1].body).toEqual(posts[0].body);
    expect(posts[0].body).toMatchObject({
      customer_id: 1,
      hold: false,
      items: [{ product_id: 1, unit_id: 5, quantity: 4, discount_id: null }],
      payments: [
        { method: 'cash_usd', amount: 500, transaction_id: null },
        { method: 'cash_khr', amount: 10_000, transaction_id: null },
      ],
    });
  });

  it('holds a cart, resumes it from the held orders, and checks it out as the same order', async () => {
    const held = orderRow(7, { status: 'held', payment_status: 'onhold', paid_cents: 0, due_cents: 554 });
    let parked = false;
    const { calls } = mockFetch({
      ...tillLookups(),
      'POST orders': () => {
        parked = true;
        return { status: 201, body: { message: 'Order held: resume it from the order list.', data: held } };
      },
      'GET orders': ({ query }) => ({
        body: listAnswer(parked && query.get('filter[status]') === 'held' ? [held] : []),
      }),
      'GET orders/7': () => ({ body: { data: held } }),
      'PUT orders/7': () => ({ body: { message: 'Sale recorded.', data: orderRow(7) } }),
    });
    signedIn({ permissions: SELLING });
    const { user, path } = renderApp('/en/pos');
    await user.click(await screen.findByTestId('tile-1'));
    // F8 is Hold
    fireEvent.keyDown(window, { key: 'F8' });
    await waitFor(() => expect(calls('POST orders')).toHaveLength(1));
    expect(calls('POST orders')[0].body).toMatchObject({ hold: true, payments: [], customer_id: 1 });
    expect(calls('POST orders')[0].headers['idempotency-key']).toBeTruthy();
    expect(await screen.findByText('Scan a barcode or tap a product')).toBeTruthy();

    await user.click(screen.getByTestId('open-held'));
    await user.click(await screen.findByTestId('resume-7'));
    await waitFor(() => expect(screen.getByTestId('cart-line-0').textContent).toContain('Angkor Beer 330ml'));
    expect((screen.getByTestId('line-0-quantity') as HTMLInputElement).value).toBe('4');
    expect(screen.getByText('Till · SO-PP01-000007')).toBeTruthy();

    await user.click(screen.getByTestId('pos-pay'));
    await waitFor(() => expect(path()).toBe('/en/orders/review'));
    await user.click(await screen.findByTestId('exact-usd'));
    expect(text('due-usd')).toBe('$0.00');
    await user.click(screen.getByTestId('complete-sale'));
    await screen.findByTestId('done-change');
    expect(calls('POST orders')).toHaveLength(1);
    const [put] = calls('PUT orders/7');
    expect(put.body).toMatchObject({
      hold: false,
      items: [{ product_id: 1, unit_id: 5, quantity: 4 }],
      payments: [{ method: 'cash_usd', amount: 554, transaction_id: null }],
    });
    expect(put.headers['idempotency-key']).toBeTruthy();
    expect(within(screen.getByTestId('done-change')).getByTestId('done-change-usd').textContent).toBe('$0.00');
    // the keyboard flow goes on: focus is on "New sale", not left on the page
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('new-sale')));
  });

  it('lists another cashier’s held cart without offering to resume it (the server says it is theirs)', async () => {
    // as the server answers a cashier (user 1) about a cart user 2 held
    const theirs = orderRow(
      8,
      { status: 'held', payment_status: 'onhold', cashier_id: 2, cashier_name: 'Chan Sophea' },
      { as: 'cashier' },
    );
    expect(theirs.abilities.update).toBe(false);
    mockFetch({ ...tillLookups(), 'GET orders': () => ({ body: listAnswer([theirs]) }) });
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/pos');
    await user.click(await screen.findByTestId('open-held'));
    const drawer = await screen.findByTestId('held-orders');
    expect(drawer.textContent).toContain('Chan Sophea');
    expect(within(drawer).queryByTestId('resume-8')).toBeNull();
  });
});

describe('the till’s stock rule', () => {
  const can = (stock: number | null): TillLine => ({ ...productLine(productRow(3, { name_en: 'Cola' })), stock });
  const carton = (line: TillLine): TillLine => ({
    ...line,
    key: 'carton',
    unit: { id: 7, name_en: 'Carton', name_kh: 'កេស', factor: 24 },
  });
  const cart = (...lines: TillLine[]): Cart => lines.reduce((c, line) => addLine(c, line), emptyCart());

  it('counts a carton as its factor of units, and every line of the same product together', () => {
    expect(shortOf(emptyCart(), cart(carton(can(30))))).toBeNull();
    expect(shortOf(emptyCart(), cart(carton(can(23))))?.name_en).toBe('Cola');
    // a carton and six cans of 30
    const before = cart(carton(can(30)));
    expect(shortOf(before, addLine(before, { ...can(30), quantity: 6 }))).toBeNull();
    expect(shortOf(before, addLine(before, { ...can(30), quantity: 7 }))?.name_en).toBe('Cola');
  });

  it('judges by the freshest figure, lets what is already short go down, and leaves unknown stock to the server', () => {
    const before = cart(can(1));
    // the product read again with 5 in the store: the new figure counts for the line already there
    expect(shortOf(before, addLine(before, can(5)))).toBeNull();
    const over: Cart = { ...before, lines: [{ ...before.lines[0], stock: 1, quantity: 4 }] };
    const fewer: Cart = { ...over, lines: [{ ...over.lines[0], quantity: 3 }] };
    expect(shortOf(over, fewer)).toBeNull();
    expect(shortOf(emptyCart(), cart({ ...can(null), quantity: 1000 }))).toBeNull();
  });
});
