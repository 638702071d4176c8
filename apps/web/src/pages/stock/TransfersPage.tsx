import { CheckOutlined, CloseOutlined, EditOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { type Transfer, type TransferDetail, transferDetail, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Button, Descriptions, Flex, Popconfirm, Space, Table, Typography } from 'antd';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { ActionProblem, RecordDrawer, useDetailParam, useDocumentAction } from '../../kit/detail.tsx';
import { ListPage } from '../../kit/ListPage.tsx';
import type { ResourceDef } from '../../kit/resource.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { api, newIdempotencyKey } from '../../lib/http.ts';
import { TransferStatusTag, transfers } from '../../resources/transfers.tsx';
import { formatCount, productColumn } from './common.tsx';
import { TransferForm } from './TransferForm.tsx';

type Action = 'send' | 'receive' | 'cancel';

const answer = written(transferDetail);

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

/** A button behind a confirmation that says what happens to the stock. */
function Confirmed({
  action,
  help,
  label,
  icon,
  danger,
  primary,
  onConfirm,
  loading,
}: {
  action: Action;
  help: string;
  label: string;
  icon: ReactNode;
  danger?: boolean;
  primary?: boolean;
  onConfirm: () => Promise<void>;
  loading: boolean;
}) {
  const { t } = useCtx();
  return (
    <Popconfirm
      title={label}
      description={
        <div style={{ maxWidth: 320 }} data-testid={`transfer-${action}-help`}>
          {help}
        </div>
      }
      okText={label}
      okButtonProps={{ danger }}
      cancelText={t('transfers.keep')}
      onConfirm={onConfirm}
    >
      <Button
        icon={icon}
        danger={danger}
        type={primary ? 'primary' : 'default'}
        loading={loading}
        data-testid={`transfer-${action}`}
      >
        {label}
      </Button>
    </Popconfirm>
  );
}

function TransferDetails({ detail }: { detail: TransferDetail }) {
  const { t, locale } = useCtx();
  const openForm = useContext(FormContext);
  // the buttons are the actions the server accepts now (its abilities), nothing decided here
  const can = detail.abilities;
  // One key per action shown: a second press after a lost answer does not move the stock twice.
  const [keys] = useState(() => ({
    send: newIdempotencyKey(),
    receive: newIdempotencyKey(),
    cancel: newIdempotencyKey(),
  }));
  const run = useMutation({
    mutationFn: (action: Action) =>
      api(`stock-transfers/${detail.id}/${action}`, { method: 'POST', schema: answer, idempotencyKey: keys[action] }),
  });
  // A 409: not enough stock to send, or the transfer moved on in the meantime (the server says which).
  const { run: perform, problem, setProblem } = useDocumentAction();
  const act = (action: Action) => perform(() => run.mutateAsync(action));
  const busy = run.isPending ? run.variables : null;

  const actions: ReactNode[] = [];
  if (can.update === true) {
    actions.push(
      <Button key="edit" icon={<EditOutlined />} data-testid="transfer-edit" onClick={() => openForm(detail)}>
        {t('kit.edit')}
      </Button>,
    );
  }
  if (can.send === true) {
    actions.push(
      <Confirmed
        key="send"
        action="send"
        primary
        icon={<SendOutlined />}
        label={t('transfers.send')}
        help={t('transfers.sendHelp', { from: detail.from_store_name, to: detail.to_store_name })}
        onConfirm={() => act('send')}
        loading={busy === 'send'}
      />,
    );
  }
  if (can.receive === true) {
    actions.push(
      <Confirmed
        key="receive"
        action="receive"
        primary
        icon={<CheckOutlined />}
        label={t('transfers.receive')}
        help={t('transfers.receiveHelp', { to: detail.to_store_name })}
        onConfirm={() => act('receive')}
        loading={busy === 'receive'}
      />,
    );
  }
  if (can.cancel === true) {
    actions.push(
      <Confirmed
        key="cancel"
        action="cancel"
        danger
        icon={<CloseOutlined />}
        label={t('transfers.cancel')}
        help={
          detail.status === 'sent'
            ? t('transfers.cancelSentHelp', { from: detail.from_store_name })
            : t('transfers.cancelDraftHelp')
        }
        onConfirm={() => act('cancel')}
        loading={busy === 'cancel'}
      />,
    );
  }

  const when = (value: string | null) => (value ? formatDateTime(value, locale) : '—');
  return (
    <Flex vertical gap={16} data-testid="transfer-details">
      <ActionProblem problem={problem} onClose={() => setProblem(null)} testId="transfer-error" />
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
            render: (_, row) => `${formatCount(row.quantity)} ${locale === 'kh' ? row.unit_name_kh : row.unit_name_en}`,
          },
          {
            key: 'base',
            title: t('lines.baseQuantity'),
            align: 'end',
            render: (_, row) => formatCount(row.base_quantity),
          },
        ]}
      />
      {actions.length > 0 ? (
        <Space wrap>{actions}</Space>
      ) : (
        <Typography.Text type="secondary">
          {detail.status === 'received'
            ? t('transfers.doneReceived')
            : detail.status === 'cancelled'
              ? t('transfers.doneCancelled')
              : null}
        </Typography.Text>
      )}
    </Flex>
  );
}

function TransferDrawer() {
  const { t } = useCtx();
  return (
    <RecordDrawer
      api="stock-transfers"
      row={transferDetail}
      width={760}
      rows={6}
      title={(number) => t('transfers.detailTitle', { number })}
      loadingTitle={t('transfers.details')}
    >
      {(detail) => <TransferDetails detail={detail} />}
    </RecordDrawer>
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
