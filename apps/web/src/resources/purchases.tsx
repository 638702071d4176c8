import { EyeOutlined } from '@ant-design/icons';
import {
  formatUsd,
  type PaymentStatus,
  PURCHASE_STATUSES,
  type Purchase,
  type PurchaseStatus,
  purchase,
  purchaseInput,
} from '@depot/contracts';
import { Flex, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { DetailLink } from '../kit/detail.tsx';
import { defineResource } from '../kit/resource.ts';
import { dateFilter, selectFilter } from '../kit/resourceParts.tsx';
import { formatDate } from '../lib/dates.ts';
import { StoreSelect, SupplierSelect } from './parties.tsx';

/**
 * Purchases from suppliers: draft → ordered → partly received → received, or cancelled before
 * anything arrives; paid in one or more payments.
 */

export function purchaseStatusLabels(t: TFunction): Record<PurchaseStatus, string> {
  return {
    draft: t('purchases.status.draft'),
    ordered: t('purchases.status.ordered'),
    partially_received: t('purchases.status.partially_received'),
    received: t('purchases.status.received'),
    cancelled: t('purchases.status.cancelled'),
  };
}

export function paymentStatusLabels(t: TFunction): Record<PaymentStatus, string> {
  return {
    unpaid: t('purchases.payment.unpaid'),
    partially_paid: t('purchases.payment.partially_paid'),
    paid: t('purchases.payment.paid'),
    pending: t('purchases.payment.pending'),
    onhold: t('purchases.payment.onhold'),
  };
}

const STATUS_COLOURS: Record<PurchaseStatus, string> = {
  draft: 'default',
  ordered: 'blue',
  partially_received: 'gold',
  received: 'green',
  cancelled: 'red',
};

const PAYMENT_COLOURS: Record<PaymentStatus, string> = {
  unpaid: 'red',
  partially_paid: 'orange',
  paid: 'green',
  pending: 'default',
  onhold: 'default',
};

export function PurchaseStatusTag({ status, t }: { status: PurchaseStatus; t: TFunction }) {
  return (
    <Tag color={STATUS_COLOURS[status]} data-testid="purchase-status">
      {purchaseStatusLabels(t)[status]}
    </Tag>
  );
}

export function PaymentStatusTag({ status, t }: { status: PaymentStatus; t: TFunction }) {
  return (
    <Tag color={PAYMENT_COLOURS[status]} data-testid="payment-status">
      {paymentStatusLabels(t)[status]}
    </Tag>
  );
}

const PAYMENT_FILTER: PaymentStatus[] = ['unpaid', 'partially_paid', 'paid'];

/** `/purchases`: the kit's list; the form, the review and the details are pages of their own. */
export const purchases = defineResource<Purchase>({
  screen: '/purchases',
  api: 'purchases',
  resource: 'purchases',
  row: purchase,
  input: purchaseInput,
  texts: (t) => ({ title: t('menu.purchases'), create: t('purchases.create'), edit: t('purchases.edit') }),
  label: (row) => row.number,
  trashable: false,
  // Edit shows as the purchase's `abilities.update` says (the kit's list reads them)
  // Cancelled, not deleted: the server keeps every purchase.
  deletable: () => false,
  defaultSort: () => '-purchase_date',
  searchHint: (t) => t('purchases.searchHint'),
  columns: ({ t, locale }) => {
    const money = (cents: number) => formatUsd(cents);
    return [
      {
        key: 'number',
        title: t('purchases.number'),
        sort: 'number',
        render: (row) => (
          <DetailLink id={row.id} testId={`open-${row.id}`}>
            {row.number}
          </DetailLink>
        ),
      },
      {
        key: 'purchase_date',
        title: t('purchases.date'),
        sort: 'purchase_date',
        render: (row) => formatDate(row.purchase_date, locale),
      },
      { key: 'supplier', title: t('purchases.supplier'), width: 120, wrap: true, render: (row) => row.supplier_name },
      { key: 'store', title: t('stock.store'), width: 80, wrap: true, render: (row) => row.store_name },
      // Where the goods are and where the money is, one above the other: room for the money columns.
      {
        key: 'status',
        title: t('fields.status'),
        render: (row) => (
          <Flex vertical gap={4} align="start">
            <PurchaseStatusTag status={row.status} t={t} />
            <PaymentStatusTag status={row.payment_status} t={t} />
          </Flex>
        ),
      },
      { key: 'items_count', title: t('purchases.items'), render: (row) => row.items_count },
      {
        key: 'grand_total',
        title: t('purchases.grandTotal'),
        sort: 'grand_total',
        render: (row) => <Typography.Text strong>{money(row.grand_total_cents)}</Typography.Text>,
      },
      { key: 'paid', title: t('purchases.paid'), render: (row) => money(row.paid_cents) },
      {
        key: 'due',
        title: t('purchases.due'),
        render: (row) => (
          <Typography.Text type={row.due_cents > 0 && row.status !== 'cancelled' ? 'danger' : undefined}>
            {money(row.due_cents)}
          </Typography.Text>
        ),
      },
    ];
  },
  filters: (ctx) => {
    const statuses = purchaseStatusLabels(ctx.t);
    const payments = paymentStatusLabels(ctx.t);
    return [
      {
        name: 'status',
        label: ctx.t('fields.status'),
        options: PURCHASE_STATUSES.map((value) => ({ value, label: statuses[value] })),
      },
      {
        name: 'payment_status',
        label: ctx.t('purchases.paymentStatus'),
        options: PAYMENT_FILTER.map((value) => ({ value, label: payments[value] })),
      },
      selectFilter('supplier_id', ctx.t('purchases.supplier'), SupplierSelect),
      selectFilter('store_id', ctx.t('stock.store'), StoreSelect),
      dateFilter('date_from', ctx.t('purchases.dateFrom')),
      dateFilter('date_to', ctx.t('purchases.dateTo')),
    ];
  },
  fields: () => [],
  rowActions: (row, { t }) => (
    <DetailLink id={row.id} testId={`details-${row.id}`} label={t('purchases.details')}>
      <EyeOutlined />
    </DetailLink>
  ),
});
