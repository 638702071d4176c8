import {
  type CustomerGroup,
  customerGroup,
  customerGroupInput,
  formatKhr,
  formatUsd,
  type Locale,
  PRICE_SCOPES,
  type PriceList,
  type PriceScope,
  priceList,
  priceListInput,
  type Unit,
  unit,
} from '@depot/contracts';
import { InputNumber, Radio, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { CountInput, RielInput, UsdInput } from '../kit/inputs.tsx';
import { type PickProps, RemoteSelect } from '../kit/RemoteSelect.tsx';
import { type Ctx, defineResource, localName } from '../kit/resource.ts';
import {
  nameColumns,
  nameFields,
  selectFilter,
  statusColumn,
  statusField,
  statusFilter,
} from '../kit/resourceParts.tsx';
import { percentText } from '../lib/format.ts';
import { CategorySelect, unitLabel } from './catalogue.tsx';
import { ProductSelect } from './discounts.tsx';
import { PriceListTransfer } from './ProductTransfer.tsx';

/**
 * Wholesale prices: customer groups and the rows of their price lists (a unit's price,
 * a quantity break; a category's break as a percentage off). Which price wins is the server's
 * `choosePrice` (contracts prices.ts), documented in ARCHITECTURE.md.
 */

export const customerGroups = defineResource<CustomerGroup>({
  screen: '/customer-groups',
  api: 'customer-groups',
  resource: 'customer_groups',
  row: customerGroup,
  input: customerGroupInput,
  texts: (t) => ({ title: t('menu.customer_groups'), create: t('prices.createGroup'), edit: t('prices.editGroup') }),
  label: (row, locale) => localName(row, locale),
  defaultSort: (locale) => (locale === 'kh' ? 'name_kh' : 'name_en'),
  columns: (ctx) => [
    ...nameColumns(ctx),
    { key: 'customers_count', title: ctx.t('prices.customers'), render: (row) => row.customers_count },
    { key: 'prices_count', title: ctx.t('prices.prices'), render: (row) => row.prices_count },
    statusColumn(ctx),
  ],
  filters: (ctx) => [statusFilter(ctx)],
  fields: (ctx) => [...nameFields(ctx), statusField(ctx)],
  defaults: { status: 'active' },
});

export function CustomerGroupSelect(props: PickProps) {
  return (
    <RemoteSelect<CustomerGroup>
      {...props}
      api="customer-groups"
      row={customerGroup}
      optionLabel={localName}
      allowClear
    />
  );
}

function UnitSelect(props: PickProps) {
  return <RemoteSelect<Unit> {...props} api="units" row={unit} optionLabel={unitLabel} />;
}

/** A percentage typed as "5" or "12.5", held in basis points (500, 1250). */
function PercentInput({
  value,
  onChange,
  ...rest
}: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  id?: string;
}) {
  return (
    <InputNumber<number>
      {...rest}
      style={{ width: '100%' }}
      suffix="%"
      min={0.01}
      max={100}
      step={1}
      precision={2}
      value={value == null ? null : value / 100}
      onChange={(next) => onChange?.(next == null ? null : Math.round(next * 100))}
    />
  );
}

export function priceScopeLabels(t: TFunction): Record<PriceScope, string> {
  return { product: t('prices.scope.product'), category: t('prices.scope.category') };
}

function listName(row: PriceList, ctx: Ctx): string {
  if (row.customer_group_id === null) return ctx.t('prices.baseList');
  return localName({ name_en: row.group_name_en, name_kh: row.group_name_kh }, ctx.locale);
}

function targetOf(row: PriceList, locale: Locale): string {
  if (row.scope === 'category')
    return localName({ name_en: row.category_name_en, name_kh: row.category_name_kh }, locale);
  const unitName = localName({ name_en: row.unit_name_en, name_kh: row.unit_name_kh }, locale);
  return `${localName({ name_en: row.product_name_en, name_kh: row.product_name_kh }, locale)} · ${unitName}`;
}

