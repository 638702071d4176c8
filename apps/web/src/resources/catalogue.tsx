import {
  type Brand,
  brand,
  brandInput,
  type Category,
  category,
  categoryInput,
  subCategory,
  subCategoryInput,
  UNIT_DECIMALS_MAX,
  type Unit,
  unit,
  unitInput,
} from '@depot/contracts';
import { Input, InputNumber, Tag } from 'antd';
import { type PickProps, RemoteSelect } from '../kit/RemoteSelect.tsx';
import { type Ctx, defineResource, localName } from '../kit/resource.ts';
import {
  nameColumns,
  nameFields,
  selectFilter,
  statusColumn,
  statusField,
  statusFilter,
  textAreaField,
  textField,
} from '../kit/resourceParts.tsx';

const byLocalName = (locale: string) => (locale === 'kh' ? 'name_kh' : 'name_en');

export const brands = defineResource({
  screen: '/brands',
  api: 'brands',
  resource: 'brands',
  row: brand,
  input: brandInput,
  texts: (t) => ({ title: t('menu.brands'), create: t('brands.create'), edit: t('brands.edit') }),
  label: (row) => row.name,
  columns: (ctx) => [
    { key: 'name', title: ctx.t('fields.name'), sort: 'name', render: (row) => row.name },
    { key: 'description', title: ctx.t('fields.description'), render: (row) => row.description ?? '—' },
    statusColumn(ctx),
  ],
  filters: (ctx) => [statusFilter(ctx)],
  fields: (ctx) => [
    { name: 'name', label: ctx.t('fields.name'), control: <Input maxLength={50} /> },
    textAreaField('description', ctx.t('fields.description')),
    statusField(ctx),
  ],
  defaults: { status: 'active' },
});

export const categories = defineResource({
  screen: '/categories',
  api: 'categories',
  resource: 'categories',
  row: category,
  input: categoryInput,
  texts: (t) => ({ title: t('menu.categories'), create: t('categories.create'), edit: t('categories.edit') }),
  label: localName,
  defaultSort: byLocalName,
  columns: (ctx) => [
    ...nameColumns(ctx),
    {
      key: 'sub_categories_count',
      title: ctx.t('fields.sub_categories_count'),
      render: (row) => row.sub_categories_count,
    },
    statusColumn(ctx),
  ],
  filters: (ctx) => [statusFilter(ctx)],
  fields: (ctx) => [...nameFields(ctx), textAreaField('description', ctx.t('fields.description')), statusField(ctx)],
  defaults: { status: 'active' },
});

export function BrandSelect(props: PickProps) {
  return <RemoteSelect<Brand> {...props} api="brands" row={brand} optionLabel={(row) => row.name} />;
}

export function CategorySelect(props: PickProps) {
  return <RemoteSelect<Category> {...props} api="categories" row={category} optionLabel={localName} />;
}

export const subCategories = defineResource({
  screen: '/subCategories',
  api: 'sub-categories',
  resource: 'sub_categories',
  row: subCategory,
  input: subCategoryInput,
  texts: (t) => ({
    title: t('menu.sub_categories'),
    create: t('subCategories.create'),
    edit: t('subCategories.edit'),
  }),
  label: localName,
  defaultSort: byLocalName,
  columns: (ctx) => [
    ...nameColumns(ctx),
    {
      key: 'category',
      title: ctx.t('fields.category'),
      sort: 'category',
      render: (row) => localName({ name_kh: row.category_name_kh, name_en: row.category_name_en }, ctx.locale),
    },
    statusColumn(ctx),
  ],
  filters: (ctx) => [statusFilter(ctx), selectFilter('category_id', ctx.t('fields.category'), CategorySelect)],
  fields: (ctx) => [
    { name: 'category_id', label: ctx.t('fields.category'), control: <CategorySelect /> },
    ...nameFields(ctx),
    statusField(ctx),
  ],
  defaults: { status: 'active' },
});

/** "Carton (ctn)": what a unit is called wherever one is picked. */
export const unitLabel = (row: Unit, locale: Ctx['locale']) => `${localName(row, locale)} (${row.short_name})`;

/** Only base units may carry other units (one level: a carton is 24 pieces, never 2 packs of 12). */
export function BaseUnitSelect(props: PickProps) {
  return (
    <RemoteSelect<Unit>
      {...props}
      api="units"
      row={unit}
      optionLabel={unitLabel}
      params={{ 'filter[is_base]': 'true' }}
      allowClear
    />
  );
}

export const units = defineResource({
  screen: '/units',
  api: 'units',
  resource: 'units',
  row: unit,
  input: unitInput,
  texts: (t) => ({ title: t('menu.units'), create: t('units.create'), edit: t('units.edit') }),
  label: localName,
  defaultSort: byLocalName,
  columns: (ctx) => [
    ...nameColumns(ctx),
    { key: 'short_name', title: ctx.t('fields.short_name'), render: (row) => row.short_name },
    {
      key: 'factor',
      title: ctx.t('fields.factor'),
      sort: 'factor',
      render: (row) =>
        row.base_unit_id === null ? (
          <Tag color="blue">{ctx.t('units.base')}</Tag>
        ) : (
          `${row.factor} × ${localName({ name_kh: row.base_unit_name_kh, name_en: row.base_unit_name_en }, ctx.locale)}`
        ),
    },
    statusColumn(ctx),
  ],
  filters: (ctx) => [statusFilter(ctx), selectFilter('base_unit_id', ctx.t('fields.base_unit'), BaseUnitSelect)],
  fields: (ctx) => [
    ...nameFields(ctx),
    textField('short_name', ctx.t('fields.short_name'), 10),
    {
      name: 'base_unit_id',
      label: ctx.t('fields.base_unit'),
      control: <BaseUnitSelect placeholder={ctx.t('units.noBase')} />,
    },
    {
      name: 'factor',
      label: ctx.t('fields.factor'),
      help: ctx.t('units.factorHelp'),
      control: <InputNumber min={1} precision={0} style={{ width: 160 }} />,
    },
    {
      name: 'decimals',
      label: ctx.t('fields.decimals'),
      help: ctx.t('units.decimalsHelp'),
      control: <InputNumber min={0} max={UNIT_DECIMALS_MAX} precision={0} style={{ width: 160 }} />,
    },
    statusField(ctx),
  ],
  defaults: { status: 'active', factor: 1, base_unit_id: null, decimals: 0 },
});
