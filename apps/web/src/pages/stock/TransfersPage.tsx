import { CheckOutlined, CloseOutlined, EditOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { type Transfer, type TransferDetail, transferDetail } from '@depot/contracts';
import { Button, Descriptions, Table, Typography } from 'antd';
import { createContext, useContext, useState } from 'react';
import { productColumn } from '../../components/products.tsx';
import { useDetailParam } from '../../kit/detail.tsx';
import { type DocumentActions, DocumentDrawer, DocumentView } from '../../kit/document.tsx';
import { ListPage } from '../../kit/ListPage.tsx';
import type { ResourceDef } from '../../kit/resource.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { formatCount, quantityText } from '../../lib/format.ts';
import { TransferStatusTag, transfers } from '../../resources/transfers.tsx';
import { TransferForm } from './TransferForm.tsx';

/** Opens the form: empty for a new transfer, filled for a draft's changes. */
const FormContext = createContext<(editing: TransferDetail | null) => void>(() => {});

function NewTransferButton() {
  const { t } = useCtx();
  const openForm = useContext(FormContext);
  if (!useCan('stocks.create')) return null;
  return (
    <Button type="primary" icon={<PlusOutlined />} data-testid="create" onClick={() => openForm(null)}>
      {t('transfers.create')}
    </Button>
  );
}

const listDef: ResourceDef<Transfer> = { ...transfers, toolbar: () => <NewTransferButton /> };

function TransferDetails({ detail }: { detail: TransferDetail }) {
  const { t, locale } = useCtx();
  const openForm = useContext(FormContext);
  // the buttons are the actions the server accepts now (its abilities), declared here in order;
  // a 409: not enough stock to send, or the transfer moved on meanwhile (the server says which)
  const actions: DocumentActions<TransferDetail> = {
    edit: { label: t('kit.edit'), ability: 'update', icon: <EditOutlined />, open: () => openForm(detail) },
    send: {
      label: t('transfers.send'),
      primary: true,
      icon: <SendOutlined />,
      confirm: () => t('transfers.sendHelp', { from: detail.from_store_name, to: detail.to_store_name }),
      keepText: t('transfers.keep'),
    },
    receive: {
      label: t('transfers.receive'),
      primary: true,
      icon: <CheckOutlined />,
      confirm: () => t('transfers.receiveHelp', { to: detail.to_store_name }),
      keepText: t('transfers.keep'),
    },
    cancel: {
      label: t('transfers.cancel'),
      danger: true,
      icon: <CloseOutlined />,
      confirm: () =>
        detail.status === 'sent'
          ? t('transfers.cancelSentHelp', { from: detail.from_store_name })
          : t('transfers.cancelDraftHelp'),
      keepText: t('transfers.keep'),
    },
  };

  const when = (value: string | null) => (value ? formatDateTime(value, locale) : '—');
  return (
    <DocumentView api="stock-transfers" record={detail} row={transferDetail} actions={actions} testId="transfer">
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, md: 2 }}
        items={[
          { key: 'status', label: t('fields.status'), children: <TransferStatusTag status={detail.status} t={t} /> },
          { key: 'by', label: t('transfers.createdBy'), children: detail.created_by_name ?? '—' },
          { key: 'from', label: t('transfers.from'), children: detail.from_store_name },
          { key: 'to', label: t('transfers.to'), children: detail.to_store_name },
          { key: 'created', label: t('transfers.createdAt'), children: when(detail.created_at) },
          { key: 'sent', label: t('transfers.sentAt'), children: when(detail.sent_at) },
          { key: 'received', label: t('transfers.receivedAt'), children: when(detail.received_at) },
          ...(detail.cancelled_at
            ? [{ key: 'cancelled', label: t('transfers.cancelledAt'), children: when(detail.cancelled_at) }]
            : []),
          { key: 'note', label: t('stock.note'), children: detail.note ?? '—', span: 'filled' as const },
        ]}
      />
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={detail.items}
        {...fitTable}
        columns={[
          productColumn<TransferDetail['items'][number]>(t, locale, { width: 280 }),
          {
            key: 'quantity',
            title: t('stock.quantity'),
            align: 'end',
            render: (_, row) => quantityText(row.quantity, row, locale),
          },
          {
            key: 'base',
            title: t('lines.baseQuantity'),
            align: 'end',
            render: (_, row) => formatCount(row.base_quantity),
          },
        ]}
      />
      {(detail.status === 'received' || detail.status === 'cancelled') && (
        <Typography.Text type="secondary">
          {detail.status === 'received' ? t('transfers.doneReceived') : t('transfers.doneCancelled')}
        </Typography.Text>
      )}
    </DocumentView>
  );
}

function TransferDrawer() {
  const { t } = useCtx();
  return (
    <DocumentDrawer
      api="stock-transfers"
      row={transferDetail}
      width={760}
      title={(number) => t('transfers.detailTitle', { number })}
      loadingTitle={t('transfers.details')}
      status={(detail) => <TransferStatusTag status={detail.status} t={t} />}
    >
      {(detail) => <TransferDetails detail={detail} />}
    </DocumentDrawer>
  );
}

/** `/stocks/transfer`: the transfers, a new one, and each one's details with what may be done next. */
export function TransfersPage() {
  const [form, setForm] = useState<{ editing: TransferDetail | null } | null>(null);
  const { open } = useDetailParam();
  return (
    <FormContext.Provider value={(editing) => setForm({ editing })}>
      <ListPage def={listDef} />
      <TransferDrawer />
      <TransferForm
        open={form !== null}
        editing={form?.editing ?? null}
        onClose={() => setForm(null)}
        onSaved={(saved) => {
          setForm(null);
          open(saved.id);
        }}
      />
    </FormContext.Provider>
  );
}
