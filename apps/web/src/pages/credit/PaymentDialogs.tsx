import {
  allocatePayment,
  type CreditAccount,
  customerPayment,
  formatUsd,
  khrToCents,
  type OpenDocument,
  type SupplierPayment,
  supplierPayment,
  supplierPaymentInput,
  TENDER_METHODS,
  type TenderMethod,
  todayInCambodia,
  written,
} from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal, Select, Table, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { PAYMENT_FIELDS, PaymentFields } from '../../components/PaymentFields.tsx';
import { RielInput, UsdInput } from '../../kit/inputs.tsx';
import { useRefreshAll } from '../../kit/queries.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useFormCheck } from '../../lib/forms.ts';
import { api, newIdempotencyKey, outcomeUnknown } from '../../lib/http.ts';
import { useCurrentRates } from '../rates/rates.tsx';

/**
 * What both payments on account share: the documents chosen, the form's messages, and the write with
 * one Idempotency-Key per attempt (kept while the outcome is unknown), the server's message and
 * every list read again; `frame` is what their PaymentFrame shows of it.
 */
function usePayment<T>(
  account: CreditAccount,
  path: string,
  schema: z.ZodType<{ message: string; data: T }>,
  fields: readonly string[],
  onClose: () => void,
) {
  const { locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const [chosen, setChosen] = useState<number[]>([]);
  const [form] = Form.useForm();
  const errors = useFormCheck(form, fields, locale);
  const [key, setKey] = useState(newIdempotencyKey);
  const send = useMutation({
    mutationFn: (body: unknown) => api(path, { method: 'POST', body, schema, idempotencyKey: key }),
  });
  /** The payment's answer, or null once refused (the refusal shown in the form). */
  const pay = async (body: unknown): Promise<T | null> => {
    errors.setProblem(null);
    try {
      const answer = await send.mutateAsync(body);
      void message.success(answer.message);
      void refresh();
      return answer.data;
    } catch (error) {
      if (!outcomeUnknown(error)) setKey(newIdempotencyKey());
      errors.fail(error);
      return null;
    }
  };
  const frame = {
    form,
    onClose,
    edited: errors.edited,
    pending: send.isPending,
    problem: errors.problem,
    open: account.open,
    chosen,
    onChoose: setChosen,
  };
  return { form, chosen, errors, pay, frame };
}

/**
 * The dialog of a payment on account, a customer's or a supplier's: its fields, the refusal above
 * them and the open documents it goes to with each one's share, before it is recorded.
 */
function PaymentFrame({
  form,
  title,
  okText,
  onOk,
  onClose,
  edited,
  pending,
  problem,
  open,
  cents,
  initialValues,
  chosen,
  onChoose,
  children,
}: ReturnType<typeof usePayment>['frame'] & {
  title: string;
  okText: string;
  onOk: () => void;
  cents: number;
  initialValues: Record<string, unknown>;
  children: ReactNode;
}) {
  const { t } = useCtx();
  return (
    <Modal
      open
      width={640}
      title={title}
      okText={okText}
      cancelText={t('kit.cancel')}
      onOk={onOk}
      onCancel={onClose}
      confirmLoading={pending}
      okButtonProps={{ 'data-testid': 'credit-pay-ok', disabled: cents <= 0 }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        component="div"
        data-testid="credit-pay-form"
        initialValues={initialValues}
        onValuesChange={edited}
      >
        {problem && (
          <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} data-testid="credit-pay-problem" />
        )}
        {children}
        <AllocationTable open={open} cents={cents} chosen={chosen} onChoose={onChoose} />
      </Form>
    </Modal>
  );
}

/** A payment's reference (a transfer's, a card slip's): the form's `transaction_id`. */
function ReferenceField() {
  const { t } = useCtx();
  return (
    <Form.Item name="transaction_id" label={t('credit.reference')} htmlFor="credit-reference">
      <Input id="credit-reference" maxLength={100} />
    </Form.Item>
  );
}

const PAY_FIELDS = ['amount', 'method', 'transaction_id', 'note'];

/** A payment on account: the tender, the orders it pays (all, oldest first, unless some are chosen) and the split, shown before it is recorded. */
export function PaymentDialog({ account, onClose }: { account: CreditAccount; onClose: () => void }) {
  const { t } = useCtx();
  const rates = useCurrentRates();
  const payment = usePayment(
    account,
    `customers/${account.id}/payments`,
    written(customerPayment),
    PAY_FIELDS,
    onClose,
  );
  const { form } = payment;
  const method: TenderMethod = Form.useWatch('method', form) ?? 'cash_usd';
  const amount: number | string | null | undefined = Form.useWatch('amount', form);
  const rateIn = rates.data ? rates.data.rate_in_khr || rates.data.rate_khr : null;
  const cents =
    typeof amount !== 'number' ? 0 : method === 'cash_khr' ? (rateIn ? khrToCents(amount, rateIn) : 0) : amount;

  const submit = async () => {
    const orders = payment.chosen.length ? payment.chosen : null;
    const values = form.getFieldsValue(true);
    const body = {
      method: values.method,
      amount: values.amount,
      transaction_id: values.transaction_id,
      order_ids: orders,
    };
    if (await payment.pay(body)) onClose();
  };

  return (
    <PaymentFrame
      {...payment.frame}
      title={t('credit.recordPayment')}
      okText={t('credit.record')}
      onOk={() => void submit()}
      cents={cents}
      initialValues={{ method: 'cash_usd', amount: account.balance_cents, transaction_id: '' }}
    >
      <Form.Item name="method" label={t('credit.method')} htmlFor="credit-method">
        <Select<TenderMethod>
          id="credit-method"
          onChange={(next) =>
            // the same sum in the new currency: riel at the rate riel is received at
            form.setFieldValue('amount', next === 'cash_khr' && rateIn ? Math.ceil((cents * rateIn) / 100) : cents)
          }
          options={TENDER_METHODS.map((m) => ({ value: m, label: t(`credit.methods.${m}`) }))}
          data-testid="credit-method"
        />
      </Form.Item>
      <Form.Item name="amount" label={t('credit.amount')} htmlFor="credit-amount">
        {method === 'cash_khr' ? (
          <RielInput id="credit-amount" data-testid="credit-amount" />
        ) : (
          <UsdInput id="credit-amount" data-testid="credit-amount" />
        )}
      </Form.Item>
      {method !== 'cash_usd' && method !== 'cash_khr' && <ReferenceField />}
    </PaymentFrame>
  );
}

/**
 * The open documents a payment on account goes to, with each one's share: oldest first, or only the
 * ticked ones, by contracts' `allocatePayment` (the server's own allocation).
 */
function AllocationTable({
  open,
  cents,
  chosen,
  onChoose,
}: {
  open: OpenDocument[];
  cents: number;
  chosen: number[];
  onChoose: (ids: number[]) => void;
}) {
  const { t } = useCtx();
  const preview = allocatePayment(open, cents, chosen.length ? chosen : null);
  const byId = new Map(open.map((d) => [d.id, d]));
  return (
    <>
      <Typography.Paragraph type="secondary">{t('credit.allocationHelp')}</Typography.Paragraph>
      <Table<OpenDocument>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={open}
        data-testid="credit-allocation"
        rowSelection={{ selectedRowKeys: chosen, onChange: (keys) => onChoose(keys as number[]) }}
        {...fitTable}
        columns={[
          { key: 'number', title: t('credit.document'), render: (_, d) => d.number },
          { key: 'left', title: t('credit.left'), align: 'end', render: (_, d) => formatUsd(d.due_cents) },
          {
            key: 'share',
            title: t('credit.share'),
            align: 'end',
            render: (_, d) => {
              const share = preview.find((s) => s.id === d.id)?.amount_cents ?? 0;
              return share ? (
                <Typography.Text strong data-testid={`credit-share-${d.number}`}>
                  {formatUsd(share)}
                  {share === byId.get(d.id)?.due_cents ? ` ✓` : ''}
                </Typography.Text>
              ) : (
                '—'
              );
            },
          },
        ]}
      />
    </>
  );
}

/**
 * One payment to a supplier over its unpaid purchases (oldest first, or those ticked): the split is
 * shown before it is recorded, and the purchases it paid once it is. Its fields are a purchase's
 * own payment's (`PaymentFields`), as the server pays each purchase as the purchase's Pay does.
 */
export function SupplierPaymentDialog({ account, onClose }: { account: CreditAccount; onClose: () => void }) {
  const { t } = useCtx();
  const [done, setDone] = useState<SupplierPayment | null>(null);
  const payment = usePayment(
    account,
    `suppliers/${account.id}/payments`,
    written(supplierPayment),
    PAYMENT_FIELDS,
    onClose,
  );
  const amount: unknown = Form.useWatch('amount_cents', payment.form);
  const cents = typeof amount === 'number' ? amount : 0;

  const submit = async () => {
    const purchases = payment.chosen.length ? payment.chosen : null;
    const body = payment.errors.check(supplierPaymentInput, {
      ...payment.form.getFieldsValue(true),
      purchase_ids: purchases,
    });
    if (!body) return;
    const paid = await payment.pay(body);
    if (paid) setDone(paid);
  };

  if (done) {
    return (
      <Modal
        open
        title={t('credit.paySupplier')}
        onCancel={onClose}
        onOk={onClose}
        cancelButtonProps={{ style: { display: 'none' } }}
        okText={t('credit.done')}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('credit.paidOver', { amount: formatUsd(done.amount_cents) })}</Typography.Paragraph>
        <Table
          size="small"
          rowKey="purchase_id"
          pagination={false}
          dataSource={done.allocations}
          data-testid="supplier-paid"
          {...fitTable}
          columns={[
            { key: 'number', title: t('credit.document'), render: (_, a) => a.number },
            {
              key: 'share',
              title: t('credit.share'),
              align: 'end',
              render: (_, a) => <span data-testid={`supplier-paid-${a.number}`}>{formatUsd(a.amount_cents)}</span>,
            },
          ]}
        />
      </Modal>
    );
  }

  return (
    <PaymentFrame
      {...payment.frame}
      title={t('credit.paySupplier')}
      okText={t('credit.pay')}
      onOk={() => void submit()}
      cents={cents}
      initialValues={{
        amount_cents: account.balance_cents,
        method: 'bank_transfer',
        paid_at: todayInCambodia(),
        reference: '',
      }}
    >
      <PaymentFields id="credit" />
    </PaymentFrame>
  );
}
