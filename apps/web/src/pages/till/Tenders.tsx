import { CreditCardOutlined, DollarOutlined, QrcodeOutlined } from '@ant-design/icons';
import {
  type ChangeIn,
  formatKhr,
  formatUsd,
  type Rates,
  rielOf,
  type Settlement,
  settle,
  type TenderInput,
} from '@depot/contracts';
import { Alert, Button, Col, Divider, Flex, Input, Radio, Row, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { paymentMethodLabels } from '../../components/PaymentFields.tsx';
import { RielInput, UsdInput } from '../../kit/inputs.tsx';
import { useCtx } from '../../kit/useCtx.ts';
import { cents } from './cart.ts';

/**
 * Money handed over at the till: dollars and riel in cash (with the common notes as buttons), card,
 * bank transfer and KHQR with their transaction ids. `settle` from the contracts works out what is
 * paid, what is due and the change, exactly as the server records it.
 */

type Exact = 'card' | 'bank_transfer' | 'khqr';
export const EXACT_METHODS: Exact[] = ['card', 'bank_transfer', 'khqr'];

export interface TenderState {
  usd: number | string | undefined;
  khr: number | null;
  exact: Record<Exact, { amount: number | string | undefined; transaction_id: string }>;
  /** How the change is handed back: it decides which drawer it leaves (pricing.ts changeGiven). */
  change_in: ChangeIn;
}

export function emptyTenders(): TenderState {
  return {
    usd: undefined,
    khr: null,
    exact: {
      card: { amount: undefined, transaction_id: '' },
      bank_transfer: { amount: undefined, transaction_id: '' },
      khqr: { amount: undefined, transaction_id: '' },
    },
    change_in: 'split',
  };
}

/** The tenders the API takes: cash in dollars (cents), cash in riel (riel), the others in cents. */
export function tendersOf(state: TenderState): TenderInput[] {
  const out: TenderInput[] = [];
  if (cents(state.usd) > 0) out.push({ method: 'cash_usd', amount: cents(state.usd), transaction_id: null });
  if (state.khr && state.khr > 0) out.push({ method: 'cash_khr', amount: state.khr, transaction_id: null });
  for (const method of EXACT_METHODS) {
    const amount = cents(state.exact[method].amount);
    if (amount > 0) {
      out.push({ method, amount, transaction_id: state.exact[method].transaction_id.trim() || null });
    }
  }
  return out;
}

/** What typed is not an amount yet: the money is not counted, and the sale waits. */
export function tendersValid(state: TenderState): boolean {
  const ok = (value: number | string | undefined) => value === undefined || typeof value === 'number';
  return ok(state.usd) && EXACT_METHODS.every((m) => ok(state.exact[m].amount));
}

/** Card, transfer and KHQR are never more than due (the server's rule: they give no change). */
export function exactTooMuch(state: TenderState, dueCents: number): boolean {
  return EXACT_METHODS.reduce((sum, m) => sum + cents(state.exact[m].amount), 0) > dueCents;
}

const USD_NOTES = [100, 500, 1000, 2000, 5000, 10000];
const KHR_NOTES = [10_000, 20_000, 50_000, 100_000];

function Figure({
  label,
  children,
  testId,
  strong,
}: {
  label: string;
  children: ReactNode;
  testId: string;
  strong?: boolean;
}) {
  return (
    <Flex justify="space-between" align="baseline" gap={16}>
      <Typography.Text type={strong ? undefined : 'secondary'} strong={strong}>
        {label}
      </Typography.Text>
      <span data-testid={testId} style={{ textAlign: 'end' }}>
        {children}
      </span>
    </Flex>
  );
}

/** Paid, due (both currencies), change in dollars, in riel, and as whole dollars with riel. */
export function SettlementView({
  settlement,
  rates,
  totalCents,
  changeIn = 'split',
  onChangeIn,
}: {
  settlement: Settlement;
  /** How the change is handed back; without `onChangeIn`, shown only. */
  changeIn?: ChangeIn;
  onChangeIn?: (how: ChangeIn) => void;
  rates: Rates;
  totalCents: number;
}) {
  const { t } = useCtx();
  const status: Record<Settlement['status'], ReactNode> = {
    paid: <Tag color="green">{t('purchases.payment.paid')}</Tag>,
    partially_paid: <Tag color="orange">{t('purchases.payment.partially_paid')}</Tag>,
    unpaid: <Tag color="red">{t('purchases.payment.unpaid')}</Tag>,
  };
  const change = settlement.change_cents > 0 || settlement.change_khr > 0;
  return (
    <Flex vertical gap={6} data-testid="settlement">
      <Figure label={t('pay.total')} testId="settle-total" strong>
        <Typography.Text strong style={{ fontSize: 20 }}>
          {formatUsd(totalCents)}
        </Typography.Text>{' '}
        <Typography.Text type="secondary">{formatKhr(settlement.total_khr)}</Typography.Text>
      </Figure>
      <Figure label={t('purchases.paid')} testId="settle-paid">
        {formatUsd(settlement.tendered_cents)}{' '}
        <Typography.Text type="secondary">{formatKhr(rielOf(settlement.tendered_cents, rates))}</Typography.Text>
      </Figure>
      <Figure label={t('purchases.due')} testId="settle-due">
        <Typography.Text type={settlement.due_cents > 0 ? 'danger' : undefined} strong={settlement.due_cents > 0}>
          <span data-testid="due-usd">{formatUsd(settlement.due_cents)}</span> ·{' '}
          <span data-testid="due-khr">{formatKhr(settlement.due_khr)}</span>
        </Typography.Text>
      </Figure>
      <Divider style={{ margin: '4px 0' }} />
      <Figure label={t('pay.change')} testId="settle-change" strong>
        <Typography.Text strong style={{ fontSize: 22 }} type={change ? 'success' : undefined}>
          <span data-testid="change-usd">{formatUsd(settlement.change_cents)}</span>
        </Typography.Text>
      </Figure>
      {change && (
        <Radio.Group
          aria-label={t('pay.changeIn')}
          data-testid="change-in"
          value={changeIn}
          disabled={!onChangeIn}
          onChange={(event) => onChangeIn?.(event.target.value as ChangeIn)}
          style={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 4 }}
        >
          <Radio value="split" data-testid="change-in-split">
            <span data-testid="change-split">
              {formatUsd(settlement.change_split.usd_cents)} + {formatKhr(settlement.change_split.khr)}
            </span>
          </Radio>
          <Radio value="khr" data-testid="change-in-khr">
            <span data-testid="change-khr">{formatKhr(settlement.change_khr)}</span>
          </Radio>
          <Radio value="usd" data-testid="change-in-usd">
            {t('pay.changeAllUsd', { usd: formatUsd(settlement.change_cents) })}
          </Radio>
        </Radio.Group>
      )}
      <Flex justify="flex-end">
        <span data-testid="settle-status">{status[settlement.status]}</span>
      </Flex>
    </Flex>
  );
}

