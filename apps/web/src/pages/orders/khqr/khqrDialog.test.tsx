import type { KhqrPayment } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer } from '../../../test/inventory.ts';
import { mockFetch } from '../../../test/render.tsx';
import { KHQR_HASH, khqrOf, orderRow, sellerOnOrder, tillLookups } from '../../../test/sales.ts';

const owing = orderRow(8, { payment_status: 'unpaid', paid_cents: 0, due_cents: 554, payments: [] });

/** The server's QR for order 8, made now and paid within `seconds` (negative: expired already). */
function qrFor(seconds: number): KhqrPayment {
  const expires = Date.now() + seconds * 1000;
  return khqrOf(owing, Math.min(Date.now() - 1000, expires - 1000), expires);
}

const UI = {
  en: {
    label: "Paid by transfer: the reference (hash) on the customer's bank receipt",
    used: `This transfer already paid sale SO-PP01-000009: one transfer pays one sale.`,
    left: /^\d+:\d\d left to pay$/,
    expired: 'This QR has expired: make a new one.',
  },
  kh: {
    label: 'បង់ដោយការផ្ទេរប្រាក់៖ លេខយោង (hash) នៅលើបង្កាន់ដៃធនាគាររបស់អតិថិជន',
    used: 'ការផ្ទេរប្រាក់នេះបានបង់សម្រាប់ការលក់ SO-PP01-000009 រួចហើយ៖ ការផ្ទេរប្រាក់មួយបង់បានតែការលក់មួយប៉ុណ្ណោះ។',
    left: /^នៅសល់ [\d០-៩]+:[\d០-៩]{2} ដើម្បីបង់ប្រាក់$/,
    expired: 'QR នេះផុតកំណត់ហើយ៖ សូមបង្កើតថ្មី។',
  },
} as const;

function api(qr: KhqrPayment, transfer: (body: { hash: string }) => { status: number; body: object }) {
  return mockFetch({
    ...tillLookups(),
    'GET orders': () => ({ body: listAnswer([owing]) }),
    'GET orders/8': () => ({ body: { data: owing } }),
    'GET orders/8/khqr': () => ({ body: { data: null } }),
    'POST orders/8/khqr': () => ({ status: 201, body: { message: 'KHQR ready for $5.54.', data: qr } }),
    'POST orders/8/khqr/check': () => ({
      body: { message: 'Bakong has no payment for this QR yet.', data: { paid: false, hash: null, order: owing } },
    }),
    'POST orders/8/khqr/transfer': ({ body }) => transfer(body as { hash: string }),
  });
}

describe('the till’s KHQR dialog', { timeout: 90_000 }, () => {
  for (const lang of ['en', 'kh'] as const) {
    it(`“paid by transfer”: a used hash is refused with the server’s words, a good one pays (${lang})`, async () => {
      const paid = { ...owing, payment_status: 'paid' as const, paid_cents: 554, due_cents: 0 };
      const { calls } = api(qrFor(300), ({ hash }) =>
        hash === 'aaaaaaaa'
          ? { status: 409, body: { message: UI[lang].used } }
          : { status: 200, body: { message: 'Bakong confirmed the transfer: the payment is recorded.', data: paid } },
      );
      const { user } = sellerOnOrder(8, lang);
      await user.click(await screen.findByTestId('order-khqr', {}, { timeout: 30_000 }));
      const dialog = await screen.findByTestId('khqr-dialog');
      const claim = await within(dialog).findByTestId('transfer-claim');
      expect(within(claim).getByLabelText(UI[lang].label)).toBeTruthy();
      const check = within(claim).getByTestId('transfer-check');
      // not a reference yet: nothing to ask
      await user.type(within(claim).getByTestId('transfer-hash'), 'AAAA');
      expect(check.hasAttribute('disabled')).toBe(true);
      await user.type(within(claim).getByTestId('transfer-hash'), 'AAAA');
      await user.click(check);
      expect((await within(claim).findByTestId('transfer-problem')).textContent).toBe(UI[lang].used);
      expect(calls('POST orders/8/khqr/transfer')[0].body).toEqual({ hash: 'aaaaaaaa', currency: 'USD' });

      await user.clear(within(claim).getByTestId('transfer-hash'));
      await user.type(within(claim).getByTestId('transfer-hash'), KHQR_HASH);
      await user.click(within(claim).getByTestId('transfer-check'));
      await waitFor(() => expect(screen.queryByTestId('khqr-dialog')).toBeNull());
      expect(calls('POST orders/8/khqr/transfer').at(-1)?.body).toEqual({ hash: KHQR_HASH, currency: 'USD' });
    });
  }

  for (const lang of ['en', 'kh'] as const) {
    it(`counts down while the QR can be paid and asks Bakong by itself (${lang})`, async () => {
      const { calls } = api(qrFor(300), () => ({ status: 500, body: {} }));
      const { user } = sellerOnOrder(8, lang);
      await user.click(await screen.findByTestId('order-khqr', {}, { timeout: 30_000 }));
      const countdown = await screen.findByTestId('khqr-countdown');
      expect(countdown.textContent).toMatch(UI[lang].left);
      // the till asks Bakong by itself, every few seconds
      await waitFor(() => expect(calls('POST orders/8/khqr/check').length).toBeGreaterThan(0), { timeout: 8000 });
      expect(calls('POST orders/8/khqr/check')[0].body).toEqual({ md5: '0123456789abcdef0123456789abcdef' });
    });
  }

  it('an expired QR: no countdown, the cashier cannot confirm it, a new one is offered', async () => {
    const { calls } = api(qrFor(-1), () => ({ status: 500, body: {} }));
    const { user } = sellerOnOrder(8);
    await user.click(await screen.findByTestId('order-khqr', {}, { timeout: 30_000 }));
    expect((await screen.findByTestId('khqr-expiry')).textContent).toBe(UI.en.expired);
    expect(screen.queryByTestId('khqr-countdown')).toBeNull();
    expect(screen.getByTestId('khqr-confirm').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('khqr-again')).toBeTruthy();
    // asked once more as it expired (paid at the last moment), then no more
    await waitFor(() => expect(calls('POST orders/8/khqr/check')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(calls('POST orders/8/khqr/check')).toHaveLength(1);
  });
});
