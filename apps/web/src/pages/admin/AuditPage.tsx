import { AUDIT_ACTIONS, type AuditEntry, auditEntry, paginated } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, DatePicker, Input, Select, Space, Table, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useDebounced } from '../../kit/useDebounced.ts';
import { DATE_INPUT_FORMAT, formatDateTime } from '../../lib/dates.ts';
import { api } from '../../lib/http.ts';

function Changes({ entry }: { entry: AuditEntry }) {
  const show = (value: unknown) =>
    value === null || value === undefined ? null : (
      <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 12 }}>
        {JSON.stringify(value)}
      </Typography.Text>
    );
  return (
    <Space orientation="vertical" size={2}>
      {show(entry.before)}
      {entry.after !== null && entry.before !== null && <span>↓</span>}
      {show(entry.after)}
    </Space>
  );
}

/**
 * The audit trail (administrators): who did what, when, from where, and what changed. Read only:
 * the API has no route to change or delete a line.
 */
/** An audit action in the page's language (`auth.login` → "Signed in"); an unknown one as it is. */
export function auditActionLabel(t: TFunction, action: string) {
  return t(`audit.action.${action.replace('.', '_')}`, { defaultValue: action });
}

export function AuditPage() {
  const { t, locale } = useCtx();
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim(), 300);
  const [action, setAction] = useState<string | undefined>();
  const [range, setRange] = useState<[string, string] | null>(null);
  const query = new URLSearchParams({ page: String(page), per_page: '20' });
  if (search) query.set('search', search);
  if (action) query.set('filter[action]', action);
  if (range) {
    query.set('filter[from]', range[0]);
    query.set('filter[to]', range[1]);
  }
  const list = useQuery({
    queryKey: ['depot', 'audit', query.toString()],
    queryFn: async ({ signal }) => api(`audit?${query}`, { signal, schema: paginated(auditEntry) }),
  });
  const label = (a: string) => auditActionLabel(t, a);

  return (
    <Card title={t('menu.audit')}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('audit.searchHint')}
          aria-label={t('audit.searchHint')}
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setPage(1);
          }}
          style={{ width: 260 }}
          data-testid="audit-search"
        />
        <Select
          allowClear
          placeholder={t('audit.actionFilter')}
          aria-label={t('audit.actionFilter')}
          value={action}
          onChange={(v) => {
            setAction(v);
            setPage(1);
          }}
          style={{ width: 240 }}
          data-testid="audit-action"
          options={AUDIT_ACTIONS.map((a) => ({ value: a, label: label(a) }))}
        />
        <DatePicker.RangePicker
          format={DATE_INPUT_FORMAT}
          onChange={(values) => {
            setRange(
              values?.[0] && values[1] ? [values[0].format('YYYY-MM-DD'), values[1].format('YYYY-MM-DD')] : null,
            );
            setPage(1);
          }}
        />
      </Space>
      {list.error && <Alert type="error" showIcon title={failureMessage(list.error, locale)} />}
      <Table
        size="small"
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.data ?? []}
        data-testid="audit-table"
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: 20,
          total: list.data?.meta.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
        columns={[
          { key: 'at', title: t('audit.when'), render: (_, e) => formatDateTime(e.created_at, locale) },
          { key: 'who', title: t('audit.who'), render: (_, e) => e.user_name ?? '—' },
          { key: 'ip', title: t('audit.from'), render: (_, e) => e.ip ?? '—' },
          { key: 'action', title: t('audit.what'), render: (_, e) => label(e.action) },
          {
            key: 'subject',
            title: t('audit.subject'),
            render: (_, e) => (e.subject_type ? `${e.subject_type}${e.subject_id ? ` #${e.subject_id}` : ''}` : '—'),
          },
          { key: 'changes', title: t('audit.changes'), width: 360, render: (_, e) => <Changes entry={e} /> },
        ]}
      />
    </Card>
  );
}
