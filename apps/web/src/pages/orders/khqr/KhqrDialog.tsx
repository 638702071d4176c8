import { CheckOutlined, ReloadOutlined, SyncOutlined } from '@ant-design/icons';
import {
  formatCountdown,
  formatKhr,
  formatTime,
  formatUsd,
  type KhqrCurrency,
  type KhqrPayment,
  khqrCheck,
  khqrPayment,
  type OrderDetail,
  orderDetail,
  settle,
  written,
} from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Modal, Popconfirm, Segmented, Skeleton, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { failureMessage, useRefreshAll } from '../../../kit/queries.ts';
import { useCtx } from '../../../kit/useCtx.ts';
import { useDisplayKhqr } from '../../../lib/customerDisplay.ts';
import { api, NetworkError } from '../../../lib/http.ts';
import { outcomeUnknown, retryKeys } from '../../till/cart.ts';
import { orderRates } from '../OrderDialogs.tsx';
import { KhqrCard } from './KhqrCard.tsx';
import { TransferClaim } from './TransferClaim.tsx';

const made = written(khqrPayment);
const checked = written(khqrCheck.extend({ order: orderDetail }));
const paidAnswer = written(orderDetail);
/** Bakong is asked this often while the QR is on screen (only when the server has a token). */
export const CHECK_EVERY_MS = 5000;

/**
 * Paying an order by KHQR: the order exists (its number is the QR's bill number), a dynamic KHQR
 * is made for what it still owes, in dollars or riel, and the payment is confirmed by Bakong (the
 * server checks by the QR's md5, every few seconds until it is paid or expires) or by the cashier
 * who sees it on the bank's notification. Either way the tender is KHQR with its reference. A
 * customer who paid by transfer instead shows its reference, checked with Bakong (TransferClaim).
 * The QR expires after the server's setting (10 minutes at most): then it can no longer be
 * confirmed, and a new one is made. Closed unpaid, the order stays unpaid (paid later from its
 * details, or cancelled).
 */
