import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  batchRow,
  choose,
  fieldOf,
  levelRow,
  listAnswer,
  popoverWith,
  STORES,
  transferRow,
} from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

const STOCK = ['list', 'view', 'create', 'update'].map((action) => `stocks.${action}`);
const LOOKUPS = ['stores.list', 'categories.list'];

describe('stock management', { timeout: 30_000 }, () => {
  it("starts in the user's store and lists levels with their batches, in dollars", async () => {
    const { calls } = mockFetch({
      'GET stores': { body: listAnswer(STORES) },
      'GET categories': { body: listAnswer([]) },
      'GET stocks/levels': { body: listAnswer([levelRow()]) },
      'GET stocks/low/count': { body: { data: { count: 0 } } },
    });
    signedIn({ permissions: [...STOCK, ...LOOKUPS] });
    const { user } = renderApp('/en/stocks/manage');
    const table = await screen.findByTestId('levels-table');
    await within(table).findByText('ANG-330');
    // the session's store ("Phnom Penh Depot") is store 1; English pages sort by the English name
    const request = calls('GET stocks/levels')[0].query;
    expect(request.get('filter[store_id]')).toBe('1');
    expect(request.get('sort')).toBe('name_en');
    expect(within(table).getByText('$108.00')).toBeTruthy();
    expect(within(table).getByText('$0.90')).toBeTruthy();
    expect(within(table).getByTestId('quantity-1-5').textContent).toBe('120 Can');

    // every store, then low stock only
    await choose(user, screen.getByRole('combobox', { name: 'Store' }), 'All stores');
    await waitFor(() => expect(calls('GET stocks/levels').at(-1)?.query.has('filter[store_id]')).toBe(false));
    await user.click(screen.getByTestId('low-only'));
    await waitFor(() => expect(calls('GET stocks/levels').at(-1)?.query.get('filter[low]')).toBe('true'));

    // the batches: the expired one red, the other plain (once the low-stock list has loaded: while
    // it loads, antd blurs the table and it takes no clicks)
    await waitFor(() => expect(table.querySelector('.ant-spin-blur')).toBeNull());
    await user.click(within(table).getByRole('button', { name: /expand row/i }));
    const batches = await screen.findByTestId('batches-1-5');
    expect(within(batches).getByText('L-2025-01')).toBeTruthy();
    expect(within(batches).getByTestId('expiry-expired').textContent).toContain('31 Jan 2020');
    expect(within(batches).getByText('80 Can')).toBeTruthy();
  });

  it('an adjustment asks for the batch, sends the right body and shows the refusal of the server', async () => {
    const refusal = 'Not enough stock for the product “Angkor Beer 330ml”.';
    const { calls } = mockFetch({
      'GET stores': { body: listAnswer(STORES) },
      'GET categories': { body: listAnswer([]) },
      'GET stocks/levels': { body: listAnswer([levelRow()]) },
      'GET stocks/low/count': { body: { data: { count: 0 } } },
      'POST stocks/adjustments': { status: 409, body: { message: refusal } },
    });
    signedIn({ permissions: [...STOCK, ...LOOKUPS] });
    const { user } = renderApp('/en/stocks/manage');
    await user.click(await screen.findByTestId('adjust-1-5'));
    const form = await screen.findByTestId('adjust-form');
    // a count says so and shows what the system holds
    expect(within(form).getByText('Counted quantity')).toBeTruthy();
    expect(within(form).getByTestId('adjust-current').textContent).toBe('120 Can');

    await user.click(within(form).getByText('Damaged'));
    expect(within(form).getByText('Quantity taken away')).toBeTruthy();
    await user.type(within(form).getByTestId('adjust-quantity'), '30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // two batches in this store: which one must be said before anything is sent
    expect(
      await within(fieldOf(within(form).getByTestId('adjust-batch'))).findByText(
        'This product has several batches in this store: choose one.',
      ),
    ).toBeTruthy();
    expect(calls('POST stocks/adjustments')).toHaveLength(0);

    await choose(user, within(form).getByRole('combobox'), 'L-2026-02 · 31 Dec 2099 · 80 Can');
    expect(within(form).getByTestId('adjust-after').textContent).toBe('In stock after: 50');
    await user.type(within(form).getByLabelText('Note'), 'Dropped pallet');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('POST stocks/adjustments')).toHaveLength(1));
    const sent = calls('POST stocks/adjustments')[0];
    expect(sent.body).toEqual({
      store_id: 1,
      reason: 'damage',
      note: 'Dropped pallet',
      items: [{ product_id: 5, batch_id: 12, quantity: 30 }],
    });
    expect(sent.headers['idempotency-key']).toBeTruthy();
    expect((await within(form).findByTestId('adjust-error')).textContent).toContain(refusal);
  });

  it('shows and counts a weighed product in its unit, and sends its steps', async () => {
    const pork = levelRow({
      product_id: 7,
      product_name_en: 'Pork belly',
      sku: 'PORK-KG',
      unit_name_en: 'kg',
      unit_name_kh: 'គីឡូ',
      unit_decimals: 3,
      quantity: 18_500,
      reorder_level: 5_000,
      batches: [{ id: 21, lot: null, expiry_date: null, quantity: 18_500 }],
    });
    const { calls } = mockFetch({
      'GET stores': { body: listAnswer(STORES) },
      'GET categories': { body: listAnswer([]) },
      'GET stocks/levels': { body: listAnswer([pork]) },
      'GET stocks/low/count': { body: { data: { count: 0 } } },
      'POST stocks/adjustments': { status: 201, body: { message: 'Saved.', data: { id: 1 } } },
    });
    signedIn({ permissions: [...STOCK, ...LOOKUPS] });
    const { user } = renderApp('/en/stocks/manage');
    const table = await screen.findByTestId('levels-table');
    expect((await within(table).findByTestId('quantity-1-7')).textContent).toBe('18.500 kg');

    await user.click(screen.getByTestId('adjust-1-7'));
    const form = await screen.findByTestId('adjust-form');
    expect(within(form).getByTestId('adjust-current').textContent).toBe('18.500 kg');
    // counted on the shelf: 17.25 kg, sent as 17,250 g
    await user.type(within(form).getByTestId('adjust-quantity'), '17.25');
    expect(within(form).getByTestId('adjust-after').textContent).toBe('In stock after: 17.250');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('POST stocks/adjustments')).toHaveLength(1));
    expect(calls('POST stocks/adjustments')[0].body).toMatchObject({
      reason: 'count',
      items: [{ product_id: 7, quantity: 17_250 }],
    });
  });

  it('shows a product’s movements in its store', async () => {
    const { calls } = mockFetch({
      'GET stores': { body: listAnswer(STORES) },
      'GET categories': { body: listAnswer([]) },
      'GET stocks/levels': { body: listAnswer([levelRow()]) },
      'GET stocks/low/count': { body: { data: { count: 0 } } },
      'GET stocks/movements': {
        body: listAnswer([
          {
            id: 1,
            type: 'adjustment',
            store_id: 1,
            store_name: 'Phnom Penh Depot',
            product_id: 5,
            product_name_en: 'Angkor Beer 330ml',
            product_name_kh: 'ស្រាបៀរអង្គរ',
            sku: 'ANG-330',
            batch_id: 12,
            lot: 'L-2026-02',
            expiry_date: null,
            quantity: -30,
            value_cents: -2700,
            balance: 50,
            reason: 'damage',
            note: 'Dropped pallet',
            document_type: 'adjustment',
            document_id: 4,
            user_name: 'admin',
            created_at: '2026-03-01T02:00:00.000Z',
          },
        ]),
      },
    });
    signedIn({ permissions: [...STOCK, ...LOOKUPS] });
    const { user } = renderApp('/en/stocks/manage');
    await user.click(await screen.findByTestId('history-1-5'));
    const table = await screen.findByTestId('movements-table');
    await within(table).findByText('Dropped pallet');
    expect(within(table).getByText('-30')).toBeTruthy();
    expect(within(table).getByText('-$27.00')).toBeTruthy();
    expect(within(table).getByText('Adjustment #4')).toBeTruthy();
    expect(within(table).getByText('Damaged')).toBeTruthy();
    const query = calls('GET stocks/movements')[0].query;
    expect(query.get('filter[product_id]')).toBe('5');
    expect(query.get('filter[store_id]')).toBe('1');
  });

  it('hides the adjustment without the permission to adjust', async () => {
    mockFetch({
      'GET stores': { body: listAnswer(STORES) },
      'GET categories': { body: listAnswer([]) },
      'GET stocks/levels': { body: listAnswer([levelRow()]) },
      'GET stocks/low/count': { body: { data: { count: 0 } } },
    });
    signedIn({ permissions: ['stocks.list', ...LOOKUPS] });
    renderApp('/en/stocks/manage');
    await screen.findByText('ANG-330');
    expect(screen.queryByTestId('adjust-1-5')).toBeNull();
    expect(screen.queryByTestId('history-1-5')).toBeNull();
  });
});

