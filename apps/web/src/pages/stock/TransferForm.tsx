import { type TransferDetail, transferDetail, transferInput, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Col, Form, Modal, Row, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import {
  baseUnitOf,
  type DocumentLine,
  lineColumns,
  lineEdits,
  lineKey,
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
import { parseWith, useFormErrors } from '../../lib/forms.ts';
import { api } from '../../lib/http.ts';
import { StoreSelect } from '../../resources/parties.tsx';

const answer = written(transferDetail);

/** The fields the form shows a message on; the server's other messages go above it. */
const KNOWN = /^(from_store_id|to_store_id|note|items(\.\d+\.(product_id|unit_id|quantity))?)$/;

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
  const [from, setFrom] = useState<number | null>(editing?.from_store_id ?? null);
  const [to, setTo] = useState<number | null>(editing?.to_store_id ?? null);
  const [note, setNote] = useState(editing?.note ?? '');
  const [lines, setLines] = useState<DocumentLine[]>(() => (editing ? editing.items.map(savedLine) : []));
  const { item, clear, setErrors, problem, setProblem, fail } = useFormErrors((key) => KNOWN.test(key));
  const home = useSessionStore();

  // A new transfer leaves the user's own store unless they choose another.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the user's store becomes known
  useEffect(() => {
    if (!editing && home.id) setFrom((current) => current ?? home.id);
  }, [home.id]);

  const save = useMutation({
    mutationFn: (body: unknown) =>
      editing
        ? api(`stock-transfers/${editing.id}`, { method: 'PUT', body, schema: answer })
        : api('stock-transfers', { method: 'POST', body, schema: answer }),
  });

  const { change, add, remove } = lineEdits<DocumentLine>({
    update: setLines,
    clear,
    setErrors,
    // A product new to the transfer: one of it, in its own unit (scanned again: one more, in the unit chosen).
    make: (row) => ({ key: lineKey(), product: lineProduct(row), unit: baseUnitOf(row), quantity: 1 }),
  });
  const { start, end } = lineColumns<DocumentLine>({ t, locale }, { item, change, remove, productWidth: 300 });

  const submit = async () => {
    setProblem(null);
    const body = {
      from_store_id: from,
      to_store_id: to,
      note,
      items: lines.map((line) => ({ product_id: line.product.id, unit_id: line.unit?.id, quantity: line.quantity })),
    };
    const parsed = parseWith(transferInput, body, locale);
    if (!parsed.data) {
      setErrors(parsed.errors);
      return;
    }
    try {
      const saved = await save.mutateAsync(parsed.data);
      void written(saved);
      onSaved(saved.data);
    } catch (error) {
      fail(error, locale);
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
      <Form layout="vertical" requiredMark={false} data-testid="transfer-form" disabled={save.isPending}>
        {problem && (
          <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} data-testid="form-error" />
        )}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item label={t('transfers.from')} htmlFor="transfer-from" {...item('from_store_id')}>
              <StoreSelect
                covered
                id="transfer-from"
                value={from}
                onChange={(next) => {
                  setFrom(next);
                  clear('from_store_id', 'to_store_id');
                }}
                placeholder={t('transfers.chooseStore')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label={t('transfers.to')} htmlFor="transfer-to" {...item('to_store_id')}>
              <StoreSelect
                id="transfer-to"
                value={to}
                onChange={(next) => {
                  setTo(next);
                  clear('to_store_id');
                }}
                placeholder={t('transfers.chooseStore')}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label={t('lines.title')} {...item('items')}>
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
        <NoteField
          id="transfer-note"
          value={note}
          onChange={(next) => {
            setNote(next);
            clear('note');
          }}
          error={item('note')}
          style={{ marginTop: 16 }}
        />
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
