import { PAYMENT_METHODS, type PaymentMethod } from '@depot/contracts';
import { Col, Form, Input, Row, Select } from 'antd';
import type { TFunction } from 'i18next';
import { DateInput, UsdInput } from '../kit/inputs.tsx';
import { useCtx } from '../kit/useCtx.ts';
import type { useFormErrors } from '../lib/forms.ts';

/** How a payment is typed and named, by a sale, a purchase and an account's payment. */

export function paymentMethodLabels(t: TFunction): Record<PaymentMethod, string> {
  return {
    cash_usd: t('purchases.method.cash_usd'),
    cash_khr: t('purchases.method.cash_khr'),
    bank_transfer: t('purchases.method.bank_transfer'),
    khqr: t('purchases.method.khqr'),
    card: t('purchases.method.card'),
    cheque: t('purchases.method.cheque'),
  };
}

export const PAYMENT_FIELDS = ['amount_cents', 'method', 'paid_at', 'reference', 'note'];

/** A payment to a supplier as typed: what `purchasePaymentInput` reads (amount, method, day, reference). */
export interface PaymentDraft {
  amount: number | string | null | undefined;
  method: PaymentMethod;
  paidAt: string | null;
  reference: string;
}

/**
 * The fields of a payment to a supplier, each with its message (cleared when it changes): a
 * purchase's own Pay and a supplier's payment over several purchases (CreditDrawer) type them here.
 * `id` prefixes the inputs' ids and test ids.
 */
export function PaymentFields({
  id,
  draft,
  onChange,
  errors: { item, clear },
}: {
  id: string;
  draft: PaymentDraft;
  onChange: (patch: Partial<PaymentDraft>) => void;
  errors: Pick<ReturnType<typeof useFormErrors>, 'item' | 'clear'>;
}) {
  const { t } = useCtx();
  const methods = paymentMethodLabels(t);
  const change = (field: string, patch: Partial<PaymentDraft>) => {
    onChange(patch);
    clear(field);
  };
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item label={t('purchases.amount')} htmlFor={`${id}-amount`} {...item('amount_cents')}>
          <UsdInput
            id={`${id}-amount`}
            value={draft.amount ?? undefined}
            onChange={(amount) => change('amount_cents', { amount })}
            data-testid={`${id}-amount`}
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label={t('purchases.methodLabel')} htmlFor={`${id}-method`} {...item('method')}>
          <Select<PaymentMethod>
            id={`${id}-method`}
            value={draft.method}
            onChange={(method) => change('method', { method })}
            options={PAYMENT_METHODS.map((value) => ({ value, label: methods[value] }))}
            virtual={false}
            data-testid={`${id}-method`}
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label={t('purchases.paidOn')} htmlFor={`${id}-date`} {...item('paid_at')}>
          <DateInput
            id={`${id}-date`}
            value={draft.paidAt}
            onChange={(paidAt) => change('paid_at', { paidAt: paidAt ?? null })}
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label={t('purchases.reference')} htmlFor={`${id}-reference`} {...item('reference')}>
          <Input
            id={`${id}-reference`}
            maxLength={100}
            value={draft.reference}
            onChange={(event) => change('reference', { reference: event.target.value })}
          />
        </Form.Item>
      </Col>
    </Row>
  );
}
