import { DeleteOutlined, MinusOutlined, PlusOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import {
  type CurrentRates,
  type Customer,
  customer,
  customerName,
  type Discount,
  discountApplies,
  formatUsd,
  normal,
  type PricedCart,
  type PriceQuote,
  searchWords,
  todayInCambodia,
} from '@depot/contracts';
import { Alert, Button, Empty, Flex, Input, InputNumber, Select, Switch, Tag, Typography } from 'antd';
import { memo, useCallback, useRef, useState } from 'react';
import { UnitSelect } from '../../components/lines.tsx';
import { UsdInput } from '../../kit/inputs.tsx';
import { useRecord } from '../../kit/queries.ts';
import { RemoteSelect } from '../../kit/RemoteSelect.tsx';
import { localName } from '../../kit/resource.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { percentText } from '../../lib/format.ts';
import { syncLocalLists, useLocalLists } from '../../lib/offline/localLists.ts';
import { discountOption } from '../../resources/discounts.tsx';
import { Money } from '../rates/rates.tsx';
import { type Cart, lineDiscountApplies, type TillLine, unitPrice } from './cart.ts';
import { listText, sourceText } from './prices.ts';
import { SerialsField } from './SerialsField.tsx';
import { WeightInput } from './WeightInput.tsx';

type SetCart = (change: (cart: Cart) => Cart) => void;

function CustomerSelect({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const { t, locale } = useCtx();
  const stored = useLocalLists().customers;
  // the server's picker while it has the focus: the device's, ready meanwhile (the first sync), must
  // not replace it under the cashier's fingers
  const [remoteInUse, setRemoteInUse] = useState(false);
  const local = remoteInUse ? null : stored;
  const [typed, setTyped] = useState('');
  // The walk-in customer in the page's language (its stored name is the seed's Khmer one).
  const label = (row: Pick<Customer, 'name' | 'phone' | 'is_walk_in'>) => {
    if (row.is_walk_in) return customerName(row.name, locale);
    return row.phone ? `${row.name} · ${row.phone}` : row.name;
  };
  const common = {
    allowClear: true,
    placeholder: t('pos.chooseCustomer'),
    id: 'pos-customer',
    'data-testid': 'pos-customer',
    style: { width: '100%' },
  };
  if (!local)
    return (
      <RemoteSelect<Customer>
        api="customers"
        row={customer}
        params={{ 'filter[status]': 'active' }}
        optionLabel={label}
        value={value}
        onChange={onChange}
        onFocus={() => setRemoteInUse(true)}
        onBlur={() => setRemoteInUse(false)}
        {...common}
      />
    );
  // the customers kept on the device (localLists.ts): found as typed, with or without a connection
  const words = searchWords(typed);
  const options = local
    .filter((row) => row.id === value || words.every((word) => normal(`${row.name} ${row.phone ?? ''}`).includes(word)))
    .sort((a, b) => Number(b.is_walk_in) - Number(a.is_walk_in) || a.name.localeCompare(b.name))
    .slice(0, 100)
    .map((row) => ({ value: row.id, label: label(row) }));
  return (
    <Select<number | null>
      {...common}
      value={value ?? undefined}
      onChange={(next) => onChange(next ?? null)}
      options={options}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      onOpenChange={(open) => {
        if (!open) setTyped('');
        // a customer made a moment ago (in the back office, at another till) is fetched as the list opens
        if (open) void syncLocalLists().catch(() => undefined);
      }}
      virtual={false}
    />
  );
}

function LineRow({
  line,
  index,
  priced,
  discounts,
  setCart,
}: {
  line: TillLine;
  index: number;
  priced: PricedCart['lines'][number] | undefined;
  discounts: Discount[];
  setCart: SetCart;
}) {
  const { t, locale } = useCtx();
  const canUnits = useCan('units.list');
  const today = todayInCambodia();
  const change = (patch: Partial<TillLine>) =>
    setCart((cart) => ({ ...cart, lines: cart.lines.map((l) => (l.key === line.key ? { ...l, ...patch } : l)) }));
  const remove = () => setCart((cart) => ({ ...cart, lines: cart.lines.filter((l) => l.key !== line.key) }));
  const applicable = discounts.filter((d) => lineDiscountApplies(d, line, today));
  const n = index + 1;
  const [first, second] = locale === 'kh' ? [line.name_kh, line.name_en] : [line.name_en, line.name_kh];

  return (
    <div className="pos-line" data-testid={`cart-line-${index}`}>
      <Flex justify="space-between" gap={8} align="flex-start">
        <Flex vertical style={{ minWidth: 0 }}>
          <Typography.Text strong ellipsis>
            {line.kind === 'combo' && <Tag color="purple">{t('pos.combo')}</Tag>}
            {first || second}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
            {first && second ? `${second} · ` : ''}
            {line.sku} · <span data-testid={`line-${index}-unit-price`}>{formatUsd(unitPrice(line))}</span>
            {line.decimals && line.unit ? ` / ${localName(line.unit, locale)}` : ''}
            {!line.taxable && ` · ${t('pos.noVat')}`}
          </Typography.Text>
          {line.quote && line.quote.quantity === line.quantity && line.quote.source !== 'product' && (
            <span>
              <Tag color={line.quote.source === 'break' ? 'green' : 'blue'} data-testid={`line-${index}-price-source`}>
                {sourceText(t, line.quote.source)}
              </Tag>
            </span>
          )}
        </Flex>
        <Flex align="flex-start" gap={4}>
          {/* dollars only: the riel of the lines would not add up to the riel of the sale (money.ts) */}
          <Money cents={priced?.gross_cents ?? 0} testId={`line-${index}-gross`} />
          <Button
            type="text"
            danger
            size="small"
            icon={<DeleteOutlined />}
            aria-label={t('pos.removeLine', { line: n })}
            data-testid={`line-${index}-remove`}
            onClick={remove}
          />
        </Flex>
      </Flex>
      {line.serials && (
        <SerialsField
          line={line}
          index={index}
          change={(next) =>
            setCart((cart) => ({ ...cart, lines: cart.lines.map((l) => (l.key === line.key ? next(l) : l)) }))
          }
        />
      )}
      <Flex gap={8} wrap align="center" style={{ marginTop: 6 }}>
        {/* a weighed line: its weight typed in its unit, or read from the scale; a line sold by serial
            counts its serials (SerialsField below): no stepper, no other unit */}
        {line.decimals ? (
          <WeightInput line={line} index={index} onChange={(quantity) => change({ quantity })} />
        ) : line.serials ? null : (
          <Flex align="center">
            <Button
              size="small"
              icon={<MinusOutlined />}
              aria-label={t('pos.less', { line: n })}
              disabled={line.quantity <= 1}
              onClick={() => change({ quantity: Math.max(1, line.quantity - 1) })}
            />
            <InputNumber<number>
              size="small"
              min={1}
              max={1_000_000}
              precision={0}
              value={line.quantity}
              aria-label={t('lines.quantityOf', { line: n })}
              data-testid={`line-${index}-quantity`}
              className="pos-qty"
              onChange={(next) => {
                if (typeof next === 'number' && next >= 1) change({ quantity: next });
              }}
              style={{ width: 64 }}
            />
            <Button
              size="small"
              icon={<PlusOutlined />}
              aria-label={t('pos.more', { line: n })}
              onClick={() => change({ quantity: line.quantity + 1 })}
            />
          </Flex>
        )}
        {line.kind === 'product' && line.unit && !line.decimals && !line.serials && (
          <div style={{ minWidth: 110 }}>
            {canUnits ? (
              <UnitSelect
                item={{
                  id: line.item_id,
                  name_en: line.name_en,
                  name_kh: line.name_kh,
                  sku: line.sku,
                  base_unit_id: line.base_unit_id,
                  cost_cents: null,
                }}
                value={line.unit}
                label={t('lines.unitOf', { line: n })}
                onChange={(unit) => change({ unit })}
              />
            ) : (
              <Typography.Text type="secondary">{localName(line.unit, locale)}</Typography.Text>
            )}
          </div>
        )}
        {(applicable.length > 0 || line.discount_id !== null) && (
          <Select<number>
            size="small"
            allowClear
            placeholder={t('pos.lineDiscount')}
            aria-label={t('pos.lineDiscountOf', { line: n })}
            data-testid={`line-${index}-discount`}
            value={line.discount_id ?? undefined}
            onChange={(next) => change({ discount_id: next ?? null })}
            options={applicable.map(discountOption)}
            virtual={false}
            popupMatchSelectWidth={false}
            style={{ minWidth: 140, flex: 1 }}
          />
        )}
      </Flex>
      {priced && priced.line_discount_cents > 0 && (
        <Flex justify="space-between">
          <Typography.Text type="success" style={{ fontSize: 12 }}>
            {t('pos.discount')}
          </Typography.Text>
          <Typography.Text type="success" style={{ fontSize: 12 }} data-testid={`line-${index}-discount-cents`}>
            −{formatUsd(priced.line_discount_cents)}
          </Typography.Text>
        </Flex>
      )}
    </div>
  );
}

function TotalRow({ label, cents, testId, minus }: { label: string; cents: number; testId: string; minus?: boolean }) {
  return (
    <Flex justify="space-between">
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Typography.Text data-testid={testId} type={minus && cents > 0 ? 'success' : undefined}>
        {minus && cents > 0 ? '−' : ''}
        {formatUsd(cents)}
      </Typography.Text>
    </Flex>
  );
}

/** The cart's money: subtotal, discounts, VAT, delivery, and the total in dollars and riel. */
/** The same value, or one that reads the same (the cart's lines and prices are new objects after every change). */
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** A cart line drawn again only when it, its price, its discounts or its place changed: a scan draws the new line only. */
const CartLineRow = memo(
  LineRow,
  (a, b) =>
    a.index === b.index &&
    a.setCart === b.setCart &&
    a.discounts.length === b.discounts.length &&
    a.discounts.every((d, i) => d === b.discounts[i]) &&
    same(a.line, b.line) &&
    same(a.priced, b.priced),
);

export function CartTotals({ totals, rates }: { totals: PricedCart; rates: CurrentRates }) {
  const { t } = useCtx();
  return (
    <Flex vertical gap={2} data-testid="cart-totals">
      <TotalRow label={t('purchases.subtotal')} cents={totals.subtotal_cents} testId="cart-subtotal" />
      <TotalRow label={t('pos.discount')} cents={totals.discount_cents} testId="cart-discount" minus />
      <TotalRow
        label={t('pos.vat', { rate: percentText(rates.vat_rate_bp) })}
        cents={totals.tax_cents}
        testId="cart-vat"
      />
      {totals.delivery_fee_cents > 0 && (
        <TotalRow label={t('pos.deliveryFee')} cents={totals.delivery_fee_cents} testId="cart-delivery" />
      )}
      <Flex justify="space-between" align="flex-end" style={{ marginTop: 4 }}>
        <Typography.Text strong style={{ fontSize: 18 }}>
          {t('orders.total')}
        </Typography.Text>
        <Money cents={totals.total_cents} rates={rates} size="large" testId="cart-total" />
      </Flex>
    </Flex>
  );
}

/** The right pane of the till: who buys, the lines, discounts, delivery, the totals. */
export function CartPane({
  cart,
  quote,
  setCart,
  totals,
  discounts,
  rates,
}: {
  cart: Cart;
  quote?: PriceQuote | null;
  setCart: SetCart;
  totals: PricedCart | null;
  discounts: Discount[];
  rates: CurrentRates | undefined;
}) {
  const { t, locale } = useCtx();
  // one function for every line, whatever the till passed this time: the lines stay memoized
  const latestSetCart = useRef(setCart);
  latestSetCart.current = setCart;
  const setLine = useCallback<SetCart>((change) => latestSetCart.current(change), []);
  const today = todayInCambodia();
  const orderDiscounts = discounts.filter((d) => discountApplies(d, 'order', today));
  // Delivery starts at the customer's shipping address (or address) when there is one: the
  // server's record, else (no connection, or not read yet) the customer as the device keeps it.
  const buyer = useRecord({ api: 'customers', row: customer }, cart.customer_id);
  const localBuyer = useLocalLists().customers?.find((row) => row.id === cart.customer_id);
  const known = buyer.data ?? localBuyer;
  const address = known && !known.is_walk_in ? (known.shipping_address ?? known.address ?? '') : '';

  return (
    <Flex vertical gap={8} style={{ flex: 1, minHeight: 0 }}>
      <div>
        <label htmlFor="pos-customer">
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('orders.customer')}
          </Typography.Text>
        </label>
        <CustomerSelect
          value={cart.customer_id}
          onChange={(id) => setCart((current) => ({ ...current, customer_id: id }))}
        />
        {quote && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="price-list">
            {t('prices.applied', {
              name: listText(t, locale, { price_list_en: quote.group_name_en, price_list_kh: quote.group_name_kh }),
            })}
          </Typography.Text>
        )}
      </div>
      <div className="pos-lines" data-testid="cart-lines">
        {cart.lines.length === 0 ? (
          <Empty image={<ShoppingCartOutlined style={{ fontSize: 40, opacity: 0.4 }} />} description={t('pos.empty')} />
        ) : (
          cart.lines.map((line, index) => (
            <CartLineRow
              key={line.key}
              line={line}
              index={index}
              priced={totals?.lines[index]}
              discounts={discounts}
              setCart={setLine}
            />
          ))
        )}
      </div>
      {(orderDiscounts.length > 0 || cart.discount_id !== null) && (
        <Select<number>
          allowClear
          placeholder={t('pos.orderDiscount')}
          aria-label={t('pos.orderDiscount')}
          data-testid="order-discount"
          value={cart.discount_id ?? undefined}
          onChange={(next) => setCart((current) => ({ ...current, discount_id: next ?? null }))}
          options={orderDiscounts.map(discountOption)}
          virtual={false}
        />
      )}
      <Flex align="center" gap={8}>
        <Switch
          id="pos-delivery"
          size="small"
          checked={cart.delivery !== null}
          data-testid="pos-delivery"
          onChange={(on) =>
            setCart((current) => ({ ...current, delivery: on ? { shipping_address: address, fee_cents: 0 } : null }))
          }
        />
        <label htmlFor="pos-delivery">{t('pos.delivery')}</label>
      </Flex>
      {cart.delivery && (
        <Flex gap={8}>
          <Input
            placeholder={t('fields.shipping_address')}
            aria-label={t('fields.shipping_address')}
            data-testid="pos-address"
            maxLength={255}
            value={cart.delivery.shipping_address}
            onChange={(event) => {
              const shipping_address = event.target.value;
              setCart((current) => ({
                ...current,
                delivery: current.delivery ? { ...current.delivery, shipping_address } : null,
              }));
            }}
            style={{ flex: 2 }}
          />
          <div style={{ flex: 1 }}>
            <UsdInput
              aria-label={t('pos.deliveryFee')}
              data-testid="pos-fee"
              value={cart.delivery.fee_cents}
              onChange={(fee_cents) =>
                setCart((current) => ({
                  ...current,
                  delivery: current.delivery ? { ...current.delivery, fee_cents } : null,
                }))
              }
            />
          </div>
        </Flex>
      )}
      <Input
        placeholder={t('pos.note')}
        aria-label={t('pos.note')}
        maxLength={500}
        value={cart.note}
        onChange={(event) => {
          const note = event.target.value;
          setCart((current) => ({ ...current, note }));
        }}
      />
      {totals && rates ? (
        <CartTotals totals={totals} rates={rates} />
      ) : (
        <Alert type="info" showIcon title={t('pos.ratesLoading')} />
      )}
    </Flex>
  );
}