describe('stock transfers', { timeout: 30_000 }, () => {
  const rows = [
    transferRow(1, { status: 'draft' }),
    transferRow(2, { status: 'sent', sent_at: '2026-03-02T02:00:00.000Z' }),
    transferRow(3, {
      status: 'received',
      sent_at: '2026-03-02T02:00:00.000Z',
      received_at: '2026-03-03T02:00:00.000Z',
    }),
  ];
  const handlers = (extra = {}) => ({
    'GET stores': { body: listAnswer(STORES) },
    'GET stock-transfers': { body: listAnswer(rows) },
    'GET stock-transfers/1': { body: { data: rows[0] } },
    'GET stock-transfers/2': { body: { data: rows[1] } },
    'GET stock-transfers/3': { body: { data: rows[2] } },
    'GET stocks/low/count': { body: { data: { count: 0 } } },
    ...extra,
  });

  it('lists transfers newest first, opening their details from the number', async () => {
    const { calls } = mockFetch(handlers());
    signedIn({ permissions: [...STOCK, 'stores.list'] });
    const { user, router } = renderApp('/en/stocks/transfer');
    const table = await screen.findByTestId('list-table');
    await within(table).findByText('TR-0001');
    expect(calls('GET stock-transfers')[0].query.get('sort')).toBe('-created_at');
    expect(within(table).getAllByText('Siem Reap Depot')).toHaveLength(3);
    expect(within(table).getByText('Draft')).toBeTruthy();
    // no kit Edit or Delete: a transfer changes through its details only
    expect(within(table).queryByTestId('edit-1')).toBeNull();
    expect(within(table).queryByTestId('delete-1')).toBeNull();
    expect(screen.queryByTestId('show-deleted')).toBeNull();
    await user.click(within(table).getByTestId('open-2'));
    const details = await screen.findByTestId('transfer-details');
    expect(within(details).getByText('2 Carton')).toBeTruthy();
    expect(within(details).getByText('48')).toBeTruthy();
    expect(router.state.location.search).toBe('?view=2');
  });

  it('a draft may be edited, sent or cancelled; sending says the stock leaves, then shows the refusal', async () => {
    const refusal = 'Not enough stock for the product “Angkor Beer 330ml”.';
    const { calls } = mockFetch(
      handlers({ 'POST stock-transfers/1/send': { status: 409, body: { message: refusal } } }),
    );
    signedIn({ permissions: [...STOCK, 'stores.list'] });
    const { user } = renderApp('/en/stocks/transfer?view=1');
    const details = await screen.findByTestId('transfer-details');
    expect(within(details).getByTestId('transfer-edit')).toBeTruthy();
    expect(within(details).getByTestId('transfer-cancel')).toBeTruthy();
    expect(within(details).queryByTestId('transfer-receive')).toBeNull();
    await user.click(within(details).getByTestId('transfer-send'));
    const help = await screen.findByTestId('transfer-send-help');
    expect(help.textContent).toBe(
      'The stock leaves Phnom Penh Depot now and is on its way to Siem Reap Depot until it is received.',
    );
    expect(calls('POST stock-transfers/1/send')).toHaveLength(0);
    await user.click(within(popoverWith(help)).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(calls('POST stock-transfers/1/send')).toHaveLength(1);
  });

  it('edits a draft and shows the refusal on the line it names, gone once the line changes', async () => {
    const { calls } = mockFetch(
      handlers({
        'PUT stock-transfers/1': {
          status: 422,
          body: {
            message: 'The given data was invalid.',
            errors: { 'items.0.quantity': ['Only 1 Carton left in the store.'], items: ['Check the lines.'] },
          },
        },
      }),
    );
    signedIn({ permissions: [...STOCK, 'stores.list'] });
    const { user } = renderApp('/en/stocks/transfer?view=1');
    const details = await screen.findByTestId('transfer-details');
    await user.click(within(details).getByTestId('transfer-edit'));
    const form = await screen.findByTestId('transfer-form');
    const quantity = within(form).getByTestId('line-0-quantity') as HTMLInputElement;
    expect(quantity.value).toBe('2');
    await user.clear(quantity);
    await user.type(quantity, '3');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('PUT stock-transfers/1')).toHaveLength(1));
    expect(calls('PUT stock-transfers/1')[0].body).toMatchObject({
      from_store_id: 1,
      to_store_id: 2,
      items: [{ product_id: 5, unit_id: 6, quantity: 3 }],
    });
    expect(await within(fieldOf(quantity)).findByText('Only 1 Carton left in the store.')).toBeTruthy();
    expect(await within(form).findByText('Check the lines.')).toBeTruthy();
    await user.type(quantity, '{Backspace}1');
    await waitFor(() => expect(fieldOf(quantity).className).not.toContain('ant-form-item-has-error'));
  });

  it('a sent transfer may be received or cancelled back to its store', async () => {
    const received = { ...rows[1], status: 'received', received_at: '2026-03-03T02:00:00.000Z' };
    const { calls } = mockFetch(
      handlers({
        'POST stock-transfers/2/receive': {
          body: { message: 'Transfer received: the stock is in the store.', data: received },
        },
      }),
    );
    signedIn({ permissions: [...STOCK, 'stores.list'] });
    const { user } = renderApp('/en/stocks/transfer?view=2');
    const details = await screen.findByTestId('transfer-details');
    expect(within(details).queryByTestId('transfer-send')).toBeNull();
    expect(within(details).queryByTestId('transfer-edit')).toBeNull();
    await user.click(within(details).getByTestId('transfer-cancel'));
    expect((await screen.findByTestId('transfer-cancel-help')).textContent).toBe(
      'The stock on its way returns to Phnom Penh Depot.',
    );
    await user.click(within(popoverWith(screen.getByTestId('transfer-cancel-help'))).getByText('Not now'));
    await user.click(within(details).getByTestId('transfer-receive'));
    const help = await screen.findByTestId('transfer-receive-help');
    expect(help.textContent).toBe('The stock arrives in Siem Reap Depot now and can be sold there.');
    await user.click(within(popoverWith(help)).getByRole('button', { name: 'Receive' }));
    expect(await screen.findByText('Transfer received: the stock is in the store.')).toBeTruthy();
    expect(calls('POST stock-transfers/2/receive')[0].headers['idempotency-key']).toBeTruthy();
    expect(calls('POST stock-transfers/2/cancel')).toHaveLength(0);
  });

  it('a received transfer offers nothing, and nothing is offered where the server allows nothing', async () => {
    mockFetch(handlers());
    signedIn({ permissions: [...STOCK, 'stores.list'] });
    const first = renderApp('/en/stocks/transfer?view=3');
    const details = await screen.findByTestId('transfer-details');
    expect(within(details).getByText('Received: nothing more to do.')).toBeTruthy();
    expect(within(details).queryByRole('button')).toBeNull();
    first.unmount();

    // a reader: the server answers every ability false
    const read = transferRow(1, {}, { permissions: ['stocks.list', 'stocks.view'] });
    expect(Object.values(read.abilities)).toEqual([false, false, false, false]);
    mockFetch({ ...handlers(), 'GET stock-transfers/1': { body: { data: read } } });
    signedIn({ permissions: ['stocks.list', 'stocks.view'] });
    renderApp('/en/stocks/transfer?view=1');
    const draft = await screen.findByTestId('transfer-details');
    expect(within(draft).queryByTestId('transfer-send')).toBeNull();
    expect(within(draft).queryByTestId('transfer-edit')).toBeNull();
    expect(screen.queryByTestId('create')).toBeNull();
  });
});

