import type { Locale } from '@depot/contracts';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import type { z } from 'zod';
import { useList, useRecord } from './queries.ts';
import type { Row } from './resource.ts';
import { useCtx } from './useCtx.ts';
import { useDebounced } from './useDebounced.ts';

export interface RemoteSelectProps<R extends Row> {
  /** The API path to pick from (`categories`). */
  api: string;
  row: z.ZodType<R>;
  optionLabel: (row: R, locale: Locale) => string;
  /** Rows the list answers but that may not be chosen (units that are not base units). */
  filter?: (row: R) => boolean;
  /** Extra list parameters: `filter[…]`, `sort`. */
  params?: Record<string, string>;
  value?: number | null;
  onChange?: (value: number | null) => void;
  id?: string;
  placeholder?: string;
  disabled?: boolean;
  allowClear?: boolean;
  style?: React.CSSProperties;
  'data-testid'?: string;
  /** Its name for who cannot see the label (a filter has only a placeholder). */
  'aria-label'?: string;
  onFocus?: () => void;
  onBlur?: () => void;
}

/** What a ready-made select (`<CategorySelect>`) takes from a form item or a filter. */
export type PickProps = Pick<
  RemoteSelectProps<Row>,
  'value' | 'onChange' | 'id' | 'placeholder' | 'allowClear' | 'style' | 'disabled' | 'aria-label'
>;

/**
 * A select of another resource's records. Typing searches on the server (lists can be longer than
 * a page); the chosen record is fetched on its own when it is not among the loaded options.
 */
export function RemoteSelect<R extends Row>({
  api,
  row,
  optionLabel,
  filter,
  params,
  value,
  onChange,
  placeholder,
  ...rest
}: RemoteSelectProps<R>) {
  const { locale } = useCtx();
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim(), 250);
  const query = new URLSearchParams({ per_page: '100', ...params });
  if (search) query.set('search', search);
  const list = useList({ api, row }, query.toString());

  const rows = useMemo(
    () => (list.data?.data ?? []).filter((r) => !r.deleted_at && (!filter || filter(r))),
    [list.data, filter],
  );
  const missing = value != null && !rows.some((r) => r.id === value);
  const chosen = useRecord({ api, row }, missing ? value : null);

  const options = rows.map((r) => ({ value: r.id, label: optionLabel(r, locale) }));
  if (missing && chosen.data) options.unshift({ value: chosen.data.id, label: optionLabel(chosen.data, locale) });

  return (
    <Select<number | null>
      {...rest}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? null)}
      options={options}
      placeholder={placeholder}
      loading={list.isFetching}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      onOpenChange={(open) => {
        if (!open) setTyped('');
      }}
      // Short lists: all options in the page, so they are found by text (and by tests in jsdom).
      virtual={false}
    />
  );
}
