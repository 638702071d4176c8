import { ApartmentOutlined, KeyOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { PASSWORD_MIN, role, type User, user, userInput, written } from '@depot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { useStores } from '../components/stores.tsx';
import { DateInput } from '../kit/inputs.tsx';
import { failureMessage } from '../kit/queries.ts';
import { type Ctx, defineResource, type Field } from '../kit/resource.ts';
import { StatusTag, statusColumn, statusField, statusFilter, textField } from '../kit/resourceParts.tsx';
import { useCan, useCovers } from '../lib/access.tsx';
import { formatDateTime } from '../lib/dates.ts';
import { api } from '../lib/http.ts';
import { localePath } from '../lib/locale.ts';
import { StoreSelect } from './parties.tsx';

/** Every role, for pickers and the roles screen. */
export function useRoles() {
  return useQuery({
    queryKey: ['depot', 'roles'],
    queryFn: async ({ signal }) => (await api('roles', { signal, schema: z.object({ data: z.array(role) }) })).data,
  });
}

type Multi = { value?: number[]; onChange?: (value: number[]) => void; id?: string };

/**
 * A user's roles: changing them needs roles.assign, and a role is given or taken only by one who
 * holds every permission in it (the role's `assign` ability from the server): the others show,
 * greyed, and cannot be added or removed.
 */
function RolesPicker({ value, onChange, id, ctx }: Multi & { ctx: Ctx }) {
  const roles = useRoles();
  const canAssign = useCan('roles.assign');
  return (
    <Select
      id={id}
      mode="multiple"
      data-testid="user-roles"
      loading={roles.isLoading}
      disabled={!canAssign}
      value={value ?? []}
      onChange={onChange}
      optionFilterProp="label"
      options={(roles.data ?? []).map((r) => ({
        value: r.id,
        label: ctx.locale === 'kh' ? r.label_kh : r.label_en,
        disabled: r.abilities ? !r.abilities.assign : false,
      }))}
    />
  );
}

/** A user's stores: those the signed-in user covers (the server refuses others), and those already given. */
export function StoresPicker({ value, onChange, id }: Multi) {
  const stores = useStores();
  const covers = useCovers();
  return (
    <Select
      id={id}
      mode="multiple"
      data-testid="user-stores"
      loading={stores.isLoading}
      value={value ?? []}
      onChange={onChange}
      optionFilterProp="label"
      options={(stores.data?.data ?? [])
        .filter((s) => covers(s.id) || value?.includes(s.id))
        .map((s) => ({ value: s.id, label: `${s.name} (${s.code})` }))}
    />
  );
}

function roleLabel(ctx: Ctx, r: { label_en: string; label_kh: string }) {
  return ctx.locale === 'kh' ? r.label_kh : r.label_en;
}

/** Reset a user's password: they choose their own at the next sign-in. */
function ResetPassword({ row, ctx }: { row: User; ctx: Ctx }) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm();
  const { message } = App.useApp();
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const client = useQueryClient();
  const submit = async (values: { password: string; password_confirmation: string }) => {
    try {
      const answer = await api(`users/${row.id}/password`, {
        method: 'POST',
        body: values,
        schema: written(user),
      });
      void message.success(answer.message);
      setOpen(false);
      form.resetFields();
      void client.invalidateQueries();
    } catch (error) {
      const body = (error as { body?: { errors?: Record<string, string[]> } }).body;
      if (body?.errors) setErrors(body.errors);
      else void message.error(failureMessage(error, ctx.locale));
    }
  };
  return (
    <>
      <Tooltip title={ctx.t('users.resetPassword')}>
        <Button
          size="small"
          type="text"
          icon={<KeyOutlined />}
          aria-label={ctx.t('users.resetPassword')}
          data-testid={`reset-${row.id}`}
          onClick={() => setOpen(true)}
        />
      </Tooltip>
      <Modal
        open={open}
        title={`${ctx.t('users.resetPassword')}: ${row.name}`}
        okText={ctx.t('users.resetPassword')}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <p>{ctx.t('users.resetHelp')}</p>
        <Form form={form} layout="vertical" onFinish={submit} onValuesChange={() => setErrors({})}>
          <Form.Item
            name="password"
            label={ctx.t('fields.password')}
            validateStatus={errors.password ? 'error' : undefined}
            help={errors.password?.join(' ')}
          >
            <Input.Password autoComplete="new-password" data-testid="reset-password" />
          </Form.Item>
          <Form.Item
            name="password_confirmation"
            label={ctx.t('fields.password_confirmation')}
            validateStatus={errors.password_confirmation ? 'error' : undefined}
            help={errors.password_confirmation?.join(' ')}
          >
            <Input.Password autoComplete="new-password" data-testid="reset-password-confirmation" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** Disable (their sessions end at once) or enable; the last administrator's button is disabled. */
function ToggleStatus({ row, ctx }: { row: User; ctx: Ctx }) {
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const active = row.status === 'active';
  const label = active ? ctx.t('users.disable') : ctx.t('users.enable');
  const go = async () => {
    try {
      const answer = await api(`users/${row.id}/status`, {
        method: 'PUT',
        body: { status: active ? 'inactive' : 'active' },
        schema: written(user),
      });
      void message.success(answer.message);
      void client.invalidateQueries();
    } catch (error) {
      void message.error(failureMessage(error, ctx.locale));
    }
  };
  if (active && !row.abilities?.disable) return null;
  return (
    <Tooltip title={label}>
      <Button
        size="small"
        type="text"
        danger={active}
        icon={active ? <LockOutlined /> : <UnlockOutlined />}
        aria-label={label}
        data-testid={`status-${row.id}`}
        onClick={() =>
          active
            ? modal.confirm({
                title: `${label}: ${row.name}`,
                content: ctx.t('users.disableHelp'),
                okButtonProps: { danger: true },
                onOk: go,
              })
            : void go()
        }
      />
    </Tooltip>
  );
}

function CoverageButton({ row, ctx }: { row: User; ctx: Ctx }) {
  const navigate = useNavigate();
  if (!row.abilities?.assign) return null;
  return (
    <Tooltip title={ctx.t('users.coverage')}>
      <Button
        size="small"
        type="text"
        icon={<ApartmentOutlined />}
        aria-label={ctx.t('users.coverage')}
        data-testid={`coverage-${row.id}`}
        onClick={() => void navigate(localePath(`/users/coverage/${row.id}`, ctx.locale))}
      />
    </Tooltip>
  );
}

function passwordFields(ctx: Ctx): Field[] {
  return [
    {
      name: 'password',
      label: ctx.t('fields.password'),
      control: <Input.Password autoComplete="new-password" />,
      help: ctx.t('users.passwordHelp', { min: PASSWORD_MIN }),
      half: true,
    },
    {
      name: 'password_confirmation',
      label: ctx.t('fields.password_confirmation'),
      control: <Input.Password autoComplete="new-password" />,
      half: true,
    },
  ];
}

export const users = defineResource({
  screen: '/users',
  api: 'users',
  resource: 'users',
  row: user,
  input: userInput,
  texts: (t) => ({ title: t('menu.users'), create: t('users.create'), edit: t('users.edit') }),
  label: (row) => row.full_name ?? row.name,
  searchHint: (t) => t('users.searchHint'),
  trashable: false,
  columns: (ctx) => [
    { key: 'name', title: ctx.t('fields.username'), sort: 'name', render: (row) => row.name },
    {
      key: 'full_name',
      title: ctx.t('fields.full_name'),
      sort: 'full_name',
      wrap: true,
      width: 160,
      render: (row) => row.full_name ?? '—',
    },
    {
      key: 'roles',
      title: ctx.t('menu.roles'),
      render: (row) => (
        <Space size={4} wrap>
          {row.roles.map((r) => (
            <Tag key={r.id}>{roleLabel(ctx, r)}</Tag>
          ))}
        </Space>
      ),
    },
    {
      key: 'stores',
      title: ctx.t('menu.stores'),
      wrap: true,
      width: 160,
      render: (row) => row.stores.map((s) => s.name).join(', ') || '—',
    },
    {
      key: 'last_login_at',
      title: ctx.t('users.lastSignIn'),
      sort: 'last_login_at',
      render: (row) =>
        row.last_login_at ? `${formatDateTime(row.last_login_at, ctx.locale)} · ${row.last_login_ip ?? ''}` : '—',
    },
    {
      ...statusColumn(ctx),
      render: (row) => (
        <Space size={4}>
          <StatusTag status={row.status} ctx={ctx} />
          {row.must_change_password && <Tag color="orange">{ctx.t('users.mustChange')}</Tag>}
        </Space>
      ),
    },
  ],
  filters: (ctx) => [
    statusFilter(ctx),
    {
      name: 'store_id',
      label: ctx.t('stock.store'),
      render: (value, onChange) => (
        <StoreSelect
          value={value ? Number(value) : null}
          onChange={(v) => onChange(v ? String(v) : undefined)}
          allowClear
          placeholder={ctx.t('stock.store')}
          aria-label={ctx.t('stock.store')}
          style={{ width: 180 }}
        />
      ),
    },
  ],
  fields: (ctx) => [
    { ...textField('name', ctx.t('fields.username'), 50), half: true },
    { ...textField('full_name', ctx.t('fields.full_name'), 100), half: true },
    { name: 'email', label: ctx.t('fields.email'), control: <Input type="email" maxLength={255} />, half: true },
    { name: 'phone', label: ctx.t('fields.phone'), control: <Input type="tel" maxLength={20} />, half: true },
    ...passwordFields(ctx),
    { ...textField('position', ctx.t('fields.position'), 100), half: true },
    { name: 'date_of_birth', label: ctx.t('fields.date_of_birth'), control: <DateInput />, half: true },
    { name: 'join_date', label: ctx.t('fields.join_date'), control: <DateInput />, half: true },
    {
      name: 'store_id',
      label: ctx.t('users.homeStore'),
      control: <StoreSelect covered allowClear data-testid="user-home-store" />,
      help: ctx.t('users.homeStoreHelp'),
      half: true,
    },
    { name: 'store_ids', label: ctx.t('users.stores'), control: <StoresPicker /> },
    { name: 'role_ids', label: ctx.t('menu.roles'), control: <RolesPicker ctx={ctx} /> },
    statusField(ctx),
  ],
  defaults: { status: 'active', store_ids: [], role_ids: [], store_id: null },
  deletable: (row) => row.abilities?.delete ?? false,
  rowActions: (row, ctx) =>
    row.deleted_at ? null : (
      <>
        <CoverageButton row={row} ctx={ctx} />
        {row.abilities?.reset_password && <ResetPassword row={row} ctx={ctx} />}
        {row.abilities?.update && <ToggleStatus row={row} ctx={ctx} />}
      </>
    ),
});
