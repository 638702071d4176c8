import { PAYMENT_METHODS, type PaymentMethod } from '@depot/contracts';
import { Col, Form, Input, Row, Select } from 'antd';
import type { TFunction } from 'i18next';
import { DateInput, UsdInput } from '../kit/inputs.tsx';
import { useCtx } from '../kit/useCtx.ts';

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

/**
 * The fields of a payment to a supplier, named as `purchasePaymentInput` reads them (`amount_cents`,
 * `method`, `paid_at`, `reference`), inside the caller's antd Form: a purchase's own Pay and a
 * supplier's payment over several purchases (CreditDrawer). `id` prefixes the inputs' ids and test ids.
 */
export function PaymentFields({ id }: { id: string }) {
  const { t } = useCtx();
  const methods = paymentMethodLabels(t);
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item name="amount_cents" label={t('purchases.amount')} htmlFor={`${id}-amount`}>
          <UsdInput id={`${id}-amount`} data-testid={`${id}-amount`} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="method" label={t('purchases.methodLabel')} htmlFor={`${id}-method`}>
          <Select<PaymentMethod>
            id={`${id}-method`}
            options={PAYMENT_METHODS.map((value) => ({ value, label: methods[value] }))}
            virtual={false}
            data-testid={`${id}-method`}
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="paid_at" label={t('purchases.paidOn')} htmlFor={`${id}-date`}>
          <DateInput id={`${id}-date`} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="reference" label={t('purchases.reference')} htmlFor={`${id}-reference`}>
          <Input id={`${id}-reference`} maxLength={100} />
        </Form.Item>
      </Col>
    </Row>
  );
}
