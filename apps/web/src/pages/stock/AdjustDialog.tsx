import {
  type AdjustmentReason,
  adjustmentInput,
  adjustmentResult,
  HAND_ADJUSTMENT_REASONS,
  type StockLevel,
  translate,
} from '@depot/contracts';
import { Alert, Descriptions, Form, InputNumber, Modal, Radio, Select, Typography } from 'antd';
import { NoteField } from '../../components/NoteField.tsx';
import { ProductNames } from '../../components/products.tsx';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDate } from '../../lib/dates.ts';
import { formatQuantity, quantityText } from '../../lib/format.ts';
import { inSteps, parseWith, useFormWrite } from '../../lib/forms.ts';
import { reasonLabels } from './parts.tsx';

/** The stock after the adjustment: a count sets it, found adds, the other reasons take away. */
export function quantityAfter(reason: AdjustmentReason, current: number, quantity: number): number {
  if (reason === 'count') return quantity;
  return reason === 'found' ? current + quantity : current - quantity;
}

interface Values {
  reason: AdjustmentReason;
  note: string;
  items: [{ batch_id?: number | null; quantity?: number | null }];
}

function AdjustForm({ level, onClose }: { level: StockLevel; onClose: () => void }) {
  const { t, locale } = useCtx();
  const [form] = Form.useForm<Values>();
  // One key for this adjustment: pressing Save again after a lost answer does not adjust twice.
  const { problem, place, edited, save, saving } = useFormWrite(form, FIELDS, locale, {
    path: 'stocks/adjustments',
    schema: adjustmentResult,
    onDone: onClose,
  });
  const reason = Form.useWatch('reason', form) ?? 'count';
  const quantity = Form.useWatch(['items', 0, 'quantity'], form) ?? null;
  const batchId = Form.useWatch(['items', 0, 'batch_id'], form) ?? null;
  const labels = reasonLabels(t);
  const several = level.batches.length > 1;
  const batch = level.batches.find((b) => b.id === batchId);
  const current = several ? (batch?.quantity ?? null) : level.quantity;

  const submit = async () => {
    const values = form.getFieldsValue(true) as Values;
    const line = values.items[0];
    const body = {
      store_id: level.store_id,
      reason: values.reason,
      note: values.note,
      items: [
        {
          product_id: level.product_id,
          batch_id: several ? (line.batch_id ?? null) : null,
          quantity: line.quantity ?? null,
        },
      ],
    };
    const parsed = parseWith(adjustmentInput, body, locale);
    const errors = { ...parsed.errors };
    if (several && !line.batch_id) errors['items.0.batch_id'] = [translate('stock.batch_required', locale)];
    if (!parsed.data || Object.keys(errors).length > 0) {
      place(errors);
      return;
    }
    // A 422 on its fields (`items.0.batch_id`: choose a batch), anything else above the form: a 409
    // "Not enough stock for the product …" in the server's words, in the page's language.
    await save(parsed.data);
  };

  const after = quantity !== null && current !== null ? quantityAfter(reason, current, quantity) : null;
  const quantityLabel =
    reason === 'count'
      ? t('stock.countedQuantity')
      : reason === 'found'
        ? t('stock.quantityAdded')
        : t('stock.quantityRemoved');

  return (
    <Modal
      open
      title={t('stock.adjustTitle')}
      okText={t('kit.save')}
      cancelText={t('kit.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        data-testid="adjust-form"
        disabled={saving}
        initialValues={{ reason: 'count', note: '', items: [{ batch_id: null, quantity: null }] }}
        onValuesChange={edited}
      >
        <Descriptions
          size="small"
          column={1}
          style={{ marginBottom: 16 }}
          items={[
            {
              key: 'product',
              label: t('stock.product'),
              children: (
                <ProductNames kh={level.product_name_kh} en={level.product_name_en} sku={level.sku} locale={locale} />
              ),
            },
            { key: 'store', label: t('stock.store'), children: level.store_name },
            {
              key: 'current',
              label: t('stock.currentQuantity'),
              children: <span data-testid="adjust-current">{quantityText(level.quantity, level, locale)}</span>,
            },
          ]}
        />
        {problem && (
          <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} data-testid="adjust-error" />
        )}
        <Form.Item name="reason" label={t('stock.reason.label')}>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={HAND_ADJUSTMENT_REASONS.map((value) => ({ value, label: labels[value] }))}
          />
        </Form.Item>
        {several && (
          <Form.Item name={['items', 0, 'batch_id']} label={t('stock.batch')} htmlFor="adjust-batch">
            <Select<number>
              id="adjust-batch"
              data-testid="adjust-batch"
              placeholder={t('stock.chooseBatch')}
              virtual={false}
              options={level.batches.map((b) => ({
                value: b.id,
                label: `${b.lot ?? t('stock.noLot')} · ${b.expiry_date ? formatDate(b.expiry_date, locale) : '—'} · ${quantityText(b.quantity, level, locale)}`,
              }))}
            />
          </Form.Item>
        )}
        <Form.Item
          name={['items', 0, 'quantity']}
          {...inSteps(level.unit_decimals)}
          label={quantityLabel}
          htmlFor="adjust-quantity"
          extra={
            current !== null && reason === 'count'
              ? t('stock.countHelp', { quantity: quantityText(current, level, locale) })
              : undefined
          }
        >
          <InputNumber<number>
            id="adjust-quantity"
            data-testid="adjust-quantity"
            min={0}
            precision={level.unit_decimals}
            style={{ width: 200 }}
          />
        </Form.Item>
        {after !== null && (
          <Typography.Paragraph data-testid="adjust-after">
            {t('stock.quantityAfter')}{' '}
            <Typography.Text strong type={after < 0 ? 'danger' : undefined}>
              {formatQuantity(after, level.unit_decimals)}
            </Typography.Text>
          </Typography.Paragraph>
        )}
        <NoteField id="adjust-note" />
      </Form>
    </Modal>
  );
}

/** The form's fields: `items.0.quantity`, `items.0.batch_id` go on the line's two. */
const FIELDS = ['reason', 'note', 'items'];

/** "Adjust": a count, damage, loss, expiry taken away or stock found, for one product in one store. */
export function AdjustDialog({ level, onClose }: { level: StockLevel | null; onClose: () => void }) {
  if (!level) return null;
  return <AdjustForm key={`${level.store_id}-${level.product_id}`} level={level} onClose={onClose} />;
}
