import { QrcodeOutlined } from '@ant-design/icons';
import { type OrderDetail, type Rates, settle, type TenderInput } from '@depot/contracts';
import { Button } from 'antd';
import { useState } from 'react';
import { useCtx } from '../../../kit/useCtx.ts';
import { isOffline } from '../../../lib/offline/outbox.ts';
import { type TenderState, tendersOf } from '../../till/Tenders.tsx';
import { KhqrDialog } from './KhqrDialog.tsx';
import { type DeviceQr, deviceQr, OfflineKhqrDialog, type Payee } from './OfflineKhqrDialog.tsx';

/**
 * "Pay by KHQR" on the till's review. The KHQR's bill number is the order's number, which exists
 * once the order does, so the sale is checked out first, with whatever else was handed over (cash
 * towards it, a card) and the rest unpaid: the stock is taken before the customer pays, so a paid
 * QR can never meet "not enough stock". The QR is then made for what is still due; paid (Bakong's
 * check or the cashier's confirmation), the sale is done; closed unpaid, the order stays unpaid in
 * the orders list, to be paid there (its KHQR prints on its receipt) or cancelled. With no
 * connection, the QR is made on the device and the sale kept there with it (OfflineKhqrDialog).
 */
export function KhqrButton({
  tenders,
  totalCents,
  rates,
  disabled,
  checkout,
  onDone,
  store,
  keepOffline,
}: {
  tenders: TenderState;
  totalCents: number;
  rates: Rates;
  disabled: boolean;
  checkout: (payments: TenderInput[]) => Promise<OrderDetail | null>;
  onDone: (sale: OrderDetail, tenders: TenderInput[]) => void;
  /** The sale's store (its Bakong account), for a QR made on the device while offline. */
  store?: Payee | null;
  /** Keeps the sale on the device with its device-made QR (offline). */
  keepOffline?: (payments: TenderInput[], qr: DeviceQr) => Promise<unknown>;
}) {
  const { t } = useCtx();
  const [sale, setSale] = useState<{ order: OrderDetail; payments: TenderInput[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [offline, setOffline] = useState(false);
  // the KHQR field of the tenders is for a KHQR paid elsewhere (a printed sticker): not sent here
  const others = tendersOf(tenders).filter((p) => p.method !== 'khqr');
  const left = settle(totalCents, others, rates);

  const start = async () => {
    if (isOffline() && store && keepOffline && deviceQr(store, 1)) {
      setOffline(true);
      return;
    }
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
      {offline && store && keepOffline && (
        <OfflineKhqrDialog
          store={store}
          dueCents={left.due_cents}
          others={others}
          keep={async (payments, qr) => {
            await keepOffline(payments, qr);
            setOffline(false);
          }}
          onClose={() => setOffline(false)}
        />
      )}
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
