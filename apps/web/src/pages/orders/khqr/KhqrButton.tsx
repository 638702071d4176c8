import { QrcodeOutlined } from '@ant-design/icons';
import { type OrderDetail, type Rates, settle, type TenderInput } from '@depot/contracts';
import { Button } from 'antd';
import { useState } from 'react';
import { useCtx } from '../../../kit/useCtx.ts';
import { type TenderState, tendersOf } from '../../till/Tenders.tsx';
import { KhqrDialog } from './KhqrDialog.tsx';

/**
 * "Pay by KHQR" on the till's review. The KHQR's bill number is the order's number, which exists
 * once the order does, so the sale is checked out first, with whatever else was handed over (cash
 * towards it, a card) and the rest unpaid: the stock is taken before the customer pays, so a paid
 * QR can never meet "not enough stock". The QR is then made for what is still due; paid (Bakong's
 * check or the cashier's confirmation), the sale is done; closed unpaid, the order stays unpaid in
 * the orders list, to be paid there (its KHQR prints on its receipt) or cancelled.
 */
export function KhqrButton({
  tenders,
  totalCents,
  rates,
  disabled,
  checkout,
  onDone,
}: {
  tenders: TenderState;
  totalCents: number;
  rates: Rates;
  disabled: boolean;
  checkout: (payments: TenderInput[]) => Promise<OrderDetail | null>;
  onDone: (sale: OrderDetail, tenders: TenderInput[]) => void;
}) {
  const { t } = useCtx();
  const [sale, setSale] = useState<{ order: OrderDetail; payments: TenderInput[] } | null>(null);
  const [busy, setBusy] = useState(false);
  // the KHQR field of the tenders is for a KHQR paid elsewhere (a printed sticker): not sent here
  const others = tendersOf(tenders).filter((p) => p.method !== 'khqr');
  const left = settle(totalCents, others, rates);

  const start = async () => {
    setBusy(true);
    try {
      const order = await checkout(others);
      if (!order) return;
      if (order.due_cents > 0) setSale({ order, payments: others });
      else onDone(order, others);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        size="large"
        icon={<QrcodeOutlined />}
        disabled={disabled || left.due_cents <= 0}
        loading={busy}
        onClick={() => void start()}
        data-testid="pay-khqr"
      >
        {t('khqr.pay')}
      </Button>
      {sale && (
        <KhqrDialog
          order={sale.order}
          onPaid={(paid) => onDone(paid, sale.payments)}
          onClose={() => onDone(sale.order, sale.payments)}
        />
      )}
    </>
  );
}
