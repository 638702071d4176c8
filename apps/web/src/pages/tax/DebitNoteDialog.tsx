import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  debitNoteInput,
  formatKhr,
  formatUsd,
  rielTotals,
  TAX_CATEGORIES,
  type TaxCategory,
  type TaxDocumentDetail,
  taxDocumentDetail,
  vatOf,
  written,
} from '@depot/contracts';
import { Alert, App, Button, Col, Flex, Form, Input, Modal, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import { CountInput, UsdInput } from '../../kit/inputs.tsx';
import { useRefreshAll } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { percentText } from '../../lib/format.ts';
import { parseWith, useFormCheck } from '../../lib/forms.ts';
import { api } from '../../lib/http.ts';

interface DraftLine {
  /** The line's key on screen only (not sent: the schema keeps its own fields). */
  uid: number;
  description: string;
  quantity: number | null;
  unit_price_cents: number | string | undefined;
  tax_category: TaxCategory;
}

/**
 * A debit note against an invoice (POST /api/tax-documents/{id}/debit-notes): a price correction
 * upward, with its reason and the lines it adds, before VAT. The server applies the invoice's VAT
 * and rate; the preview shows the same (contracts `rielTotals`). Shown only when the document's
 * abilities allow it (a manager, an invoice).
 */
export function DebitNoteDialog({
  invoice,
  onDone,
  onClose,
}: {
  invoice: TaxDocumentDetail;
  onDone: (id: number) => void;
  onClose: () => void;
}) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const [next, setNext] = useState(1);
  const fresh = (uid: number): DraftLine => ({
    uid,
    description: '',
    quantity: 1,
    unit_price_cents: undefined,
    tax_category: invoice.vat_rate_bp > 0 ? 'S' : 'Z',
  });
  const [first] = useState<DraftLine[]>(() => [fresh(0)]);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [form] = Form.useForm<{ reason: string; lines: DraftLine[] }>();
  const { problem, setProblem, place, fail, edited } = useFormCheck(form, ['reason', 'lines'], locale);
  const lines: DraftLine[] = Form.useWatch('lines', { form, preserve: true }) ?? first;

  // what the note comes to, once every line is readable: the server's own rule
  const ready = lines.every((l) => typeof l.unit_price_cents === 'number' && typeof l.quantity === 'number');
  const totals = ready
    ? rielTotals(
        lines.map((l) => {
          const rate = l.tax_category === 'S' ? invoice.vat_rate_bp : 0;
          const net = (l.quantity as number) * (l.unit_price_cents as number);
          return { tax_category: l.tax_category, tax_rate_bp: rate, net_cents: net, tax_cents: vatOf(net, rate) };
        }),
        invoice.rate_khr,
      )
    : null;

  const submit = async () => {
    setProblem(null);
    const parsed = parseWith(debitNoteInput, form.getFieldsValue(true), locale);
    if (!parsed.data) {
      place(parsed.errors);
      return;
    }
    setBusy(true);
    try {
      const done = await api(`tax-documents/${invoice.id}/debit-notes`, {
        method: 'POST',
        body: parsed.data,
        idempotencyKey: key,
        schema: written(taxDocumentDetail),
      });
      setKey(crypto.randomUUID());
      void message.success(done.message);
      void refresh();
      onDone(done.data.id);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('tax.debitTitle', { number: invoice.number })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('tax.debitIssue')}
      okButtonProps={{ loading: busy, 'data-testid': 'debit-submit' }}
      width={760}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t('tax.debitHelp', { rate: formatKhr(invoice.rate_khr), vat: percentText(invoice.vat_rate_bp) })}
      </Typography.Paragraph>
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        disabled={busy}
        data-testid="debit-form"
        initialValues={{ reason: '', lines: first }}
        onValuesChange={edited}
      >
        <Form.Item name="reason" label={t('print.reason')} htmlFor="debit-reason">
          <Input.TextArea
            id="debit-reason"
            data-testid="debit-reason"
            maxLength={255}
            autoSize={{ minRows: 2, maxRows: 4 }}
          />
        </Form.Item>
        {lines.map((line, index) => {
          const n = index + 1;
          return (
            <Row gutter={8} key={line.uid} align="top" data-testid={`debit-line-${n}`}>
              <Col xs={24} md={9}>
                <Form.Item
                  label={t('tax.lineOf', { line: n })}
                  htmlFor={`debit-${n}-description`}
                  name={['lines', index, 'description']}
                >
                  <Input id={`debit-${n}-description`} data-testid="debit-description" maxLength={200} />
                </Form.Item>
              </Col>
              <Col xs={8} md={4}>
                <Form.Item
                  label={t('print.quantity')}
                  htmlFor={`debit-${n}-quantity`}
                  name={['lines', index, 'quantity']}
                >
                  <CountInput id={`debit-${n}-quantity`} data-testid="debit-quantity" />
                </Form.Item>
              </Col>
              <Col xs={16} md={5}>
                <Form.Item
                  label={t('tax.priceBeforeVat')}
                  htmlFor={`debit-${n}-price`}
                  name={['lines', index, 'unit_price_cents']}
                >
                  <UsdInput id={`debit-${n}-price`} data-testid="debit-price" />
                </Form.Item>
              </Col>
              <Col xs={20} md={5}>
                <Form.Item
                  label={t('print.category')}
                  htmlFor={`debit-${n}-category`}
                  name={['lines', index, 'tax_category']}
                >
                  <Select<TaxCategory>
                    id={`debit-${n}-category`}
                    options={TAX_CATEGORIES.map((c) => ({
                      value: c,
                      label: t(`tax.category.${c}`, { vat: percentText(invoice.vat_rate_bp) }),
                    }))}
                    virtual={false}
                  />
                </Form.Item>
              </Col>
              <Col xs={4} md={1}>
                <Form.Item label=" ">
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('lines.remove', { line: n })}
                    disabled={lines.length === 1}
                    onClick={() =>
                      form.setFieldValue(
                        'lines',
                        lines.filter((_, i) => i !== index),
                      )
                    }
                  />
                </Form.Item>
              </Col>
            </Row>
          );
        })}
        <Button
          icon={<PlusOutlined />}
          disabled={lines.length >= 100}
          onClick={() => {
            form.setFieldValue('lines', [...lines, fresh(next)]);
            setNext(next + 1);
          }}
          data-testid="debit-add-line"
        >
          {t('tax.addLine')}
        </Button>
      </Form>
      {totals && (
        <Flex vertical align="end" gap={2} style={{ marginTop: 12 }} data-testid="debit-preview">
          <span>
            {t('print.beforeVat')}: {formatUsd(totals.net_cents)}
          </span>
          <span>
            {t('print.vat')}: {formatUsd(totals.tax_cents)}
          </span>
          <Typography.Text strong>
            {t('print.totalWithVat')}: {formatUsd(totals.total_cents)} · {formatKhr(totals.total_khr)}
          </Typography.Text>
        </Flex>
      )}
    </Modal>
  );
}
