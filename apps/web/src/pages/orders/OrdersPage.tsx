import {
  CarOutlined,
  CloseOutlined,
  DollarOutlined,
  FileTextOutlined,
  PlayCircleOutlined,
  PrinterOutlined,
  QrcodeOutlined,
  RollbackOutlined,
} from '@ant-design/icons';
import {
  customerName,
  DELIVERY_FLOW,
  formatChange,
  formatKhr,
  formatQuantity,
  formatUsd,
  type OrderDetail,
  orderDetail,
} from '@depot/contracts';
import { Button, Descriptions, Flex, Popconfirm, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { MoneySummary } from '../../components/MoneySummary.tsx';
import { paymentMethodLabels } from '../../components/PaymentFields.tsx';
import { ProductNames } from '../../components/products.tsx';
import { ActionProblem } from '../../kit/detail.tsx';
import { type DocumentActions, DocumentDrawer, DocumentView } from '../../kit/document.tsx';
import { ListPage } from '../../kit/ListPage.tsx';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { localePath } from '../../lib/locale.ts';
import { DeliveryTag, deliveryLabels, OfflineTags, OrderStatusTag, orders } from '../../resources/orders.tsx';
import { PaymentStatusTag } from '../../resources/purchases.tsx';
import { OrderTaxDocument } from '../tax/TaxDocumentDialog.tsx';
import { loadCart, saveCart } from '../till/cart.ts';
import { useCatalogue } from '../till/catalogue.ts';
import { listText, sourceText } from '../till/prices.ts';
import { KhqrDialog } from './khqr/KhqrDialog.tsx';
import { ConfirmPaymentDialog, ReturnDialog } from './OrderDialogs.tsx';
import { InvoiceDialog, ReceiptDialog, totalRate } from './receipts.tsx';

type Dialog = 'pay' | 'return' | 'receipt' | 'invoice' | 'khqr';

/**
 * An order's details and what may be done with it now: the buttons are its `abilities` (the
 * server's policies), declared here as the document block's table of actions.
 */
export function OrderDetails({ detail }: { detail: OrderDetail }) {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const catalogue = useCatalogue();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [resumeProblem, setResumeProblem] = useState<string | null>(null);
  const methods = paymentMethodLabels(t);
  const deliveries = deliveryLabels(t);
  const [resuming, setResuming] = useState(false);

  const resume = async () => {
    setResuming(true);
    try {
      const cart = await catalogue.cartOf(detail);
      saveCart(cart);
      await navigate(localePath('/pos', locale), { state: { cart } });
    } catch (error) {
      setResumeProblem(failureMessage(error, locale));
    } finally {
      setResuming(false);
    }
  };

  const confirmed = detail.status === 'confirmed';
  const returnable = detail.items.some((item) => item.quantity > item.returned_quantity);
  const nextSteps = confirmed && detail.delivery_status ? DELIVERY_FLOW[detail.delivery_status] : [];

  const actions: DocumentActions<OrderDetail> = {
    resume: {
      label: t('pos.resume'),
      ability: 'update',
      render: () => {
        const waiting = loadCart();
        const button = (
          <Button
            type="primary"
            icon={<PlayCircleOutlined />}
            loading={resuming}
            data-testid="order-resume"
            onClick={waiting?.lines.length ? undefined : () => void resume()}
          >
            {t('pos.resume')}
          </Button>
        );
        return waiting?.lines.length ? (
          <Popconfirm
            title={t('pos.replaceTitle')}
            description={<div style={{ maxWidth: 300 }}>{t('pos.replaceHelp')}</div>}
            okText={t('pos.resume')}
            cancelText={t('kit.cancel')}
            onConfirm={() => resume()}
          >
            {button}
          </Popconfirm>
        ) : (
          button
        );
      },
    },
    pay: { label: t('orders.confirmPayment'), primary: true, icon: <DollarOutlined />, open: () => setDialog('pay') },
    khqr: { label: t('khqr.pay'), ability: 'pay', icon: <QrcodeOutlined />, open: () => setDialog('khqr') },
    deliver: {
      label: t('orders.confirmDelivery'),
      path: 'delivery',
      when: () => nextSteps.length > 0,
      render: (_, write) => (
        <Space.Compact>
          {nextSteps.map((step) => (
            <Popconfirm
              key={step}
              title={t('orders.confirmDeliveryTitle')}
              description={t('orders.deliveryTo', { status: deliveries[step] })}
              okText={t('orders.confirmDelivery')}
              cancelText={t('kit.cancel')}
              onConfirm={() => write({ status: step })}
            >
              <Button icon={<CarOutlined />} danger={step === 'returned'} data-testid={`deliver-${step}`}>
                {deliveries[step]}
              </Button>
            </Popconfirm>
          ))}
        </Space.Compact>
      ),
    },
    return: {
      label: t('orders.returnItems'),
      icon: <RollbackOutlined />,
      when: () => returnable,
      open: () => setDialog('return'),
    },
    receipt: {
      label: t('print.printReceipt'),
      ability: null,
      icon: <PrinterOutlined />,
      when: () => detail.status !== 'held',
      open: () => setDialog('receipt'),
    },
    invoice: {
      label: t('print.printInvoice'),
      ability: null,
      icon: <FileTextOutlined />,
      when: () => Boolean(detail.invoice),
      open: () => setDialog('invoice'),
    },
    taxDocument: {
      label: t('tax.issue'),
      ability: null,
      when: () => confirmed,
      render: () => <OrderTaxDocument order={detail} />,
    },
    cancel: {
      label: t('orders.cancel'),
      danger: true,
      icon: <CloseOutlined />,
      confirm: () => (confirmed ? t('orders.cancelHelp') : t('orders.cancelHeldHelp')),
      keepText: t('orders.keep'),
      body: () => ({}),
    },
  };

  const unit = (row: OrderDetail['items'][number]) => (locale === 'kh' ? row.unit_name_kh : row.unit_name_en) ?? '';
  const payments = detail.payments.filter((p) => p.kind === 'payment');
  const refunds = detail.payments.filter((p) => p.kind === 'refund');
  const handed = (p: OrderDetail['payments'][number]) =>
    p.method === 'cash_khr' ? formatKhr(p.amount) : formatUsd(p.amount);
  type Payment = OrderDetail['payments'][number];
  const paymentColumns: TableColumnsType<Payment> = [
    { key: 'date', title: t('purchases.paidOn'), render: (_, row) => formatDateTime(row.created_at, locale) },
    { key: 'method', title: t('purchases.methodLabel'), render: (_, row) => methods[row.method] },
    { key: 'handed', title: t('orders.handed'), align: 'end', render: (_, row) => handed(row) },
    { key: 'counts', title: t('orders.countsFor'), align: 'end', render: (_, row) => formatUsd(row.amount_cents) },
    { key: 'txn', title: t('pay.transactionId'), render: (_, row) => row.transaction_id ?? '—' },
    { key: 'by', title: t('stock.by'), render: (_, row) => row.received_by_name ?? '—' },
  ];

  return (
    <DocumentView api="orders" record={detail} row={orderDetail} actions={actions} testId="order">
      <ActionProblem problem={resumeProblem} onClose={() => setResumeProblem(null)} testId="order-resume-error" />
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, md: 2 }}
        items={[
          {
            key: 'status',
            label: t('fields.status'),
            children: (
              <Flex gap={4} wrap>
                <OrderStatusTag status={detail.status} t={t} />
                <OfflineTags order={detail} t={t} />
              </Flex>
            ),
          },
          ...(detail.offline_sold_at
            ? [
                {
                  key: 'offline',
                  label: t('orders.soldOffline'),
                  children: t('orders.soldOfflineAt', {
                    date: formatDateTime(detail.offline_sold_at, locale),
                    number: detail.offline_receipt_no ?? '—',
                  }),
                },
              ]
            : []),
          {
            key: 'payment',
            label: t('purchases.paymentStatus'),
            children: <PaymentStatusTag status={detail.payment_status} t={t} />,
          },
          { key: 'date', label: t('orders.date'), children: formatDateTime(detail.order_date, locale) },
          { key: 'cashier', label: t('orders.cashier'), children: detail.cashier_name ?? '—' },
          {
            key: 'customer',
            label: t('orders.customer'),
            children: detail.customer_phone
              ? `${customerName(detail.customer_name, locale)} · ${detail.customer_phone}`
              : customerName(detail.customer_name, locale),
          },
          { key: 'store', label: t('stock.store'), children: detail.store_name },
          {
            key: 'delivery',
            label: t('orders.deliveryStatus'),
            children: <DeliveryTag status={detail.delivery_status} t={t} />,
          },
          { key: 'address', label: t('fields.shipping_address'), children: detail.shipping_address ?? '—' },
          {
            key: 'invoice',
            label: t('invoices.number'),
            children: detail.invoice ? (
              <span>
                {detail.invoice.number}{' '}
                <Typography.Text type="secondary">{formatDateTime(detail.invoice.paid_at, locale)}</Typography.Text>
              </span>
            ) : (
              '—'
            ),
          },
          {
            key: 'rate',
            label: t('orders.rate'),
            children: `1 $ = ${formatKhr(detail.exchange_rate_khr)}`,
          },
          ...(detail.cancelled_at
            ? [
                {
                  key: 'cancelled',
                  label: t('orders.cancelledOn'),
                  children: formatDateTime(detail.cancelled_at, locale),
                },
              ]
            : []),
          ...(detail.approved_by_name
            ? [{ key: 'approved', label: t('orders.approvedBy'), children: detail.approved_by_name }]
            : []),
          { key: 'note', label: t('pos.note'), children: detail.note ?? '—', span: 'filled' as const },
        ]}
      />
      <div>
        <Typography.Title level={3} style={{ fontSize: 16 }}>
          {t('purchases.itemsTitle')}
        </Typography.Title>
        <Table
          data-testid="order-items"
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={detail.items}
          scroll={{ x: 'max-content' }}
          columns={[
            {
              key: 'item',
              title: t('stock.product'),
              render: (_, row) => (
                <Flex vertical>
                  {row.kind === 'combo' && (
                    <span>
                      <Tag color="purple">{t('pos.combo')}</Tag>
                    </span>
                  )}
                  <ProductNames kh={row.name_kh} en={row.name_en} sku={row.sku} locale={locale} />
                  {row.oversold > 0 && (
                    <span>
                      <Tag color="red" data-testid="line-oversold">
                        {t('orders.lineOversold', { count: row.oversold })}
                      </Tag>
                    </span>
                  )}
                </Flex>
              ),
            },
            {
              key: 'quantity',
              title: t('stock.quantity'),
              align: 'end',
              render: (_, row) => `${formatQuantity(row.quantity, row.decimals)} ${unit(row)}`,
            },
            {
              key: 'price',
              title: t('purchases.unitPrice'),
              align: 'end',
              render: (_, row) => (
                <Flex vertical align="flex-end">
                  <span>{formatUsd(row.unit_price_cents)}</span>
                  {row.price_source !== 'product' && row.price_source !== 'combo' && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="order-line-price-source">
                      {`${sourceText(t, row.price_source)} · ${listText(t, locale, row)}`}
                      {row.price_source === 'break' && row.list_price_cents !== null
                        ? ` (${formatUsd(row.list_price_cents)})`
                        : ''}
                    </Typography.Text>
                  )}
                </Flex>
              ),
            },
            {
              key: 'discount',
              title: t('pos.discount'),
              align: 'end',
              render: (_, row) =>
                row.line_discount_cents + row.order_discount_cents > 0 ? (
                  <Flex vertical align="flex-end">
                    <Typography.Text type="success">
                      −{formatUsd(row.line_discount_cents + row.order_discount_cents)}
                    </Typography.Text>
                    {row.discount_name && (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {row.discount_name}
                      </Typography.Text>
                    )}
                  </Flex>
                ) : (
                  '—'
                ),
            },
            { key: 'tax', title: t('orders.vat'), align: 'end', render: (_, row) => formatUsd(row.tax_cents) },
            {
              key: 'total',
              title: t('purchases.lineTotal'),
              align: 'end',
              render: (_, row) => <Typography.Text strong>{formatUsd(row.total_cents)}</Typography.Text>,
            },
            {
              key: 'returned',
              title: t('orders.returned'),
              align: 'end',
              render: (_, row) =>
                row.returned_quantity > 0 ? formatQuantity(row.returned_quantity, row.decimals) : '—',
            },
          ]}
        />
      </div>
      <MoneySummary
        rows={[
          { key: 'subtotal', label: t('purchases.subtotal'), cents: detail.subtotal_cents },
          { key: 'discount', label: t('pos.discount'), cents: -detail.discount_cents },
          { key: 'tax', label: t('orders.vat'), cents: detail.tax_cents },
          { key: 'delivery', label: t('pos.deliveryFee'), cents: detail.delivery_fee_cents },
          { key: 'grand', label: t('orders.total'), cents: detail.total_cents, strong: true },
          { key: 'paid', label: t('purchases.paid'), cents: detail.paid_cents },
          {
            key: 'due',
            label: t('purchases.due'),
            cents: Math.max(0, detail.due_cents),
            strong: true,
            danger: detail.due_cents > 0 && confirmed,
          },
        ]}
      />
      <Typography.Text type="secondary" style={{ textAlign: 'end' }}>
        {t('orders.totalKhr', { khr: formatKhr(detail.total_khr), rate: formatKhr(totalRate(detail)) })}
      </Typography.Text>
      <div>
        <Typography.Title level={3} style={{ fontSize: 16 }}>
          {t('purchases.payments')}
        </Typography.Title>
        <Table
          data-testid="order-payments"
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={payments}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('purchases.noPayments') }}
          columns={paymentColumns}
        />
        {(detail.change_cents > 0 || detail.change_khr > 0) && (
          <Typography.Text type="secondary">
            {t('orders.changeGiven', {
              change: formatChange({ usd_cents: detail.change_given_cents, khr: detail.change_given_khr }),
            })}
          </Typography.Text>
        )}
      </div>
      {refunds.length > 0 && (
        <div>
          <Typography.Title level={3} style={{ fontSize: 16 }}>
            {t('orders.refunds')}
          </Typography.Title>
          <Table
            data-testid="order-refunds"
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={refunds}
            scroll={{ x: 'max-content' }}
            columns={paymentColumns}
          />
        </div>
      )}
      {dialog === 'pay' && <ConfirmPaymentDialog detail={detail} onClose={() => setDialog(null)} />}
      {dialog === 'return' && <ReturnDialog detail={detail} onClose={() => setDialog(null)} />}
      {dialog === 'receipt' && <ReceiptDialog order={detail} onClose={() => setDialog(null)} />}
      {dialog === 'khqr' && (
        <KhqrDialog order={detail} onPaid={() => setDialog(null)} onClose={() => setDialog(null)} />
      )}
      {dialog === 'invoice' && <InvoiceDialog order={detail} onClose={() => setDialog(null)} />}
    </DocumentView>
  );
}

/** The order beside its list (`?view=id`): "order details" / "open order". */
export function OrderDrawer() {
  const { t } = useCtx();
  return (
    <DocumentDrawer
      api="orders"
      row={orderDetail}
      width={1000}
      title={(number) => t('orders.detailTitle', { number })}
      loadingTitle={t('orders.details')}
      status={(detail) => <OrderStatusTag status={detail.status} t={t} />}
    >
      {(detail) => <OrderDetails detail={detail} />}
    </DocumentDrawer>
  );
}

/** `/orders`: the kit's list of sales and each one's details, with what may be done next. */
export function OrdersPage() {
  return (
    <>
      <ListPage def={orders} />
      <OrderDrawer />
    </>
  );
}
