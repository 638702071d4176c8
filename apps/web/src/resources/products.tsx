import { PictureOutlined } from '@ant-design/icons';
import {
  formatKhr,
  formatUsd,
  PRODUCT_IMAGE_MAX_MB,
  type Product,
  product,
  productInput,
  type SubCategory,
  subCategory,
  todayInCambodia,
  written,
} from '@depot/contracts';
import { Flex, Form, Image, Input, InputNumber, Switch, Tag, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { CountInput, DateInput, ImageInput, RielInput, UsdInput } from '../kit/inputs.tsx';
import { type PickProps, RemoteSelect } from '../kit/RemoteSelect.tsx';
import { type Column, type Ctx, defineResource, type Field, khmerFirst, localName } from '../kit/resource.ts';
import { selectFilter, statusColumn, statusField, statusFilter } from '../kit/resourceParts.tsx';
import { formatDate } from '../lib/dates.ts';
import { api, upload } from '../lib/http.ts';
import { PriceChangeTagsButton, SelectedLabelsButton } from '../pages/labels/LabelButtons.tsx';
import { BaseUnitSelect, BrandSelect, CategorySelect } from './catalogue.tsx';
import { OpeningStockInput, showOpeningStock } from './OpeningStock.tsx';
import { ProductTransfer } from './ProductTransfer.tsx';

/**
 * Products: names in both languages, SKU and barcode (what a scanner reads), prices in dollars with
 * the riel price that follows the exchange rate unless overridden, a picture, an expiry date.
 */

/** Sub-categories of the category chosen in the same form; a change of category clears it. */
function SubCategorySelect(props: PickProps) {
  const form = Form.useFormInstance();
  const categoryId = Form.useWatch('category_id', form) as number | null | undefined;
  const previous = useRef(categoryId);
  const { onChange } = props;
  useEffect(() => {
    if (previous.current !== undefined && previous.current !== categoryId) onChange?.(null);
    previous.current = categoryId;
  }, [categoryId, onChange]);
  return (
    <RemoteSelect<SubCategory>
      {...props}
      api="sub-categories"
      row={subCategory}
      optionLabel={localName}
      params={categoryId ? { 'filter[category_id]': String(categoryId) } : undefined}
      disabled={!categoryId || props.disabled}
      allowClear
    />
  );
}

function Thumbnail({ row }: { row: Product }) {
  if (!row.thumbnail_url) {
    return (
      <div className="product-thumb product-thumb-empty">
        <PictureOutlined />
      </div>
    );
  }
  return (
    <Image
      className="product-thumb"
      src={row.thumbnail_url}
      width={44}
      height={44}
      preview={row.image_url ? { src: row.image_url } : false}
      alt=""
    />
  );
}

/** Expired (before today in Cambodia), soon (within 30 days) or just the date. */
function ExpiryTag({ date, ctx }: { date: string | null; ctx: Ctx }) {
  if (!date) return <Typography.Text type="secondary">—</Typography.Text>;
  const today = todayInCambodia();
  const soon = todayInCambodia(new Date(Date.now() + 30 * 86_400_000));
  const shown = formatDate(date, ctx.locale);
  // "Expired 2026-01-31" may take two lines: the list has no room for it on one.
  if (date < today) {
    return (
      <Tag color="red" style={{ whiteSpace: 'normal', marginInlineEnd: 0 }}>
        {ctx.t('products.expiredOn', { date: shown })}
      </Tag>
    );
  }
  if (date <= soon) return <Tag color="orange">{shown}</Tag>;
  return <span>{shown}</span>;
}

function productColumns(ctx: Ctx): Column<Product>[] {
  const { t, locale } = ctx;
  return [
    { key: 'image', title: t('fields.image'), unseen: true, width: 60, render: (row) => <Thumbnail row={row} /> },
    {
      key: 'name',
      title: t('fields.name'),
      sort: locale === 'kh' ? 'name_kh' : 'name_en',
      width: 170,
      wrap: true,
      render: (row) => {
        const [first, second] = khmerFirst(locale, row.name_kh, row.name_en);
        return (
          <Flex vertical>
            <Typography.Text strong>{first}</Typography.Text>
            <Typography.Text type="secondary">{second}</Typography.Text>
          </Flex>
        );
      },
    },
    {
      key: 'sku',
      title: t('fields.sku_barcode'),
      sort: 'sku',
      render: (row) => (
        <Flex vertical>
          <Typography.Text code>{row.sku}</Typography.Text>
          {row.barcode && <Typography.Text type="secondary">{row.barcode}</Typography.Text>}
        </Flex>
      ),
    },
    {
      key: 'price',
      title: t('fields.price'),
      sort: 'price',
      // "$1.26 / can" on one line, the riel under it: two lines, never the unit on a third.
      width: 130,
      render: (row) => (
        <Flex vertical align="end" data-testid={`price-${row.id}`}>
          <span>
            <Typography.Text strong>{formatUsd(row.price_usd_cents)}</Typography.Text>
            <Typography.Text type="secondary">
              {' / '}
              {localName({ name_kh: row.unit_name_kh, name_en: row.unit_name_en }, locale)}
            </Typography.Text>
          </span>
          {/* the till's figure for one (money.ts); the product's own label price, if any, beside it */}
          <Typography.Text
            type="secondary"
            title={
              row.price_khr === null
                ? t('products.khrFollows')
                : t('products.khrOwn', { khr: formatKhr(row.price_khr) })
            }
          >
            {formatKhr(row.price_khr_effective)}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'category',
      title: t('fields.category'),
      width: 100,
      wrap: true,
      render: (row) => (
        <Flex vertical>
          <span>{localName({ name_kh: row.category_name_kh, name_en: row.category_name_en }, locale)}</span>
          {row.sub_category_id && (
            <Typography.Text type="secondary">
              {localName({ name_kh: row.sub_category_name_kh, name_en: row.sub_category_name_en }, locale)}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      key: 'expiry_date',
      title: t('fields.expiry_date'),
      sort: 'expiry_date',
      width: 100,
      wrap: true,
      render: (row) => <ExpiryTag date={row.expiry_date} ctx={ctx} />,
    },
    statusColumn(ctx),
  ];
}

function productFields(ctx: Ctx): Field[] {
  const { t } = ctx;
  const [nameFirst, nameSecond] = khmerFirst<Field>(
    ctx.locale,
    { name: 'name_kh', label: t('fields.name_kh'), control: <Input lang="km" maxLength={50} />, half: true },
    { name: 'name_en', label: t('fields.name_en'), control: <Input lang="en" maxLength={50} />, half: true },
  );
  return [
    {
      name: 'image',
      from: 'image_url',
      label: t('fields.image'),
      control: <ImageInput maxMb={PRODUCT_IMAGE_MAX_MB} />,
    },
    nameFirst,
    nameSecond,
    { name: 'short_name', label: t('fields.short_name'), control: <Input maxLength={30} />, half: true },
    {
      name: 'sku',
      label: t('fields.sku'),
      help: t('products.skuHelp'),
      control: <Input maxLength={40} autoComplete="off" />,
      half: true,
    },
    {
      name: 'barcode',
      label: t('fields.barcode'),
      help: t('products.barcodeHelp'),
      // A scanner types the code and presses Enter: the form must not be sent by it.
      control: <Input maxLength={50} autoComplete="off" onPressEnter={(event) => event.preventDefault()} />,
      half: true,
    },
    { name: 'brand_id', label: t('fields.brand'), control: <BrandSelect allowClear />, half: true },
    { name: 'category_id', label: t('fields.category'), control: <CategorySelect />, half: true },
    { name: 'sub_category_id', label: t('fields.sub_category'), control: <SubCategorySelect />, half: true },
    {
      name: 'unit_id',
      label: t('fields.unit'),
      help: t('products.unitHelp'),
      control: <BaseUnitSelect />,
      half: true,
    },
    {
      name: 'reorder_level',
      label: t('fields.reorder_level'),
      help: t('products.reorderHelp'),
      control: <CountInput />,
      half: true,
    },
    { name: 'price_usd_cents', label: t('fields.price_usd'), control: <UsdInput />, half: true },
    {
      name: 'price_khr',
      label: t('fields.price_khr'),
      help: t('products.khrHelp'),
      control: <RielInput placeholder={t('products.khrPlaceholder')} />,
      half: true,
    },
    { name: 'cost_usd_cents', label: t('fields.cost'), control: <UsdInput />, half: true },
    { name: 'expiry_date', label: t('fields.expiry_date'), control: <DateInput />, half: true },
    {
      name: 'taxable',
      label: t('fields.taxable'),
      valuePropName: 'checked',
      control: <Switch checkedChildren={t('products.taxable')} unCheckedChildren={t('products.notTaxable')} />,
      half: true,
    },
    { ...statusField(ctx), half: true },
    {
      name: 'serial_tracked',
      label: t('fields.serial_tracked'),
      help: t('products.serialHelp'),
      valuePropName: 'checked',
      control: <Switch checkedChildren={t('products.serialTracked')} unCheckedChildren={t('products.noSerial')} />,
      half: true,
    },
    {
      name: 'warranty_months',
      label: t('fields.warranty_months'),
      control: <InputNumber min={0} max={120} precision={0} style={{ width: '100%' }} />,
      half: true,
    },
    {
      name: 'opening_stock',
      label: t('products.openingStock'),
      help: t('products.openingHelp'),
      control: <OpeningStockInput />,
      when: showOpeningStock,
    },
  ];
}

const productWritten = written(product);

/** The picture is its own request: a new file is uploaded, a removed one deleted. */
async function savePicture(saved: Product, values: Record<string, unknown>): Promise<void> {
  const image = values.image;
  if (image instanceof File) {
    const form = new FormData();
    form.append('image', image);
    await upload(`products/${saved.id}/image`, form, { schema: productWritten });
  } else if (image === null && saved.image_url) {
    await api(`products/${saved.id}/image`, { method: 'DELETE', schema: productWritten });
  }
}

export const products = defineResource<Product>({
  api: 'products',
  resource: 'products',
  row: product,
  input: productInput,
  label: (row: Product, locale: Ctx['locale']) => localName(row, locale),
  columns: productColumns,
  fields: productFields,
  defaults: {
    status: 'active',
    taxable: true,
    serial_tracked: false,
    warranty_months: 0,
    reorder_level: 0,
    cost_usd_cents: 0,
    brand_id: null,
    sub_category_id: null,
    opening_stock: [],
  },
  afterSave: savePicture,
  screen: '/products',
  texts: (t) => ({ title: t('menu.products'), create: t('products.create'), edit: t('products.edit') }),
  defaultSort: (locale) => (locale === 'kh' ? 'name_kh' : 'name_en'),
  filters: (ctx) => [
    statusFilter(ctx),
    selectFilter('category_id', ctx.t('fields.category'), CategorySelect),
    selectFilter('brand_id', ctx.t('fields.brand'), BrandSelect),
  ],
  toolbar: (_ctx, query) => (
    <>
      <PriceChangeTagsButton />
      <ProductTransfer query={query} />
    </>
  ),
  selection: (_ctx, rows) => <SelectedLabelsButton products={rows} />,
});
