import {
  DEFAULT_PER_PAGE,
  formatKhr,
  formatUsd,
  PER_PAGE_OPTIONS,
  TAX_DOCUMENT_KINDS,
  type TaxDocumentKind,
  type TaxDocumentSummary,
  taxDocumentSummary,
} from '@depot/contracts';
import { Button, Card, Flex, Input, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { LoadFailed } from '../../kit/listState.tsx';
import { PageTitle } from '../../kit/PageTitle.tsx';
import { usePage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { EInvoiceStatusBadge } from '../einvoice/EInvoiceStatusBadge.tsx';
import { TaxDocumentDialog } from './TaxDocumentDialog.tsx';

/** The CamInvoice kind of a tax document (a commercial invoice is not cleared). */
const einvoiceKind = (kind: TaxDocumentKind) =>
  kind === 'tax_invoice' ? 'invoice' : kind === 'commercial_invoice' ? null : kind;

const COLOURS = {
  tax_invoice: 'green',
  commercial_invoice: 'blue',
  credit_note: 'orange',
  debit_note: 'purple',
} as const;

/**
 * `/tax-documents`: the tax and commercial invoices, credit and debit notes of the user's stores
 * (the server scopes them), newest first; each opens as issued, printable on A4, with its notes.
 */
export function TaxDocumentsPage() {
  const { t, locale } = useCtx();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(DEFAULT_PER_PAGE);
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<string | undefined>();
  const [open, setOpen] = useState<number | null>(null);
  const query = new URLSearchParams({ page: String(page), per_page: String(perPage) });
  if (search) query.set('search', search);
  if (kind) query.set('filter[kind]', kind);
  const list = usePage('tax-documents', taxDocumentSummary, query.toString());

  return (
    <Card title={<PageTitle>{t('tax.title')}</PageTitle>}>
      <Flex gap={8} wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('tax.search')}
          aria-label={t('tax.search')}
          style={{ maxWidth: 320 }}
          onSearch={(value) => {
            setSearch(value.trim());
            setPage(1);
          }}
        />
        <Select<string>
          allowClear
          placeholder={t('tax.allKinds')}
          aria-label={t('tax.allKinds')}
          style={{ minWidth: 200 }}
          value={kind}
          onChange={(value) => {
            setKind(value);
            setPage(1);
          }}
          options={TAX_DOCUMENT_KINDS.map((k) => ({ value: k, label: t(`tax.kind.${k}`) }))}
          virtual={false}
        />
      </Flex>
      {list.isError && !list.data ? (
        <LoadFailed error={list.error} retry={list.refetch} retrying={list.isFetching} />
      ) : (
        <Table<TaxDocumentSummary>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          scroll={{ x: 'max-content' }}
          dataSource={list.data?.data ?? []}
          locale={{ emptyText: t('tax.empty') }}
          pagination={{
            current: page,
            pageSize: perPage,
            total: list.data?.meta.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [...PER_PAGE_OPTIONS],
            onChange: (next, size) => {
              setPage(next);
              setPerPage(size);
            },
          }}
          columns={[
            {
              key: 'number',
              title: t('tax.number'),
              render: (_, row) => (
                <Button type="link" style={{ padding: 0 }} onClick={() => setOpen(row.id)} data-testid="document-link">
                  {row.number}
                </Button>
              ),
            },
            {
              key: 'kind',
              title: t('fields.type'),
              render: (_, row) => {
                const cleared = einvoiceKind(row.kind);
                return (
                  <Flex vertical gap={2} align="start">
                    <Tag color={COLOURS[row.kind]}>{t(`tax.kind.${row.kind}`)}</Tag>
                    {cleared && <EInvoiceStatusBadge kind={cleared} id={row.id} />}
                  </Flex>
                );
              },
            },
            { key: 'issued', title: t('tax.issued'), render: (_, row) => formatDateTime(row.issued_at, locale) },
            {
              key: 'buyer',
              title: t('tax.buyer'),
              render: (_, row) => (
                <span>
                  {row.buyer_name}
                  {row.buyer_tin && <div style={{ opacity: 0.75 }}>{row.buyer_tin}</div>}
                </span>
              ),
            },
            { key: 'sale', title: t('tax.sale'), render: (_, row) => row.order_number },
            { key: 'original', title: t('tax.original'), render: (_, row) => row.original_number ?? '—' },
            { key: 'total', title: t('tax.total'), align: 'end', render: (_, row) => formatUsd(row.total_cents) },
            { key: 'khr', title: t('tax.totalKhr'), align: 'end', render: (_, row) => formatKhr(row.total_khr) },
            { key: 'rate', title: t('tax.rate'), align: 'end', render: (_, row) => formatKhr(row.rate_khr) },
          ]}
        />
      )}
      {open !== null && <TaxDocumentDialog id={open} onClose={() => setOpen(null)} />}
    </Card>
  );
}
