import { EyeOutlined, PrinterOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import {
  cashier,
  customerName,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  formatUsd,
  type Invoice,
  invoice,
  ORDER_STATUSES,
  type Order,
  type OrderStatus,
  order,
  orderInput,
  type PaymentStatus,
  single,
} from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Select, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { DetailLink } from '../kit/detail.tsx';
import { resourceKey } from '../kit/queries.ts';
import type { PickProps } from '../kit/RemoteSelect.tsx';
import { defineResource } from '../kit/resource.ts';
import { dateFilter, selectFilter } from '../kit/resourceParts.tsx';
import { useCan } from '../lib/access.tsx';
import { formatDateTime } from '../lib/dates.ts';
import { api } from '../lib/http.ts';
import { localePath } from '../lib/locale.ts';
import { session } from '../lib/session.ts';
import { StoreSelect } from './parties.tsx';
import { PaymentStatusTag, paymentStatusLabels } from './purchases.tsx';

/**
 * Sales: held (a parked cart) → confirmed (sold: stock out, paid in full, in part or on delivery),
 * or cancelled (stock back). Invoices are issued by the server once an order is paid in full.
 */

export function orderStatusLabels(t: TFunction): Record<OrderStatus, string> {
  return {
    held: t('orders.status.held'),
    confirmed: t('orders.status.confirmed'),
    cancelled: t('orders.status.cancelled'),
  };
}

export function deliveryLabels(t: TFunction): Record<DeliveryStatus, string> {
  return {
    preparing: t('orders.delivery.preparing'),
    preparing_done: t('orders.delivery.preparing_done'),
    ready_for_delivery: t('orders.delivery.ready_for_delivery'),
    shipping: t('orders.delivery.shipping'),
    shipped: t('orders.delivery.shipped'),
    returned: t('orders.delivery.returned'),
    completed: t('orders.delivery.completed'),
  };
}

const STATUS_COLOURS: Record<OrderStatus, string> = { held: 'gold', confirmed: 'green', cancelled: 'red' };

const DELIVERY_COLOURS: Record<DeliveryStatus, string> = {
  preparing: 'default',
  preparing_done: 'cyan',
  ready_for_delivery: 'blue',
  shipping: 'geekblue',
  shipped: 'purple',
  returned: 'red',
  completed: 'green',
};

export function OrderStatusTag({ status, t }: { status: OrderStatus; t: TFunction }) {
  return (
    <Tag color={STATUS_COLOURS[status]} data-testid="order-status">
      {orderStatusLabels(t)[status]}
    </Tag>
  );
}

/** A sale made with no connection, sent later; and, when it took more than the store had, that too. */
export function OfflineTags({
  order,
  t,
}: {
  order: { offline_sold_at: string | null; offline_receipt_no: string | null; oversold: boolean };
  t: TFunction;
}) {
  if (!order.offline_sold_at) return null;
  return (
    <>
      <Tag color="orange" data-testid="sold-offline" title={order.offline_receipt_no ?? undefined}>
        {t('orders.soldOffline')}
      </Tag>
      {order.oversold && (
        <Tag color="red" data-testid="oversold">
          {t('orders.oversold')}
        </Tag>
      )}
    </>
  );
}

export function DeliveryTag({ status, t }: { status: DeliveryStatus | null; t: TFunction }) {
  if (!status) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Tag color={DELIVERY_COLOURS[status]} data-testid="delivery-status">
      {deliveryLabels(t)[status]}
    </Tag>
  );
}

const PAYMENT_FILTER: PaymentStatus[] = ['unpaid', 'partially_paid', 'paid', 'pending', 'onhold'];

/**
 * Who sold: everyone who has recorded a sale (a depot's staff, one short list); the user signed in
 * shows as "My sales".
 */
