import { formatTime, type OrderDetail } from '@depot/contracts';
import { useTranslation } from 'react-i18next';
import { khqrAmount, QrSymbol, useOrderKhqr } from './KhqrCard.tsx';

/** A bank reference as a bank app shows it on its receipt: the hash's first 8 characters. */
export const shortHash = (hash: string) => hash.slice(0, 8);

/**
 * The KHQR part of a receipt, Khmer with English beneath, like the rest of it.
 * - Paid by KHQR: "paid" and the bank's reference (the transaction's short hash), never the code:
 *   a dynamic KHQR stays payable until it expires, and a customer could pay it a second time.
 * - Still owed: the newest QR made for the order while it can be paid, with its time (a
 *   delivery's customer pays by scanning the receipt); an expired one is not printed.
 */
export function ReceiptKhqr({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  const khqr = order.payments.filter((p) => p.kind === 'payment' && p.method === 'khqr');
  const owed = order.status === 'confirmed' && order.due_cents > 0;
  const { data: qr } = useOrderKhqr(order.id, owed);
  const both = (key: string, params?: Record<string, string>) => (
    <div className="print-bi">
      <span lang="km">{t(key, { lng: 'kh', ...params })}</span>
      <span className="print-en">{t(key, { lng: 'en', ...params })}</span>
    </div>
  );
  if (!owed) {
    if (!khqr.length) return null;
    return (
      <>
        <hr />
        <div className="receipt-khqr print-centre" data-testid="receipt-khqr">
          {both('khqr.receiptPaid')}
          {khqr.map((p) =>
            p.transaction_id ? (
              <div key={p.id}>
                {both('khqr.receiptRef')}
                <div className="print-strong" data-testid="receipt-bank-ref">
                  {shortHash(p.transaction_id)}
                </div>
              </div>
            ) : null,
          )}
        </div>
      </>
    );
  }
  if (!qr || qr.paid_hash || Date.parse(qr.expires_at) <= Date.now()) return null;
  return (
    <>
      <hr />
      <div className="receipt-khqr" data-testid="receipt-khqr">
        <div className="khqr-head">KHQR</div>
        <div className="print-centre">
          <div>{qr.merchant_name}</div>
          <div className="print-strong">{khqrAmount(qr)}</div>
          {both('khqr.receiptScan')}
        </div>
        <div className="receipt-khqr-code">
          <QrSymbol payload={qr.payload} size={150} />
        </div>
        <div className="print-centre" data-testid="receipt-khqr-until">
          {both('khqr.receiptUntil', { time: formatTime(qr.expires_at) })}
        </div>
      </div>
    </>
  );
}
