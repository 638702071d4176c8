import { DeleteOutlined, ScanOutlined } from '@ant-design/icons';
import { type Locale, type Product, paginated, product, unit } from '@depot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  AutoComplete,
  Button,
  Flex,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Select,
  type TableColumnsType,
  type TableColumnType,
  Typography,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { z } from 'zod';
import { listKey, useList, usePage, useRecord } from '../kit/queries.ts';
import { type Ctx, localName } from '../kit/resource.ts';
import { unseenTitle, wrap } from '../kit/table.ts';
import { useCtx } from '../kit/useCtx.ts';
import { useDebounced } from '../kit/useDebounced.ts';
import { api } from '../lib/http.ts';
import { ProductNames } from './products.tsx';

/**
 * The lines of a transfer, a purchase or a combo: a product found by name, SKU or barcode (a scanner
 * types the code and presses Enter), one of that product's units, a quantity. Their columns and
 * their edits are written here once; each form adds its own (a purchase's price, lot and expiry).
 */

/** What a line keeps of its product, enough to show it and to pick its units. */
export interface LineProduct {
  id: number;
  name_en: string | null;
  name_kh: string;
  sku: string;
  /** The product's own (base) unit; null when the line came from a saved document, which does not say. */
  base_unit_id: number | null;
  /** A base unit's cost in cents, to start a purchase line's price from; null when unknown. */
  cost_cents: number | null;
}

/** A unit of a line: the product's base unit (factor 1) or one made of it (a carton of 24). */
export interface LineUnit {
  id: number;
  name_en: string;
  name_kh: string;
  factor: number;
}

export function lineProduct(row: Product): LineProduct {
  return {
    id: row.id,
    name_en: row.name_en,
    name_kh: row.name_kh,
    sku: row.sku,
    base_unit_id: row.unit_id,
    cost_cents: row.cost_usd_cents ?? null,
  };
}

export function baseUnitOf(row: Product): LineUnit {
  return { id: row.unit_id, name_en: row.unit_name_en, name_kh: row.unit_name_kh, factor: 1 };
}

export function unitName(line: LineUnit, locale: Locale): string {
  return localName(line, locale);
}

/** A new line's key, for React and for nothing else. */
let lineCount = 0;
export function lineKey(): string {
  lineCount += 1;
  return `line-${Date.now().toString(36)}-${lineCount}`;
}

/** A line of a document being written (a transfer, a purchase, a combo): a product, a unit, how many. */
export interface DocumentLine {
  key: string;
  product: LineProduct;
  unit: LineUnit | null;
  quantity: number | null;
}

/** A line as a draft keeps it (kit/draft.ts): read back from sessionStorage, so checked. */
export const storedLine = z.object({
  key: z.string(),
  product: z.object({
    id: z.number(),
    name_en: z.string().nullable(),
    name_kh: z.string(),
    sku: z.string(),
    base_unit_id: z.number().nullable(),
    cost_cents: z.number().nullable(),
  }),
  unit: z.object({ id: z.number(), name_en: z.string(), name_kh: z.string(), factor: z.number() }).nullable(),
  quantity: z.number().nullable(),
});

/** A saved document's item as its form edits it: the unit it was saved in, whose base is not said. */
export function savedLine(item: {
  product_id: number;
  product_name_en: string | null;
  product_name_kh: string;
  sku: string;
  unit_id: number;
  unit_name_en: string;
  unit_name_kh: string;
  factor: number;
  quantity: number;
}): DocumentLine {
  return {
    key: lineKey(),
    product: {
      id: item.product_id,
      name_en: item.product_name_en,
      name_kh: item.product_name_kh,
      sku: item.sku,
      base_unit_id: item.factor === 1 ? item.unit_id : null,
      cost_cents: null,
    },
    unit: { id: item.unit_id, name_en: item.unit_name_en, name_kh: item.unit_name_kh, factor: item.factor },
    quantity: item.quantity,
  };
}

/**
 * A server's (or the schema's) key for a line's field as the form names it: the lines are the form's
 * `list` field, a line's product and unit are the objects it shows (`items.0.unit_id` → `lines.0.unit`).
 */
export function lineName(key: string, list: string): string {
  const parts = key.split('.');
  if (parts[0] !== 'items') return key;
  parts[0] = list;
  if (parts[2] === 'product_id') parts[2] = 'product';
  if (parts[2] === 'unit_id') parts[2] = 'unit';
  return parts.join('.');
}

/** Errors keyed as the server keys them, keyed as the form names its fields (`lineName`). */
export function lineErrors(errors: Record<string, string[]>, list: string): Record<string, string[]> {
  return Object.fromEntries(Object.entries(errors).map(([key, messages]) => [lineName(key, list), messages]));
}

/**
 * Changes to a document's lines, the antd form's `list` field (an array of lines): a product found
 * again adds one to its line (`same` says which; the `latest` such line when a product may be on
 * several, as a purchase's lots), else a new line (`make`). A line's own fields are Form.Items
 * (`lineColumns`); `edited` runs after a change made here.
 */