describe('low stock', { timeout: 30_000 }, () => {
  it('counts low products in the menu and says all is well when none is low', async () => {
    const { calls } = mockFetch({
      'GET stores': { body: listAnswer(STORES) },
      'GET stocks/low': { body: listAnswer([]) },
      'GET stocks/low/count': { body: { data: { count: 7 } } },
    });
    signedIn({ permissions: ['stocks.list', 'stores.list'] });
    renderApp('/en/stocks/low');
    // antd's menu draws its items twice (one copy measures them); the first is the one people see
    await waitFor(() => expect(screen.getAllByTestId('low-stock-badge')[0].textContent).toBe('7'));
    expect(screen.getAllByTestId('menu-/stocks/low')[0].textContent).toContain('Low stock');
    expect(await screen.findByText('All is well')).toBeTruthy();
    expect(calls('GET stocks/low/count').length).toBeGreaterThan(0);
  });

  it('lists what to reorder', async () => {
    mockFetch({
      'GET stores': { body: listAnswer(STORES) },
      'GET stocks/low': {
        body: listAnswer([
          {
            store_id: 2,
            store_name: 'Siem Reap Depot',
            product_id: 5,
            product_name_en: 'Angkor Beer 330ml',
            product_name_kh: 'ស្រាបៀរអង្គរ',
            sku: 'ANG-330',
            unit_name_en: 'Can',
            unit_name_kh: 'កំប៉ុង',
            unit_decimals: 0,
            quantity: 6,
            reorder_level: 24,
            reorder_quantity: 42,
          },
        ]),
      },
      'GET stocks/low/count': { body: { data: { count: 1 } } },
    });
    signedIn({ permissions: ['stocks.list', 'stores.list'] });
    renderApp('/stocks/low');
    expect((await screen.findByTestId('reorder-2-5')).textContent).toBe('42 កំប៉ុង');
    expect(screen.getByText('6 កំប៉ុង')).toBeTruthy();
    // Khmer first on a Khmer page
    expect(screen.getByText('ស្រាបៀរអង្គរ').tagName).toBe('STRONG');
  });
});

