import { ShoppingCartOutlined } from '@ant-design/icons';
import {
  customer,
  customerInput,
  customerName,
  type Store,
  type Supplier,
  store,
  storeInput,
  supplier,
  supplierInput,
} from '@depot/contracts';
import { Button, Input, Radio, Space, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { CountInput, UsdInput } from '../kit/inputs.tsx';
import { LocationPicker } from '../kit/LocationPicker.tsx';
import { type PickProps, RemoteSelect } from '../kit/RemoteSelect.tsx';
import { type Column, type Ctx, defineResource, type Field, localName } from '../kit/resource.ts';
import {
  selectFilter,
  statusColumn,
  statusField,
  statusFilter,
  textAreaField,
  textField,
} from '../kit/resourceParts.tsx';
import { useCan, useCovers } from '../lib/access.tsx';
import { localePath } from '../lib/locale.ts';
import { CreditButton } from '../pages/credit/CreditDrawer.tsx';
import { TinLookupInput } from '../pages/einvoice/TinLookupInput.tsx';
import { CustomerGroupSelect } from './prices.tsx';
import { khqrFields, StorePrinters } from './printers.tsx';

/** Stores, customers and suppliers share a phone, an address and a place in the gazetteer. */

function phoneField(ctx: Ctx): Field {
  return { name: 'phone', label: ctx.t('fields.phone'), control: <Input type="tel" inputMode="tel" maxLength={20} /> };
}

function locationField(ctx: Ctx): Field {
  return { name: 'village_id', label: ctx.t('fields.location'), control: <LocationPicker /> };
}

function phoneColumn<R extends { phone: string | null }>(ctx: Ctx): Column<R> {
  return { key: 'phone', title: ctx.t('fields.phone'), render: (row) => row.phone ?? '—' };
}

function locationColumn<R extends { location: string | null; location_kh: string | null }>(ctx: Ctx): Column<R> {
  return {
    key: 'location',
    title: ctx.t('fields.location'),
    // "Phnom Penh, Chamkar Mon, Tonle Basak": long, so it wraps.
    width: 160,
    wrap: true,
    render: (row) => (ctx.locale === 'kh' ? row.location_kh : row.location) ?? '—',
  };
}

/** Credit fields: only who holds credit.update changes them (the server keeps them otherwise). */
function CreditLimitInput(props: {
  value?: number | string;
  onChange?: (v: number | string | undefined) => void;
  id?: string;
}) {
  return <UsdInput {...props} disabled={!useCan('credit.update')} data-testid="credit-limit-input" />;
}
function TermsInput(props: { value?: number | null; onChange?: (v: number | null | undefined) => void; id?: string }) {
  return <CountInput {...props} disabled={!useCan('credit.update')} data-testid="terms-input" />;
}

function termsField(ctx: Ctx): Field {
  return { name: 'payment_terms_days', label: ctx.t('credit.termsField'), control: <TermsInput />, half: true };
}

function customerCreditFields(ctx: Ctx): Field[] {
  return [
    {
      name: 'credit_limit_cents',
      label: ctx.t('credit.limit'),
      control: <CreditLimitInput />,
      help: ctx.t('credit.limitHelp'),
      half: true,
    },
    termsField(ctx),
  ];
}

export const stores = defineResource({
  screen: '/stores',
  api: 'stores',
  resource: 'stores',
  row: store,
  input: storeInput,
  texts: (t) => ({ title: t('menu.stores'), create: t('stores.create'), edit: t('stores.edit') }),
  label: (row) => row.name,
  columns: (ctx) => [
    { key: 'name', title: ctx.t('fields.name'), sort: 'name', render: (row) => row.name },
    { key: 'code', title: ctx.t('fields.code'), sort: 'code', render: (row) => row.code },
    phoneColumn(ctx),
    locationColumn(ctx),
    { key: 'users_count', title: ctx.t('fields.users_count'), render: (row) => row.users_count },
    statusColumn(ctx),
  ],
  filters: (ctx) => [statusFilter(ctx)],
  fields: (ctx) => [
    textField('name', ctx.t('fields.name'), 50),
    { ...textField('code', ctx.t('fields.code'), 30), help: ctx.t('stores.codeHelp') },
    phoneField(ctx),
    textAreaField('address', ctx.t('fields.address')),
    locationField(ctx),
    statusField(ctx),
    ...khqrFields(ctx),
  ],
  defaults: { status: 'active', village_id: null },
  below: (record) => <StorePrinters store={record} />,
  belowPermission: 'stores.update',
});

export const customers = defineResource({
  screen: '/customers',
  api: 'customers',
  resource: 'customers',
  row: customer,
  input: customerInput,
  texts: (t) => ({ title: t('menu.customers'), create: t('customers.create'), edit: t('customers.edit') }),
  label: (row) => row.name,
  columns: (ctx) => [
    {
      key: 'name',
      title: ctx.t('fields.name'),
      sort: 'name',
      render: (row) => (
        <Space size={8}>
          {customerName(row.name, ctx.locale)}
          {row.is_walk_in && <Tag color="gold">{ctx.t('customers.walkIn')}</Tag>}
        </Space>
      ),
    },
    phoneColumn(ctx),
    {
      key: 'customer_group',
      title: ctx.t('fields.customer_group'),
      render: (row) =>
        row.customer_group_id === null ? (
          '—'
        ) : (
          <Tag color="blue">
            {localName({ name_en: row.customer_group_name_en, name_kh: row.customer_group_name_kh }, ctx.locale)}
          </Tag>
        ),
    },
    locationColumn(ctx),
    statusColumn(ctx),
  ],
  filters: (ctx) => [
    statusFilter(ctx),
    selectFilter('customer_group_id', ctx.t('fields.customer_group'), CustomerGroupSelect),
  ],
  fields: (ctx) => [
    textField('name', ctx.t('fields.name'), 50),
    phoneField(ctx),
    {
      name: 'customer_group_id',
      label: ctx.t('fields.customer_group'),
      help: ctx.t('prices.customerGroupHelp'),
      control: <CustomerGroupSelect data-testid="customer-group" placeholder={ctx.t('prices.baseList')} />,
    },
    textAreaField('address', ctx.t('fields.address')),
    textAreaField('shipping_address', ctx.t('fields.shipping_address')),
    { name: 'vat_number', label: ctx.t('fields.vat_number'), control: <TinLookupInput maxLength={30} /> },
    locationField(ctx),
    statusField(ctx),
    ...customerCreditFields(ctx),
  ],
  defaults: { status: 'active', village_id: null, payment_terms_days: 0, customer_group_id: null },
  rowActions: (row) => <CreditButton party="customers" id={row.id} name={row.name} />,
  // Every sale without a customer uses it; the server refuses too (409).
  deletable: (row) => !row.is_walk_in,
});

/** A supplier's purchase history: the purchases list narrowed to it, for who may list purchases. */
function SupplierPurchases({ id, ctx }: { id: number; ctx: Ctx }) {
  const navigate = useNavigate();
  if (!useCan('purchases.list')) return null;
  return (
    <Button
      type="link"
      size="small"
      icon={<ShoppingCartOutlined />}
      data-testid={`purchases-${id}`}
      onClick={() => void navigate(`${localePath('/purchases', ctx.locale)}?filter[supplier_id]=${id}`)}
    >
      {ctx.t('menu.purchases')}
    </Button>
  );
}

function supplierTypes({ t }: Ctx): Record<Supplier['type'], string> {
  return { company: t('suppliers.company'), individual: t('suppliers.individual') };
}

export const suppliers = defineResource({
  screen: '/suppliers',
  api: 'suppliers',
  resource: 'suppliers',
  row: supplier,
  input: supplierInput,
  texts: (t) => ({ title: t('menu.suppliers'), create: t('suppliers.create'), edit: t('suppliers.edit') }),
  label: (row) => row.name,
  columns: (ctx) => [
    { key: 'name', title: ctx.t('fields.name'), sort: 'name', width: 180, wrap: true, render: (row) => row.name },
    {
      key: 'type',
      title: ctx.t('fields.type'),
      sort: 'type',
      render: (row) => <Tag color={row.type === 'company' ? 'geekblue' : 'purple'}>{supplierTypes(ctx)[row.type]}</Tag>,
    },
    phoneColumn(ctx),
    locationColumn(ctx),
    { key: 'total_items', title: ctx.t('fields.total_items'), render: (row) => row.total_items },
    statusColumn(ctx, false),
  ],
  filters: (ctx) => {
    const types = supplierTypes(ctx);
    return [
      statusFilter(ctx),
      {
        name: 'type',
        label: ctx.t('fields.type'),
        options: [
          { value: 'company', label: types.company },
          { value: 'individual', label: types.individual },
        ],
      },
    ];
  },
  fields: (ctx) => {
    const types = supplierTypes(ctx);
    return [
      textField('name', ctx.t('fields.name'), 50),
      {
        name: 'type',
        label: ctx.t('fields.type'),
        control: (
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={[
              { value: 'company', label: types.company },
              { value: 'individual', label: types.individual },
            ]}
          />
        ),
      },
      phoneField(ctx),
      textAreaField('address', ctx.t('fields.address')),
      textAreaField('shipping_address', ctx.t('fields.shipping_address')),
      locationField(ctx),
      statusField(ctx),
      termsField(ctx),
    ];
  },
  defaults: { status: 'active', type: 'company', village_id: null, payment_terms_days: 0 },
  rowActions: (row, ctx) => (
    <>
      <SupplierPurchases id={row.id} ctx={ctx} />
      <CreditButton party="suppliers" id={row.id} name={row.name} />
    </>
  ),
});

/**
 * "Phnom Penh Depot (PP01)": wherever a store is picked. `covered`: where the store is written to
 * (a sale, a purchase, a transfer's origin, a shift, a user's home store), only the stores the user
 * covers are offered; the server refuses the others on the field.
 */
export function StoreSelect({ covered = false, ...props }: PickProps & { 'data-testid'?: string; covered?: boolean }) {
  const covers = useCovers();
  return (
    <RemoteSelect<Store>
      {...props}
      api="stores"
      row={store}
      filter={covered ? (row) => covers(row.id) : undefined}
      optionLabel={(row) => `${row.name} (${row.code})`}
    />
  );
}

export function SupplierSelect(props: PickProps & { 'data-testid'?: string }) {
  return <RemoteSelect<Supplier> {...props} api="suppliers" row={supplier} optionLabel={(row) => row.name} />;
}