export const priceLists = defineResource<PriceList>({
  screen: '/price-lists',
  api: 'price-lists',
  resource: 'price_lists',
  row: priceList,
  input: priceListInput,
  texts: (t) => ({ title: t('menu.price_lists'), create: t('prices.create'), edit: t('prices.edit') }),
  label: (row, locale) => targetOf(row, locale),
  columns: (ctx) => {
    const scopes = priceScopeLabels(ctx.t);
    return [
      {
        key: 'list',
        title: ctx.t('prices.list'),
        render: (row) => <Tag color={row.customer_group_id === null ? undefined : 'blue'}>{listName(row, ctx)}</Tag>,
      },
      {
        key: 'target',
        title: ctx.t('prices.target'),
        wrap: true,
        render: (row) => (
          <span>
            <Tag>{scopes[row.scope]}</Tag>
            {targetOf(row, ctx.locale)}
          </span>
        ),
      },
      {
        key: 'min_quantity',
        title: ctx.t('prices.minQuantity'),
        sort: 'min_quantity',
        render: (row) => (row.min_quantity > 1 ? ctx.t('prices.from', { count: row.min_quantity }) : '—'),
      },
      {
        key: 'price',
        title: ctx.t('prices.price'),
        sort: 'price_cents',
        render: (row) =>
          row.scope === 'category' ? (
            <Typography.Text strong>−{percentText(row.off_bp ?? 0)}</Typography.Text>
          ) : (
            <Typography.Text strong data-testid={`price-${row.id}`}>
              {formatUsd(row.price_cents ?? 0)}
              {row.price_khr !== null && ` · ${formatKhr(row.price_khr)}`}
            </Typography.Text>
          ),
      },
      statusColumn(ctx),
    ];
  },
  filters: (ctx) => [
    statusFilter(ctx),
    selectFilter('customer_group_id', ctx.t('fields.customer_group'), CustomerGroupSelect),
    selectFilter('product_id', ctx.t('discounts.product'), ProductSelect),
    selectFilter('category_id', ctx.t('fields.category'), CategorySelect),
  ],
  fields: (ctx) => {
    const { t } = ctx;
    const scopes = priceScopeLabels(t);
    return [
      {
        name: 'customer_group_id',
        label: t('fields.customer_group'),
        help: t('prices.groupHelp'),
        control: <CustomerGroupSelect data-testid="price-group" placeholder={t('prices.baseList')} />,
      },
      {
        name: 'scope',
        label: t('prices.scopeLabel'),
        control: (
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={PRICE_SCOPES.map((value) => ({ value, label: scopes[value] }))}
          />
        ),
      },
      {
        name: 'product_id',
        label: t('discounts.product'),
        control: <ProductSelect data-testid="price-product" placeholder={t('discounts.chooseProduct')} />,
        when: (values) => values.scope === 'product',
        half: true,
      },
      {
        name: 'unit_id',
        label: t('fields.unit'),
        help: t('prices.unitHelp'),
        control: <UnitSelect data-testid="price-unit" />,
        when: (values) => values.scope === 'product',
        half: true,
      },
      {
        name: 'category_id',
        label: t('fields.category'),
        control: <CategorySelect placeholder={t('discounts.chooseCategory')} />,
        when: (values) => values.scope === 'category',
      },
      {
        name: 'min_quantity',
        label: t('prices.minQuantity'),
        help: t('prices.minQuantityHelp'),
        control: <CountInput data-testid="price-min-quantity" />,
        half: true,
      },
      {
        name: 'price_cents',
        label: t('prices.price'),
        control: <UsdInput data-testid="price-usd" />,
        when: (values) => values.scope === 'product',
        half: true,
      },
      {
        name: 'price_khr',
        label: t('fields.price_khr'),
        help: t('prices.khrHelp'),
        control: <RielInput data-testid="price-khr" />,
        when: (values) => values.scope === 'product',
        half: true,
      },
      {
        name: 'off_bp',
        label: t('prices.percentOff'),
        control: <PercentInput />,
        when: (values) => values.scope === 'category',
        half: true,
      },
      statusField(ctx),
    ];
  },
  toolbar: (_ctx, query) => <PriceListTransfer query={query} />,
  defaults: {
    scope: 'product',
    status: 'active',
    min_quantity: 1,
    customer_group_id: null,
    product_id: null,
    unit_id: null,
    category_id: null,
    price_khr: null,
    off_bp: null,
  },
});
