import {
  formatKhr,
  formatUsd,
  KHQR_QR_ERROR_CORRECTION,
  type KhqrPayment,
  khqrPayment,
  single,
} from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useMemo } from 'react';
import { resourceKey } from '../../../kit/queries.ts';
import { api } from '../../../lib/http.ts';

/**
 * A KHQR as Bakong's guidelines show it: a card with the red KHQR header, the merchant's name,
 * the amount and its currency, a dashed rule, then the code. The code is an SVG of the symbol's
 * modules (crisp at any size, on screen and on a receipt's raster, where the red prints black).
 */
export function QrSymbol({
  payload,
  size,
  label = 'KHQR',
  testId = 'khqr-symbol',
}: {
  payload: string;
  size: number;
  /** What the code is, for a screen reader (a KHQR unless told). */
  label?: string;
  testId?: string;
}) {
  const { path, count } = useMemo(() => {
    const { modules } = QRCode.create(payload, { errorCorrectionLevel: KHQR_QR_ERROR_CORRECTION });
    let d = '';
    // BitMatrix.get takes (row, column): the other way round draws the symbol mirrored on its
    // diagonal, which some bank apps do not read
    for (let y = 0; y < modules.size; y++) {
      for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) d += `M${x} ${y}h1v1h-1z`;
    }
    return { path: d, count: modules.size };
  }, [payload]);
  return (
    <svg
      className="khqr-symbol"
      viewBox={`-2 -2 ${count + 4} ${count + 4}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      role="img"
      aria-label={label}
      data-testid={testId}
      data-payload={payload}
    >
      <rect x={-2} y={-2} width={count + 4} height={count + 4} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

export const khqrAmount = (qr: Pick<KhqrPayment, 'currency' | 'amount'>) =>
  qr.currency === 'USD' ? formatUsd(qr.amount) : formatKhr(qr.amount);

/** The card of a KHQR the server made, or the same as the till sent it to the customer's screen. */
export function KhqrCard({
  qr,
  size = 240,
}: {
  qr: Pick<KhqrPayment, 'payload' | 'merchant_name' | 'currency' | 'amount'>;
  size?: number;
}) {
  return (
    <div className="khqr-card" data-testid="khqr-card" style={{ width: size + 32 }}>
      <div className="khqr-head">KHQR</div>
      <div className="khqr-body">
        <div className="khqr-merchant">{qr.merchant_name}</div>
        <div className="khqr-amount" data-testid="khqr-amount">
          {khqrAmount(qr)} <span className="khqr-currency">{qr.currency}</span>
        </div>
      </div>
      <div className="khqr-rule" />
      <div className="khqr-code">
        <QrSymbol payload={qr.payload} size={size} />
      </div>
    </div>
  );
}

/** The newest KHQR of an order (`GET /api/orders/{id}/khqr`), for its receipt. */
export function useOrderKhqr(orderId: number, enabled: boolean) {
  return useQuery({
    queryKey: resourceKey('orders', orderId, 'khqr'),
    queryFn: async ({ signal }) =>
      (await api(`orders/${orderId}/khqr`, { signal, schema: single(khqrPayment.nullable()) })).data,
    enabled,
  });
}
