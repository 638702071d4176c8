import {
  DISCOUNT_SCOPES,
  DISCOUNT_TYPES,
  type Discount,
  type DiscountScope,
  type DiscountType,
  discount,
  discountInput,
  formatUsd,
  formatUsdCents,
  type Locale,
  type Product,
  parseUsdCents,
  product,
} from '@depot/contracts';
import { Form, Input, Radio, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { DateInput } from '../kit/inputs.tsx';
import { type PickProps, RemoteSelect } from '../kit/RemoteSelect.tsx';
import { type Ctx, defineResource, localName } from '../kit/resource.ts';
import { dateFilter, selectFilter, statusColumn, statusField, statusFilter, textField } from '../kit/resourceParts.tsx';
import { formatDate } from '../lib/dates.ts';
import { percentText } from '../lib/format.ts';
import { CategorySelect } from './catalogue.tsx';

/**
 * Discounts: a percentage (held in basis points), a value off (cents) or a fixed price (cents), on
 * one product, on a category's products or on a whole order, between two dates.
 */

export function discountTypeLabels(t: TFunction): Record<DiscountType, string> {
  return {
    percentage: t('discounts.type.percentage'),
    value: t('discounts.type.value'),
    fixed: t('discounts.type.fixed'),
  };
}

export function discountScopeLabels(t: TFunction): Record<DiscountScope, string> {
  return {
    product: t('discounts.scope.product'),
    category: t('discounts.scope.category'),
    order: t('discounts.scope.order'),
  };
}

/** What a discount takes: "15%", "−$1.00", "= $5.00". */
export function discountAmountText(row: Pick<Discount, 'type' | 'amount'>): string {
  if (row.type === 'percentage') return `−${percentText(row.amount)}`;
  if (row.type === 'value') return `−${formatUsd(row.amount)}`;
  return `= ${formatUsd(row.amount)}`;
}

/** A discount as a choice in a select: "Songkran (−10%)". */
export function discountOption(row: Discount) {
  return { value: row.id, label: `${row.name} (${discountAmountText(row)})` };
}

function targetOf(row: Discount, locale: Locale): string {
  if (row.scope === 'product') return localName({ name_kh: row.product_name_kh, name_en: row.product_name_en }, locale);
  if (row.scope === 'category') {
    return localName({ name_kh: row.category_name_kh, name_en: row.category_name_en }, locale);
  }
  return '';
}

function amountText(value: number | string | undefined): string {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? formatUsdCents(value) : '';
  return value ?? '';
}

function readAmount(text: string): number | string | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : (parseUsdCents(trimmed) ?? trimmed);
}

/**
 * The amount as people say it: "15" percent or "$1.50". Both are held in hundredths (1500 basis
 * points, 150 cents), so switching the type keeps the figure typed.
 */
function AmountInput({
  value,
  onChange,
  id,
  ...rest
}: {
  value?: number | string;
  onChange?: (value: number | string | undefined) => void;
  id?: string;
  'aria-invalid'?: boolean;
}) {
  const form = Form.useFormInstance();
  const type = Form.useWatch('type', form) as DiscountType | undefined;
  const [text, setText] = useState(() => amountText(value));
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the value from outside, not each keystroke
  useEffect(() => {
    if (readAmount(text) !== value) setText(amountText(value));
  }, [value]);
  const percent = type === 'percentage';
  return (
    <Input
      {...rest}
      id={id}
      data-testid="discount-amount"
      inputMode="decimal"
      autoComplete="off"
      prefix={percent ? undefined : '$'}
      suffix={percent ? '%' : undefined}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        onChange?.(readAmount(event.target.value));
      }}
    />
  );
}

export function ProductSelect(props: PickProps & { 'data-testid'?: string }) {
  return (
    <RemoteSelect<Product>
      {...props}
      api="products"
      row={product}
      optionLabel={(row, locale) => `${localName(row, locale)} · ${row.sku}`}
    />
  );
}

