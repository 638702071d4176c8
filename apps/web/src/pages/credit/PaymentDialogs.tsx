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
import { PAYMENT_FIELDS, type PaymentDraft, PaymentFields } from '../../components/PaymentFields.tsx';
import { RielInput, UsdInput } from '../../kit/inputs.tsx';
import { useRefreshAll } from '../../kit/queries.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { parseWith, useFormErrors } from '../../lib/forms.ts';
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
  const errors = useFormErrors((key) => fields.includes(key));
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
      errors.fail(error, locale);
      return null;
    }
  };
  const frame = {
    onClose,
    pending: send.isPending,
    problem: errors.problem,
    open: account.open,
    chosen,
    onChoose: setChosen,
  };
  return { chosen, errors, pay, frame };
}

/**
 * The dialog of a payment on account, a customer's or a supplier's: its fields, the refusal above
 * them and the open documents it goes to with each one's share, before it is recorded.
 */
function PaymentFrame({
  title,
  okText,
  onOk,
  onClose,
  pending,
  problem,
  open,
  cents,
  chosen,
  onChoose,
  children,
}: ReturnType<typeof usePayment>['frame'] & {
  title: string;
  okText: string;
  onOk: () => void;
  cents: number;
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
      <Form layout="vertical" component="div" data-testid="credit-pay-form">
        {problem && (
          <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} data-testid="credit-pay-problem" />
        )}
        {children}
        <AllocationTable open={open} cents={cents} chosen={chosen} onChoose={onChoose} />
      </Form>
    </Modal>
  );
}

/** A payment's reference (a transfer's, a card slip's), its message under it. */
function ReferenceField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: { validateStatus?: 'error'; help?: string };
}) {
  const { t } = useCtx();
  return (
    <Form.Item label={t('credit.reference')} htmlFor="credit-reference" {...error}>
      <Input id="credit-reference" maxLength={100} value={value} onChange={(e) => onChange(e.target.value)} />
    </Form.Item>
  );
}

const PAY_FIELDS = ['amount', 'method', 'transaction_id', 'note'];

/** A payment on account: the tender, the orders it pays (all, oldest first, unless some are chosen) and the split, shown before it is recorded. */
export function PaymentDialog({ account, onClose }: { account: CreditAccount; onClose: () => void }) {
  const { t } = useCtx();
  const rates = useCurrentRates();
  const [method, setMethod] = useState<TenderMethod>('cash_usd');
  const [amount, setAmount] = useState<number | string | null | undefined>(account.balance_cents);
  const [reference, setReference] = useState('');
  const payment = usePayment(
    account,
    `customers/${account.id}/payments`,
    written(customerPayment),
    PAY_FIELDS,
    onClose,
  );
  const { item } = payment.errors;
  const rateIn = rates.data ? rates.data.rate_in_khr || rates.data.rate_khr : null;
  const cents =
    typeof amount !== 'number' ? 0 : method === 'cash_khr' ? (rateIn ? khrToCents(amount, rateIn) : 0) : amount;

  const submit = async () => {
    const orders = payment.chosen.length ? payment.chosen : null;
    if (await payment.pay({ method, amount, transaction_id: reference, order_ids: orders })) onClose();
  };

  return (
    <PaymentFrame
      {...payment.frame}
      title={t('credit.recordPayment')}
      okText={t('credit.record')}
      onOk={() => void submit()}
      cents={cents}
    >
      <Form.Item label={t('credit.method')} htmlFor="credit-method" {...item('method')}>
        <Select<TenderMethod>
          id="credit-method"
          value={method}
          onChange={(next) => {
            setMethod(next);
            setAmount(next === 'cash_khr' && rateIn ? Math.ceil((cents * rateIn) / 100) : cents);
          }}
          options={TENDER_METHODS.map((m) => ({ value: m, label: t(`credit.methods.${m}`) }))}
          data-testid="credit-method"
        />
      </Form.Item>
      <Form.Item label={t('credit.amount')} htmlFor="credit-amount" {...item('amount')}>
        {method === 'cash_khr' ? (
          <RielInput
            id="credit-amount"
            value={typeof amount === 'number' ? amount : null}
            onChange={setAmount}
            data-testid="credit-amount"
          />
        ) : (
          <UsdInput id="credit-amount" value={amount ?? undefined} onChange={setAmount} data-testid="credit-amount" />
        )}
      </Form.Item>
      {method !== 'cash_usd' && method !== 'cash_khr' && (
        <ReferenceField value={reference} onChange={setReference} error={item('transaction_id')} />
      )}
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
  const { t, locale } = useCtx();
  const [draft, setDraft] = useState<PaymentDraft>({
    amount: account.balance_cents,
    method: 'bank_transfer',
    paidAt: todayInCambodia(),
    reference: '',
  });
  const [done, setDone] = useState<SupplierPayment | null>(null);
  const payment = usePayment(
    account,
    `suppliers/${account.id}/payments`,
    written(supplierPayment),
    PAYMENT_FIELDS,
    onClose,
  );
  const cents = typeof draft.amount === 'number' ? draft.amount : 0;

  const submit = async () => {
    const body = {
      amount_cents: draft.amount,
      method: draft.method,
      paid_at: draft.paidAt,
      reference: draft.reference,
      purchase_ids: payment.chosen.length ? payment.chosen : null,
    };
    const parsed = parseWith(supplierPaymentInput, body, locale);
    if (!parsed.data) {
      payment.errors.setProblem(null);
      payment.errors.setErrors(parsed.errors);
      return;
    }
    const paid = await payment.pay(parsed.data);
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
    >
      <PaymentFields
        id="credit"
        draft={draft}
        onChange={(patch) => setDraft((current) => ({ ...current, ...patch }))}
        errors={payment.errors}
      />
    </PaymentFrame>
  );
}
