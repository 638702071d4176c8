import { PrinterOutlined } from '@ant-design/icons';
import {
  customerName,
  DEFAULT_SALE_SETTINGS,
  formatChange,
  formatKhr,
  formatQuantity,
  formatUsd,
  lineGross,
  type OrderDetail,
  PRICE_SOURCES,
  type PriceSource,
  type PublicSettings,
  rielRate,
  titleOf,
} from '@depot/contracts';
import { Button, Flex, Modal, Segmented, Spin } from 'antd';
import type { TFunction } from 'i18next';
import { type ReactNode, useState } from 'react';
import { useCtx } from '../../kit/useCtx.ts';
import { percentText } from '../../lib/format.ts';
import { PrintControls } from '../../lib/printing/PrintControls.tsx';
import { PAPER_KEY, printedDate, storedPaper, useBothLanguages, usePrint } from '../../lib/printing/print.tsx';
import { useSettings } from '../../lib/settings.ts';
import { useCurrentRates } from '../rates/rates.tsx';
import { ReceiptKhqr } from './khqr/ReceiptKhqr.tsx';

/** A sale's documents: the roll receipts and the A4 tax invoice, printed through lib/printing/print.tsx. */

const KH = { lng: 'kh' } as const;
const EN = { lng: 'en' } as const;

/** Every label of the documents, as [Khmer, English]. */
function labels(t: TFunction) {
  return {
    receipt: [t('print.receipt', KH), t('print.receipt', EN)],
    taxInvoice: [t('print.taxInvoice', KH), t('print.taxInvoice', EN)],
    number: [t('print.number', KH), t('print.number', EN)],
    invoiceNumber: [t('print.invoiceNumber', KH), t('print.invoiceNumber', EN)],
    order: [t('print.order', KH), t('print.order', EN)],
    date: [t('print.date', KH), t('print.date', EN)],
    cashier: [t('print.cashier', KH), t('print.cashier', EN)],
    customer: [t('print.customer', KH), t('print.customer', EN)],
    address: [t('print.address', KH), t('print.address', EN)],
    phone: [t('print.phone', KH), t('print.phone', EN)],
    no: [t('print.no', KH), t('print.no', EN)],
    description: [t('print.description', KH), t('print.description', EN)],
    quantity: [t('print.quantity', KH), t('print.quantity', EN)],
    unitPrice: [t('print.unitPrice', KH), t('print.unitPrice', EN)],
    sources: Object.fromEntries(
      PRICE_SOURCES.map((s) => [s, [t(`prices.source.${s}`, KH), t(`prices.source.${s}`, EN)]]),
    ) as Record<PriceSource, string[]>,
    discount: [t('print.discount', KH), t('print.discount', EN)],
    amount: [t('print.amount', KH), t('print.amount', EN)],
    subtotal: [t('print.subtotal', KH), t('print.subtotal', EN)],
    beforeVat: [t('print.beforeVat', KH), t('print.beforeVat', EN)],
    vat: [t('print.vat', KH), t('print.vat', EN)],
    delivery: [t('print.delivery', KH), t('print.delivery', EN)],
    total: [t('print.total', KH), t('print.total', EN)],
    totalWithVat: [t('print.totalWithVat', KH), t('print.totalWithVat', EN)],
    totalKhr: [t('print.totalKhr', KH), t('print.totalKhr', EN)],
    rate: [t('print.rate', KH), t('print.rate', EN)],
    paid: [t('print.paid', KH), t('print.paid', EN)],
    due: [t('print.due', KH), t('print.due', EN)],
    change: [t('print.change', KH), t('print.change', EN)],
    refund: [t('print.refund', KH), t('print.refund', EN)],
    cash_usd: [t('print.cashUsd', KH), t('print.cashUsd', EN)],
    vatNumber: [t('print.vatNumber', KH), t('print.vatNumber', EN)],
    cash_khr: [t('print.cashKhr', KH), t('print.cashKhr', EN)],
    card: [t('print.card', KH), t('print.card', EN)],
    bank_transfer: [t('print.bankTransfer', KH), t('print.bankTransfer', EN)],
    khqr: [t('print.khqr', KH), t('print.khqr', EN)],
    buyerSign: [t('print.buyerSign', KH), t('print.buyerSign', EN)],
    sellerSign: [t('print.sellerSign', KH), t('print.sellerSign', EN)],
    cancelled: [t('print.cancelled', KH), t('print.cancelled', EN)],
    unsynced: [t('offline.unsynced', KH), t('offline.unsynced', EN)],
    deviceNumber: [t('print.deviceNumber', KH), t('print.deviceNumber', EN)],
    serials: [t('print.serials', KH), t('print.serials', EN)],
  } as const;
}

