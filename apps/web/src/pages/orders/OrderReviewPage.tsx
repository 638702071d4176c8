import { CheckOutlined, FileTextOutlined, PrinterOutlined, RedoOutlined } from '@ant-design/icons';
import {
  type ApprovalInput,
  customer,
  formatChange,
  formatKhr,
  formatUsd,
  type Locale,
  type OrderDetail,
  orderDetail,
  orderInput,
  type TenderInput,
  written,
} from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Flex, Result, Row, Skeleton, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ProductNames } from '../../components/products.tsx';
import { useStores } from '../../components/stores.tsx';
import { ApprovalDialog, needsApproval } from '../../kit/ApprovalDialog.tsx';
import { LoadFailed } from '../../kit/listState.tsx';
import { BackTitle } from '../../kit/PageTitle.tsx';
import { failureMessage, useRecord, useRefreshAll } from '../../kit/queries.ts';
import { localName } from '../../kit/resource.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatCount } from '../../lib/format.ts';
import { parseWith } from '../../lib/forms.ts';
import { ApiError, api, newIdempotencyKey } from '../../lib/http.ts';
import { localePath } from '../../lib/locale.ts';
import { useLocalLists } from '../../lib/offline/localLists.ts';
import { enqueueSale, isOffline, keepForLater, type QueuedSale } from '../../lib/offline/outbox.ts';
import { session } from '../../lib/session.ts';
import { ratesOf, useCurrentRates, useTodayDiscounts } from '../rates/rates.tsx';
import { CartTotals } from '../till/CartPane.tsx';
import {
  type Cart,
  cartFrom,
  cartTotals,
  clearCart,
  loadCart,
  orderBody,
  outcomeUnknown,
  retryKeys,
  type TillLine,
  unitPrice,
} from '../till/cart.ts';
import { useReviewDisplay } from '../till/display.ts';
import { Key, useFunctionKeys } from '../till/keys.tsx';
import { listText, sourceText, useQuotedCart } from '../till/prices.ts';
import {
  emptyTenders,
  exactTooMuch,
  TenderPanel,
  type TenderState,
  tendersOf,
  tendersValid,
} from '../till/Tenders.tsx';
import { KhqrButton } from './khqr/KhqrButton.tsx';
import type { DeviceQr } from './khqr/OfflineKhqrDialog.tsx';
import { offlineOrder } from './offlineReceipt.ts';
import { InvoiceDialog, ReceiptDialog } from './receipts.tsx';

const answer = written(orderDetail);
/** The sale's key survives a reload: a sale retried after a lost answer is never made twice. */
const saleKeys = retryKeys('depot.pos_sale_key');

/** The server's refusal in one sentence (a 422's messages, else its message). */
function refusal(error: unknown, locale: Locale): string {
  if (error instanceof ApiError && error.status === 422 && error.body?.errors) {
    return Object.values(error.body.errors).flat().join(' ');
  }
  return failureMessage(error, locale);
}

/**
 * What follows a sale, made or kept offline: print its receipt (and its invoice), or start the next
 * sale (focused: Enter goes on; F9 and F2 too, while no print dialog is open).
 */
function AfterSale({
  onReceipt,
  onInvoice,
  keys,
}: {
  onReceipt?: () => void;
  onInvoice?: () => void;
  /** Whether F9 / F2 start the next sale (not while a print dialog is open). */
  keys: boolean;
}) {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const next = () => navigate(localePath('/pos', locale), { replace: true });
  useFunctionKeys({ F2: next, F9: next }, keys);
  return (
    <Flex gap={12} wrap justify="center">
      {onReceipt && (
        <Button size="large" icon={<PrinterOutlined />} onClick={onReceipt} data-testid="print-receipt">
          {t('print.printReceipt')}
        </Button>
      )}
      {onInvoice && (
        <Button size="large" icon={<FileTextOutlined />} onClick={onInvoice} data-testid="print-invoice">
          {t('print.printInvoice')}
        </Button>
      )}
      <Button
        type="primary"
        size="large"
        icon={<RedoOutlined />}
        onClick={() => void next()}
        // the keyboard flow goes on: Enter (or F9) starts the next sale
        autoFocus
        data-testid="new-sale"
      >
        {t('pay.newSale')} <Key>F9</Key>
      </Button>
    </Flex>
  );
}