function CashierSelect(props: PickProps) {
  const { t } = useTranslation();
  const { userId } = session.get();
  const cashiers = useQuery({
    queryKey: resourceKey('orders', 'cashiers'),
    queryFn: async ({ signal }) => (await api('orders/cashiers', { signal, schema: single(z.array(cashier)) })).data,
    staleTime: 60 * 1000,
  });
  const options = (cashiers.data ?? []).map((c) => ({
    value: c.id,
    label: c.id === userId ? t('orders.mySales', { name: c.name }) : c.name,
  }));
  return (
    <Select<number | null>
      {...props}
      value={props.value ?? undefined}
      onChange={(next) => props.onChange?.(next ?? null)}
      options={options}
      loading={cashiers.isFetching}
      showSearch={{ optionFilterProp: 'label' }}
      data-testid="cashier-filter"
      virtual={false}
    />
  );
}

/** "New sale" above the list of orders: the till, for who may sell. */
function TillButton({ label, locale }: { label: string; locale: 'kh' | 'en' }) {
  const navigate = useNavigate();
  if (!useCan('orders.create')) return null;
  return (
    <Button
      type="primary"
      icon={<ShoppingCartOutlined />}
      data-testid="new-sale"
      onClick={() => void navigate(localePath('/pos', locale))}
    >
      {label}
    </Button>
  );
}

function money(cents: number) {
  return formatUsd(cents);
}

/** `/orders`: the kit's list; a sale is made at the till, its details and actions are the page's own. */
export const orders = defineResource<Order>({
  screen: '/orders',
  api: 'orders',
  resource: 'orders',
  row: order,
  input: orderInput,
  texts: (t) => ({ title: t('menu.orders'), create: t('orders.newSale'), edit: t('orders.details') }),
  label: (row) => row.number,
  creatable: false,
  trashable: false,
  editable: () => false,
  // Cancelled, not deleted: every sale stays on the books.
  deletable: () => false,
  defaultSort: () => '-order_date',
  searchHint: (t) => t('orders.searchHint'),
  toolbar: ({ t, locale }) => <TillButton label={t('orders.newSale')} locale={locale} />,
  columns: ({ t, locale }) => [
    {
      key: 'number',
      title: t('orders.number'),
      sort: 'number',
      render: (row) => (
        <DetailLink id={row.id} testId={`open-${row.id}`}>
          {row.number}
        </DetailLink>
      ),
    },
    {
      key: 'order_date',
      title: t('orders.date'),
      sort: 'order_date',
      width: 110,
      wrap: true,
      render: (row) => formatDateTime(row.order_date, locale),
    },
    {
      key: 'customer',
      title: t('orders.customer'),
      width: 120,
      wrap: true,
      render: (row) => customerName(row.customer_name, locale),
    },
    { key: 'cashier', title: t('orders.cashier'), width: 90, wrap: true, render: (row) => row.cashier_name ?? '—' },
    { key: 'store', title: t('stock.store'), width: 80, wrap: true, render: (row) => row.store_name },
    // The sale, its money and its delivery, one above the other: room for the money columns.
    {
      key: 'status',
      title: t('fields.status'),
      render: (row) => (
        <Flex vertical gap={4} align="start">
          <OrderStatusTag status={row.status} t={t} />
          <PaymentStatusTag status={row.payment_status} t={t} />
          {row.delivery_status && <DeliveryTag status={row.delivery_status} t={t} />}
          <OfflineTags order={row} t={t} />
        </Flex>
      ),
    },
    {
      key: 'total',
      title: t('orders.total'),
      sort: 'total',
      render: (row) => <Typography.Text strong>{money(row.total_cents)}</Typography.Text>,
    },
    { key: 'paid', title: t('purchases.paid'), render: (row) => money(row.paid_cents) },
    {
      key: 'due',
      title: t('purchases.due'),
      render: (row) => (
        <Typography.Text type={row.due_cents > 0 && row.status === 'confirmed' ? 'danger' : undefined}>
          {money(Math.max(0, row.due_cents))}
        </Typography.Text>
      ),
    },
  ],
  filters: (ctx) => {
    const statuses = orderStatusLabels(ctx.t);
    const payments = paymentStatusLabels(ctx.t);
    const deliveries = deliveryLabels(ctx.t);
    return [
      {
        name: 'status',
        label: ctx.t('fields.status'),
        options: ORDER_STATUSES.map((value) => ({ value, label: statuses[value] })),
      },
      {
        name: 'payment_status',
        label: ctx.t('purchases.paymentStatus'),
        options: PAYMENT_FILTER.map((value) => ({ value, label: payments[value] })),
      },
      {
        name: 'delivery_status',
        label: ctx.t('orders.deliveryStatus'),
        options: DELIVERY_STATUSES.map((value) => ({ value, label: deliveries[value] })),
      },
      selectFilter('store_id', ctx.t('stock.store'), StoreSelect),
      // The API lists no users to pick a cashier from: the signed-in cashier's own sales.
      selectFilter('cashier_id', ctx.t('orders.cashier'), CashierSelect),
      dateFilter('date_from', ctx.t('purchases.dateFrom')),
      dateFilter('date_to', ctx.t('purchases.dateTo')),
    ];
  },
  fields: () => [],
  rowActions: (row, { t }) => (
    <DetailLink id={row.id} testId={`details-${row.id}`} label={t('orders.details')}>
      <EyeOutlined />
    </DetailLink>
  ),
});

