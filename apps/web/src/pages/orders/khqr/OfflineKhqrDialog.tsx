import { CheckOutlined } from '@ant-design/icons';
import {
  encodeKhqr,
  formatCountdown,
  KHQR_LIMITS,
  KHQR_TILL_MAX_MINUTES,
  type KhqrPayment,
  type TenderInput,
} from '@depot/contracts';
import { Alert, Button, Flex, Modal, Popconfirm, Typography } from 'antd';
import md5 from 'md5';
import { useEffect, useMemo, useState } from 'react';
import { useCtx } from '../../../kit/useCtx.ts';
import { KhqrCard } from './KhqrCard.tsx';

/** A store's Bakong account as the till's store list has it. */
export interface Payee {
  code: string;
  khqr_account_id: string | null;
  khqr_merchant_name: string | null;
  khqr_merchant_city: string | null;
  khqr_merchant_id: string | null;
  khqr_acquiring_bank: string | null;
}

/** A KHQR made on the device: its payload and md5 (the tender's reference, and Bakong's key to it). */
export interface DeviceQr {
  payload: string;
  md5: string;
}

/** The dynamic KHQR for `cents` into the store's account, made here (no server), valid 10 minutes. */
export function deviceQr(store: Payee, cents: number, now = Date.now()): (DeviceQr & { expires_at: number }) | null {
  if (!store.khqr_account_id || !store.khqr_merchant_name || !store.khqr_merchant_city) return null;
  const expires = now + KHQR_TILL_MAX_MINUTES * 60_000;
  const payload = encodeKhqr({
    account_id: store.khqr_account_id,
    merchant_id: store.khqr_merchant_id,
    acquiring_bank: store.khqr_acquiring_bank,
    merchant_name: store.khqr_merchant_name,
    merchant_city: store.khqr_merchant_city,
    mcc: '5999',
    currency: 'USD',
    amount: cents,
    bill_number: null,
    store_label: store.code.slice(0, KHQR_LIMITS.store_label) || null,
    terminal_label: null,
    created_at: now,
    expires_at: expires,
  });
  return { payload, md5: md5(payload), expires_at: expires };
}

/**
 * A KHQR while the till is offline: made on the device for what is due, in dollars, into the
 * store's account. Bakong cannot be asked now, so the cashier confirms the payment from the bank's
 * notification; the sale is kept on the device with the QR, and when it syncs the server records
 * the QR and asks Bakong (what it does not confirm is listed at the shift's close).
 */
export function OfflineKhqrDialog({
  store,
  dueCents,
  others,
  keep,
  onClose,
}: {
  store: Payee;
  dueCents: number;
  /** The tenders handed over besides the QR (cash towards it). */
  others: TenderInput[];
  keep: (payments: TenderInput[], qr: DeviceQr) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useCtx();
  const made = useMemo(() => deviceQr(store, dueCents), [store, dueCents]);
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const expired = made ? made.expires_at <= now : true;
  const card: KhqrPayment | null = made && {
    id: 0,
    order_id: 0,
    order_number: '',
    payload: made.payload,
    md5: made.md5,
    currency: 'USD',
    amount: dueCents,
    amount_cents: dueCents,
    merchant_name: store.khqr_merchant_name ?? '',
    created_at: new Date(made.expires_at - KHQR_TILL_MAX_MINUTES * 60_000).toISOString(),
    expires_at: new Date(made.expires_at).toISOString(),
    paid_hash: null,
    offline: true,
    can_check: false,
  };
  const confirm = async () => {
    if (!made) return;
    setBusy(true);
    try {
      await keep([...others, { method: 'khqr', amount: dueCents, transaction_id: made.md5 }], {
        payload: made.payload,
        md5: made.md5,
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('khqr.offlineTitle')}
      onCancel={onClose}
      width={460}
      destroyOnHidden
      maskClosable={false}
      footer={
        <Flex gap={8} justify="space-between">
          <Button onClick={onClose}>{t('kit.cancel')}</Button>
          <Popconfirm
            title={t('khqr.confirmTitle')}
            description={t('khqr.confirmHelp')}
            okText={t('khqr.confirm')}
            cancelText={t('kit.cancel')}
            onConfirm={() => void confirm()}
          >
            <Button
              type="primary"
              icon={<CheckOutlined />}
              disabled={!made || expired}
              loading={busy}
              data-testid="khqr-confirm"
            >
              {t('khqr.confirm')}
            </Button>
          </Popconfirm>
        </Flex>
      }
    >
      <Flex vertical gap={12} align="center" data-testid="khqr-offline">
        <Alert type="warning" showIcon title={t('khqr.offlineHelp')} style={{ width: '100%' }} />
        {card && <KhqrCard qr={card} />}
        {made && !expired && (
          <Typography.Text strong data-testid="khqr-countdown">
            {t('khqr.left', { time: formatCountdown(made.expires_at - now) })}
          </Typography.Text>
        )}
        {expired && <Typography.Text type="danger">{t('khqr.expired')}</Typography.Text>}
      </Flex>
    </Modal>
  );
}