/** After the sale: the change, in dollars or riel, and as it is handed back; print; next sale. */
function Done({ sale }: { sale: OrderDetail }) {
  const { t } = useCtx();
  const [printing, setPrinting] = useState<'receipt' | 'invoice' | null>(null);
  const change = sale.change_cents > 0 || sale.change_khr > 0;
  return (
    <Card>
      <Result
        status="success"
        title={t('pay.done', { number: sale.number })}
        subTitle={
          sale.payment_status === 'paid' ? undefined : (
            <Tag color="orange">
              {t('pay.stillDue', { due: formatUsd(Math.max(0, sale.total_cents - sale.paid_cents)) })}
            </Tag>
          )
        }
        extra={
          <Flex vertical gap={16} align="center">
            <div className="pay-change" data-testid="done-change">
              <Typography.Text type="secondary">{t('pay.change')}</Typography.Text>
              <div>
                <Typography.Text strong style={{ fontSize: 32 }} data-testid="done-change-usd">
                  {formatUsd(sale.change_cents)}
                </Typography.Text>
              </div>
              <Typography.Text strong style={{ fontSize: 20 }}>
                {t('pay.orRiel')} <span data-testid="done-change-khr">{formatKhr(sale.change_khr)}</span>
              </Typography.Text>
              {change && (
                <div>
                  <Typography.Text type="success" strong style={{ fontSize: 20 }}>
                    {t('pay.handBack')}{' '}
                    <span data-testid="done-change-given">
                      {formatChange({ usd_cents: sale.change_given_cents, khr: sale.change_given_khr })}
                    </span>
                  </Typography.Text>
                </div>
              )}
            </div>
            <AfterSale
              onReceipt={() => setPrinting('receipt')}
              onInvoice={sale.invoice ? () => setPrinting('invoice') : undefined}
              keys={printing === null}
            />
          </Flex>
        }
      />
      {printing === 'receipt' && <ReceiptDialog order={sale} drawer onClose={() => setPrinting(null)} />}
      {printing === 'invoice' && <InvoiceDialog order={sale} onClose={() => setPrinting(null)} />}
    </Card>
  );
}

/** A sale kept on this device while offline: its device receipt number, unsynced; next sale. */
function QueuedOffline({ sale }: { sale: QueuedSale }) {
  const { t } = useCtx();
  const [printing, setPrinting] = useState(false);
  return (
    <Card>
      <Result
        status="warning"
        title={t('offline.kept', { number: sale.client_id })}
        subTitle={
          <Flex vertical align="center" gap={4}>
            <Tag color="orange" data-testid="kept-unsynced">
              {t('offline.unsynced')}
            </Tag>
            <Typography.Text data-testid="kept-total">{formatUsd(sale.total_cents)}</Typography.Text>
            <Typography.Text type="secondary">{t('offline.keptHelp')}</Typography.Text>
          </Flex>
        }
        extra={<AfterSale onReceipt={sale.receipt ? () => setPrinting(true) : undefined} keys={!printing} />}
      />
      {printing && sale.receipt && (
        <ReceiptDialog order={sale.receipt} drawer unsynced onClose={() => setPrinting(false)} />
      )}
    </Card>
  );
}