export function lineEdits<L extends DocumentLine>({
  form,
  list,
  make,
  same = (line, row) => line.product.id === row.id,
  latest = false,
  edited,
}: {
  form: FormInstance;
  list: string;
  make: (row: Product) => L;
  same?: (line: L, row: Product) => boolean;
  latest?: boolean;
  edited?: () => void;
}) {
  const lines = (): L[] => form.getFieldValue(list) ?? [];
  return {
    add(row: Product) {
      const current = lines();
      const found = latest
        ? current.findLastIndex((line) => same(line, row))
        : current.findIndex((line) => same(line, row));
      form.setFieldValue(
        list,
        found < 0
          ? [...current, make(row)]
          : current.map((line, i) => (i === found ? { ...line, quantity: (line.quantity ?? 0) + 1 } : line)),
      );
      form.setFields([{ name: [list], errors: [] }]);
      edited?.();
    },
    remove(key: string) {
      form.setFieldValue(
        list,
        lines().filter((line) => line.key !== key),
      );
      // The lines after it move up: their messages would sit on the wrong line.
      const stale = form.getFieldsError().filter((field) => field.name[0] === list && field.name.length > 1);
      form.setFields(stale.map((field) => ({ name: field.name, errors: [] })));
      edited?.();
    },
  };
}

/** A line's product, as its Form.Item holds it. */
function LineProductNames({ value, locale }: { value?: LineProduct; locale: Locale }) {
  return value ? <ProductNames kh={value.name_kh} en={value.name_en} sku={value.sku} locale={locale} /> : null;
}

/**
 * The columns every document's lines share: the line's number, its product (names wrapping within
 * `productWidth`, and what `below` adds under them), its unit and quantity at the start; Remove, pinned
 * right, at the end. Each is a Form.Item of the form's `list` field (`lines.0.unit`), its message under it.
 */
export function lineColumns<L extends DocumentLine>(
  { t, locale }: Ctx,
  {
    list,
    remove,
    onUnit,
    quantityTestId = (index) => `line-${index}-quantity`,
    productWidth = 240,
    below,
  }: {
    list: string;
    remove: (key: string) => void;
    /** After the user chose a line's unit (`line` as it was before). */
    onUnit?: (index: number, unit: LineUnit, line: L) => void;
    quantityTestId?: (index: number) => string;
    productWidth?: number;
    below?: (line: L, index: number) => ReactNode;
  },
): { start: TableColumnsType<L>; end: TableColumnType<L> } {
  const start: TableColumnsType<L> = [
    { key: 'n', title: '#', width: 40, render: (_, _line, index) => index + 1 },
    {
      key: 'product',
      title: t('stock.product'),
      ...wrap(productWidth),
      render: (_, line, index) => (
        <>
          <Form.Item style={{ margin: 0 }} name={[list, index, 'product']}>
            <LineProductNames locale={locale} />
          </Form.Item>
          {below?.(line, index)}
        </>
      ),
    },
    {
      key: 'unit',
      title: t('fields.unit'),
      width: 140,
      render: (_, line, index) => (
        <Form.Item style={{ margin: 0 }} name={[list, index, 'unit']}>
          <UnitSelect
            item={line.product}
            value={line.unit}
            label={t('lines.unitOf', { line: index + 1 })}
            onChange={(next) => onUnit?.(index, next, line)}
          />
        </Form.Item>
      ),
    },
    {
      key: 'quantity',
      title: t('stock.quantity'),
      width: 96,
      render: (_, _line, index) => (
        <Form.Item style={{ margin: 0 }} name={[list, index, 'quantity']}>
          <InputNumber<number>
            aria-label={t('lines.quantityOf', { line: index + 1 })}
            data-testid={quantityTestId(index)}
            min={1}
            precision={0}
            style={{ width: '100%' }}
          />
        </Form.Item>
      ),
    },
  ];
  const end: TableColumnType<L> = {
    key: 'remove',
    title: unseenTitle(t('kit.actions')),
    width: 48,
    fixed: 'right',
    render: (_, line, index) => (
      <Button
        type="text"
        danger
        icon={<DeleteOutlined />}
        aria-label={t('lines.remove', { line: index + 1 })}
        onClick={() => remove(line.key)}
      />
    ),
  };
  return { start, end };
}

/**
 * A product's units: its base unit and those made of it (`GET units?filter[base_unit_id]=`). A line
 * from a saved document knows only its unit; the unit's record tells its base.
 */
