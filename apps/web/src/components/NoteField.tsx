import { Form, Input } from 'antd';
import type { CSSProperties } from 'react';
import { useCtx } from '../kit/useCtx.ts';

/** The note of a document or an entry (an adjustment, a transfer, a payment): the form's `note` field, its message under it. */
export function NoteField({ id, max = 255, style }: { id: string; max?: number; style?: CSSProperties }) {
  const { t } = useCtx();
  return (
    <Form.Item name="note" label={t('stock.note')} htmlFor={id} style={style}>
      <Input.TextArea id={id} rows={2} maxLength={max} />
    </Form.Item>
  );
}
