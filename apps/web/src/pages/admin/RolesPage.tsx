import { PlusOutlined, UndoOutlined } from '@ant-design/icons';
import {
  LANDING_KEYS,
  LANDINGS,
  type Landing,
  paginated,
  permissionMatrix,
  type Role,
  type RoleInput,
  role,
  user,
  written,
} from '@depot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  Menu,
  Row,
  Select,
  Space,
  Spin,
  Table,
  Tag,
  Transfer,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTransferNames } from '../../kit/a11y.ts';
import { failureMessage, usePageWrite } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { ApiError, api } from '../../lib/http.ts';
import { useRoles } from '../../resources/users.tsx';

function useMatrix() {
  return useQuery({
    queryKey: ['depot', 'permissions'],
    queryFn: async ({ signal }) => (await api('permissions', { signal, schema: permissionMatrix })).data,
  });
}

function useAllUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['depot', 'users', 'all'],
    enabled,
    queryFn: async ({ signal }) => (await api('users?per_page=100', { signal, schema: paginated(user) })).data,
  });
}

const blank: RoleInput = { name: '', group: '', label_en: '', label_kh: '', permissions: [], landing: null };

/** The side menu's name of each screen a role may start on. */
const LANDING_LABELS: Record<Landing, string> = {
  dashboard: 'menu.dashboard',
  pos: 'menu.pos',
  orders: 'menu.orders',
  stock: 'menu.stock_manage',
  purchases: 'menu.purchases',
  reports: 'menu.report_sales',
};

/**
 * Roles (spec section 2 and 6): the roles on the left; the chosen one's labels, its permission
 * matrix (resources × the spec's actions, a tick per permission) and its members (arrows move
 * users in and out). Saving takes effect on each member's next request, and their open screens
 * are told.
 */
export function RolesPage() {
  const { t, locale } = useCtx();
  const roles = useRoles();
  const [selected, setSelected] = useState<number | 'new' | null>(null);
  const current = selected === 'new' ? null : (roles.data?.find((r) => r.id === selected) ?? roles.data?.[0] ?? null);
  const canCreate = useCan('roles.create');

  if (roles.isLoading) return <Spin />;
  if (roles.error) return <Alert type="error" showIcon title={failureMessage(roles.error, locale)} />;

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={6}>
        <Card
          title={t('menu.roles')}
          extra={
            canCreate && (
              <Button size="small" icon={<PlusOutlined />} onClick={() => setSelected('new')} data-testid="role-new">
                {t('roles.create')}
              </Button>
            )
          }
        >
          <Menu
            mode="inline"
            style={{ borderInlineEnd: 'none' }}
            selectedKeys={current ? [String(current.id)] : []}
            onClick={({ key }) => setSelected(Number(key))}
            items={(roles.data ?? []).map((r) => ({
              key: String(r.id),
              style: { height: 'auto', lineHeight: 1.4, paddingBlock: 8 },
              label: (
                <div data-testid={`role-${r.name}`}>
                  <div>{locale === 'kh' ? r.label_kh : r.label_en}</div>
                  <div style={{ fontSize: 12 }}>
                    {r.group} · {t('roles.members', { count: r.users_count })}
                  </div>
                </div>
              ),
            }))}
          />
        </Card>
      </Col>
      <Col xs={24} lg={18}>
        <RoleEditor key={current?.id ?? 'new'} role={current} onCreated={(id) => setSelected(id)} />
      </Col>
    </Row>
  );
}