/** The customer: the walk-in customer's name in both languages, like the labels; others as named. */
function Customer({ name }: { name: string }) {
  const kh = customerName(name, 'kh');
  const en = customerName(name, 'en');
  return kh === name && en === name ? name : <Bi pair={[kh, en]} inline />;
}

/** A label in Khmer with its English beneath. */
export function Bi({ pair, inline }: { pair: readonly [string, string] | readonly string[]; inline?: boolean }) {
  if (inline) {
    return (
      <span>
        <span lang="km">{pair[0]}</span> <span className="print-en">{pair[1]}</span>
      </span>
    );
  }
  return (
    <span className="print-bi">
      <span lang="km">{pair[0]}</span>
      <span className="print-en">{pair[1]}</span>
    </span>
  );
}

export function Row({ label, children, strong }: { label: readonly string[]; children: ReactNode; strong?: boolean }) {
  return (
    <div className={strong ? 'print-row print-strong' : 'print-row'}>
      <Bi pair={label} />
      <span className="print-figure">{children}</span>
    </div>
  );
}

function useDocument() {
  const { t, locale } = useCtx();
  const { settings } = useSettings();
  // the receipt's texts come with the current rates: a cashier holds exchange_rates.view, not settings
  const rates = useCurrentRates();
  const ready = useBothLanguages();
  return {
    t,
    locale,
    ready,
    logo: settings.logo_url,
    title: rates.data?.receipt_title || titleOf(settings, locale),
    business: settings,
    footer: rates.data?.receipt_footer ?? DEFAULT_SALE_SETTINGS.receipt_footer,
    l: labels(t),
  };
}

/** The rate of a sale's riel total (money.ts `rielOf`): riel per dollar as its customer paid riel. */
export const totalRate = (order: OrderDetail) =>
  rielRate({ rate_khr: order.exchange_rate_khr, rate_in_khr: order.rate_in_khr });

function paymentAmount(p: OrderDetail['payments'][number]): string {
  return p.method === 'cash_khr' ? formatKhr(p.amount) : formatUsd(p.amount);
}

/** A KHQR's md5 or a bank's hash is 32+ characters: its end identifies it on a roll's narrow line. */
function shortReference(reference: string): string {
  return reference.length > 12 ? `…${reference.slice(-8)}` : reference;
}

/**
 * Who sells: the business of the settings (name, address, phone, VAT number) when set, with the
 * sale's store beside its name; otherwise the store's own name, address and phone.
 */
function Seller({
  order,
  business,
  vatLabel,
}: {
  order: OrderDetail;
  business: PublicSettings;
  vatLabel: readonly string[];
}) {
  const name = business.store_name || order.store_name;
  const address = business.store_address || order.store_address;
  const phone = business.store_phone || order.store_phone;
  return (
    <div data-testid="seller">
      <div>{name}</div>
      {business.store_name && business.store_name !== order.store_name && <div>{order.store_name}</div>}
      {address && <div>{address}</div>}
      {phone && <div>{phone}</div>}
      {business.vat_number && (
        <div data-testid="seller-vat">
          {vatLabel[0]} / {vatLabel[1]}: {business.vat_number}
        </div>
      )}
    </div>
  );
}

/**
 * Why a line costs what it does, in both languages: "តម្លៃក្រុម / Group price · លក់ដុំ /
 * Wholesale"; a break names the list price it came down from. Nothing for the product's own price.
 */
function PriceWhy({ item, sources }: { item: OrderDetail['items'][number]; sources: Record<PriceSource, string[]> }) {
  if (item.price_source === 'product' || item.price_source === 'combo') return null;
  const [kh, en] = sources[item.price_source];
  const list = [item.price_list_kh, item.price_list_en].filter(Boolean).join(' / ');
  return (
    <div className="print-en" data-testid="price-why">
      {kh} / {en}
      {list && ` · ${list}`}
      {item.price_source === 'break' && item.list_price_cents !== null && ` (${formatUsd(item.list_price_cents)})`}
    </div>
  );
}

