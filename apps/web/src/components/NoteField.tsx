import { Form, Input } from 'antd';
import type { CSSProperties } from 'react';
import { useCtx } from '../kit/useCtx.ts';

/**
 * The note of a document or an entry (an adjustment, a transfer, a payment): the form's `note`
 * field, its message under it. A form whose values still live in React state (a transfer's lines)
 * passes `value`, `onChange` and `error` instead.
 */
export function NoteField({
  id,
  value,
  onChange,
  error,
  max = 255,
  style,
}: {
  id: string;
  value?: string;
  onChange?: (value: string) => void;
  error?: { validateStatus?: 'error'; help?: string };
  max?: number;
  style?: CSSProperties;
}) {
  const { t } = useCtx();
  const own = onChange !== undefined;
  return (
    <Form.Item name={own ? undefined : 'note'} label={t('stock.note')} htmlFor={id} style={style} {...error}>
      <Input.TextArea
        id={id}
        rows={2}
        maxLength={max}
        {...(own ? { value, onChange: (event) => onChange(event.target.value) } : {})}
      />
    </Form.Item>
  );
}