describe('expired batches', { timeout: 30_000 }, () => {
  it('writes an expired batch off only after the confirmation, which says what leaves the stock', async () => {
    let written = false;
    const { calls } = mockFetch({
      'GET stores': { body: listAnswer(STORES) },
      'GET stocks/low/count': { body: { data: { count: 0 } } },
      'GET stocks/batches': ({ query }) => ({
        body: listAnswer(
          query.get('filter[expired]') === 'true'
            ? written
              ? []
              : [batchRow()]
            : [batchRow({ batch_id: 32, lot: 'L-9', expiry_date: '2099-01-01', days_left: 12 })],
        ),
      }),
      'POST stocks/write-offs': () => {
        written = true;
        return { status: 201, body: { message: 'Expired batch written off.', data: { movements: [] } } };
      },
    });
    signedIn({ permissions: ['stocks.list', 'stocks.update', 'stores.list'] });
    const { user } = renderApp('/en/products/expired');
    const table = await screen.findByTestId('batches-table');
    await within(table).findByText('L-2025-01');
    expect(calls('GET stocks/batches')[0].query.get('filter[expired]')).toBe('true');
    // the lot and its expiry in one cell, the value beside them
    const batch = within(table).getByText('L-2025-01').closest('td') as HTMLElement;
    expect(within(batch).getByText('31 Jan 2020 · expired 30 d ago')).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: 'Lot and expiry' })).toBeTruthy();
    expect(within(table).getByTestId('value-1-31').textContent).toBe('$21.60');
    const counted = calls('GET stocks/low/count').length;

    await user.click(within(table).getByTestId('write-off-1-31'));
    const help = await screen.findByTestId('write-off-help-31');
    expect(help.textContent).toBe('24 Can worth $21.60 leave the stock of Phnom Penh Depot. This cannot be undone.');
    expect(calls('POST stocks/write-offs')).toHaveLength(0);
    await user.click(within(popoverWith(help)).getByRole('button', { name: 'Write off' }));
    expect(await screen.findByText('Expired batch written off.')).toBeTruthy();
    expect(calls('POST stocks/write-offs')[0].body).toEqual({ store_id: 1, batch_id: 31, note: null });
    // the list and the menu's count are asked again
    await waitFor(() => expect(within(table).queryByText('L-2025-01')).toBeNull());
    await waitFor(() => expect(calls('GET stocks/low/count').length).toBeGreaterThan(counted));
  });

  it('lists batches expiring within the days chosen, without a write-off', async () => {
    const { calls } = mockFetch({
      'GET stores': { body: listAnswer(STORES) },
      'GET stocks/low/count': { body: { data: { count: 0 } } },
      'GET stocks/batches': ({ query }) => ({
        body: listAnswer(
          query.get('filter[expired]') === 'true'
            ? [batchRow()]
            : [batchRow({ batch_id: 32, lot: 'L-9', expiry_date: '2099-01-01', days_left: 12 })],
        ),
      }),
    });
    signedIn({ permissions: ['stocks.list', 'stocks.update', 'stores.list'] });
    const { user } = renderApp('/en/products/expired');
    await screen.findByText('L-2025-01');
    await user.click(screen.getByTestId('tab-expiring'));
    await screen.findByText('L-9');
    expect(calls('GET stocks/batches').at(-1)?.query.get('filter[expiring_days]')).toBe('30');
    expect(screen.getByText('1 Jan 2099 · 12 d left')).toBeTruthy();
    expect(screen.queryByTestId('write-off-1-32')).toBeNull();
    const days = screen.getByTestId('expiring-days');
    await user.clear(days);
    await user.type(days, '7');
    await waitFor(() => expect(calls('GET stocks/batches').at(-1)?.query.get('filter[expiring_days]')).toBe('7'));
  });
});
