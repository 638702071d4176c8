import {
  type ApprovalInput,
  formatQuantity,
  type Locale,
  type OrderDetail,
  orderDetail,
  paymentsInput,
  type Rates,
  returnInput,
  written,
} from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Checkbox, Flex, Input, InputNumber, Modal, Radio, Table, Typography } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { paymentMethodLabels } from '../../components/PaymentFields.tsx';
import { ProductNames } from '../../components/products.tsx';
import { ApprovalDialog, needsApproval } from '../../kit/ApprovalDialog.tsx';
import { failureMessage, useRefreshAll } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { parseWith } from '../../lib/forms.ts';
import { ApiError, api, outcomeUnknown } from '../../lib/http.ts';
import { isOffline } from '../../lib/offline/outbox.ts';
import { retryKeys } from '../till/cart.ts';
import {
  emptyTenders,
  exactTooMuch,
  TenderPanel,
  type TenderState,
  tendersOf,
  tendersValid,
} from '../till/Tenders.tsx';

const answer = written(orderDetail);

function refusal(error: unknown, locale: Locale): string {
  if (error instanceof ApiError && error.status === 422 && error.body?.errors) {
    return Object.values(error.body.errors).flat().join(' ');
  }
  return failureMessage(error, locale);
}

/** The rates the order was sold at: a later payment settles at them, as the server does. */
export function orderRates(detail: OrderDetail): Rates {
  return {
    rate_khr: detail.exchange_rate_khr,
    rate_in_khr: detail.rate_in_khr,
    rate_out_khr: detail.rate_out_khr,
    khr_step: detail.khr_step,
  };
}

/**
 * A dialog's write to `orders/{id}/{action}`: the body checked with `schema` first, sent with a key
 * kept until the outcome is known (a retry after a lost answer does not pay or refund twice); done,
 * the message shown, every list refreshed and the dialog closed; refused, the reason in `problem`.
 */
function useOrderAction(detail: OrderDetail, action: 'payments' | 'returns', onClose: () => void) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const [problem, setProblem] = useState<string | null>(null);
  const [keys] = useState(() => retryKeys(`depot.order_${action}_key.${detail.id}`));
  const send = useMutation({
    mutationFn: ({ body, key }: { body: unknown; key: string }) =>
      api(`orders/${detail.id}/${action}`, { method: 'POST', body, schema: answer, idempotencyKey: key }),
  });

  /**
   * Sends the checked body (with a manager's approval, where given): done → message, lists read
   * again, dialog closed. A failure is thrown after the key's bookkeeping (kept while the outcome is
   * unknown). Without `approval` the failure lands in `problem`; a 403 `approval_required` asks for
   * a manager (`approving`).
   */
  const deliver = async (body: Record<string, unknown>, approval?: ApprovalInput) => {
    // the key follows the body without the password (never kept in sessionStorage)
    const key = keys.keyFor(body);
    try {
      const done = await send.mutateAsync({ body: approval ? { ...body, approval } : body, key });
      keys.settle();
      void message.success(done.message);
      void refresh();
      onClose();
    } catch (error) {
      if (!outcomeUnknown(error)) keys.settle();
      throw outcomeUnknown(error) ? new Error(t('pay.offline')) : error;
    }
  };

  const [approving, setApproving] = useState<Record<string, unknown> | null>(null);

  const submit = async <S extends z.ZodType>(schema: S, value: unknown) => {
    const parsed = parseWith(schema, value, locale);
    if (parsed.errors) {
      setProblem(Object.values(parsed.errors).flat().join(' '));
      return;
    }
    // payments and refunds change what the server holds: nothing is kept offline for them
    if (isOffline()) {
      setProblem(t('offline.needsConnection'));
      return;
    }
    setProblem(null);
    const body = parsed.data as Record<string, unknown>;
    // a cashier's refund of a paid sale: a manager approves it on this till first
    if (action === 'returns' && detail.abilities.return === 'approval') {
      setApproving(body);
      return;
    }
    try {
      await deliver(body);
    } catch (error) {
      if (needsApproval(error)) setApproving(body);
      else setProblem(error instanceof Error && !(error instanceof ApiError) ? error.message : refusal(error, locale));
    }
  };
  const approvalDialog = (title: string, help: string) =>
    approving && (
      <ApprovalDialog
        title={title}
        help={help}
        okText={title}
        onClose={() => setApproving(null)}
        onApprove={(approval) => deliver(approving, approval)}
      />
    );
  return { submit, pending: send.isPending, problem, setProblem, approvalDialog };
}

/** Confirm payment: what is still due, paid like at the till (cash in either currency, card, KHQR). */
export function ConfirmPaymentDialog({ detail, onClose }: { detail: OrderDetail; onClose: () => void }) {
  const { t } = useCtx();
  const [tenders, setTenders] = useState<TenderState>(emptyTenders);
  const { submit, pending, problem, setProblem } = useOrderAction(detail, 'payments', onClose);
  const due = Math.max(0, detail.due_cents);
  const payments = tendersOf(tenders);
  const blocked = payments.length === 0 || !tendersValid(tenders) || exactTooMuch(tenders, due);

  return (
    <Modal
      open
      width={900}
      title={t('orders.confirmPaymentTitle', { number: detail.number })}
      okText={t('orders.confirmPayment')}
      cancelText={t('kit.cancel')}
      okButtonProps={{ disabled: blocked }}
      onOk={() => void submit(paymentsInput, { payments, change_in: tenders.change_in })}
      onCancel={onClose}
      confirmLoading={pending}
      destroyOnHidden
    >
      <Flex vertical gap={16} data-testid="confirm-payment">
        <TenderPanel
          dueCents={due}
          rates={orderRates(detail)}
          value={tenders}
          onChange={(next) => {
            setTenders(next);
            setProblem(null);
          }}
          disabled={pending}
        />
        {problem && <Alert type="error" showIcon title={problem} data-testid="payment-problem" />}
      </Flex>
    </Modal>
  );
}

