import {
  formatUsd,
  type PurchaseDetail,
  purchaseDetail,
  purchasePaymentInput,
  receiveInput,
  todayInCambodia,
  written,
} from '@depot/contracts';
import { Alert, Button, Flex, Form, InputNumber, Modal, Select, Table, Typography } from 'antd';
import { NoteField } from '../../components/NoteField.tsx';
import { PAYMENT_FIELDS, PaymentFields } from '../../components/PaymentFields.tsx';
import { productColumn } from '../../components/products.tsx';
import { DateInput } from '../../kit/inputs.tsx';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatCount } from '../../lib/format.ts';
import { parseWith, useFormWrite } from '../../lib/forms.ts';

const answer = written(purchaseDetail);

/** What is still to arrive on a line, in the line's unit. */
export function dueOf(item: PurchaseDetail['items'][number]): number {
  return Math.max(0, item.quantity - item.received_quantity);
}

interface ReceiveValues {
  received_at: string | null;
  line: Record<number, number | null>;
  /** A serial-tracked line's serials, scanned or typed, one per unit received. */
  serials: Record<number, string[] | undefined>;
}

/** Receive: each line's due quantity, prefilled and editable; stock arrives with its lot and expiry. */
export function ReceiveDialog({ detail, onClose }: { detail: PurchaseDetail; onClose: () => void }) {
  const { t, locale } = useCtx();
  const due = detail.items.filter((item) => dueOf(item) > 0);
  const all = () => Object.fromEntries(due.map((item) => [item.id, dueOf(item)]));
  const [form] = Form.useForm<ReceiveValues>();
  // each line's quantity is the field `line.<item id>`
  const { problem, setProblem, place, edited, save, saving } = useFormWrite(
    form,
    ['received_at', 'line', 'serials'],
    locale,
    {
      path: `purchases/${detail.id}/receive`,
      schema: answer,
      onDone: onClose,
    },
  );

  const submit = async () => {
    const values = form.getFieldsValue(true) as ReceiveValues;
    // Lines left at 0 are not received this time; the body's indexes are those of the lines sent.
    const sent = due.filter((item) => (values.line[item.id] ?? 0) > 0);
    const byIndex = (key: string) =>
      key
        .replace(/^items\.(\d+)\.serials(\.\d+)?$/, (_, n: string) => `serials.${sent[Number(n)]?.id}`)
        .replace(/^items\.(\d+)\.\w+$/, (_, n: string) => `line.${sent[Number(n)]?.id}`);
    const body = {
      received_at: values.received_at,
      items: sent.map((item) => ({
        item_id: item.id,
        quantity: values.line[item.id],
        ...(item.serial_tracked ? { serials: values.serials?.[item.id] ?? [] } : {}),
      })),
    };
    if (sent.length === 0) {
      setProblem(t('purchases.receiveNothing'));
      return;
    }
    const parsed = parseWith(receiveInput, body, locale);
    if (!parsed.data) {
      place(Object.fromEntries(Object.entries(parsed.errors).map(([k, v]) => [byIndex(k), v])));
      return;
    }
    await save(parsed.data, byIndex);
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
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form<ReceiveValues>
        form={form}
        component="div"
        initialValues={{ received_at: todayInCambodia(), line: all() }}
        onValuesChange={edited}
      >
        <Flex vertical gap={16} data-testid="receive-form">
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('purchases.receiveHelp', { store: detail.store_name })}
          </Typography.Paragraph>
          {problem && <Alert type="error" showIcon title={problem} data-testid="receive-error" />}
          <Flex align="center" gap={12} wrap>
            <Form.Item
              name="received_at"
              label={t('purchases.receivedOn')}
              htmlFor="receive-date"
              style={{ margin: 0 }}
            >
              <DateInput id="receive-date" />
            </Form.Item>
            <Button
              data-testid="receive-all"
              onClick={() =>
                form.setFields(due.map((item) => ({ name: ['line', item.id], value: dueOf(item), errors: [] })))
              }
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
                render: (_, row) =>
                  `${formatCount(dueOf(row))} ${locale === 'kh' ? row.unit_name_kh : row.unit_name_en}`,
              },
              {
                key: 'quantity',
                title: t('purchases.receiveNow'),
                width: 160,
                render: (_, row, index) => (
                  <Form.Item name={['line', row.id]} style={{ margin: 0 }}>
                    <InputNumber<number>
                      aria-label={t('lines.quantityOf', { line: index + 1 })}
                      data-testid={`receive-${row.id}`}
                      min={0}
                      max={dueOf(row)}
                      precision={0}
                      style={{ width: '100%' }}
                    />
                  </Form.Item>
                ),
              },
              {
                key: 'serials',
                title: t('serials.title'),
                width: 260,
                render: (_, row, index) =>
                  row.serial_tracked ? (
                    // a scanner types each serial and Enter: a tag each, one per base unit
                    <Form.Item name={['serials', row.id]} style={{ margin: 0 }}>
                      <Select
                        mode="tags"
                        open={false}
                        suffixIcon={null}
                        tokenSeparators={[',', ' ', '\n']}
                        aria-label={t('serials.scanOf', { line: index + 1 })}
                        data-testid={`receive-serials-${row.id}`}
                        placeholder={t('serials.scanMany', {
                          count: (row.quantity - row.received_quantity) * row.factor,
                        })}
                        style={{ width: '100%' }}
                      />
                    </Form.Item>
                  ) : null,
              },
            ]}
          />
        </Flex>
      </Form>
    </Modal>
  );
}

/** Record a payment: the amount starts at what is due, paid today in cash unless said otherwise. */
export function PaymentDialog({ detail, onClose }: { detail: PurchaseDetail; onClose: () => void }) {
  const { t, locale } = useCtx();
  const [form] = Form.useForm();
  const { problem, check, edited, save, saving } = useFormWrite(form, PAYMENT_FIELDS, locale, {
    path: `purchases/${detail.id}/payments`,
    schema: answer,
    onDone: onClose,
  });

  const submit = async () => {
    const body = check(purchasePaymentInput);
    if (body) await save(body);
  };

  return (
    <Modal
      open
      title={t('purchases.payTitle', { number: detail.number })}
      okText={t('purchases.pay')}
      cancelText={t('kit.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        data-testid="payment-form"
        disabled={saving}
        initialValues={{
          amount_cents: detail.due_cents,
          method: 'cash_usd',
          paid_at: todayInCambodia(),
          reference: '',
          note: '',
        }}
        onValuesChange={edited}
      >
        <Typography.Paragraph>
          {t('purchases.dueNow')} <Typography.Text strong>{formatUsd(detail.due_cents)}</Typography.Text>
        </Typography.Paragraph>
        {problem && (
          <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} data-testid="payment-error" />
        )}
        <PaymentFields id="payment" />
        <NoteField id="payment-note" max={500} />
      </Form>
    </Modal>
  );
}
