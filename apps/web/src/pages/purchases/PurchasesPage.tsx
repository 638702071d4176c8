import {
  BarcodeOutlined,
  CloseOutlined,
  DollarOutlined,
  EditOutlined,
  InboxOutlined,
  ShoppingCartOutlined,
} from '@ant-design/icons';
import { formatUsd, type PurchaseDetail, purchaseDetail } from '@depot/contracts';
import { Descriptions, Table, Typography } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { MoneySummary } from '../../components/MoneySummary.tsx';
import { paymentMethodLabels } from '../../components/PaymentFields.tsx';
import { LineBatch, productColumn } from '../../components/products.tsx';
import { type DocumentActions, DocumentDrawer, DocumentView } from '../../kit/document.tsx';
import { ListPage } from '../../kit/ListPage.tsx';
import { fitTable, wrap } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { formatCount } from '../../lib/format.ts';
import { localePath } from '../../lib/locale.ts';
import { PaymentStatusTag, PurchaseStatusTag, purchases } from '../../resources/purchases.tsx';
import { type LabelLine, LabelsDialog } from '../labels/LabelsDialog.tsx';
import { PaymentDialog, ReceiveDialog } from './PurchaseDialogs.tsx';

function PurchaseDetails({ detail }: { detail: PurchaseDetail }) {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [dialog, setDialog] = useState<'receive' | 'pay' | null>(null);
  const [labels, setLabels] = useState<LabelLine[] | null>(null);
  const mayLabel = useCan('products.generate');
  const methods = paymentMethodLabels(t);
  const unit = (row: PurchaseDetail['items'][number]) => (locale === 'kh' ? row.unit_name_kh : row.unit_name_en);

  // the buttons are the actions the server accepts now (its abilities), declared here in order
  const actions: DocumentActions<PurchaseDetail> = {
    order: {
      label: t('purchases.order'),
      primary: true,
      icon: <ShoppingCartOutlined />,
      confirm: () => t('purchases.orderHelp'),
    },
    edit: {
      label: t('kit.edit'),
      ability: 'update',
      icon: <EditOutlined />,
      open: () =>
        navigate(localePath(`/purchases/update/${detail.id}`, locale), {
          state: { back: search, list: '/purchases' },
        }),
    },
    receive: {
      label: t('purchases.receive'),
      primary: true,
      icon: <InboxOutlined />,
      open: () => setDialog('receive'),
    },
    pay: { label: t('purchases.pay'), icon: <DollarOutlined />, open: () => setDialog('pay') },
    // one label per unit received (a carton of 24 received: 24 labels), the quantities editable
    labels: {
      label: t('labels.forReceived'),
      ability: null,
      icon: <BarcodeOutlined />,
      when: (record) => mayLabel && record.items.some((line) => line.received_quantity > 0),
      open: (record) =>
        setLabels(
          Object.values(
            record.items
              .filter((line) => line.received_quantity > 0)
              .reduce<Record<number, LabelLine>>((all, line) => {
                const quantity = (all[line.product_id]?.quantity ?? 0) + line.received_quantity * line.factor;
                all[line.product_id] = {
                  product_id: line.product_id,
                  name_en: line.product_name_en,
                  name_kh: line.product_name_kh,
                  quantity,
                };
                return all;
              }, {}),
          ),
        ),
    },
    cancel: {
      label: t('purchases.cancel'),
      danger: true,
      icon: <CloseOutlined />,
      confirm: () => t('purchases.cancelHelp'),
      keepText: t('purchases.keep'),
    },
  };

  return (
    <DocumentView api="purchases" record={detail} row={purchaseDetail} actions={actions} testId="purchase">
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, md: 2 }}
        items={[
          { key: 'status', label: t('fields.status'), children: <PurchaseStatusTag status={detail.status} t={t} /> },
          {
            key: 'payment',
            label: t('purchases.paymentStatus'),
            children: <PaymentStatusTag status={detail.payment_status} t={t} />,
          },
          { key: 'supplier', label: t('purchases.supplier'), children: detail.supplier_name },
          { key: 'store', label: t('stock.store'), children: detail.store_name },
          { key: 'date', label: t('purchases.date'), children: formatDate(detail.purchase_date, locale) },
          { key: 'by', label: t('transfers.createdBy'), children: detail.created_by_name ?? '—' },
          ...(detail.received_at
            ? [
                {
                  key: 'received',
                  label: t('purchases.receivedOn'),
                  children: formatDateTime(detail.received_at, locale),
                },
              ]
            : []),
          { key: 'notes', label: t('purchases.notes'), children: detail.notes ?? '—', span: 'filled' as const },
        ]}
      />
      <div>
        <Typography.Title level={3} style={{ fontSize: 16 }}>
          {t('purchases.itemsTitle')}
        </Typography.Title>
        <Table
          data-testid="purchase-items"
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={detail.items}
          {...fitTable}
          columns={[
            // The lot and expiry under the names: the money columns keep their room.
            productColumn<PurchaseDetail['items'][number]>(t, locale, {
              width: 300,
              below: (row) => <LineBatch lot={row.lot} date={row.expiry_date} />,
            }),
            {
              key: 'received',
              title: t('purchases.receivedOfOrdered'),
              align: 'end',
              render: (_, row) => (
                <Typography.Text
                  type={row.received_quantity >= row.quantity ? 'success' : undefined}
                  data-testid={`received-${row.id}`}
                >
                  {formatCount(row.received_quantity)} / {formatCount(row.quantity)} {unit(row)}
                </Typography.Text>
              ),
            },
            {
              key: 'price',
              title: t('purchases.unitPrice'),
              align: 'end',
              render: (_, row) => formatUsd(row.unit_price_cents),
            },
            {
              key: 'total',
              title: t('purchases.lineTotal'),
              align: 'end',
              render: (_, row) => formatUsd(row.line_total_cents),
            },
            {
              key: 'shipping',
              title: t('purchases.shippingShare'),
              align: 'end',
              render: (_, row) => formatUsd(row.shipping_share_cents),
            },
          ]}
        />
      </div>
      <MoneySummary
        rows={[
          { key: 'subtotal', label: t('purchases.subtotal'), cents: detail.subtotal_cents },
          { key: 'shipping', label: t('purchases.shipping'), cents: detail.shipping_cents },
          { key: 'tax', label: t('purchases.tax'), cents: detail.tax_cents },
          { key: 'grand', label: t('purchases.grandTotal'), cents: detail.grand_total_cents, strong: true },
          { key: 'paid', label: t('purchases.paid'), cents: detail.paid_cents },
          {
            key: 'due',
            label: t('purchases.due'),
            cents: detail.due_cents,
            strong: true,
            danger: detail.due_cents > 0 && detail.status !== 'cancelled',
          },
        ]}
      />
      <div>
        <Typography.Title level={3} style={{ fontSize: 16 }}>
          {t('purchases.payments')}
        </Typography.Title>
        <Table
          data-testid="purchase-payments"
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={detail.payments}
          {...fitTable}
          locale={{ emptyText: t('purchases.noPayments') }}
          columns={[
            { key: 'date', title: t('purchases.paidOn'), render: (_, row) => formatDate(row.paid_at, locale) },
            {
              key: 'amount',
              title: t('purchases.amount'),
              align: 'end',
              render: (_, row) => formatUsd(row.amount_cents),
            },
            { key: 'method', title: t('purchases.methodLabel'), render: (_, row) => methods[row.method] },
            { key: 'reference', title: t('purchases.reference'), render: (_, row) => row.reference ?? '—' },
            { key: 'by', title: t('stock.by'), ...wrap(100), render: (_, row) => row.created_by_name ?? '—' },
            { key: 'note', title: t('stock.note'), ...wrap(160), render: (_, row) => row.note ?? '—' },
          ]}
        />
      </div>
      {dialog === 'receive' && <ReceiveDialog detail={detail} onClose={() => setDialog(null)} />}
      <LabelsDialog lines={labels} onClose={() => setLabels(null)} />
      {dialog === 'pay' && <PaymentDialog detail={detail} onClose={() => setDialog(null)} />}
    </DocumentView>
  );
}

/** `/purchases`: the kit's list of purchases and each one's details, with what may be done next. */
export function PurchasesPage() {
  const { t } = useCtx();
  return (
    <>
      <ListPage def={purchases} />
      <DocumentDrawer
        api="purchases"
        row={purchaseDetail}
        width={960}
        title={(number) => t('purchases.detailTitle', { number })}
        loadingTitle={t('purchases.details')}
        status={(detail) => <PurchaseStatusTag status={detail.status} t={t} />}
      >
        {(detail) => <PurchaseDetails detail={detail} />}
      </DocumentDrawer>
    </>
  );
}