/**
 * `/invoices`: the kit's list of invoices (issued by the server when an order is paid in full). An
 * invoice prints from its order; the list's own actions are in the page (InvoicesPage).
 */
export function invoicesDef({
  printInvoice,
  canViewOrder,
  canListOrders,
}: {
  printInvoice: (row: Invoice) => void;
  canViewOrder: boolean;
  canListOrders: boolean;
}) {
  return defineResource<Invoice>({
    screen: '/invoices',
    api: 'invoices',
    resource: 'invoices',
    row: invoice,
    // The kit asks for an input schema; invoices are never written from a form.
    input: z.object({}),
    texts: (t) => ({ title: t('menu.invoices'), create: t('menu.invoices'), edit: t('menu.invoices') }),
    label: (row) => row.number,
    creatable: false,
    trashable: false,
    editable: () => false,
    deletable: () => false,
    defaultSort: () => '-paid_at',
    searchHint: (t) => t('invoices.searchHint'),
    columns: ({ t, locale }) => [
      { key: 'number', title: t('invoices.number'), sort: 'number', render: (row) => row.number },
      {
        key: 'order',
        title: t('invoices.order'),
        render: (row) =>
          canListOrders ? (
            <Link to={`${localePath('/orders', locale)}?view=${row.order_id}`}>{row.order_number}</Link>
          ) : (
            row.order_number
          ),
      },
      { key: 'store', title: t('stock.store'), width: 80, wrap: true, render: (row) => row.store_name },
      {
        key: 'customer',
        title: t('orders.customer'),
        width: 120,
        wrap: true,
        render: (row) => customerName(row.customer_name, locale),
      },
      {
        key: 'total',
        title: t('orders.total'),
        sort: 'total',
        render: (row) => <Typography.Text strong>{money(row.total_cents)}</Typography.Text>,
      },
      { key: 'items_count', title: t('invoices.itemsCount'), render: (row) => row.items_count },
      {
        key: 'paid_at',
        title: t('invoices.paidAt'),
        sort: 'paid_at',
        width: 110,
        wrap: true,
        render: (row) => formatDateTime(row.paid_at, locale),
      },
    ],
    filters: (ctx) => [
      selectFilter('store_id', ctx.t('stock.store'), StoreSelect),
      dateFilter('date_from', ctx.t('purchases.dateFrom')),
      dateFilter('date_to', ctx.t('purchases.dateTo')),
    ],
    fields: () => [],
    rowActions: (row, { t }) =>
      canViewOrder ? (
        <Typography.Link data-testid={`print-invoice-${row.id}`} onClick={() => printInvoice(row)}>
          <PrinterOutlined /> {t('invoices.print')}
        </Typography.Link>
      ) : null,
  });
}