/** The serials (IMEIs) of the units a line sold, under it: what a warranty claim brings back. */
function Serials({ item, label }: { item: OrderDetail['items'][number]; label: readonly string[] }) {
  if (!item.serials.length) return null;
  return (
    <div className="print-en" data-testid="serials">
      {label[0]} / {label[1]}: <span className="print-serial">{item.serials.join(', ')}</span>
    </div>
  );
}

/**
 * The till's receipt, for a roll of 80 mm or 58 mm. `unsynced`: a sale kept on this device
 * (offlineReceipt.ts), its number the device's, marked not yet synced; once synced, the order's
 * receipt shows the device's number beside the order's.
 */
export function Receipt({ order, paper, unsynced }: { order: OrderDetail; paper: '80' | '58'; unsynced?: boolean }) {
  const { l, logo, title, footer, business } = useDocument();
  const paid = order.payments.filter((p) => p.kind === 'payment');
  const refunds = order.payments.filter((p) => p.kind === 'refund');
  const due = Math.max(0, order.total_cents - order.paid_cents);
  return (
    <div className="print-doc receipt" data-paper={paper} data-testid="receipt">
      <div className="print-centre">
        {logo && <img src={logo} alt="" className="receipt-logo" />}
        <div className="print-title">{title}</div>
        <Seller order={order} business={business} vatLabel={l.vatNumber} />
        <div className="print-heading">
          <Bi pair={l.receipt} inline />
        </div>
        {order.status === 'cancelled' && (
          <div className="print-heading">
            <Bi pair={l.cancelled} inline />
          </div>
        )}
        {unsynced && (
          <div className="print-heading" data-testid="receipt-unsynced">
            <Bi pair={l.unsynced} inline />
          </div>
        )}
      </div>
      <hr />
      <Row label={l.number}>
        <span data-testid="receipt-number">{order.number}</span>
      </Row>
      {!unsynced && order.offline_receipt_no && <Row label={l.deviceNumber}>{order.offline_receipt_no}</Row>}
      <Row label={l.date}>{printedDate(order.order_date)}</Row>
      {order.cashier_name && <Row label={l.cashier}>{order.cashier_name}</Row>}
      <Row label={l.customer}>
        <Customer name={order.customer_name} />
      </Row>
      <hr />
      {order.items.map((item) => (
        <div key={item.id} className="receipt-item">
          <div lang="km">{item.name_kh}</div>
          {item.name_en && item.name_en !== item.name_kh && <div className="print-en">{item.name_en}</div>}
          <div className="print-row">
            <span>
              {formatQuantity(item.quantity, item.decimals)} {item.unit_name_kh ?? ''} ×{' '}
              {formatUsd(item.unit_price_cents)}
            </span>
            <span className="print-figure">
              {formatUsd(lineGross(item.unit_price_cents, item.quantity, item.decimals))}
            </span>
          </div>
          <PriceWhy item={item} sources={l.sources} />
          <Serials item={item} label={l.serials} />
          {item.line_discount_cents > 0 && (
            <div className="print-row">
              <span>{item.discount_name ?? ''}</span>
              <span className="print-figure">−{formatUsd(item.line_discount_cents)}</span>
            </div>
          )}
        </div>
      ))}
      <hr />
      <Row label={l.subtotal}>{formatUsd(order.subtotal_cents)}</Row>
      {order.discount_cents > 0 && <Row label={l.discount}>−{formatUsd(order.discount_cents)}</Row>}
      <Row label={[`${l.vat[0]} ${percentText(order.vat_rate_bp)}`, `${l.vat[1]} ${percentText(order.vat_rate_bp)}`]}>
        {formatUsd(order.tax_cents)}
      </Row>
      {order.delivery_fee_cents > 0 && <Row label={l.delivery}>{formatUsd(order.delivery_fee_cents)}</Row>}
      <Row label={l.total} strong>
        <span data-testid="receipt-total">{formatUsd(order.total_cents)}</span>
      </Row>
      <Row label={l.totalKhr} strong>
        <span data-testid="receipt-total-khr">{formatKhr(order.total_khr)}</span>
      </Row>
      <Row label={l.rate}>1 $ = {formatKhr(totalRate(order))}</Row>
      {paid.length > 0 && <hr />}
      {paid.map((p) => (
        <Row key={p.id} label={l[p.method]}>
          {paymentAmount(p)}
          {p.transaction_id ? ` (${shortReference(p.transaction_id)})` : ''}
        </Row>
      ))}
      {paid.length > 0 && <Row label={l.paid}>{formatUsd(order.paid_cents)}</Row>}
      {due > 0 && order.status !== 'cancelled' && (
        <Row label={l.due} strong>
          {formatUsd(due)}
        </Row>
      )}
      {(order.change_cents > 0 || order.change_khr > 0) && (
        <Row label={l.change} strong>
          <span data-testid="receipt-change">
            {formatChange({ usd_cents: order.change_given_cents, khr: order.change_given_khr })}
          </span>
        </Row>
      )}
      {refunds.map((p) => (
        <Row key={p.id} label={l.refund}>
          −{paymentAmount(p)}
        </Row>
      ))}
      {!unsynced && <ReceiptKhqr order={order} />}
      <hr />
      {footer && <div className="print-centre print-footer">{footer}</div>}
    </div>
  );
}

