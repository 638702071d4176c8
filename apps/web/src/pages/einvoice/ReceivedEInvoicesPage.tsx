import { FileAddOutlined, InboxOutlined } from '@ant-design/icons';
import {
  formatDate,
  formatKhr,
  purchaseDetail,
  type ReceivedEInvoice,
  receivedEInvoice,
  single,
  written,
} from '@depot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Drawer, Flex, Form, Skeleton, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { drawerSize } from '../../kit/detail.tsx';
import { LoadFailed } from '../../kit/listState.tsx';
import { PageTitle } from '../../kit/PageTitle.tsx';
import { resourceKey } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { api, newIdempotencyKey } from '../../lib/http.ts';
import { localePath } from '../../lib/locale.ts';
import { ProductSelect } from '../../resources/discounts.tsx';
import { StoreSelect, SupplierSelect } from '../../resources/parties.tsx';
import { problemOf } from './common.ts';

/**
 * `/einvoices/received`: suppliers' e-invoices that came through CamInvoice. Each line shows the
 * product matched by barcode or SKU, or asks a person to choose one (or leave the line out); with
 * the store and the supplier chosen, it becomes a draft purchase, which then follows the purchases
 * flow (opened at once for review and ordering).
 */

const key = resourceKey('einvoices', 'received');

function ToPurchase({ doc, onDone }: { doc: ReceivedEInvoice; onDone: () => void }) {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const [problem, setProblem] = useState<string | null>(null);
  const [idempotencyKey] = useState(newIdempotencyKey);
  const make = useMutation({
    mutationFn: (values: { store_id: number; supplier_id: number; products: (number | null)[] }) =>
      api(`einvoices/received/${doc.id}/purchase`, {
        method: 'POST',
        body: values,
        idempotencyKey,
        schema: written(purchaseDetail),
      }),
    onMutate: () => setProblem(null),
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: key });
      onDone();
      void navigate(localePath(`/purchases/update/${answer.data.id}`, locale));
    },
    onError: (error) => setProblem(problemOf(error, locale)),
  });
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ products: doc.lines.map((l) => l.product_id) }}
      onFinish={(values) =>
        make.mutate({
          store_id: values.store_id,
          supplier_id: values.supplier_id,
          products: (values.products as (number | undefined | null)[]).map((p) => p ?? null),
        })
      }
    >
      {problem && (
        <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} data-testid="received-problem" />
      )}
      <Table
        size="small"
        rowKey={(_, i) => String(i)}
        pagination={false}
        dataSource={doc.lines}
        scroll={{ x: true }}
        columns={[
          { key: 'description', title: t('einvoice.line'), render: (_, line) => line.description },
          {
            key: 'codes',
            title: t('einvoice.codes'),
            render: (_, line) => [line.barcode, line.sku].filter(Boolean).join(' · ') || '—',
          },
          { key: 'quantity', title: t('einvoice.quantity'), align: 'right', render: (_, line) => line.quantity },
          {
            key: 'price',
            title: t('einvoice.unitPrice'),
            align: 'right',
            render: (_, line) => formatKhr(Math.round(line.unit_price_khr)),
          },
          {
            key: 'product',
            title: t('einvoice.product'),
            render: (_, line, index) => (
              <Flex vertical gap={4}>
                {line.product_id === null && <Tag color="warning">{t('einvoice.unmatched')}</Tag>}
                <Form.Item name={['products', index]} noStyle>
                  <ProductSelect allowClear style={{ minWidth: 220 }} aria-label={t('einvoice.product')} />
                </Form.Item>
              </Flex>
            ),
          },
        ]}
      />
      <Flex gap={16} wrap style={{ marginTop: 16 }}>
        <Form.Item
          name="store_id"
          label={t('einvoice.store')}
          rules={[{ required: true, message: t('einvoice.required') }]}
        >
          <StoreSelect covered style={{ minWidth: 220 }} />
        </Form.Item>
        <Form.Item
          name="supplier_id"
          label={t('einvoice.supplier')}
          rules={[{ required: true, message: t('einvoice.required') }]}
        >
          <SupplierSelect style={{ minWidth: 220 }} />
        </Form.Item>
      </Flex>
      <Button
        type="primary"
        htmlType="submit"
        icon={<FileAddOutlined />}
        loading={make.isPending}
        data-testid="received-make"
      >
        {t('einvoice.makePurchase')}
      </Button>
    </Form>
  );
}

export function ReceivedEInvoicesPage() {
  const { t, locale } = useCtx();
  const canCreate = useCan('purchases.create');
  const [open, setOpen] = useState<ReceivedEInvoice | null>(null);
  const list = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await api('einvoices/received', { signal, schema: single(z.array(receivedEInvoice)) })).data,
  });
  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <PageTitle>
            <InboxOutlined /> {t('einvoice.receivedTitle')}
          </PageTitle>
        }
      >
        <Typography.Paragraph style={{ marginBottom: 0 }}>{t('einvoice.receivedIntro')}</Typography.Paragraph>
      </Card>
      <Card>
        {list.isError && !list.data ? (
          <LoadFailed error={list.error} retry={list.refetch} retrying={list.isFetching} />
        ) : !list.data ? (
          <Skeleton active />
        ) : (
          <Table
            size="small"
            rowKey="id"
            data-testid="received-list"
            dataSource={list.data}
            scroll={{ x: true }}
            locale={{ emptyText: t('einvoice.receivedNone') }}
            columns={[
              { key: 'number', title: t('einvoice.number'), render: (_, row) => row.number },
              { key: 'supplier', title: t('einvoice.supplier'), render: (_, row) => row.supplier_name },
              { key: 'tin', title: t('einvoice.tin'), render: (_, row) => row.supplier_tin ?? '—' },
              { key: 'date', title: t('einvoice.issued'), render: (_, row) => formatDate(row.issue_date, locale) },
              {
                key: 'total',
                title: t('einvoice.total'),
                align: 'right',
                render: (_, row) => formatKhr(row.total_khr),
              },
              {
                key: 'lines',
                title: t('einvoice.lines'),
                render: (_, row) => {
                  const unmatched = row.lines.filter((l) => l.product_id === null).length;
                  return unmatched ? (
                    <Tag color="warning">
                      {t('einvoice.unmatchedCount', { count: unmatched, total: row.lines.length })}
                    </Tag>
                  ) : (
                    <Tag color="success">{t('einvoice.allMatched', { total: row.lines.length })}</Tag>
                  );
                },
              },
              {
                key: 'action',
                title: '',
                render: (_, row) =>
                  row.purchase_id ? (
                    <Typography.Link href={localePath(`/purchases/update/${row.purchase_id}`, locale)}>
                      {t('einvoice.openPurchase')}
                    </Typography.Link>
                  ) : canCreate ? (
                    <Button size="small" onClick={() => setOpen(row)} data-testid={`received-open-${row.id}`}>
                      {t('einvoice.makePurchase')}
                    </Button>
                  ) : null,
              },
            ]}
          />
        )}
      </Card>
      <Drawer
        open={Boolean(open)}
        onClose={() => setOpen(null)}
        size={drawerSize(960)}
        title={open ? `${open.number} · ${open.supplier_name}` : ''}
        destroyOnHidden
      >
        {open && <ToPurchase doc={open} onDone={() => setOpen(null)} />}
      </Drawer>
    </Flex>
  );
}