function Review({ cart }: { cart: Cart }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const refresh = useRefreshAll();
  const rates = useCurrentRates();
  const discounts = useTodayDiscounts();
  const buyer = useRecord({ api: 'customers', row: customer }, cart.customer_id);
  // its name on a receipt kept offline: the server's record, else the customer the device keeps
  const localBuyer = useLocalLists().customers?.find((row) => row.id === cart.customer_id);
  const stores = useStores();
  const [tenders, setTenders] = useState<TenderState>(emptyTenders);
  const [problem, setProblem] = useState<{ text: string; retry: boolean } | null>(null);
  const [done, setDone] = useState<OrderDetail | null>(null);
  const [queued, setQueued] = useState<QueuedSale | null>(null);
  // a sale past the customer's credit limit, waiting for a manager's approval (the server's words)
  const [approving, setApproving] = useState<{ body: object; payments: TenderInput[]; why: string } | null>(null);
  // the customer's prices as the server quotes them (the checkout prices with the same rule)
  const { cart: quoted } = useQuotedCart(cart);
  const totals = useMemo(
    () => (rates.data ? cartTotals(quoted, discounts.rows, rates.data.vat_rate_bp) : null),
    [quoted, discounts.rows, rates.data],
  );

  const sell = useMutation({
    mutationFn: ({ body, key }: { body: unknown; key: string }) =>
      cart.order_id
        ? api(`orders/${cart.order_id}`, { method: 'PUT', body, schema: answer, idempotencyKey: key })
        : api('orders', { method: 'POST', body, schema: answer, idempotencyKey: key }),
  });

  const back = () => navigate(localePath('/pos', locale), { state: { cart } });

  const blocked = !totals || !tendersValid(tenders) || (totals !== null && exactTooMuch(tenders, totals.total_cents));

  /**
   * Sells the cart with these tenders: the order as recorded, or null (the problem shown). `offline`:
   * with no connection the sale is kept on this device (not for a KHQR: its QR is the server's).
   */
  const checkout = async (
    payments: TenderInput[],
    {
      offline: mayQueue = true,
      khqr = false,
      deviceQr,
    }: { offline?: boolean; khqr?: boolean; deviceQr?: DeviceQr } = {},
  ): Promise<OrderDetail | null> => {
    const parsed = parseWith(
      orderInput,
      { ...orderBody(cart, { hold: false, payments, change_in: tenders.change_in }), awaiting_khqr: khqr },
      locale,
    );
    if (!parsed.data) {
      setProblem({ text: Object.values(parsed.errors).flat().join(' '), retry: false });
      return null;
    }
    const body = parsed.data;
    setProblem(null);
    // offline (or no answer below): a new sale is kept on this device and sent when the connection returns
    const queueOffline = async (key: string, tried: boolean) => {
      const { userId, userName, store: storeName } = session.get();
      const store = stores.data?.data.find((row) => row.id === body.store_id);
      const sale = await enqueueSale({
        key,
        body,
        total_cents: totals?.total_cents ?? 0,
        user: { id: userId, name: userName },
        tried,
        khqr: deviceQr ?? null,
        // the receipt as the online one computes it, with the device's number (offlineReceipt.ts)
        receipt: (client_id, sold_at) =>
          totals && rates.data
            ? offlineOrder({
                cart: quoted,
                totals,
                rates: { ...ratesOf(rates.data), vat_rate_bp: rates.data.vat_rate_bp },
                payments,
                change_in: tenders.change_in,
                client_id,
                sold_at,
                store: {
                  id: body.store_id ?? 0,
                  name: store?.name ?? storeName ?? '',
                  code: store?.code ?? '',
                  phone: store?.phone ?? null,
                  address: store?.address ?? null,
                },
                customer_name: buyer.data?.name ?? localBuyer?.name ?? '',
                cashier: { id: userId, name: userName },
                discounts: new Map(discounts.rows.map((d) => [d.id, d.name])),
              })
            : null,
      });
      saleKeys.settle();
      clearCart();
      setQueued(sale);
      return null;
    };
    // a held order's checkout changes the server's order (a PUT): never kept on the device
    if ((!mayQueue || cart.order_id) && isOffline()) {
      setProblem({ text: t('offline.needsConnection'), retry: false });
      return null;
    }
    if (!cart.order_id && isOffline()) return queueOffline(saleKeys.keyFor(body), false);
    try {
      const sold = await sell.mutateAsync({ body, key: saleKeys.keyFor(body) });
      saleKeys.settle();
      clearCart();
      void message.success(sold.message);
      void refresh();
      return sold.data;
    } catch (error) {
      // the request went: the server may hold it under the key, so it goes again as it was
      if (mayQueue && !cart.order_id && keepForLater(error)) return queueOffline(saleKeys.keyFor(body), true);
      const unknown = outcomeUnknown(error);
      if (!unknown) saleKeys.settle();
      if (needsApproval(error)) {
        setApproving({ body, payments, why: failureMessage(error, locale) });
        return null;
      }
      // 409: not enough stock for a product (the server names it); 422: a refused field.
      // (a KHQR's is tried again with its own button: the same body, so the same key)
      setProblem({ text: unknown ? t('pay.offline') : refusal(error, locale), retry: unknown && mayQueue });
      return null;
    }
  };

  /** The sale sent again with the manager's approval; a refusal stays in the dialog. */
  const approve = async (approval: ApprovalInput) => {
    if (!approving) return;
    const sold = await sell.mutateAsync({ body: { ...approving.body, approval }, key: newIdempotencyKey() });
    clearCart();
    void message.success(sold.message);
    void refresh();
    setApproving(null);
    setDone(sold.data);
  };

  const complete = async () => {
    if (blocked || sell.isPending) return;
    const payments = tendersOf(tenders);
    const sale = await checkout(payments);
    if (sale) setDone(sale);
  };

  useFunctionKeys({ F9: () => void complete() }, done === null && queued === null);
  useReviewDisplay({ cart: quoted, totals, rates: rates.data, tenders, sold: done ?? queued !== null });

  if (done) return <Done sale={done} />;
  if (queued) return <QueuedOffline sale={queued} />;
  if (rates.isError && !rates.data) {
    return <LoadFailed error={rates.error} retry={rates.refetch} retrying={rates.isFetching} />;
  }
  if (!rates.data || !totals) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }

  const unitOf = (line: TillLine) => (line.unit ? localName(line.unit, locale) : '');
  return (
    <Card
      title={
        <BackTitle onBack={back} label={t('pay.backToCart')}>
          {cart.number ? t('pay.titleHeld', { number: cart.number }) : t('pay.title')}
        </BackTitle>
      }
      data-testid="order-review"
    >
      <Row gutter={[24, 24]}>
        <Col xs={24} xl={9}>
          <Flex vertical gap={12}>
            <Typography.Text>
              {t('orders.customer')}:{' '}
              <Typography.Text strong data-testid="review-customer">
                {buyer.data?.name ?? '…'}
              </Typography.Text>
            </Typography.Text>
            {cart.delivery && (
              <Typography.Text type="secondary">
                {t('pos.delivery')}: {cart.delivery.shipping_address}
              </Typography.Text>
            )}
            <Table<TillLine>
              size="small"
              rowKey="key"
              pagination={false}
              dataSource={quoted.lines}
              data-testid="review-lines"
              columns={[
                {
                  key: 'item',
                  title: t('stock.product'),
                  // the quantity under the names: the column is a third of the screen, beside the tenders
                  render: (_, line) => (
                    <Flex vertical>
                      <ProductNames kh={line.name_kh} en={line.name_en} sku={line.sku} locale={locale} />
                      <Typography.Text data-testid="review-line-quantity">
                        {`${formatCount(line.quantity)} ${unitOf(line)} × ${formatUsd(unitPrice(line))}`}
                        {line.quote && line.quote.source !== 'product' && (
                          <Tag color="blue" style={{ marginInlineStart: 8 }} data-testid="review-line-price-source">
                            {`${sourceText(t, line.quote.source)} · ${listText(t, locale, line.quote)}`}
                          </Tag>
                        )}
                      </Typography.Text>
                    </Flex>
                  ),
                },
                {
                  key: 'amount',
                  title: t('purchases.lineTotal'),
                  align: 'end',
                  render: (_, _line, index) => {
                    const priced = totals.lines[index];
                    return (
                      <Flex vertical align="flex-end">
                        <span>{formatUsd(priced.gross_cents - priced.line_discount_cents)}</span>
                        {priced.line_discount_cents > 0 && (
                          <Typography.Text type="success" style={{ fontSize: 12 }}>
                            −{formatUsd(priced.line_discount_cents)}
                          </Typography.Text>
                        )}
                      </Flex>
                    );
                  },
                },
              ]}
            />
            <CartTotals totals={totals} rates={rates.data} />
          </Flex>
        </Col>
        <Col xs={24} xl={15}>
          <Flex vertical gap={16}>
            <TenderPanel
              dueCents={totals.total_cents}
              rates={ratesOf(rates.data)}
              value={tenders}
              onChange={(next) => {
                setTenders(next);
                setProblem(null);
              }}
              disabled={sell.isPending}
            />
            {problem && (
              <Alert
                type="error"
                showIcon
                title={problem.text}
                data-testid="pay-problem"
                action={
                  problem.retry ? (
                    <Button onClick={() => void complete()} loading={sell.isPending} data-testid="pay-retry">
                      {t('common.retry')}
                    </Button>
                  ) : undefined
                }
              />
            )}
            <Flex gap={12} justify="flex-end" wrap>
              <Button size="large" onClick={() => void back()} disabled={sell.isPending}>
                {t('pay.backToCart')}
              </Button>
              <KhqrButton
                tenders={tenders}
                totalCents={totals.total_cents}
                rates={ratesOf(rates.data)}
                disabled={sell.isPending || !tendersValid(tenders)}
                checkout={(payments) => checkout(payments, { offline: false, khqr: true })}
                onDone={(sale) => setDone(sale)}
                store={stores.data?.data.find((row) => row.id === cart.store_id)}
                keepOffline={(payments, qr) => checkout(payments, { deviceQr: qr })}
              />
              <Button
                type="primary"
                size="large"
                icon={<CheckOutlined />}
                loading={sell.isPending}
                disabled={blocked}
                onClick={() => void complete()}
                data-testid="complete-sale"
              >
                {t('pay.complete')} <Key>F9</Key>
              </Button>
            </Flex>
          </Flex>
        </Col>
      </Row>
      {approving && (
        <ApprovalDialog
          title={t('credit.approveSale')}
          help={approving.why}
          onApprove={approve}
          onClose={() => setApproving(null)}
        />
      )}
    </Card>
  );
}

/** `/orders/review`: the cart from the till (router state, or sessionStorage after a reload), then payment. */
export function OrderReviewPage() {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const { state } = useLocation();
  const [cart] = useState(() => cartFrom((state as { cart?: unknown } | null)?.cart) ?? loadCart());
  if (!cart || cart.lines.length === 0) {
    return (
      <Result
        status="info"
        title={t('pay.nothing')}
        extra={
          <Button type="primary" onClick={() => void navigate(localePath('/pos', locale))}>
            {t('menu.pos')}
          </Button>
        }
      />
    );
  }
  return <Review cart={cart} />;
}