export function useProductUnits(item: LineProduct, current: LineUnit | null): { units: LineUnit[]; loading: boolean } {
  const own = useRecord({ api: 'units', row: unit }, item.base_unit_id ? null : current?.id);
  const base = item.base_unit_id ?? (own.data ? (own.data.base_unit_id ?? own.data.id) : null);
  const derived = useList(
    { api: 'units', row: unit },
    new URLSearchParams({ per_page: '100', 'filter[base_unit_id]': String(base ?? 0) }).toString(),
    Boolean(base),
  );
  const baseRecord = useRecord({ api: 'units', row: unit }, base && !own.data && current?.id !== base ? base : null);
  const units: LineUnit[] = [];
  if (base) {
    const named =
      own.data && own.data.id === base
        ? own.data
        : own.data?.base_unit_name_kh
          ? { name_en: own.data.base_unit_name_en ?? '', name_kh: own.data.base_unit_name_kh }
          : (baseRecord.data ?? (current?.id === base ? current : null));
    if (named) units.push({ id: base, name_en: named.name_en, name_kh: named.name_kh, factor: 1 });
  }
  for (const row of derived.data?.data ?? []) {
    if (!row.deleted_at && row.id !== base) {
      units.push({ id: row.id, name_en: row.name_en, name_kh: row.name_kh, factor: row.factor });
    }
  }
  if (current && !units.some((u) => u.id === current.id)) units.unshift(current);
  return { units, loading: own.isFetching || derived.isFetching };
}

/** The unit of a line, among its product's units; "Carton (24)" tells how many base units it holds. */
export function UnitSelect({
  item,
  value,
  onChange,
  id,
  label,
}: {
  item: LineProduct;
  value: LineUnit | null;
  onChange: (unit: LineUnit) => void;
  id?: string;
  label: string;
}) {
  const { locale } = useCtx();
  const { units, loading } = useProductUnits(item, value);
  return (
    <Select<number>
      id={id}
      aria-label={label}
      value={value?.id}
      loading={loading}
      onChange={(next) => {
        const chosen = units.find((u) => u.id === next);
        if (chosen) onChange(chosen);
      }}
      options={units.map((u) => ({
        value: u.id,
        label: u.factor > 1 ? `${unitName(u, locale)} (${u.factor})` : unitName(u, locale),
      }))}
      virtual={false}
      popupMatchSelectWidth={false}
      style={{ width: '100%', minWidth: 120 }}
    />
  );
}

function productQuery(search: string): string {
  return new URLSearchParams({ per_page: '20', 'filter[status]': 'active', search }).toString();
}

/**
 * Finds a product to add: typing lists matches by name, SKU or barcode; Enter (what a scanner
 * sends after the code) adds the product whose SKU or barcode is exactly the code, or the only match.
 */
export function ProductFinder({ onPick, disabled }: { onPick: (row: Product) => void; disabled?: boolean }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const search = useDebounced(text.trim(), 250);
  const list = usePage('products', product, productQuery(search), search.length > 0);
  const rows = search ? (list.data?.data ?? []) : [];

  const pick = (row: Product) => {
    setText('');
    onPick(row);
  };

  const lookup = async (code: string) => {
    if (!code) return;
    setBusy(true);
    try {
      const answer = await client.fetchQuery({
        queryKey: listKey('products', productQuery(code)),
        queryFn: ({ signal }) => api(`products?${productQuery(code)}`, { signal, schema: paginated(product) }),
      });
      const lower = code.toLowerCase();
      const exact = answer.data.find((row) => row.barcode === code || row.sku.toLowerCase() === lower);
      const chosen = exact ?? (answer.data.length === 1 ? answer.data[0] : null);
      if (chosen) pick(chosen);
      else if (answer.data.length === 0) void message.warning(t('lines.noProduct', { code }));
      else void message.info(t('lines.chooseOne'));
    } catch {
      void message.error(t('errors.loadData'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AutoComplete
      value={text}
      onChange={(next: string) => setText(next ?? '')}
      defaultActiveFirstOption={false}
      disabled={disabled}
      style={{ width: '100%', maxWidth: 520 }}
      popupMatchSelectWidth={520}
      options={rows.map((row) => ({
        value: String(row.id),
        label: (
          <Flex justify="space-between" gap={12}>
            <span>{localName(row, locale)}</span>
            <Typography.Text type="secondary">{row.barcode ? `${row.sku} · ${row.barcode}` : row.sku}</Typography.Text>
          </Flex>
        ),
      }))}
      onSelect={(value: string) => {
        const row = rows.find((r) => String(r.id) === value);
        if (row) pick(row);
      }}
    >
      <Input
        data-testid="product-finder"
        prefix={<ScanOutlined />}
        aria-label={t('lines.find')}
        placeholder={t('lines.find')}
        autoComplete="off"
        suffix={busy ? <Typography.Text type="secondary">…</Typography.Text> : undefined}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          // Never the form's submit: a scanner ends every code with Enter.
          event.preventDefault();
          // An option chosen with the arrow keys: the dropdown's own Enter adds it.
          const active = event.currentTarget.getAttribute('aria-activedescendant');
          if (active && !active.endsWith('_-1')) return;
          void lookup(text.trim());
        }}
      />
    </AutoComplete>
  );
}
