import {
  formatUsd,
  type PurchaseDetail,
  purchaseDetail,
  purchasePaymentInput,
  receiveInput,
  todayInCambodia,
  written,
} from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, InputNumber, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { NoteField } from '../../components/NoteField.tsx';
import { PAYMENT_FIELDS, type PaymentDraft, PaymentFields } from '../../components/PaymentFields.tsx';
import { productColumn } from '../../components/products.tsx';
import { DateInput } from '../../kit/inputs.tsx';
import { useWritten } from '../../kit/queries.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatCount } from '../../lib/format.ts';
import { parseWith, useFormErrors } from '../../lib/forms.ts';
import { api, newIdempotencyKey } from '../../lib/http.ts';

const answer = written(purchaseDetail);

/** What is still to arrive on a line, in the line's unit. */
export function dueOf(item: PurchaseDetail['items'][number]): number {
  return Math.max(0, item.quantity - item.received_quantity);
}

/** Receive: each line's due quantity, prefilled and editable; stock arrives with its lot and expiry. */
export function ReceiveDialog({ detail, onClose }: { detail: PurchaseDetail; onClose: () => void }) {
  const { t, locale } = useCtx();
  const written = useWritten();
  const due = detail.items.filter((item) => dueOf(item) > 0);
  const all = () => Object.fromEntries(due.map((item) => [item.id, dueOf(item)]));
  const [quantities, setQuantities] = useState<Record<number, number | null>>(all);
  const [date, setDate] = useState<string | null>(todayInCambodia());
  const {
    item: errorOf,
    setErrors,
    clear,
    problem,
    setProblem,
    fail,
  } = useFormErrors((key) => /^line\.\d+\.quantity$/.test(key));
  const [key] = useState(newIdempotencyKey);
  const send = useMutation({
    mutationFn: (body: unknown) =>
      api(`purchases/${detail.id}/receive`, { method: 'POST', body, schema: answer, idempotencyKey: key }),
  });

  const submit = async () => {
    setProblem(null);
    // Lines left at 0 are not received this time; the body's indexes are those of the lines sent.
    const sent = due.filter((item) => (quantities[item.id] ?? 0) > 0);
    const byIndex = (key: string) => key.replace(/^items\.(\d+)\./, (_, n: string) => `line.${sent[Number(n)]?.id}.`);
    const body = {
      received_at: date,
      items: sent.map((item) => ({ item_id: item.id, quantity: quantities[item.id] })),
    };
    if (sent.length === 0) {
      setProblem(t('purchases.receiveNothing'));
      return;
    }
    const parsed = parseWith(receiveInput, body, locale);
    if (!parsed.data) {
      setErrors(Object.fromEntries(Object.entries(parsed.errors).map(([k, v]) => [byIndex(k), v])));
      return;
    }
    try {
      void written(await send.mutateAsync(parsed.data));
      onClose();
    } catch (error) {
      fail(error, locale, byIndex);
    }
  };

  return (
    <Modal
      open
      width={760}
      title={t('purchases.receiveTitle', { number: detail.number })}
      okText={t('purchases.receive')}
      cancelText={t('kit.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={send.isPending}
      destroyOnHidden
    >
      <Flex vertical gap={16} data-testid="receive-form">
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('purchases.receiveHelp', { store: detail.store_name })}
        </Typography.Paragraph>
        {problem && <Alert type="error" showIcon title={problem} data-testid="receive-error" />}
        <Flex align="center" gap={12} wrap>
          <label htmlFor="receive-date">{t('purchases.receivedOn')}</label>
          <div style={{ width: 180 }}>
            <DateInput id="receive-date" value={date} onChange={(next) => setDate(next ?? null)} />
          </div>
          <Button
            data-testid="receive-all"
            onClick={() => {
              setQuantities(all());
              setErrors({});
            }}
          >
            {t('purchases.receiveAll')}
          </Button>
        </Flex>
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={due}
          {...fitTable}
          columns={[
            productColumn<PurchaseDetail['items'][number]>(t, locale),
            {
              key: 'due',
              title: t('purchases.stillDue'),
              align: 'end',
              render: (_, row) => `${formatCount(dueOf(row))} ${locale === 'kh' ? row.unit_name_kh : row.unit_name_en}`,
            },
            {
              key: 'quantity',
              title: t('purchases.receiveNow'),
              width: 160,
              render: (_, row, index) => (
                <Form.Item style={{ margin: 0 }} {...errorOf(`line.${row.id}.quantity`)}>
                  <InputNumber<number>
                    aria-label={t('lines.quantityOf', { line: index + 1 })}
                    data-testid={`receive-${row.id}`}
                    min={0}
                    max={dueOf(row)}
                    precision={0}
                    value={quantities[row.id] ?? null}
                    onChange={(next) => {
                      setQuantities((current) => ({ ...current, [row.id]: next ?? null }));
                      clear(`line.${row.id}.quantity`);
                    }}
                    style={{ width: '100%' }}
                  />
                </Form.Item>
              ),
            },
          ]}
        />
      </Flex>
    </Modal>
  );
}

/** Record a payment: the amount starts at what is due, paid today in cash unless said otherwise. */
export function PaymentDialog({ detail, onClose }: { detail: PurchaseDetail; onClose: () => void }) {
  const { t, locale } = useCtx();
  const written = useWritten();
  const [draft, setDraft] = useState<PaymentDraft>({
    amount: detail.due_cents,
    method: 'cash_usd',
    paidAt: todayInCambodia(),
    reference: '',
  });
  const [note, setNote] = useState('');
  const errors = useFormErrors((key) => PAYMENT_FIELDS.includes(key));
  const { item, setErrors, clear, problem, setProblem, fail } = errors;
  const [key] = useState(newIdempotencyKey);
  const send = useMutation({
    mutationFn: (body: unknown) =>
      api(`purchases/${detail.id}/payments`, { method: 'POST', body, schema: answer, idempotencyKey: key }),
  });

  const submit = async () => {
    setProblem(null);
    const { amount, method, paidAt, reference } = draft;
    const body = { amount_cents: amount, method, paid_at: paidAt, reference, note };
    const parsed = parseWith(purchasePaymentInput, body, locale);
    if (!parsed.data) {
      setErrors(parsed.errors);
      return;
    }
    try {
      void written(await send.mutateAsync(parsed.data));
      onClose();
    } catch (error) {
      fail(error, locale);
    }
  };

  return (
    <Modal
      open
      title={t('purchases.payTitle', { number: detail.number })}
      okText={t('purchases.pay')}
      cancelText={t('kit.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={send.isPending}
      destroyOnHidden
    >
      <Form layout="vertical" requiredMark={false} data-testid="payment-form" disabled={send.isPending}>
        <Typography.Paragraph>
          {t('purchases.dueNow')} <Typography.Text strong>{formatUsd(detail.due_cents)}</Typography.Text>
        </Typography.Paragraph>
        {problem && (
          <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} data-testid="payment-error" />
        )}
        <PaymentFields
          id="payment"
          draft={draft}
          onChange={(patch) => setDraft((current) => ({ ...current, ...patch }))}
          errors={errors}
        />
        <NoteField
          id="payment-note"
          max={500}
          value={note}
          onChange={(next) => {
            setNote(next);
            clear('note');
          }}
          error={item('note')}
        />
      </Form>
    </Modal>
  );
}
