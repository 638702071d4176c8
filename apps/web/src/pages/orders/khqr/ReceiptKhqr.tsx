import type { OrderDetail } from '@depot/contracts';
import { useTranslation } from 'react-i18next';
import { khqrAmount, QrSymbol, useOrderKhqr } from './KhqrCard.tsx';

/**
 * The KHQR on a receipt: the one the order was paid with, or, while the order is still owed, the
 * newest made for it (a delivery's customer pays by scanning the receipt). Khmer with English
 * beneath, like the rest of the receipt.
 */
export function ReceiptKhqr({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  const paidByKhqr = order.payments.some((p) => p.kind === 'payment' && p.method === 'khqr');
  const owed = order.status === 'confirmed' && order.due_cents > 0;
  const { data: qr } = useOrderKhqr(order.id, paidByKhqr || owed);
  if (!qr || !(paidByKhqr || owed)) return null;
  const paid = paidByKhqr && !owed;
  return (
    <>
      <hr />
      <div className="receipt-khqr" data-testid="receipt-khqr">
        <div className="khqr-head">KHQR</div>
        <div className="print-centre">
          <div>{qr.merchant_name}</div>
          <div className="print-strong">{khqrAmount(qr)}</div>
          <div className="print-bi">
            <span lang="km">{paid ? t('khqr.receiptPaid', { lng: 'kh' }) : t('khqr.receiptScan', { lng: 'kh' })}</span>
            <span className="print-en">
              {paid ? t('khqr.receiptPaid', { lng: 'en' }) : t('khqr.receiptScan', { lng: 'en' })}
            </span>
          </div>
        </div>
        <div className="receipt-khqr-code">
          <QrSymbol payload={qr.payload} size={150} />
        </div>
      </div>
    </>
  );
}
