import { type ComboItem, comboDetail, comboInput, comboPreview, formatUsd, single, written } from '@depot/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Card, Descriptions, Flex, Skeleton, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ProductNames } from '../../components/products.tsx';
import { DraftReviewPage, ReviewButtons } from '../../kit/DraftPages.tsx';
import { LoadFailed } from '../../kit/listState.tsx';
import { BackTitle } from '../../kit/PageTitle.tsx';
import { failureMessage, useRefreshAll } from '../../kit/queries.ts';
import { costText } from '../../kit/resourceParts.tsx';
import { useCtx } from '../../kit/useCtx.ts';
import { formatCount } from '../../lib/format.ts';
import { parseWith } from '../../lib/forms.ts';
import { ApiError, api } from '../../lib/http.ts';
import { localePath } from '../../lib/locale.ts';
import { marginText, Profit } from '../../resources/combos.tsx';
import { type ComboDraft, type ComboState, clearComboDraft, comboBody, comboDrafts } from './comboDraft.ts';

const answer = written(comboDetail);

function Review({ draft, from }: { draft: ComboDraft; from: ComboState }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const refresh = useRefreshAll();
  const parsed = parseWith(comboInput, comboBody(draft), locale);
  const body = parsed.data;
  const [problem, setProblem] = useState<string | null>(null);
  const formPath = draft.id ? `/combos/update/${draft.id}` : '/combos/create';

  const edit = (errors?: Record<string, string[]>) =>
    navigate(localePath(formPath, locale), {
      state: { draft, errors, back: from.back, list: from.list } satisfies ComboState,
    });

  // The server's own numbers for this body: prices, today's cost, profit and margin; nothing saved.
  const preview = useQuery({
    queryKey: ['combo-preview', draft.id, JSON.stringify(body)],
    queryFn: async ({ signal }) =>
      (
        await api(`combos/preview${draft.id ? `?combo_id=${draft.id}` : ''}`, {
          method: 'POST',
          body,
          signal,
          schema: single(comboPreview),
        })
      ).data,
    enabled: Boolean(body),
    retry: false,
  });

  // A refusal of the body (SKU taken, a product gone) goes back to the form, on its fields.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the preview is refused
  useEffect(() => {
    const error = preview.error;
    if (error instanceof ApiError && error.status === 422 && error.body?.errors) void edit(error.body.errors);
  }, [preview.error]);

  const save = useMutation({
    mutationFn: () =>
      draft.id
        ? api(`combos/${draft.id}`, { method: 'PUT', body, schema: answer })
        : api('combos', { method: 'POST', body, schema: answer }),
  });

  const confirm = async () => {
    setProblem(null);
    try {
      const saved = await save.mutateAsync();
      clearComboDraft();
      void message.success(saved.message);
      void refresh();
      await navigate(localePath(from.list ?? '/combos', locale) + (from.back ?? ''), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.body?.errors) {
        await edit(error.body.errors);
        return;
      }
      setProblem(failureMessage(error, locale));
    }
  };

  const data = preview.data;
  const unit = (row: ComboItem) => (locale === 'kh' ? row.unit_name_kh : row.unit_name_en);
  return (
    <Card
      title={
        <BackTitle onBack={edit} label={t('purchases.backToEdit')}>
          {t('combos.reviewTitle')}
        </BackTitle>
      }
    >
      <Flex vertical gap={20} data-testid="combo-review">
        {!body && <Alert type="warning" showIcon title={t('purchases.fixFirst')} />}
        {problem && <Alert type="error" showIcon title={problem} data-testid="review-error" />}
        {preview.isError && !(preview.error instanceof ApiError && preview.error.status === 422) ? (
          <LoadFailed error={preview.error} retry={preview.refetch} retrying={preview.isFetching} />
        ) : !data ? (
          body && <Skeleton active paragraph={{ rows: 6 }} />
        ) : (
          <>
            <Descriptions
              size="small"
              bordered
              column={{ xs: 1, md: 2 }}
              items={[
                {
                  key: 'name',
                  label: t('fields.name'),
                  children: <ProductNames kh={data.name_kh} en={data.name_en} locale={locale} />,
                },
                { key: 'sku', label: t('fields.sku'), children: data.sku },
                { key: 'barcode', label: t('fields.barcode'), children: data.barcode ?? '—' },
                {
                  key: 'status',
                  label: t('fields.status'),
                  children: data.status === 'active' ? t('status.active') : t('status.inactive'),
                },
                {
                  key: 'description',
                  label: t('fields.description'),
                  children: data.description ?? '—',
                  span: 'filled' as const,
                },
              ]}
            />
            <Table<ComboItem>
              data-testid="preview-items"
              size="small"
              rowKey={(row) => `${row.product_id}-${row.unit_id}`}
              pagination={false}
              dataSource={data.items}
              scroll={{ x: 'max-content' }}
              columns={[
                {
                  key: 'product',
                  title: t('stock.product'),
                  render: (_, row) => (
                    <ProductNames kh={row.product_name_kh} en={row.product_name_en} sku={row.sku} locale={locale} />
                  ),
                },
                {
                  key: 'quantity',
                  title: t('stock.quantity'),
                  align: 'end',
                  render: (_, row) => `${formatCount(row.quantity)} ${unit(row)}`,
                },
                {
                  key: 'unit_price',
                  title: t('purchases.unitPrice'),
                  align: 'end',
                  render: (_, row) => formatUsd(row.unit_price_cents),
                },
                {
                  key: 'price',
                  title: t('combos.price'),
                  align: 'end',
                  render: (_, row) => formatUsd(row.price_cents),
                },
                {
                  key: 'cost',
                  title: t('combos.cost'),
                  align: 'end',
                  render: (_, row) => costText(row.cost_cents),
                },
              ]}
            />
            <Descriptions
              size="small"
              bordered
              column={{ xs: 1, md: 3 }}
              data-testid="preview-money"
              items={[
                {
                  key: 'selling',
                  label: t('combos.sellingPrice'),
                  children: (
                    <Typography.Text strong data-testid="preview-selling">
                      {formatUsd(data.selling_price_cents)}
                    </Typography.Text>
                  ),
                },
                {
                  key: 'price',
                  label: t('combos.price'),
                  children: <span data-testid="preview-price">{formatUsd(data.price_cents)}</span>,
                },
                {
                  key: 'cost',
                  label: t('combos.totalCost'),
                  children: <span data-testid="preview-cost">{costText(data.total_cost_cents)}</span>,
                },
                {
                  key: 'profit',
                  label: t('combos.profit'),
                  children: (
                    <span data-testid="preview-profit">
                      <Profit cents={data.profit_cents} />
                    </span>
                  ),
                },
                {
                  key: 'margin',
                  label: t('combos.margin'),
                  children: <span data-testid="preview-margin">{marginText(data.margin_bp)}</span>,
                },
                {
                  key: 'quantity',
                  label: t('combos.totalQuantity'),
                  children: <span data-testid="preview-quantity">{formatCount(data.total_quantity)}</span>,
                },
              ]}
            />
            {(data.profit_cents ?? 0) < 0 && (
              <Alert type="warning" showIcon title={t('combos.loss')} data-testid="preview-loss" />
            )}
            <Typography.Text type="secondary">{t('combos.priceHelp')}</Typography.Text>
          </>
        )}
        <ReviewButtons
          label={t('kit.save')}
          ready={Boolean(data)}
          pending={save.isPending}
          onConfirm={() => void confirm()}
          onEdit={() => void edit()}
        />
      </Flex>
    </Card>
  );
}

/** `/combos/review`: the server's preview of the combo (price, cost, profit, margin), then Save. */
export function ComboReviewPage() {
  const { t } = useCtx();
  return (
    <DraftReviewPage
      store={comboDrafts}
      Review={Review}
      nothing={{ title: t('combos.nothingToReview'), create: t('combos.create'), path: '/combos/create' }}
    />
  );
}