export const discounts = defineResource<Discount>({
  screen: '/discounts',
  api: 'discounts',
  resource: 'discounts',
  row: discount,
  input: discountInput,
  texts: (t) => ({ title: t('menu.discounts'), create: t('discounts.create'), edit: t('discounts.edit') }),
  label: (row) => row.name,
  defaultSort: () => 'name',
  columns: (ctx: Ctx) => {
    const { t, locale } = ctx;
    const types = discountTypeLabels(t);
    const scopes = discountScopeLabels(t);
    return [
      { key: 'name', title: t('fields.name'), sort: 'name', render: (row) => row.name },
      { key: 'type', title: t('discounts.typeLabel'), sort: 'type', render: (row) => types[row.type] },
      {
        key: 'amount',
        title: t('discounts.amount'),
        sort: 'amount',
        render: (row) => <Typography.Text strong>{discountAmountText(row)}</Typography.Text>,
      },
      {
        key: 'scope',
        title: t('discounts.scopeLabel'),
        sort: 'scope',
        render: (row) => (
          <span>
            <Tag>{scopes[row.scope]}</Tag>
            {targetOf(row, locale)}
          </span>
        ),
      },
      {
        key: 'starts_on',
        title: t('discounts.startsOn'),
        sort: 'starts_on',
        render: (row) => (row.starts_on ? formatDate(row.starts_on, locale) : '—'),
      },
      {
        key: 'ends_on',
        title: t('discounts.endsOn'),
        sort: 'ends_on',
        render: (row) => (row.ends_on ? formatDate(row.ends_on, locale) : '—'),
      },
      statusColumn(ctx),
    ];
  },
  filters: (ctx) => {
    const types = discountTypeLabels(ctx.t);
    const scopes = discountScopeLabels(ctx.t);
    return [
      statusFilter(ctx),
      {
        name: 'scope',
        label: ctx.t('discounts.scopeLabel'),
        options: DISCOUNT_SCOPES.map((value) => ({ value, label: scopes[value] })),
      },
      {
        name: 'type',
        label: ctx.t('discounts.typeLabel'),
        options: DISCOUNT_TYPES.map((value) => ({ value, label: types[value] })),
      },
      selectFilter('category_id', ctx.t('fields.category'), CategorySelect),
      dateFilter('active_on', ctx.t('discounts.activeOn')),
    ];
  },
  fields: (ctx) => {
    const { t } = ctx;
    const types = discountTypeLabels(t);
    const scopes = discountScopeLabels(t);
    return [
      textField('name', t('fields.name'), 50),
      {
        name: 'type',
        label: t('discounts.typeLabel'),
        help: t('discounts.typeHelp'),
        control: (
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={DISCOUNT_TYPES.map((value) => ({ value, label: types[value] }))}
          />
        ),
        half: true,
      },
      { name: 'amount', label: t('discounts.amount'), control: <AmountInput />, half: true },
      {
        name: 'scope',
        label: t('discounts.scopeLabel'),
        control: (
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={DISCOUNT_SCOPES.map((value) => ({ value, label: scopes[value] }))}
          />
        ),
      },
      {
        name: 'product_id',
        label: t('discounts.product'),
        control: <ProductSelect data-testid="discount-product" placeholder={t('discounts.chooseProduct')} />,
        when: (values) => values.scope === 'product',
      },
      {
        name: 'category_id',
        label: t('fields.category'),
        control: <CategorySelect placeholder={t('discounts.chooseCategory')} />,
        when: (values) => values.scope === 'category',
      },
      { name: 'starts_on', label: t('discounts.startsOn'), control: <DateInput />, half: true },
      { name: 'ends_on', label: t('discounts.endsOn'), control: <DateInput />, half: true },
      statusField(ctx),
    ];
  },
  defaults: { type: 'percentage', scope: 'order', status: 'active', product_id: null, category_id: null },
});