function RoleEditor({ role: current, onCreated }: { role: Role | null; onCreated: (id: number) => void }) {
  const { t, locale } = useCtx();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const matrix = useMatrix();
  // what the server says the reader may do to this role: only one who holds every permission in
  // it changes it, resets it, gives it or takes it (server policies/roles.ts)
  const mayWrite = useCan(current ? 'roles.update' : 'roles.create');
  const mayAssign = useCan('roles.assign');
  const canUpdate = current?.abilities ? current.abilities.update : mayWrite;
  const canReset = current?.abilities ? current.abilities.reset : mayWrite;
  const canAssign = current?.abilities ? current.abilities.assign : mayAssign;
  // the permissions the reader may put in a role: those they hold
  const grantable = useMemo(
    () => (matrix.data?.grantable ? new Set(matrix.data.grantable) : null),
    [matrix.data?.grantable],
  );
  const [values, setValues] = useState<RoleInput>(
    current
      ? {
          name: current.name,
          group: current.group,
          label_en: current.label_en,
          label_kh: current.label_kh,
          permissions: current.permissions,
          landing: current.landing,
        }
      : blank,
  );
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const ticked = useMemo(() => new Set(values.permissions), [values.permissions]);

  const toggle = (permission: string, on: boolean) =>
    setValues((v) => ({
      ...v,
      permissions: on ? [...v.permissions, permission] : v.permissions.filter((p) => p !== permission),
    }));

  const done = (answer: { message: string }) => {
    void message.success(answer.message);
    void client.invalidateQueries();
  };
  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.status === 422 && error.body?.errors) setErrors(error.body.errors);
    else setProblem(failureMessage(error, locale));
  };

  const save = async () => {
    setProblem(null);
    setErrors({});
    setSaving(true);
    try {
      const answer = await api(current ? `roles/${current.id}` : 'roles', {
        method: current ? 'PUT' : 'POST',
        body: values,
        schema: written(role),
      });
      done(answer);
      if (!current) onCreated(answer.data.id);
    } catch (error) {
      failed(error);
    } finally {
      setSaving(false);
    }
  };

  const reset = () =>
    modal.confirm({
      title: t('roles.reset'),
      content: t('roles.resetHelp'),
      onOk: async () => {
        try {
          const answer = await api(`roles/${current?.id}/reset`, { method: 'POST', schema: written(role) });
          setValues({
            name: answer.data.name,
            group: answer.data.group,
            label_en: answer.data.label_en,
            label_kh: answer.data.label_kh,
            permissions: answer.data.permissions,
            landing: answer.data.landing,
          });
          done(answer);
        } catch (error) {
          failed(error);
        }
      },
    });

  const field = (name: keyof RoleInput, label: string, disabled = false) => (
    <Form.Item
      label={label}
      htmlFor={`role-${name}`}
      validateStatus={errors[name] ? 'error' : undefined}
      help={errors[name]?.join(' ')}
      style={{ marginBottom: 12 }}
    >
      <Input
        id={`role-${name}`}
        value={values[name] as string}
        disabled={disabled}
        data-testid={`role-field-${name}`}
        onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      />
    </Form.Item>
  );

  const rows = (matrix.data?.resources ?? []).map((r) => ({ key: r.resource, ...r }));
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card
        title={current ? (locale === 'kh' ? current.label_kh : current.label_en) : t('roles.create')}
        extra={
          <Space>
            {current?.is_system && <Tag color="blue">{t('roles.default')}</Tag>}
            {current?.is_system && canReset && (
              <Button icon={<UndoOutlined />} onClick={reset} data-testid="role-reset">
                {t('roles.reset')}
              </Button>
            )}
            {canUpdate && (
              <Button type="primary" loading={saving} onClick={() => void save()} data-testid="role-save">
                {t('kit.save')}
              </Button>
            )}
          </Space>
        }
      >
        {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
        <Form layout="vertical" disabled={!canUpdate}>
          <Row gutter={16}>
            <Col xs={24} md={6}>
              {field('name', t('fields.name'), Boolean(current?.is_system))}
            </Col>
            <Col xs={24} md={6}>
              {field('group', t('roles.group'))}
            </Col>
            <Col xs={24} md={6}>
              {field('label_en', t('roles.labelEn'))}
            </Col>
            <Col xs={24} md={6}>
              {field('label_kh', t('roles.labelKh'))}
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                label={t('roles.landing')}
                htmlFor="role-landing"
                extra={t('roles.landingHelp')}
                validateStatus={errors.landing ? 'error' : undefined}
                help={errors.landing?.join(' ')}
                style={{ marginBottom: 12 }}
              >
                {/* only the screens the role can open, as ticked below */}
                <Select<Landing | ''>
                  id="role-landing"
                  data-testid="role-field-landing"
                  value={values.landing ?? ''}
                  onChange={(landing) => setValues((v) => ({ ...v, landing: landing || null }))}
                  options={[
                    { value: '', label: t('roles.landingDefault') },
                    ...LANDING_KEYS.filter((key) => ticked.has(LANDINGS[key].permission)).map((key) => ({
                      value: key,
                      label: t(LANDING_LABELS[key]),
                    })),
                  ]}
                />
              </Form.Item>
            </Col>
          </Row>
        </Form>
        {errors.permissions && <Alert type="error" showIcon title={errors.permissions.join(' ')} />}
        <Table
          size="small"
          loading={matrix.isLoading}
          pagination={false}
          dataSource={rows}
          scroll={{ x: 'max-content', y: 420 }}
          data-testid="permission-matrix"
          columns={[
            {
              key: 'resource',
              title: t('roles.resource'),
              fixed: 'left',
              render: (_, r) => t(`permissions.${r.resource}`, { defaultValue: r.resource }),
            },
            ...(matrix.data?.actions ?? []).map((action) => ({
              key: action,
              title: t(`permissions.action.${action}`, { defaultValue: action }),
              align: 'center' as const,
              render: (_: unknown, r: { resource: string; actions: string[] }) => {
                if (!r.actions.includes(action)) return null;
                const name = `${r.resource}.${action}`;
                return (
                  <Checkbox
                    checked={ticked.has(name)}
                    disabled={!canUpdate || (grantable !== null && !grantable.has(name))}
                    aria-label={name}
                    data-testid={`perm-${name}`}
                    onChange={(e) => toggle(name, e.target.checked)}
                  />
                );
              },
            })),
          ]}
        />
      </Card>
      {current && <Members role={current} enabled={canAssign} />}
    </Space>
  );
}

