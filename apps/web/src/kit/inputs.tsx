import { DeleteOutlined, PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { formatUsdCents, latinDigits, parseUsdCents } from '@depot/contracts';
import { Button, DatePicker, Flex, Image, Input, InputNumber, Typography, Upload } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { DATE_INPUT_FORMAT } from '../lib/dates.ts';
import { useCtx } from './useCtx.ts';

/**
 * Form controls whose value is what the API takes (integer cents, whole riel, `YYYY-MM-DD`), while
 * people type dollars, riel and pick dates. No float ever holds money.
 */

interface ControlProps<T> {
  id?: string;
  /** The field the screen starts on (the till's review: the amount handed over, after F9). */
  autoFocus?: boolean;
  value?: T;
  onChange?: (value: T) => void;
  disabled?: boolean;
  placeholder?: string;
  'aria-invalid'?: boolean;
  /** Where there is no label to name it (a cell of a purchase's lines). */
  'aria-label'?: string;
  'data-testid'?: string;
}

function usdText(value: number | string | undefined): string {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? formatUsdCents(value) : '';
  return value ?? '';
}

function readUsd(text: string): number | string | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : (parseUsdCents(trimmed) ?? trimmed);
}

/**
 * US dollars typed as "1.26", held as 126 cents. What cannot be read as an amount goes to the form
 * as typed, so the shared schema calls it invalid rather than the control guessing.
 */
export function UsdInput({ value, onChange, ...rest }: ControlProps<number | string | undefined>) {
  const [text, setText] = useState(() => usdText(value));
  // A value set from outside (the record loading, a reset) replaces what is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the value from outside, not each keystroke
  useEffect(() => {
    if (readUsd(text) !== value) setText(usdText(value));
  }, [value]);
  return (
    <Input
      {...rest}
      prefix="$"
      inputMode="decimal"
      autoComplete="off"
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        onChange?.(readUsd(event.target.value));
      }}
    />
  );
}

/** Whole riel; empty is null (the riel price then follows the exchange rate). */
export function RielInput({ value, onChange, ...rest }: ControlProps<number | null | undefined>) {
  return (
    <InputNumber<number>
      {...rest}
      style={{ width: '100%' }}
      suffix="៛"
      min={0}
      step={100}
      precision={0}
      value={value ?? null}
      onChange={(next) => onChange?.(next ?? null)}
      formatter={(n) => (n === undefined || String(n) === '' ? '' : Number(n).toLocaleString('en-US'))}
      parser={(text) => Number(latinDigits(text ?? '').replace(/[^\d]/g, '')) as number}
    />
  );
}

/** A whole number (a reorder level). */
export function CountInput({ value, onChange, ...rest }: ControlProps<number | null | undefined>) {
  return (
    <InputNumber<number>
      {...rest}
      style={{ width: '100%' }}
      min={0}
      precision={0}
      value={value ?? null}
      onChange={(next) => onChange?.(next ?? 0)}
    />
  );
}

/** A calendar date held as `YYYY-MM-DD` (no time, no time zone); `prefix` names it inside the box. */
export function DateInput({
  value,
  onChange,
  ...rest
}: ControlProps<string | null | undefined> & { prefix?: ReactNode }) {
  return (
    <DatePicker
      {...rest}
      style={{ width: '100%' }}
      format={DATE_INPUT_FORMAT}
      value={value ? dayjs(value) : null}
      onChange={(next) => onChange?.(next ? next.format('YYYY-MM-DD') : null)}
    />
  );
}

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/**
 * A picture: the stored one's address, a newly chosen File (uploaded after the record is saved),
 * or null once removed. The server judges the bytes again; this only spares a wasted upload.
 */
export function ImageInput({
  value,
  onChange,
  disabled,
  maxMb,
  help,
  round = false,
  testId = 'image',
}: ControlProps<string | File | null | undefined> & {
  maxMb: number;
  /** What happens to the picture (default: saved with the product). */
  help?: string;
  /** A person's picture: shown in a circle. */
  round?: boolean;
  testId?: string;
}) {
  const { t } = useCtx();
  const [problem, setProblem] = useState<string | null>(null);
  // spec section 8: a stored picture that cannot be shown says so
  const [broken, setBroken] = useState<string | null>(null);
  const preview = useMemo(() => (value instanceof File ? URL.createObjectURL(value) : (value ?? null)), [value]);
  useEffect(
    () => () => (value instanceof File && preview ? URL.revokeObjectURL(preview) : undefined),
    [value, preview],
  );

  return (
    <Flex gap={16} align="center" wrap>
      <div
        style={{
          width: 96,
          height: 96,
          flex: 'none',
          borderRadius: round ? '50%' : 8,
          overflow: 'hidden',
          display: 'grid',
          placeItems: 'center',
          background: 'var(--ant-color-fill-tertiary)',
        }}
      >
        {preview && broken === preview ? (
          <Typography.Text type="danger" style={{ fontSize: 12, textAlign: 'center', padding: 4 }}>
            {t('errors.image')}
          </Typography.Text>
        ) : preview ? (
          <Image
            src={preview}
            width={96}
            height={96}
            style={{ objectFit: 'cover' }}
            data-testid={testId === 'image' ? 'image-preview' : `${testId}-preview`}
            onError={() => setBroken(preview)}
          />
        ) : (
          <PictureOutlined style={{ fontSize: 32, opacity: 0.45 }} />
        )}
      </div>
      <Flex vertical gap={8}>
        <Flex gap={8}>
          <Upload
            accept={IMAGE_TYPES.join(',')}
            showUploadList={false}
            disabled={disabled}
            beforeUpload={(file) => {
              if (!IMAGE_TYPES.includes(file.type)) setProblem(t('image.type'));
              else if (file.size > maxMb * 1024 * 1024) setProblem(t('image.size', { mb: maxMb }));
              else {
                setProblem(null);
                onChange?.(file);
              }
              return false;
            }}
          >
            <Button
              icon={<UploadOutlined />}
              disabled={disabled}
              data-testid={testId === 'image' ? 'image-choose' : `${testId}-choose`}
            >
              {preview ? t('image.replace') : t('image.choose')}
            </Button>
          </Upload>
          {preview && (
            <Button
              icon={<DeleteOutlined />}
              disabled={disabled}
              data-testid={testId === 'image' ? 'image-remove' : `${testId}-remove`}
              onClick={() => onChange?.(null)}
            >
              {t('image.remove')}
            </Button>
          )}
        </Flex>
        <Typography.Text type={problem ? 'danger' : 'secondary'}>
          {problem ?? help ?? t('image.help', { mb: maxMb })}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
