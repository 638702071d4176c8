import { FilePdfOutlined, PrinterOutlined } from '@ant-design/icons';
import { formatUsd, type Statement, single, statement, todayInCambodia } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Descriptions, Flex, Modal, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Loaded } from '../../kit/listState.tsx';
import { failureMessage, resourceKey } from '../../kit/queries.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDate } from '../../lib/dates.ts';
import { api, download } from '../../lib/http.ts';
import { usePrint } from '../../lib/printing/print.tsx';

import type { Party } from './account.ts';

/** A statement for a period: opening balance, each document, closing balance; print or PDF. */
export function StatementDialog({ party, id, onClose }: { party: Party; id: number; onClose: () => void }) {
  const { t, locale } = useCtx();
  const today = todayInCambodia();
  const [range, setRange] = useState<[string, string]>([`${today.slice(0, 8)}01`, today]);
  const [pdfProblem, setPdfProblem] = useState<string | null>(null);
  const printer = usePrint();
  const query = `from=${range[0]}&to=${range[1]}`;
  const data = useQuery({
    queryKey: resourceKey(party, id, 'statement', query),
    queryFn: async ({ signal }) =>
      (await api(`${party}/${id}/statement?${query}`, { signal, schema: single(statement) })).data,
  });
  return (
    <Modal open width={900} title={t('credit.statement')} onCancel={onClose} footer={null} destroyOnHidden>
      <Flex vertical gap={12}>
        <Space wrap>
          <DatePicker.RangePicker
            allowClear={false}
            format="DD/MM/YYYY"
            value={[dayjs(range[0]), dayjs(range[1])]}
            onChange={(values) => {
              if (values?.[0] && values[1]) setRange([values[0].format('YYYY-MM-DD'), values[1].format('YYYY-MM-DD')]);
            }}
            data-testid="statement-range"
          />
          <Button
            icon={<PrinterOutlined />}
            disabled={!data.data || printer.printing}
            onClick={() =>
              data.data &&
              printer.print(
                <div className="print-doc">
                  <StatementView statement={data.data} locale={locale} />
                </div>,
                'a4',
              )
            }
            data-testid="statement-print"
          >
            {t('credit.print')}
          </Button>
          <Button
            icon={<FilePdfOutlined />}
            data-testid="statement-pdf"
            onClick={() => {
              setPdfProblem(null);
              download(`${party}/${id}/statement/pdf?${query}`, `statement-${id}.pdf`).catch((error) =>
                setPdfProblem(failureMessage(error, locale)),
              );
            }}
          >
            PDF
          </Button>
        </Space>
        {pdfProblem && <Alert type="error" showIcon title={pdfProblem} />}
        <Loaded query={data}>{(statement) => <StatementView statement={statement} locale={locale} />}</Loaded>
      </Flex>
      {printer.portal}
    </Modal>
  );
}

function StatementView({ statement: s, locale }: { statement: Statement; locale: 'kh' | 'en' }) {
  const { t } = useCtx();
  type StatementLine = Statement['lines'][number];
  return (
    <Flex vertical gap={8} data-testid="statement">
      <Typography.Title level={4} style={{ margin: 0 }}>
        {s.party.kind === 'customer' ? t('credit.customerStatement') : t('credit.supplierStatement')}
      </Typography.Title>
      <Typography.Text>
        <strong>{s.party.name}</strong>
        {s.party.phone ? ` · ${s.party.phone}` : ''} · {formatDate(s.from, locale)} – {formatDate(s.to, locale)}
      </Typography.Text>
      <Table<StatementLine>
        size="small"
        rowKey={(l, i) => `${l.number}-${l.kind}-${i}`}
        pagination={false}
        dataSource={s.lines}
        {...fitTable}
        locale={{ emptyText: t('credit.nothingInPeriod') }}
        title={() => (
          <Flex justify="space-between">
            <span>{t('credit.opening')}</span>
            <strong data-testid="statement-opening">{formatUsd(s.opening_cents)}</strong>
          </Flex>
        )}
        footer={() => (
          <Flex justify="space-between">
            <span>{t('credit.closing')}</span>
            <strong data-testid="statement-closing">{formatUsd(s.closing_cents)}</strong>
          </Flex>
        )}
        columns={[
          { key: 'date', title: t('credit.date'), render: (_, l) => formatDate(l.at, locale) },
          { key: 'kind', title: t('credit.kind'), render: (_, l) => t(`credit.kinds.${l.kind}`) },
          { key: 'number', title: t('credit.document'), render: (_, l) => l.number },
          {
            key: 'debit',
            title: t('credit.debit'),
            align: 'end',
            render: (_, l) => (l.debit_cents ? formatUsd(l.debit_cents) : ''),
          },
          {
            key: 'credit',
            title: t('credit.credit'),
            align: 'end',
            render: (_, l) => (l.credit_cents ? formatUsd(l.credit_cents) : ''),
          },
          { key: 'balance', title: t('credit.balance'), align: 'end', render: (_, l) => formatUsd(l.balance_cents) },
        ]}
      />
      <Descriptions size="small" column={4} data-testid="statement-totals">
        <Descriptions.Item label={s.party.kind === 'customer' ? t('credit.sales') : t('credit.purchases')}>
          {formatUsd(s.totals.sales_cents)}
        </Descriptions.Item>
        <Descriptions.Item label={t('credit.payments')}>{formatUsd(s.totals.payments_cents)}</Descriptions.Item>
        {s.party.kind === 'customer' && (
          <>
            <Descriptions.Item label={t('credit.returns')}>{formatUsd(s.totals.returns_cents)}</Descriptions.Item>
            <Descriptions.Item label={t('credit.refunds')}>{formatUsd(s.totals.refunds_cents)}</Descriptions.Item>
          </>
        )}
      </Descriptions>
    </Flex>
  );
}