/** Spec section 2: role assignment with a members list, arrows add or remove users. */
function Members({ role: current, enabled }: { role: Role; enabled: boolean }) {
  const { t, locale } = useCtx();
  const users = useAllUsers(true);
  const [target, setTarget] = useState<number[]>(current.member_ids);
  useEffect(() => setTarget(current.member_ids), [current.member_ids]);
  const titles = [t('roles.notMembers'), t('roles.membersTitle')];
  const lists = useRef<HTMLDivElement>(null);
  useTransferNames(lists, (list) => t('roles.selectAllIn', { list: titles[list] }));

  const { send, saving, problem } = usePageWrite(
    (user_ids: number[]) =>
      api(`roles/${current.id}/members`, { method: 'PUT', body: { user_ids }, schema: written(role) }),
    locale,
  );

  return (
    <Card
      title={t('roles.membersTitle')}
      extra={
        enabled && (
          <Button type="primary" loading={saving} onClick={() => void send(target)} data-testid="members-save">
            {t('kit.save')}
          </Button>
        )
      }
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <div ref={lists}>
        <Transfer
          data-testid="members"
          disabled={!enabled}
          dataSource={(users.data ?? []).map((u) => ({
            key: u.id,
            title: u.full_name ? `${u.full_name} (${u.name})` : u.name,
            // a user whose roles the reader may not change (they hold more, or work elsewhere)
            disabled: u.abilities ? !u.abilities.roles : false,
          }))}
          targetKeys={target}
          onChange={(keys) => setTarget(keys.map(Number))}
          render={(item) => item.title}
          showSearch
          titles={titles}
          styles={{ section: { width: '100%', height: 320 } }}
          style={{ width: '100%' }}
        />
      </div>
    </Card>
  );
}
