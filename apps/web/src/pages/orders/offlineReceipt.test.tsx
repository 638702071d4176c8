import { changeGiven, formatChange, formatKhr, formatUsd, priceCart, rielOf, settle } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { outboxDb, queuedSales } from '../../lib/offline/outbox.ts';
import { printedDate } from '../../lib/printing/print.tsx';
import { listAnswer } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { orderRow, SELLING, tillLookups } from '../../test/sales.ts';

const UI = {
  en: {
    kept: /^Sale (OFF-[A-Z0-9]{4}-\d{4}) kept on this device$/,
    title: 'Receipt · ',
    print: 'Print receipt',
    unsynced: 'Not synced yet',
    refused: 'Refused',
  },
  kh: {
    kept: /^ការលក់ (OFF-[A-Z0-9]{4}-\d{4}) បានរក្សាទុកលើឧបករណ៍នេះ$/,
    title: 'បង្កាន់ដៃ · ',
    print: 'បោះពុម្ពបង្កាន់ដៃ',
    unsynced: 'មិនទាន់បានផ្ញើទៅប្រព័ន្ធ',
    refused: 'ត្រូវបានបដិសេធ',
  },
} as const;

describe('the receipt of a sale kept offline', { timeout: 40_000 }, () => {
  for (const lang of ['en', 'kh'] as const) {
    it(`shows and prints the sale's receipt with the device number, its figures and the unsynced mark (${lang})`, async () => {
      mockFetch({ ...tillLookups(), 'POST orders': () => ({ networkError: true }) });
      signedIn({ permissions: SELLING });
      const prefix = lang === 'en' ? '/en' : '';
      const { user, path } = renderApp(`${prefix}/pos`);
      await user.click(await screen.findByTestId('tile-1', {}, { timeout: 15_000 }));
      await user.click(screen.getByTestId('pos-pay'));
      await waitFor(() => expect(path()).toBe(`${prefix}/orders/review`));
      await screen.findByTestId('tenders');
      await user.click(screen.getByTestId('note-usd-5'));
      await user.click(screen.getByTestId('complete-sale'));

      // kept on the device: its receipt, exactly as the online one computes it
      await screen.findByTestId('kept-unsynced');
      const number = UI[lang].kept.exec(screen.getByText(UI[lang].kept).textContent ?? '')?.[1] ?? '';
      await user.click(screen.getByTestId('print-receipt'));
      const dialog = await screen.findByRole('dialog', { name: `${UI[lang].title}${number}` });
      const receipt = await within(dialog).findByTestId('receipt');
      const total = priceCart({ lines: [{ unit_price_cents: 126, quantity: 1, taxable: true }], vat_rate_bp: 1000 });
      const rates = { rate_khr: 4100, khr_step: 100 };
      const settled = settle(total.total_cents, [{ method: 'cash_usd', amount: 500 }], rates);
      const mine = within(receipt);
      expect(mine.getByTestId('receipt-number').textContent).toBe(number);
      expect(mine.getByTestId('receipt-unsynced').textContent).toBe('មិនទាន់បានផ្ញើទៅប្រព័ន្ធ Not synced yet');
      expect(mine.getByTestId('receipt-total').textContent).toBe(formatUsd(total.total_cents));
      expect(mine.getByTestId('receipt-total-khr').textContent).toBe(formatKhr(rielOf(total.total_cents, rates)));
      expect(mine.getByTestId('receipt-change').textContent).toBe(formatChange(changeGiven(settled, 'split')));
      expect(receipt.textContent).toContain('$5.00');
      expect(receipt.textContent).toContain('admin');
      expect(mine.getByTestId('seller').textContent).toContain('Phnom Penh Depot');
      // when it was kept, by the one date helper
      const [kept] = await queuedSales();
      expect(kept.client_id).toBe(number);
      expect(receipt.textContent).toContain(printedDate(kept.sold_at));
      expect(within(dialog).getByTestId('print-now')).toBeTruthy();
    });
  }

  for (const lang of ['en', 'kh'] as const) {
    it(`prints a kept sale's receipt again from the queue, waiting or refused (${lang})`, async () => {
      mockFetch({ ...tillLookups(), 'POST orders': () => ({ networkError: true }) });
      signedIn({ permissions: SELLING });
      const prefix = lang === 'en' ? '/en' : '';
      const { user } = renderApp(`${prefix}/pos`);
      await user.click(await screen.findByTestId('tile-1', {}, { timeout: 15_000 }));
      await user.click(screen.getByTestId('pos-pay'));
      await screen.findByTestId('tenders');
      await user.click(screen.getByTestId('note-usd-5'));
      await user.click(screen.getByTestId('complete-sale'));
      await screen.findByTestId('kept-unsynced');
      const number = UI[lang].kept.exec(screen.getByText(UI[lang].kept).textContent ?? '')?.[1] ?? '';
      const total = formatUsd(
        priceCart({ lines: [{ unit_price_cents: 126, quantity: 1, taxable: true }], vat_rate_bp: 1000 }).total_cents,
      );
      // the next sale: the kept one waits in the till's queue
      await user.click(screen.getByTestId('new-sale'));
      await user.click(await screen.findByTestId('queue-count'));
      const row = await screen.findByTestId(`queued-${number}`);
      expect(row.textContent).toContain(UI[lang].unsynced);
      expect(row.textContent).toContain(total);
      const reprint = within(row).getByTestId(`reprint-${number}`);
      expect(reprint.textContent).toBe(UI[lang].print);
      await user.click(reprint);
      // (antd names every dialog and popover "test-id" under test: the title is read, not the name)
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText(`${UI[lang].title}${number}`)).toBeTruthy();
      const receipt = await within(dialog).findByTestId('receipt');
      expect(within(receipt).getByTestId('receipt-number').textContent).toBe(number);
      expect(within(receipt).getByTestId('receipt-unsynced').textContent).toBe('មិនទាន់បានផ្ញើទៅប្រព័ន្ធ Not synced yet');
      expect(within(receipt).getByTestId('receipt-total').textContent).toBe(total);
      expect(receipt.textContent).toContain('$5.00');
      expect(within(dialog).getByTestId('print-now')).toBeTruthy();
      await user.click(dialog.querySelector('.ant-modal-close') as HTMLElement);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

      // refused by the server: still listed, its receipt still printable from the refusal too
      const [kept] = await queuedSales();
      await outboxDb().sales.update(kept.seq as number, { status: 'failed', error: 'Not enough stock' });
      const failed = await screen.findByTestId('queue-failed');
      expect(failed.textContent).toContain(`${number}: Not enough stock`);
      await user.click(within(failed).getByTestId(`reprint-failed-${number}`));
      const again = await screen.findByRole('dialog');
      expect(within(await within(again).findByTestId('receipt')).getByTestId('receipt-number').textContent).toBe(
        number,
      );
      await user.click(again.querySelector('.ant-modal-close') as HTMLElement);
      await user.click(screen.getByTestId('queue-count'));
      expect((await screen.findByTestId(`queued-${number}`)).textContent).toContain(UI[lang].refused);
    });
  }

  it('shows the device receipt number beside the order number once the sale is synced', async () => {
    const synced = orderRow(9, { offline_receipt_no: 'OFF-AB12-0007', offline_sold_at: '2026-03-01T03:00:00.000Z' });
    mockFetch({
      ...tillLookups(),
      'GET orders': () => ({ body: listAnswer([synced]) }),
      'GET orders/9': () => ({ body: { data: synced } }),
    });
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/orders?view=9');
    await user.click(await screen.findByTestId('order-receipt', {}, { timeout: 15_000 }));
    const receipt = await screen.findByTestId('receipt');
    expect(within(receipt).getByTestId('receipt-number').textContent).toBe(synced.number);
    expect(receipt.textContent).toContain('លេខបង្កាន់ដៃលើឧបករណ៍Device receipt no.OFF-AB12-0007');
    expect(within(receipt).queryByTestId('receipt-unsynced')).toBeNull();
  });
});
