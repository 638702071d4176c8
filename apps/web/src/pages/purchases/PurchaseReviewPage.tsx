import { formatUsd, purchaseDetail, purchaseInput, store, supplier, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Flex, Table, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { MoneySummary } from '../../components/MoneySummary.tsx';
import { LineBatch, ProductNames } from '../../components/products.tsx';
import { DraftReviewPage, ReviewButtons } from '../../kit/DraftPages.tsx';
import { BackTitle } from '../../kit/PageTitle.tsx';
import { failureMessage, useList, useRecord, useWritten } from '../../kit/queries.ts';
import { localName } from '../../kit/resource.ts';
import { fitTable, wrap } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDate } from '../../lib/dates.ts';
import { formatCount } from '../../lib/format.ts';
import { parseWith } from '../../lib/forms.ts';
import { ApiError, api, newIdempotencyKey } from '../../lib/http.ts';
import { localePath } from '../../lib/locale.ts';
import {
  clearDraft,
  type DraftLine,
  type DraftState,
  draftBody,
  draftTotals,
  type PurchaseDraft,
  purchaseDrafts,
} from './draft.ts';

const answer = written(purchaseDetail);

/** A supplier's or store's name: from the list the form's select loaded, else its own record. */
function useName(api: 'suppliers' | 'stores', id: number | null): string {
  const row: z.ZodType<{ id: number; deleted_at: string | null; name: string }> =
    api === 'suppliers' ? supplier : store;
  const list = useList({ api, row }, 'per_page=100');
  const listed = list.data?.data.find((r) => r.id === id);
  const record = useRecord({ api, row }, listed || list.isPending ? null : id);
  const found = listed ?? record.data;
  return found ? found.name : id ? `#${id}` : '—';
}

