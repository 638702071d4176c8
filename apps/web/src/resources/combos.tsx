import { type Combo, combo, comboInput, formatUsd } from '@depot/contracts';
import { Typography } from 'antd';
import { ProductNames } from '../components/products.tsx';
import { defineResource, localName } from '../kit/resource.ts';
import { costText, statusColumn, statusFilter } from '../kit/resourceParts.tsx';
import { formatCount, percentText } from '../lib/format.ts';

/** "25%", "−3.5%": a margin in basis points. */
export function marginText(bp: number | undefined): string {
  if (bp === undefined) return '—';
  return bp < 0 ? `−${percentText(-bp)}` : percentText(bp);
}

/** Profit and margin, red when the combo sells at a loss (a dash for users who may not see costs). */
export function Profit({ cents }: { cents: number | undefined }) {
  if (cents === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  return <Typography.Text type={cents < 0 ? 'danger' : 'success'}>{formatUsd(cents)}</Typography.Text>;
}

/**
 * `/combos`: the kit's list (money computed by the server). The form and the review before saving
 * are pages of their own: a combo has items, which the kit's form does not write.
 */
export const combos = defineResource<Combo>({
  screen: '/combos',
  api: 'combos',
  resource: 'combos',
  row: combo,
  input: comboInput,
  texts: (t) => ({ title: t('menu.combos'), create: t('combos.create'), edit: t('combos.edit') }),
  label: localName,
  defaultSort: (locale) => (locale === 'kh' ? 'name_kh' : 'name_en'),
  searchHint: (t) => t('combos.searchHint'),
  columns: (ctx) => {
    const { t, locale } = ctx;
    return [
      {
        key: 'name',
        title: t('fields.name'),
        sort: locale === 'kh' ? 'name_kh' : 'name_en',
        render: (row) => <ProductNames kh={row.name_kh} en={row.name_en} sku={row.sku} locale={locale} />,
      },
      {
        key: 'selling_price',
        title: t('combos.sellingPrice'),
        sort: 'selling_price',
        render: (row) => <Typography.Text strong>{formatUsd(row.selling_price_cents)}</Typography.Text>,
      },
      { key: 'price', title: t('combos.price'), sort: 'price', render: (row) => formatUsd(row.price_cents) },
      {
        key: 'total_cost',
        title: t('combos.totalCost'),
        sort: 'total_cost',
        render: (row) => costText(row.total_cost_cents),
      },
      {
        key: 'profit',
        title: t('combos.profit'),
        sort: 'profit',
        render: (row) => <Profit cents={row.profit_cents} />,
      },
      {
        key: 'margin',
        title: t('combos.margin'),
        sort: 'margin',
        render: (row) => (
          <Typography.Text type={(row.margin_bp ?? 0) < 0 ? 'danger' : undefined}>
            {marginText(row.margin_bp)}
          </Typography.Text>
        ),
      },
      {
        key: 'total_quantity',
        title: t('combos.totalQuantity'),
        sort: 'total_quantity',
        render: (row) => formatCount(row.total_quantity),
      },
      { key: 'created_by', title: t('transfers.createdBy'), render: (row) => row.created_by_name ?? '—' },
      statusColumn(ctx),
    ];
  },
  filters: (ctx) => [statusFilter(ctx)],
  fields: () => [],
});