/** The A4 tax invoice of an invoiced order: Khmer first, English beneath; VAT on its own line. */
export function TaxInvoice({ order }: { order: OrderDetail }) {
  const { l, logo, title, business } = useDocument();
  const invoice = order.invoice;
  const beforeVat = order.subtotal_cents - order.discount_cents;
  return (
    <div className="print-doc tax-invoice" data-testid="tax-invoice">
      <div className="invoice-head">
        <div className="invoice-seller">
          {logo && <img src={logo} alt="" className="invoice-logo" />}
          <div>
            <div className="print-title">{title}</div>
            <Seller order={order} business={business} vatLabel={l.vatNumber} />
          </div>
        </div>
        <div className="invoice-title">
          <Bi pair={l.taxInvoice} />
        </div>
      </div>
      <div className="invoice-parties">
        <div>
          <Row label={l.invoiceNumber}>
            <span data-testid="invoice-number">{invoice?.number ?? '—'}</span>
          </Row>
          <Row label={l.date}>{invoice ? printedDate(invoice.paid_at) : '—'}</Row>
          <Row label={l.order}>{order.number}</Row>
        </div>
        <div>
          <Row label={l.customer}>
            <Customer name={order.customer_name} />
          </Row>
          {order.customer_phone && <Row label={l.phone}>{order.customer_phone}</Row>}
          {order.shipping_address && <Row label={l.address}>{order.shipping_address}</Row>}
          <Row label={l.vatNumber}>
            <span data-testid="buyer-vat">{order.customer_vat_number || '—'}</span>
          </Row>
        </div>
      </div>
      <table className="invoice-table">
        <thead>
          <tr>
            <th>
              <Bi pair={l.no} />
            </th>
            <th>
              <Bi pair={l.description} />
            </th>
            <th>
              <Bi pair={l.quantity} />
            </th>
            <th>
              <Bi pair={l.unitPrice} />
            </th>
            <th>
              <Bi pair={l.discount} />
            </th>
            <th>
              <Bi pair={l.amount} />
            </th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item, index) => (
            <tr key={item.id}>
              <td>{index + 1}</td>
              <td>
                <div lang="km">{item.name_kh}</div>
                <div className="print-en">{item.name_en}</div>
                <PriceWhy item={item} sources={l.sources} />
                <Serials item={item} label={l.serials} />
              </td>
              <td className="print-figure">
                {formatQuantity(item.quantity, item.decimals)} {item.unit_name_kh ?? ''}
              </td>
              <td className="print-figure">{formatUsd(item.unit_price_cents)}</td>
              <td className="print-figure">
                {item.line_discount_cents + item.order_discount_cents > 0
                  ? `−${formatUsd(item.line_discount_cents + item.order_discount_cents)}`
                  : '—'}
              </td>
              <td className="print-figure">{formatUsd(item.net_cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="invoice-totals">
        <Row label={l.subtotal}>{formatUsd(order.subtotal_cents)}</Row>
        {order.discount_cents > 0 && <Row label={l.discount}>−{formatUsd(order.discount_cents)}</Row>}
        <Row label={l.beforeVat}>{formatUsd(beforeVat)}</Row>
        <Row label={[`${l.vat[0]} ${percentText(order.vat_rate_bp)}`, `${l.vat[1]} ${percentText(order.vat_rate_bp)}`]}>
          <span data-testid="invoice-vat">{formatUsd(order.tax_cents)}</span>
        </Row>
        {order.delivery_fee_cents > 0 && <Row label={l.delivery}>{formatUsd(order.delivery_fee_cents)}</Row>}
        <Row label={l.totalWithVat} strong>
          <span data-testid="invoice-total">{formatUsd(order.total_cents)}</span>
        </Row>
        <Row label={l.totalKhr} strong>
          {formatKhr(order.total_khr)}
        </Row>
        <Row label={l.rate}>1 $ = {formatKhr(totalRate(order))}</Row>
      </div>
      <div className="invoice-signatures">
        <div>
          <Bi pair={l.buyerSign} />
        </div>
        <div>
          <Bi pair={l.sellerSign} />
        </div>
      </div>
    </div>
  );
}

/**
 * The receipt on screen, and Print: through the browser (the paper chosen here), or as a raster on
 * a network printer or this computer's (the printer's own paper). `drawer`: the receipt of a sale
 * just made, whose cash opens the drawer.
 */
export function ReceiptDialog({
  order,
  onClose,
  drawer,
  unsynced,
}: {
  order: OrderDetail;
  onClose: () => void;
  drawer?: boolean;
  /** A sale kept on this device, not on the server yet (offlineReceipt.ts). */
  unsynced?: boolean;
}) {
  const { t } = useCtx();
  const [paper, setPaper] = useState<'80' | '58'>(storedPaper);
  const printer = usePrint();
  const ready = useBothLanguages();
  const cash = order.payments.some((p) => p.kind === 'payment' && p.method.startsWith('cash_'));
  const choose = (next: '80' | '58') => {
    setPaper(next);
    try {
      localStorage.setItem(PAPER_KEY, next);
    } catch {
      // the choice lasts this dialog only
    }
  };
  return (
    <Modal
      open
      title={t('print.receiptTitle', { number: order.number })}
      onCancel={onClose}
      width={520}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="flex-start" gap={8}>
          <Segmented<'80' | '58'>
            value={paper}
            onChange={choose}
            aria-label={t('printing.paper')}
            options={[
              { value: '80', label: '80 mm' },
              { value: '58', label: '58 mm' },
            ]}
          />
          <PrintControls
            storeId={order.store_id}
            document={(width) => <Receipt order={order} paper={width} unsynced={unsynced} />}
            onBrowserPrint={() => printer.print(<Receipt order={order} paper={paper} unsynced={unsynced} />, paper)}
            browserBusy={printer.printing}
            // this computer's printer opens the drawer of an offline cash sale too (no server asked)
            options={drawer ? { drawerOrderId: unsynced ? undefined : order.id, cash } : undefined}
          />
        </Flex>
      }
    >
      <div className="print-preview">
        {ready ? <Receipt order={order} paper={paper} unsynced={unsynced} /> : <Spin />}
      </div>
      {printer.portal}
    </Modal>
  );
}

/** The A4 tax invoice on screen, and Print. */
export function InvoiceDialog({ order, onClose }: { order: OrderDetail; onClose: () => void }) {
  const { t } = useCtx();
  const printer = usePrint();
  const ready = useBothLanguages();
  return (
    <Modal
      open
      title={t('print.invoiceTitle', { number: order.invoice?.number ?? order.number })}
      onCancel={onClose}
      width={880}
      destroyOnHidden
      footer={
        <Button
          type="primary"
          icon={<PrinterOutlined />}
          loading={printer.printing}
          onClick={() => printer.print(<TaxInvoice order={order} />, 'a4')}
          data-testid="print-now"
        >
          {t('print.print')}
        </Button>
      }
    >
      <div className="print-preview print-preview-a4">{ready ? <TaxInvoice order={order} /> : <Spin />}</div>
      {printer.portal}
    </Modal>
  );
}