function Review({ draft, from }: { draft: PurchaseDraft; from: DraftState }) {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const written = useWritten();
  const totals = draftTotals(draft);
  const supplierName = useName('suppliers', draft.supplier_id);
  const storeName = useName('stores', draft.store_id);
  const [problem, setProblem] = useState<string | null>(null);
  // One key for this confirmation: pressing Confirm again after a lost answer makes no second purchase.
  const [key] = useState(newIdempotencyKey);
  const parsed = parseWith(purchaseInput, draftBody(draft), locale);
  const formPath = draft.id ? `/purchases/update/${draft.id}` : '/purchases/create';

  const save = useMutation({
    mutationFn: (body: unknown) =>
      draft.id
        ? api(`purchases/${draft.id}`, { method: 'PUT', body, schema: answer })
        : api('purchases', { method: 'POST', body, schema: answer, idempotencyKey: key }),
  });

  const edit = (errors?: Record<string, string[]>) =>
    navigate(localePath(formPath, locale), {
      state: { draft, errors, back: from.back, list: from.list } satisfies DraftState,
    });

  const confirm = async () => {
    if (!parsed.data) return;
    setProblem(null);
    try {
      const saved = await save.mutateAsync(parsed.data);
      clearDraft();
      void written(saved);
      await navigate(`${localePath('/purchases', locale)}?view=${saved.data.id}`, { replace: true });
    } catch (error) {
      // Refused fields go back to the form, each on its own field (`items.1.quantity`: line 2).
      if (error instanceof ApiError && error.status === 422 && error.body?.errors) {
        await edit(error.body.errors);
        return;
      }
      setProblem(failureMessage(error, locale));
    }
  };

  const unitOf = (line: DraftLine) => (line.unit ? localName(line.unit, locale) : '—');
  return (
    <Card
      title={
        <BackTitle onBack={edit} label={t('purchases.backToEdit')}>
          {draft.id ? t('purchases.reviewEditTitle', { number: draft.number ?? '' }) : t('purchases.reviewTitle')}
        </BackTitle>
      }
    >
      <Flex vertical gap={20} data-testid="purchase-review">
        {!parsed.data && <Alert type="warning" showIcon title={t('purchases.fixFirst')} />}
        {problem && <Alert type="error" showIcon title={problem} data-testid="review-error" />}
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2 }}
          items={[
            {
              key: 'supplier',
              label: t('purchases.supplier'),
              children: <span data-testid="review-supplier">{supplierName}</span>,
            },
            { key: 'store', label: t('stock.store'), children: <span data-testid="review-store">{storeName}</span> },
            { key: 'date', label: t('purchases.date'), children: formatDate(draft.purchase_date, locale) },
            {
              key: 'ordered',
              label: t('purchases.savedAs'),
              children: draft.ordered ? t('purchases.status.ordered') : t('purchases.status.draft'),
            },
            { key: 'notes', label: t('purchases.notes'), children: draft.notes || '—', span: 'filled' as const },
          ]}
        />
        <Table<DraftLine>
          data-testid="review-lines"
          size="small"
          rowKey="key"
          pagination={false}
          dataSource={draft.lines}
          {...fitTable}
          columns={[
            { key: 'n', title: '#', render: (_, _line, index) => index + 1 },
            // The lot and expiry under the names: the money columns keep their room.
            {
              key: 'product',
              title: t('stock.product'),
              ...wrap(260),
              render: (_, line) => (
                <>
                  <ProductNames
                    kh={line.product.name_kh}
                    en={line.product.name_en}
                    sku={line.product.sku}
                    locale={locale}
                  />
                  <LineBatch lot={line.lot || null} date={line.expiry_date} />
                </>
              ),
            },
            {
              key: 'quantity',
              title: t('stock.quantity'),
              align: 'end',
              render: (_, line) => `${formatCount(line.quantity ?? 0)} ${unitOf(line)}`,
            },
            {
              key: 'price',
              title: t('purchases.unitPrice'),
              align: 'end',
              render: (_, line) => (typeof line.unit_price_cents === 'number' ? formatUsd(line.unit_price_cents) : '—'),
            },
            {
              key: 'total',
              title: t('purchases.lineTotal'),
              align: 'end',
              render: (_, _line, index) => (
                <span data-testid={`review-${index}-total`}>{formatUsd(totals.lines[index].line_total_cents)}</span>
              ),
            },
            {
              key: 'shipping',
              title: t('purchases.shippingShare'),
              align: 'end',
              render: (_, _line, index) => (
                <span data-testid={`review-${index}-shipping`}>
                  {formatUsd(totals.lines[index].shipping_share_cents)}
                </span>
              ),
            },
            {
              key: 'landed',
              title: t('purchases.landedCost'),
              align: 'end',
              render: (_, _line, index) => (
                <Typography.Text strong>
                  {formatUsd(totals.lines[index].line_total_cents + totals.lines[index].shipping_share_cents)}
                </Typography.Text>
              ),
            },
          ]}
        />
        <MoneySummary
          rows={[
            { key: 'subtotal', label: t('purchases.subtotal'), cents: totals.subtotal_cents },
            { key: 'shipping', label: t('purchases.shipping'), cents: totals.shipping_cents },
            { key: 'tax', label: t('purchases.tax'), cents: totals.tax_cents },
            { key: 'grand', label: t('purchases.grandTotal'), cents: totals.grand_total_cents, strong: true },
          ]}
        />
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('purchases.shippingHelp')}
        </Typography.Paragraph>
        <ReviewButtons
          label={t('purchases.confirm')}
          ready={Boolean(parsed.data)}
          pending={save.isPending}
          onConfirm={() => void confirm()}
          onEdit={() => void edit()}
        />
      </Flex>
    </Card>
  );
}

/** `/purchases/review`: the draft from the form (or, after a reload, from sessionStorage), read-only. */
export function PurchaseReviewPage() {
  const { t } = useCtx();
  return (
    <DraftReviewPage
      store={purchaseDrafts}
      Review={Review}
      nothing={{ title: t('purchases.nothingToReview'), create: t('purchases.create'), path: '/purchases/create' }}
    />
  );
}
