import { DollarOutlined, ProfileOutlined } from '@ant-design/icons';
import {
  AGEING_BUCKETS,
  type CreditAccount,
  creditAccount,
  formatUsd,
  type OpenDocument,
  single,
} from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Flex, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { drawerSize } from '../../kit/detail.tsx';
import { LoadFailed } from '../../kit/listState.tsx';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDate } from '../../lib/dates.ts';
import { api } from '../../lib/http.ts';

import { accountKey, type Party } from './account.ts';
import { PaymentDialog, SupplierPaymentDialog } from './PaymentDialogs.tsx';
import { StatementDialog } from './StatementDialog.tsx';

/**
 * A customer's or a supplier's account: balance, limit and terms, ageing, the documents
 * still open; for a customer, a payment on account with its allocation shown before it is
 * recorded; for both, a statement for a period, printed or as a PDF.
 */
export function CreditDrawer({
  party,
  id,
  name,
  onClose,
}: {
  party: Party;
  id: number;
  name: string;
  onClose: () => void;
}) {
  const { t } = useCtx();
  const account = useQuery({
    queryKey: accountKey(party, id),
    queryFn: async ({ signal }) => (await api(`${party}/${id}/credit`, { signal, schema: single(creditAccount) })).data,
  });
  const mayPayCustomer = useCan('credit.create') && party === 'customers';
  // as paying one purchase: purchases.approve (costs.view: the drawer is not shown without it)
  const mayPaySupplier = useCan('purchases.approve') && party === 'suppliers';
  const mayPay = mayPayCustomer || mayPaySupplier;
  const [paying, setPaying] = useState(false);
  const [stating, setStating] = useState(false);
  return (
    <Drawer open size={drawerSize(760)} title={`${t('credit.account')}: ${name}`} onClose={onClose} destroyOnHidden>
      {account.isError && !account.data ? (
        <LoadFailed error={account.error} retry={account.refetch} retrying={account.isFetching} />
      ) : !account.data ? (
        <Skeleton active />
      ) : (
        <Flex vertical gap={16} data-testid="credit-account">
          <Space wrap>
            {mayPay && (
              <Button
                type="primary"
                icon={<DollarOutlined />}
                disabled={account.data.balance_cents === 0}
                onClick={() => setPaying(true)}
                data-testid="credit-pay"
              >
                {party === 'suppliers' ? t('credit.paySupplier') : t('credit.recordPayment')}
              </Button>
            )}
            <Button icon={<ProfileOutlined />} onClick={() => setStating(true)} data-testid="credit-statement">
              {t('credit.statement')}
            </Button>
          </Space>
          <AccountView party={party} account={account.data} />
        </Flex>
      )}
      {paying &&
        account.data &&
        (party === 'suppliers' ? (
          <SupplierPaymentDialog account={account.data} onClose={() => setPaying(false)} />
        ) : (
          <PaymentDialog account={account.data} onClose={() => setPaying(false)} />
        ))}
      {stating && <StatementDialog party={party} id={id} onClose={() => setStating(false)} />}
    </Drawer>
  );
}

function AccountView({ party, account }: { party: Party; account: CreditAccount }) {
  const { t, locale } = useCtx();
  return (
    <>
      <Flex gap={32} wrap>
        <Statistic
          title={party === 'customers' ? t('credit.owes') : t('credit.weOwe')}
          value={formatUsd(account.balance_cents)}
          valueStyle={{ color: account.balance_cents > 0 ? '#cf1322' : undefined }}
          data-testid="credit-balance"
        />
        {party === 'customers' && (
          <Statistic
            title={t('credit.limit')}
            value={account.credit_limit_cents === null ? t('credit.noLimit') : formatUsd(account.credit_limit_cents)}
            data-testid="credit-limit"
          />
        )}
        {account.available_cents !== null && (
          <Statistic title={t('credit.available')} value={formatUsd(account.available_cents)} />
        )}
        <Statistic title={t('credit.terms')} value={t('credit.days', { count: account.payment_terms_days })} />
      </Flex>
      <Descriptions size="small" bordered column={5} layout="vertical" data-testid="credit-ageing">
        {AGEING_BUCKETS.map((bucket) => (
          <Descriptions.Item key={bucket} label={t(`credit.bucket.${bucket}`)}>
            {formatUsd(account.ageing[bucket])}
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('credit.open')}
      </Typography.Title>
      <Table<OpenDocument>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={account.open}
        data-testid="credit-open"
        locale={{ emptyText: t('credit.nothingOpen') }}
        {...fitTable}
        columns={[
          { key: 'number', title: t('credit.document'), render: (_, d) => d.number },
          { key: 'date', title: t('credit.date'), render: (_, d) => formatDate(d.date, locale) },
          { key: 'due', title: t('credit.dueDate'), render: (_, d) => formatDate(d.due_date, locale) },
          { key: 'total', title: t('credit.total'), align: 'end', render: (_, d) => formatUsd(d.total_cents) },
          { key: 'left', title: t('credit.left'), align: 'end', render: (_, d) => formatUsd(d.due_cents) },
          {
            key: 'late',
            title: t('credit.late'),
            render: (_, d) =>
              d.days_overdue > 0 ? (
                <Tag color="red">{t('credit.days', { count: d.days_overdue })}</Tag>
              ) : (
                <Tag color="green">{t('credit.bucket.current')}</Tag>
              ),
          },
        ]}
      />
    </>
  );
}

/** The row's button that opens the account, for who may see credit (suppliers': costs too). */
export function CreditButton({ party, id, name }: { party: Party; id: number; name: string }) {
  const { t } = useCtx();
  const [open, setOpen] = useState(false);
  const sees = useCan('credit.view');
  const costs = useCan('costs.view');
  if (!sees || (party === 'suppliers' && !costs)) return null;
  return (
    <>
      <Button
        type="link"
        size="small"
        icon={<DollarOutlined />}
        onClick={() => setOpen(true)}
        data-testid={`credit-${id}`}
      >
        {t('credit.account')}
      </Button>
      {open && <CreditDrawer party={party} id={id} name={name} onClose={() => setOpen(false)} />}
    </>
  );
}
