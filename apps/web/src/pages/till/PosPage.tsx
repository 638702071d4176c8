import {
  ClearOutlined,
  DollarOutlined,
  HistoryOutlined,
  PauseCircleOutlined,
  SwapOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { customer, formatKhr, order, orderDetail, orderInput, rielRate, translate, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Badge, Button, Card, Flex, Grid, type InputRef, Popconfirm, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useSessionStore } from '../../components/stores.tsx';
import { PageTitle } from '../../kit/PageTitle.tsx';
import { failureMessage, usePage, useRefreshAll } from '../../kit/queries.ts';
import { localName } from '../../kit/resource.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { useDisplayState } from '../../lib/customerDisplay.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { parseWith } from '../../lib/forms.ts';
import { ApiError, api, NetworkError } from '../../lib/http.ts';
import { localePath } from '../../lib/locale.ts';
import { startCatalogueSync } from '../../lib/offline/localCatalogue.ts';
import { useLocalLists } from '../../lib/offline/localLists.ts';
import { isOffline } from '../../lib/offline/outbox.ts';
import { StoreSelect } from '../../resources/parties.tsx';
import { useCurrentRates, useTodayDiscounts } from '../rates/rates.tsx';
import { CartPane } from './CartPane.tsx';
import {
  addLine,
  type Cart,
  cartFrom,
  cartTotals,
  clearCart,
  emptyCart,
  loadCart,
  orderBody,
  outcomeUnknown,
  readyToSell,
  retryKeys,
  type StockPart,
  saveCart,
  shortOf,
  type TillLine,
} from './cart.ts';
import { useCatalogue } from './catalogue.ts';
import { DisplayButton } from './DisplayButton.tsx';
import { displayOf } from './display.ts';
import { HELD_QUERY, HeldOrdersDrawer } from './HeldOrders.tsx';
import { Key, useFunctionKeys } from './keys.tsx';
import { OfflineBar } from './OfflineBar.tsx';
import { ProductPane } from './ProductPane.tsx';
import { useQuotedCart } from './prices.ts';
import { ShiftBar } from './ShiftBar.tsx';
import { useScanner } from './scanner.ts';

const answer = written(orderDetail);
const holdKeys = retryKeys('depot.pos_hold_key');

/** The walk-in customer, preselected on a new sale: the kept customers' once they are, else the server's. */
function useWalkIn(): number | null {
  const local = useLocalLists().customers;
  const list = usePage('customers', customer, 'per_page=10&filter[is_walk_in]=true', !local);
  return (local ?? list.data?.data)?.find((row) => row.is_walk_in)?.id ?? null;
}

/** "1 $ = 4,100 ៛": the rate the till sells at, when it was set, and a warning once it is old. */
function RateBar() {
  const { t, locale } = useCtx();
  const rates = useCurrentRates();
  const canView = useCan('exchange_rates.view');
  if (rates.isError && !rates.data) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('pos.ratesFailed')}
        action={
          <Button size="small" onClick={() => void rates.refetch()} data-testid="rates-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  if (!rates.data) return null;
  const data = rates.data;
  const text = (
    <Flex align="center" gap={8} wrap data-testid="pos-rate">
      <SwapOutlined />
      {/* the rate the till's riel figures are at: riel received, else the day's (money.ts) */}
      <Typography.Text strong>{t('pos.rate', { rate: formatKhr(rielRate(data)) })}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {data.updated_at
          ? t('pos.rateUpdated', { at: formatDateTime(data.updated_at, locale), by: data.updated_by_name ?? '—' })
          : t('pos.rateNeverSet')}
      </Typography.Text>
      {data.stale && (
        <Tag color="warning" icon={<WarningOutlined />} data-testid="rate-stale">
          {t('pos.rateStale', { hours: data.stale_after_hours })}
        </Tag>
      )}
    </Flex>
  );
  return canView ? (
    <Tooltip title={t('pos.rateOpen')}>
      <Link to={localePath('/exchange-rates', locale)} style={{ color: 'inherit' }}>
        {text}
      </Link>
    </Tooltip>
  ) : (
    text
  );
}

/** `/pos`: the till. Products on the left, the cart on the right, the keyboard and a scanner drive it. */
export function PosPage() {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { state } = useLocation();
  const refresh = useRefreshAll();
  const screens = Grid.useBreakpoint();
  const wide = Boolean(screens.lg);
  const rates = useCurrentRates();
  const discounts = useTodayDiscounts();
  const walkIn = useWalkIn();
  const sessionStore = useSessionStore();
  const searchRef = useRef<InputRef>(null);

  const [cart, setCartState] = useState<Cart>(
    () => cartFrom((state as { cart?: unknown } | null)?.cart) ?? loadCart() ?? emptyCart(),
  );
  // A new sale starts with the walk-in customer; clearing it afterwards is the cashier's choice.
  const wantsWalkIn = useRef(cart.customer_id === null && cart.lines.length === 0 && cart.order_id === null);
  const [problem, setProblem] = useState<string | null>(null);
  const [heldOpen, setHeldOpen] = useState(false);

  // The store the till sells from: the cart's (a resumed order's, or the one picked), else the user's.
  const storeId = cart.store_id ?? sessionStore.id;
  const catalogue = useCatalogue(storeId);
  const latest = useRef(cart);
  latest.current = cart;

  const notEnough = (short: StockPart) => translate('stock.not_enough', locale, { product: localName(short, locale) });
  /**
   * Every change of the cart goes through here: one that would take a product beyond the store's
   * stock as the till knows it is refused at once, in the spec's words (the server judges again
   * at checkout: stock moves meanwhile).
   */
  const setCart = (change: (current: Cart) => Cart) => {
    const next = change(latest.current);
    const short = shortOf(latest.current, next);
    if (short) {
      setProblem(notEnough(short));
      return;
    }
    setProblem(null);
    latest.current = next;
    setCartState(next);
  };

  // the catalogue on the device: read at once, then kept in step (on open, reconnect, a timer)
  useEffect(() => startCatalogueSync(), []);
  useEffect(() => saveCart(cart), [cart]);
  useEffect(() => {
    if (wantsWalkIn.current && walkIn !== null) {
      wantsWalkIn.current = false;
      setCartState((current) => (current.customer_id === null ? { ...current, customer_id: walkIn } : current));
    }
  }, [walkIn]);

  // the customer's prices (their group's list, quantity breaks) as the server quotes them
  const { cart: priced, quote } = useQuotedCart(cart);
  const totals = useMemo(
    () => (rates.data ? cartTotals(priced, discounts.rows, rates.data.vat_rate_bp) : null),
    [priced, discounts.rows, rates.data],
  );
  // the customer's screen follows the cart (lib/customerDisplay.ts)
  useDisplayState(displayOf('cart', priced, totals, rates.data));
  const held = usePage('orders', order, HELD_QUERY, useCan('orders.list'));
  const heldCount = held.data?.meta.total ?? 0;

  const startOver = () => {
    clearCart();
    wantsWalkIn.current = walkIn === null;
    setCartState(emptyCart(walkIn));
    setProblem(null);
  };

  const add = (line: TillLine) => {
    setCart((current) => addLine(current, line));
  };

  const onScan = async (code: string) => {
    try {
      const found = await catalogue.findCode(code);
      if ('line' in found) add(found.line);
      else void message.warning(t('lines.noProduct', { code }));
    } catch {
      void message.error(t('errors.loadData'));
    }
  };
  useScanner((code) => void onScan(code), !heldOpen);

  const hold = useMutation({
    mutationFn: ({ body, key }: { body: unknown; key: string }) =>
      cart.order_id
        ? api(`orders/${cart.order_id}`, { method: 'PUT', body, schema: answer, idempotencyKey: key })
        : api('orders', { method: 'POST', body, schema: answer, idempotencyKey: key }),
  });

  const withStore = (current: Cart): Cart =>
    current.store_id === null && sessionStore.id !== null ? { ...current, store_id: sessionStore.id } : current;

  const doHold = async () => {
    if (!readyToSell(cart)) {
      setProblem(t('pos.needCustomerAndProduct'));
      return;
    }
    const parsed = parseWith(orderInput, orderBody(withStore(cart), { hold: true }), locale);
    if (!parsed.data) {
      setProblem(Object.values(parsed.errors).flat().join(' '));
      return;
    }
    // a held order is kept by the server, not on this device
    if (isOffline()) {
      setProblem(t('offline.needsConnection'));
      return;
    }
    const body = parsed.data;
    try {
      const done = await hold.mutateAsync({ body, key: holdKeys.keyFor(body) });
      holdKeys.settle();
      void message.success(done.message);
      void refresh();
      startOver();
    } catch (error) {
      if (!outcomeUnknown(error)) holdKeys.settle();
      setProblem(
        error instanceof NetworkError
          ? t('pos.offline')
          : error instanceof ApiError && error.status === 422 && error.body?.errors
            ? Object.values(error.body.errors).flat().join(' ')
            : failureMessage(error, locale),
      );
    }
  };

  const pay = () => {
    if (!readyToSell(cart)) {
      setProblem(t('pos.needCustomerAndProduct'));
      return;
    }
    if (!rates.data) return;
    const next = withStore(cart);
    saveCart(next);
    void navigate(localePath('/orders/review', locale), { state: { cart: next } });
  };

  const focusLastQuantity = () => {
    const inputs = document.querySelectorAll<HTMLInputElement>('.pos-qty input');
    const last = inputs[inputs.length - 1];
    last?.focus();
    last?.select();
  };

  useFunctionKeys(
    {
      F2: () => searchRef.current?.focus(),
      F4: focusLastQuantity,
      F8: () => void doHold(),
      F9: pay,
    },
    !heldOpen,
  );

  const canCreate = useCan('orders.create');
  return (
    <Flex vertical gap={8} className={wide ? 'pos pos-wide' : 'pos'} data-testid="pos">
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Flex align="center" gap={12} wrap>
          <PageTitle>{cart.number ? t('pos.resumed', { number: cart.number }) : t('menu.pos')}</PageTitle>
          <RateBar />
          <OfflineBar />
          <ShiftBar />
        </Flex>
        {/* Who has no store of their own sells from the store they pick (the server needs one). */}
        {sessionStore.ready && sessionStore.id === null && (
          <div style={{ minWidth: 220 }}>
            <StoreSelect
              covered
              value={cart.store_id}
              onChange={(store_id) => setCart((current) => ({ ...current, store_id }))}
              placeholder={t('pos.chooseStore')}
              data-testid="pos-store"
            />
          </div>
        )}
        <DisplayButton />
        <Badge count={heldCount} size="small">
          <Button icon={<HistoryOutlined />} onClick={() => setHeldOpen(true)} data-testid="open-held">
            {t('pos.heldOrders')}
          </Button>
        </Badge>
      </Flex>
      <div className="pos-body">
        <ProductPane
          onAdd={add}
          searchRef={searchRef}
          rates={rates.data ?? null}
          storeId={cart.store_id !== null || sessionStore.ready ? storeId : undefined}
        />
        <Card
          className="pos-cart"
          styles={{ body: { display: 'flex', flexDirection: 'column', gap: 8, flex: 1, minHeight: 0, padding: 12 } }}
          data-testid="pos-cart"
        >
          <CartPane
            cart={priced}
            quote={quote}
            setCart={setCart}
            totals={totals}
            discounts={discounts.rows}
            rates={rates.data}
          />
          {problem && (
            <Alert
              type="error"
              showIcon
              title={problem}
              data-testid="pos-problem"
              closable={{ onClose: () => setProblem(null) }}
            />
          )}
          <Flex gap={8}>
            <Popconfirm
              title={t('pos.clearTitle')}
              okText={t('pos.clear')}
              okButtonProps={{ danger: true }}
              cancelText={t('kit.cancel')}
              onConfirm={startOver}
              disabled={cart.lines.length === 0 && cart.order_id === null}
            >
              <Button
                icon={<ClearOutlined />}
                aria-label={t('pos.clear')}
                disabled={cart.lines.length === 0 && cart.order_id === null}
                data-testid="pos-clear"
              />
            </Popconfirm>
            {canCreate && (
              <Button
                size="large"
                icon={<PauseCircleOutlined />}
                loading={hold.isPending}
                onClick={() => void doHold()}
                data-testid="pos-hold"
                style={{ flex: 1 }}
              >
                {t('pos.hold')} <Key>F8</Key>
              </Button>
            )}
            {canCreate && (
              <Button
                type="primary"
                size="large"
                icon={<DollarOutlined />}
                disabled={!rates.data}
                onClick={pay}
                data-testid="pos-pay"
                style={{ flex: 2 }}
              >
                {t('pos.pay')} <Key>F9</Key>
              </Button>
            )}
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
            {t('pos.keys')}
          </Typography.Text>
        </Card>
      </div>
      <HeldOrdersDrawer
        open={heldOpen}
        onClose={() => setHeldOpen(false)}
        replacing={cart.lines.length > 0}
        onResume={(resumed) => {
          wantsWalkIn.current = false;
          // a held order comes back as it was, short or not: the cashier lowers what is short
          const short = shortOf(emptyCart(), resumed);
          setProblem(short && notEnough(short));
          latest.current = resumed;
          setCartState(resumed);
        }}
      />
    </Flex>
  );
}