export function KhqrDialog({
  order,
  onPaid,
  onClose,
}: {
  order: OrderDetail;
  onPaid: (paid: OrderDetail) => void;
  onClose: () => void;
}) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const [currency, setCurrency] = useState<KhqrCurrency>('USD');
  const [qr, setQr] = useState<KhqrPayment | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [keys] = useState(() => retryKeys(`depot.order_khqr_key.${order.id}`));
  const [now, setNow] = useState(() => Date.now());
  const due = order.due_cents;
  const dueKhr = settle(due, [], orderRates(order)).due_khr;

  const make = useMutation({
    mutationFn: (next: KhqrCurrency) =>
      api(`orders/${order.id}/khqr`, { method: 'POST', body: { currency: next }, schema: made }),
    onSuccess: (answer) => {
      setQr(answer.data);
      setProblem(null);
    },
    // the QR is made (and its payment checked) by the server: no connection, none
    onError: (error) =>
      setProblem(error instanceof NetworkError ? t('offline.needsConnection') : failureMessage(error, locale)),
  });
  const check = useMutation({
    mutationFn: (md5: string) =>
      api(`orders/${order.id}/khqr/check`, { method: 'POST', body: { md5 }, schema: checked }),
  });
  const confirm = useMutation({
    mutationFn: ({ body, key }: { body: unknown; key: string }) =>
      api(`orders/${order.id}/payments`, { method: 'POST', body, schema: paidAnswer, idempotencyKey: key }),
  });

  const { mutate } = make;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new QR when the currency changes, once
  useEffect(() => {
    setQr(null);
    // no connection: no QR (a paused request would only spin)
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      setProblem(t('offline.needsConnection'));
      return;
    }
    mutate(currency);
  }, [currency]);

  const done = useCallback(
    (paid: OrderDetail, confirmation: string) => {
      void message.success(confirmation);
      void refresh();
      onPaid(paid);
    },
    [message, refresh, onPaid],
  );

  const askBakong = useCallback(
    async (quiet: boolean) => {
      if (!qr || check.isPending) return;
      try {
        const answer = await check.mutateAsync(qr.md5);
        if (answer.data.paid) done(answer.data.order, answer.message);
        else if (!quiet) setProblem(answer.message);
      } catch (error) {
        if (!quiet) setProblem(failureMessage(error, locale));
      }
    },
    [qr, check, done, locale],
  );

  const expired = qr ? Date.parse(qr.expires_at) <= now : false;
  // the same QR on the customer's screen while it can be paid
  useDisplayKhqr(qr && !expired ? qr : null);
  // the countdown, every second
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  // Bakong, every few seconds while the QR can be paid; once more as it expires (paid at the last moment)
  const ask = useRef(askBakong);
  ask.current = askBakong;
  const lastAsked = useRef<string | null>(null);
  useEffect(() => {
    if (!qr?.can_check) return;
    if (expired) {
      if (lastAsked.current !== qr.md5) void ask.current(true);
      lastAsked.current = qr.md5;
      return;
    }
    const timer = setInterval(() => void ask.current(true), CHECK_EVERY_MS);
    return () => clearInterval(timer);
  }, [qr, expired]);

  const byHand = async () => {
    if (!qr) return;
    const body = { payments: [{ method: 'khqr', amount: qr.amount_cents, transaction_id: qr.md5 }] };
    try {
      const answer = await confirm.mutateAsync({ body, key: keys.keyFor(body) });
      keys.settle();
      done(answer.data, answer.message);
    } catch (error) {
      if (!outcomeUnknown(error)) keys.settle();
      setProblem(outcomeUnknown(error) ? t('pay.offline') : failureMessage(error, locale));
    }
  };

  return (
    <Modal
      open
      title={t('khqr.title', { number: order.number })}
      onCancel={onClose}
      width={460}
      destroyOnHidden
      maskClosable={false}
      footer={
        <Flex gap={8} justify="space-between" wrap>
          <Button onClick={onClose} data-testid="khqr-later">
            {t('khqr.later')}
          </Button>
          <Flex gap={8}>
            {qr?.can_check && (
              <Button
                icon={<SyncOutlined />}
                loading={check.isPending}
                onClick={() => void askBakong(false)}
                data-testid="khqr-check"
              >
                {t('khqr.check')}
              </Button>
            )}
            <Popconfirm
              title={t('khqr.confirmTitle')}
              description={t('khqr.confirmHelp')}
              okText={t('khqr.confirm')}
              cancelText={t('kit.cancel')}
              onConfirm={() => void byHand()}
            >
              <Button
                type="primary"
                icon={<CheckOutlined />}
                disabled={!qr || expired}
                loading={confirm.isPending}
                data-testid="khqr-confirm"
              >
                {t('khqr.confirm')}
              </Button>
            </Popconfirm>
          </Flex>
        </Flex>
      }
    >
      <Flex vertical gap={12} align="center" data-testid="khqr-dialog">
        <Segmented<KhqrCurrency>
          value={currency}
          onChange={setCurrency}
          disabled={make.isPending}
          data-testid="khqr-currency"
          options={[
            { value: 'USD', label: `${formatUsd(due)} USD` },
            { value: 'KHR', label: `${formatKhr(dueKhr)} KHR` },
          ]}
        />
        {qr ? <KhqrCard qr={qr} /> : <Skeleton.Node active style={{ width: 272, height: 360 }} />}
        {qr && !expired && (
          <Typography.Text strong data-testid="khqr-countdown">
            {t('khqr.left', { time: formatCountdown(Date.parse(qr.expires_at) - now) })}
          </Typography.Text>
        )}
        {qr && (
          <Typography.Text type={expired ? 'danger' : 'secondary'} data-testid="khqr-expiry">
            {expired
              ? t('khqr.expired')
              : qr.can_check
                ? t('khqr.waitingBakong', { time: formatTime(qr.expires_at) })
                : t('khqr.waitingHand', { time: formatTime(qr.expires_at) })}
          </Typography.Text>
        )}
        {expired && (
          <Button icon={<ReloadOutlined />} onClick={() => mutate(currency)} data-testid="khqr-again">
            {t('khqr.again')}
          </Button>
        )}
        {problem && <Alert type="info" showIcon title={problem} style={{ width: '100%' }} data-testid="khqr-problem" />}
        {qr?.can_check && <TransferClaim order={order} currency={currency} onPaid={done} />}
      </Flex>
    </Modal>
  );
}