/** The inputs of the money handed over, with the live settlement beside them. */
export function TenderPanel({
  dueCents,
  rates,
  value,
  onChange,
  disabled,
}: {
  /** What is to be paid now (the order's total, or what is left of it). */
  dueCents: number;
  rates: Rates;
  value: TenderState;
  onChange: (next: TenderState) => void;
  disabled?: boolean;
}) {
  const { t } = useCtx();
  const labels = paymentMethodLabels(t);
  const settlement = settle(dueCents, tendersOf(value), rates);
  // What the other tenders leave to pay, to fill one tender with exactly that.
  const leftWithout = (drop: 'usd' | 'khr' | Exact) => {
    const others: TenderState = {
      ...value,
      usd: drop === 'usd' ? undefined : value.usd,
      khr: drop === 'khr' ? null : value.khr,
      exact: { ...value.exact },
    };
    if (drop !== 'usd' && drop !== 'khr') others.exact[drop] = { ...others.exact[drop], amount: undefined };
    return settle(dueCents, tendersOf(others), rates);
  };
  const setExact = (method: Exact, patch: Partial<TenderState['exact'][Exact]>) =>
    onChange({ ...value, exact: { ...value.exact, [method]: { ...value.exact[method], ...patch } } });
  const icons: Record<Exact, ReactNode> = {
    card: <CreditCardOutlined />,
    bank_transfer: <DollarOutlined />,
    khqr: <QrcodeOutlined />,
  };

  return (
    <Row gutter={[24, 16]} data-testid="tenders">
      <Col xs={24} md={14}>
        <Flex vertical gap={12}>
          <div>
            <label htmlFor="tender-usd">
              <Typography.Text strong>{labels.cash_usd}</Typography.Text>
            </label>
            <Flex gap={8} style={{ marginTop: 4 }}>
              <UsdInput
                id="tender-usd"
                autoFocus
                data-testid="tender-usd"
                disabled={disabled}
                value={value.usd}
                onChange={(usd) => onChange({ ...value, usd })}
              />
              <Button
                disabled={disabled}
                onClick={() => onChange({ ...value, usd: leftWithout('usd').due_cents || undefined })}
                data-testid="exact-usd"
              >
                {t('pay.exact')}
              </Button>
            </Flex>
            <Flex gap={6} wrap style={{ marginTop: 6 }}>
              {USD_NOTES.map((note) => (
                <Button
                  key={note}
                  size="small"
                  disabled={disabled}
                  data-testid={`note-usd-${note / 100}`}
                  onClick={() => onChange({ ...value, usd: cents(value.usd) + note })}
                >
                  +{formatUsd(note).replace('.00', '')}
                </Button>
              ))}
            </Flex>
          </div>
          <div>
            <label htmlFor="tender-khr">
              <Typography.Text strong>{labels.cash_khr}</Typography.Text>
            </label>
            <Flex gap={8} style={{ marginTop: 4 }}>
              <RielInput
                id="tender-khr"
                data-testid="tender-khr"
                disabled={disabled}
                value={value.khr}
                onChange={(khr) => onChange({ ...value, khr: khr ?? null })}
              />
              <Button
                disabled={disabled}
                onClick={() => onChange({ ...value, khr: leftWithout('khr').due_khr || null })}
                data-testid="exact-khr"
              >
                {t('pay.exact')}
              </Button>
            </Flex>
            <Flex gap={6} wrap style={{ marginTop: 6 }}>
              {KHR_NOTES.map((note) => (
                <Button
                  key={note}
                  size="small"
                  disabled={disabled}
                  data-testid={`note-khr-${note}`}
                  onClick={() => onChange({ ...value, khr: (value.khr ?? 0) + note })}
                >
                  +{formatKhr(note)}
                </Button>
              ))}
            </Flex>
          </div>
          {EXACT_METHODS.map((method) => (
            <div key={method}>
              <Typography.Text strong>
                {icons[method]} {labels[method]}
              </Typography.Text>
              <Flex gap={8} style={{ marginTop: 4 }}>
                <div style={{ width: 140, flex: 'none' }}>
                  <UsdInput
                    aria-label={t('pay.amountOf', { method: labels[method] })}
                    data-testid={`tender-${method}`}
                    disabled={disabled}
                    value={value.exact[method].amount}
                    onChange={(amount) => setExact(method, { amount })}
                  />
                </div>
                <Input
                  aria-label={t('pay.transactionOf', { method: labels[method] })}
                  placeholder={t('pay.transactionId')}
                  data-testid={`txn-${method}`}
                  maxLength={100}
                  disabled={disabled}
                  value={value.exact[method].transaction_id}
                  onChange={(event) => setExact(method, { transaction_id: event.target.value })}
                />
                <Button
                  disabled={disabled}
                  onClick={() => setExact(method, { amount: leftWithout(method).due_cents || undefined })}
                >
                  {t('pay.exact')}
                </Button>
              </Flex>
            </div>
          ))}
        </Flex>
      </Col>
      <Col xs={24} md={10}>
        <SettlementView
          settlement={settlement}
          rates={rates}
          totalCents={dueCents}
          changeIn={value.change_in}
          onChangeIn={disabled ? undefined : (change_in) => onChange({ ...value, change_in })}
        />
        {exactTooMuch(value, dueCents) && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 12 }}
            title={t('pay.tooMuchExact', { due: formatUsd(dueCents) })}
            data-testid="too-much-exact"
          />
        )}
        {!tendersValid(value) && (
          <Alert type="warning" showIcon style={{ marginTop: 12 }} title={t('pay.notAnAmount')} />
        )}
      </Col>
    </Row>
  );
}