/** Return items: how many of each line come back, and the refund in dollars or in riel. */
export function ReturnDialog({ detail, onClose }: { detail: OrderDetail; onClose: () => void }) {
  const { t, locale } = useCtx();
  const methods = paymentMethodLabels(t);
  const lines = detail.items.filter((item) => item.quantity > item.returned_quantity);
  const [quantities, setQuantities] = useState<Record<number, number | null>>({});
  // a line sold by serial gives back the serials ticked: its quantity is their count
  const [serials, setSerials] = useState<Record<number, string[]>>({});
  const [method, setMethod] = useState<'cash_usd' | 'cash_khr'>('cash_usd');
  const [note, setNote] = useState('');
  const { submit, pending, problem, setProblem, approvalDialog } = useOrderAction(detail, 'returns', onClose);

  const giveBack = () => {
    const items = lines
      .filter((item) => (quantities[item.id] ?? 0) > 0)
      .map((item) => ({
        order_item_id: item.id,
        quantity: quantities[item.id],
        ...(item.serials.length ? { serials: serials[item.id] ?? [] } : {}),
      }));
    if (items.length === 0) {
      setProblem(t('orders.returnNothing'));
      return;
    }
    void submit(returnInput, { items, refund_method: method, note });
  };

  return (
    <Modal
      open
      width={720}
      title={t('orders.returnTitle', { number: detail.number })}
      okText={t('orders.returnItems')}
      cancelText={t('kit.cancel')}
      onOk={giveBack}
      onCancel={onClose}
      confirmLoading={pending}
      destroyOnHidden
    >
      <Flex vertical gap={16} data-testid="return-form">
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('orders.returnHelp', { store: detail.store_name })}
        </Typography.Paragraph>
        {problem && <Alert type="error" showIcon title={problem} data-testid="return-problem" />}
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={lines}
          scroll={{ x: 'max-content' }}
          columns={[
            {
              key: 'item',
              title: t('stock.product'),
              render: (_, row) => <ProductNames kh={row.name_kh} en={row.name_en} sku={row.sku} locale={locale} />,
            },
            {
              key: 'left',
              title: t('orders.returnable'),
              align: 'end',
              render: (_, row) =>
                `${formatQuantity(row.quantity - row.returned_quantity, row.decimals)} ${(locale === 'kh' ? row.unit_name_kh : row.unit_name_en) ?? ''}`,
            },
            {
              key: 'quantity',
              title: t('orders.returnNow'),
              width: 140,
              render: (_, row, index) =>
                row.serials.length ? (
                  <Checkbox.Group
                    aria-label={t('serials.returnOf', { line: index + 1 })}
                    data-testid={`return-serials-${row.id}`}
                    value={serials[row.id] ?? []}
                    options={row.serials.map((serial) => ({ value: serial, label: serial }))}
                    onChange={(next) => {
                      setSerials((current) => ({ ...current, [row.id]: next }));
                      setQuantities((current) => ({ ...current, [row.id]: next.length / row.factor || null }));
                    }}
                  />
                ) : (
                  <InputNumber<number>
                    aria-label={t('lines.quantityOf', { line: index + 1 })}
                    data-testid={`return-${row.id}`}
                    // a weighed line in its unit ("0.500" kg), sent in its steps (500 g)
                    min={0}
                    max={(row.quantity - row.returned_quantity) / 10 ** row.decimals}
                    precision={row.decimals}
                    value={
                      (quantities[row.id] ?? null) === null ? null : (quantities[row.id] ?? 0) / 10 ** row.decimals
                    }
                    onChange={(next) =>
                      setQuantities((current) => ({
                        ...current,
                        [row.id]: next == null ? null : Math.round(next * 10 ** row.decimals),
                      }))
                    }
                    style={{ width: '100%' }}
                  />
                ),
            },
          ]}
        />
        <Flex align="center" gap={12} wrap>
          <Typography.Text>{t('orders.refundIn')}</Typography.Text>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            value={method}
            onChange={(event) => setMethod(event.target.value)}
            options={[
              { value: 'cash_usd', label: methods.cash_usd },
              { value: 'cash_khr', label: methods.cash_khr },
            ]}
          />
        </Flex>
        <Input.TextArea
          rows={2}
          maxLength={255}
          placeholder={t('stock.note')}
          aria-label={t('stock.note')}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        <Typography.Text type="secondary">{t('orders.refundHelp')}</Typography.Text>
        {approvalDialog(t('orders.returnItems'), t('orders.refundHelp'))}
      </Flex>
    </Modal>
  );
}
