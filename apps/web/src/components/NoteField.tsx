import { Form, Input } from 'antd';
import type { CSSProperties } from 'react';
import { useCtx } from '../kit/useCtx.ts';

/** The note of a document or an entry (an adjustment, a transfer, a payment), its message under it. */
export function NoteField({
  id,
  value,
  onChange,
  error,
  max = 255,
  style,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: { validateStatus?: 'error'; help?: string };
  max?: number;
  style?: CSSProperties;
}) {
  const { t } = useCtx();
  return (
    <Form.Item label={t('stock.note')} htmlFor={id} style={style} {...error}>
      <Input.TextArea
        id={id}
        rows={2}
        maxLength={max}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Form.Item>
  );
}
