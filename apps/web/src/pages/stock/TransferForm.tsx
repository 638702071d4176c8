import { type TransferDetail, transferDetail, transferInput, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Col, Form, Modal, Row, Table, Typography } from 'antd';
import { useEffect } from 'react';
import {
  baseUnitOf,
  type DocumentLine,
  lineColumns,
  lineEdits,
  lineErrors,
  lineKey,
  lineName,
  lineProduct,
  ProductFinder,
  savedLine,
  unitName,
} from '../../components/lines.tsx';
import { NoteField } from '../../components/NoteField.tsx';
import { useSessionStore } from '../../components/stores.tsx';
import { useWritten } from '../../kit/queries.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatCount } from '../../lib/format.ts';
import { parseWith, useFormCheck } from '../../lib/forms.ts';
import { api } from '../../lib/http.ts';
import { StoreSelect } from '../../resources/parties.tsx';

const answer = written(transferDetail);

/** The form's fields: the server's messages for them go under them, the others above the form. */
const NAMES = ['from_store_id', 'to_store_id', 'note', 'items'] as const;

interface TransferValues {
  from_store_id: number | null;
  to_store_id: number | null;
  note: string;
  items: DocumentLine[];
}

function TransferFormBody({
  editing,
  onClose,
  onSaved,
}: {
  editing: TransferDetail | null;
  onClose: () => void;
  onSaved: (saved: TransferDetail) => void;
}) {
  const { t, locale } = useCtx();
  const written = useWritten();
  const [form] = Form.useForm<TransferValues>();
  const { problem, setProblem, place, fail, edited } = useFormCheck(form, NAMES, locale);
  const lines: DocumentLine[] = Form.useWatch('items', { form, preserve: true }) ?? [];
  const home = useSessionStore();

  // A new transfer leaves the user's own store unless they choose another.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the user's store becomes known
  useEffect(() => {
    if (!editing && home.id && form.getFieldValue('from_store_id') == null)
      form.setFieldValue('from_store_id', home.id);
  }, [home.id]);

  const save = useMutation({
    mutationFn: (body: unknown) =>
      editing
        ? api(`stock-transfers/${editing.id}`, { method: 'PUT', body, schema: answer })
        : api('stock-transfers', { method: 'POST', body, schema: answer }),
  });

  const { add, remove } = lineEdits<DocumentLine>({
    form,
    list: 'items',
    // A product new to the transfer: one of it, in its own unit (scanned again: one more, in the unit chosen).
    make: (row) => ({ key: lineKey(), product: lineProduct(row), unit: baseUnitOf(row), quantity: 1 }),
  });
  const { start, end } = lineColumns<DocumentLine>({ t, locale }, { list: 'items', remove, productWidth: 300 });

  const submit = async () => {
    setProblem(null);
    const values = form.getFieldsValue(true) as TransferValues;
    const body = {
      from_store_id: values.from_store_id,
      to_store_id: values.to_store_id,
      note: values.note,
      items: values.items.map((line) => ({
        product_id: line.product.id,
        unit_id: line.unit?.id,
        quantity: line.quantity,
      })),
    };
    const parsed = parseWith(transferInput, body, locale);
    if (!parsed.data) {
      place(lineErrors(parsed.errors, 'items'));
      return;
    }
    try {
      const saved = await save.mutateAsync(parsed.data);
      void written(saved);
      onSaved(saved.data);
    } catch (error) {
      fail(error, (key) => lineName(key, 'items'));
    }
  };

  return (
    <Modal
      open
      width={920}
      title={editing ? t('transfers.editTitle', { number: editing.number }) : t('transfers.create')}
      okText={t('kit.save')}
      cancelText={t('kit.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        data-testid="transfer-form"
        disabled={save.isPending}
        initialValues={{
          from_store_id: editing?.from_store_id ?? null,
          to_store_id: editing?.to_store_id ?? null,
          note: editing?.note ?? '',
          items: editing ? editing.items.map(savedLine) : [],
        }}
        onValuesChange={(changed: Partial<TransferValues>) => {
          edited(changed);
          // the stores are checked together: a new "from" may settle what was said of "to"
          if ('from_store_id' in changed) form.setFields([{ name: 'to_store_id', errors: [] }]);
        }}
      >
        {problem && (
          <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} data-testid="form-error" />
        )}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="from_store_id" label={t('transfers.from')} htmlFor="transfer-from">
              <StoreSelect covered id="transfer-from" placeholder={t('transfers.chooseStore')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="to_store_id" label={t('transfers.to')} htmlFor="transfer-to">
              <StoreSelect id="transfer-to" placeholder={t('transfers.chooseStore')} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="items" label={t('lines.title')}>
          <ProductFinder onPick={add} disabled={save.isPending} />
        </Form.Item>
        <Table<DocumentLine>
          data-testid="transfer-lines"
          size="small"
          rowKey="key"
          rowClassName="line-row"
          pagination={false}
          dataSource={lines}
          {...fitTable}
          locale={{ emptyText: t('lines.empty') }}
          columns={[
            ...start,
            {
              key: 'base',
              title: t('lines.baseQuantity'),
              render: (_, line) =>
                line.unit && line.unit.factor > 1 && line.quantity ? (
                  <Typography.Text type="secondary">
                    {t('lines.baseUnits', { quantity: formatCount(line.quantity * line.unit.factor) })}
                  </Typography.Text>
                ) : line.unit ? (
                  <Typography.Text type="secondary">{unitName(line.unit, locale)}</Typography.Text>
                ) : null,
            },
            end,
          ]}
        />
        <NoteField id="transfer-note" style={{ marginTop: 16 }} />
      </Form>
    </Modal>
  );
}

/** A new transfer or a draft's changes: from, to, lines of product, unit and quantity, a note. */
export function TransferForm({
  open,
  editing,
  onClose,
  onSaved,
}: {
  open: boolean;
  editing: TransferDetail | null;
  onClose: () => void;
  onSaved: (saved: TransferDetail) => void;
}) {
  if (!open) return null;
  return <TransferFormBody key={editing?.id ?? 'new'} editing={editing} onClose={onClose} onSaved={onSaved} />;
}
