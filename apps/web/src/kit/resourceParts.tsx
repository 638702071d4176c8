import { formatUsd, type RecordStatus } from '@depot/contracts';
import { Input, Radio, Tag } from 'antd';
import type { ComponentType } from 'react';
import { DateInput } from './inputs.tsx';
import type { PickProps } from './RemoteSelect.tsx';
import type { Column, Ctx, Field, Filter } from './resource.ts';

/** Pieces most definitions share: status, names in both languages, dates. */

/**
 * Money the server leaves out for users without `costs.view` (costs, margins, stock values): a dash
 * where it would stand, never a made-up $0.00.
 */
export function costText(cents: number | undefined, format: (cents: number) => string = formatUsd): string {
  return cents === undefined ? '—' : format(cents);
}

function statusLabels({ t }: Ctx): Record<RecordStatus, string> {
  return { active: t('status.active'), inactive: t('status.inactive') };
}

export function StatusTag({ status, ctx }: { status: RecordStatus; ctx: Ctx }) {
  return <Tag color={status === 'active' ? 'green' : 'default'}>{statusLabels(ctx)[status]}</Tag>;
}

export function statusColumn<R extends { status: RecordStatus }>(ctx: Ctx, sortable = true): Column<R> {
  return {
    key: 'status',
    title: ctx.t('fields.status'),
    sort: sortable ? 'status' : undefined,
    render: (row) => <StatusTag status={row.status} ctx={ctx} />,
  };
}

export function statusFilter(ctx: Ctx): Filter {
  const labels = statusLabels(ctx);
  return {
    name: 'status',
    label: ctx.t('fields.status'),
    options: [
      { value: 'active', label: labels.active },
      { value: 'inactive', label: labels.inactive },
    ],
  };
}

export function statusField(ctx: Ctx): Field {
  const labels = statusLabels(ctx);
  return {
    name: 'status',
    label: ctx.t('fields.status'),
    control: (
      <Radio.Group
        optionType="button"
        buttonStyle="solid"
        options={[
          { value: 'active', label: labels.active },
          { value: 'inactive', label: labels.inactive },
        ]}
      />
    ),
  };
}

/** `name_kh` and `name_en` columns, the page's language first, each sortable under its own name. */
export function nameColumns<R extends { name_kh: string; name_en: string | null }>(ctx: Ctx): Column<R>[] {
  const kh: Column<R> = { key: 'name_kh', title: ctx.t('fields.name_kh'), sort: 'name_kh', render: (r) => r.name_kh };
  const en: Column<R> = {
    key: 'name_en',
    title: ctx.t('fields.name_en'),
    sort: 'name_en',
    render: (r) => r.name_en ?? '—',
  };
  return ctx.locale === 'kh' ? [kh, en] : [en, kh];
}

/** `name_kh` and `name_en` inputs, the page's language first. */
export function nameFields(ctx: Ctx): Field[] {
  const kh: Field = { name: 'name_kh', label: ctx.t('fields.name_kh'), control: <Input lang="km" maxLength={50} /> };
  const en: Field = { name: 'name_en', label: ctx.t('fields.name_en'), control: <Input lang="en" maxLength={50} /> };
  return ctx.locale === 'kh' ? [kh, en] : [en, kh];
}

export function textField(name: string, label: string, max = 255): Field {
  return { name, label, control: <Input maxLength={max} /> };
}

export function textAreaField(name: string, label: string): Field {
  return { name, label, control: <Input.TextArea rows={3} maxLength={255} /> };
}

/** A `filter[name]` by another record, chosen with one of the ready-made selects. */
export function selectFilter(name: string, label: string, Picker: ComponentType<PickProps>): Filter {
  return {
    name,
    label,
    render: (value, onChange) => (
      <Picker
        value={value ? Number(value) : null}
        onChange={(id) => onChange(id ? String(id) : undefined)}
        placeholder={label}
        aria-label={label}
        allowClear
        style={{ width: '100%' }}
      />
    ),
  };
}

/** A `filter[name]` by a day, picked on a calendar. */
export function dateFilter(name: string, label: string): Filter {
  return {
    name,
    label,
    render: (value, onChange) => (
      <DateInput value={value ?? null} onChange={(next) => onChange(next ?? undefined)} placeholder={label} />
    ),
  };
}
