import { DeleteOutlined, EditOutlined, PlusOutlined, UndoOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Popconfirm, Select, Space, Switch, Table, type TableColumnsType, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useCan } from '../lib/access.tsx';
import { formatDateTime } from '../lib/dates.ts';
import { localePath } from '../lib/locale.ts';
import {
  LoadFailed,
  pagination,
  SearchBox,
  sortOrder,
  tableChange,
  useListState,
  useStayInRange,
} from './listState.tsx';
import { PageTitle } from './PageTitle.tsx';
import { failureMessage, useList, useWrite } from './queries.ts';
import type { ResourceDef, Row } from './resource.ts';
import { fitTable, unseenTitle, wrap } from './table.ts';
import { useCtx } from './useCtx.ts';

export function ListPage<R extends Row>({ def }: { def: ResourceDef<R> }) {
  const ctx = useCtx();
  const { t, locale } = ctx;
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { search: addressSearch } = useLocation();
  const texts = def.texts(t);
  const columns = useMemo(() => def.columns(ctx), [def, ctx]);
  const filters = useMemo(() => def.filters?.(ctx) ?? [], [def, ctx]);
  const { state, query, update } = useListState(
    filters.map((f) => f.name),
    { defaultSort: def.defaultSort?.(locale), params: def.listParams },
  );
  const list = useList(def, query);
  // the ticked rows, kept across pages and searches (a deleted record is not ticked)
  const [ticked, setTicked] = useState<R[]>([]);
  const selectable = Boolean(def.selection) && !state.trashed;
  const { remove, restore } = useWrite(def);

  const canCreate = useCan(`${def.resource}.create`) && def.creatable !== false;
  const canUpdate = useCan(`${def.resource}.update`);
  const canDelete = useCan(`${def.resource}.delete`);
  const canRestore = useCan(`${def.resource}.restore`) && def.trashable !== false;
  useStayInRange(state, list.data?.meta.last_page, update);

  const formScreen = def.formScreen ?? def.screen;
  // The form returns to this list (its path and its search), whichever list opened it.
  const open = (path: string) =>
    navigate(localePath(path, locale), { state: { back: addressSearch, list: def.screen } });

  const run = async (mutation: typeof remove, row: R) => {
    try {
      const answer = await mutation.mutateAsync(row.id);
      void message.success(answer.message);
    } catch (error) {
      void message.error(failureMessage(error, locale));
    }
  };

  const actions = (row: R) => {
    const name = def.label(row, locale);
    if (row.deleted_at) {
      return mayDo(row, 'restore', canRestore) ? (
        <Popconfirm
          title={t('kit.restoreTitle', { name })}
          description={t('kit.restoreHelp')}
          okText={t('kit.restore')}
          cancelText={t('kit.cancel')}
          onConfirm={() => run(restore, row)}
        >
          <Button type="link" size="small" icon={<UndoOutlined />} data-testid={`restore-${row.id}`}>
            {t('kit.restore')}
          </Button>
        </Popconfirm>
      ) : null;
    }
    return (
      <Space size={4}>
        {def.rowActions?.(row, ctx)}
        {mayDo(row, 'update', canUpdate) && (def.editable?.(row) ?? true) && (
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            data-testid={`edit-${row.id}`}
            onClick={() => open(`${formScreen}/update/${row.id}`)}
          >
            {t('kit.edit')}
          </Button>
        )}
        {mayDo(row, 'delete', canDelete) && (def.deletable?.(row) ?? true) && (
          <Popconfirm
            title={t('kit.deleteTitle', { name })}
            description={<div style={{ maxWidth: 320 }}>{t('kit.deleteHelp')}</div>}
            okText={t('kit.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('kit.cancel')}
            onConfirm={() => run(remove, row)}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`delete-${row.id}`}>
              {t('kit.delete')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    );
  };

  const tableColumns: TableColumnsType<R> = columns.map((column) => ({
    key: column.key,
    title: column.unseen ? unseenTitle(column.title) : column.title,
    ...(column.wrap ? wrap(column.width ?? 160) : { width: column.width }),
    render: (_: unknown, row: R) => column.render(row),
    sorter: Boolean(column.sort),
    sortOrder: sortOrder(state, column.sort),
  }));
  if (state.trashed) {
    tableColumns.push({
      key: 'deleted_at',
      title: t('kit.deletedOn'),
      render: (_: unknown, row: R) => (row.deleted_at ? formatDateTime(row.deleted_at, locale) : null),
    });
  }
  const showActions = state.trashed ? canRestore : canUpdate || canDelete || Boolean(def.rowActions);
  // Pinned right, so Edit and Delete stay in reach when a wide table scrolls sideways.
  if (showActions) {
    tableColumns.push({ key: 'actions', title: t('kit.actions'), fixed: 'right', render: (_, row) => actions(row) });
  }

  if (list.isError && !list.data) {
    return <LoadFailed error={list.error} retry={list.refetch} retrying={list.isFetching} />;
  }

  const meta = list.data?.meta;
  return (
    <Card
      title={
        <PageTitle>
          {texts.title}
          {state.trashed && (
            <Tag color="red" style={{ marginInlineStart: 12, verticalAlign: 'middle' }}>
              {t('kit.deletedRecords')}
            </Tag>
          )}
        </PageTitle>
      }
      extra={
        <Space wrap>
          {selectable && def.selection?.(ctx, ticked)}
          {def.toolbar?.(ctx, query)}
          {canCreate && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="create"
              onClick={() => open(`${formScreen}/create`)}
            >
              {texts.create}
            </Button>
          )}
        </Space>
      }
    >
      <Flex wrap gap={12} align="center" style={{ marginBottom: 16 }}>
        <SearchBox state={state} update={update} placeholder={def.searchHint?.(t)} />
        {filters.map((filter) => {
          const value = state.filters[filter.name];
          const onChange = (next: string | undefined) => update({ [`filter[${filter.name}]`]: next });
          return (
            // A long choice (a supplier's full name) is cut short rather than pushing the others aside.
            <div key={filter.name} data-testid={`filter-${filter.name}`} style={{ minWidth: 200, maxWidth: 280 }}>
              {filter.render ? (
                filter.render(value, onChange)
              ) : (
                <Select<string>
                  style={{ width: '100%' }}
                  allowClear
                  aria-label={filter.label}
                  placeholder={filter.label}
                  value={value}
                  onChange={(next) => onChange(next ?? undefined)}
                  options={filter.options}
                  virtual={false}
                />
              )}
            </div>
          );
        })}
        {canRestore && (
          <Flex align="center" gap={8}>
            <Switch
              id="show-deleted"
              data-testid="show-deleted"
              checked={state.trashed}
              onChange={(checked) => update({ trashed: checked ? 'only' : undefined })}
            />
            <label htmlFor="show-deleted" style={{ cursor: 'pointer' }}>
              {t('kit.showDeleted')}
            </label>
          </Flex>
        )}
      </Flex>
      <div data-testid="list-table">
        <Table<R>
          rowKey="id"
          size="middle"
          columns={tableColumns}
          dataSource={list.data?.data}
          loading={list.isFetching}
          {...fitTable}
          locale={{ emptyText: state.trashed ? t('kit.emptyDeleted') : t('kit.empty') }}
          pagination={pagination(t, state, meta)}
          rowSelection={
            selectable
              ? {
                  selectedRowKeys: ticked.map((row) => row.id),
                  preserveSelectedRowKeys: true,
                  onChange: (_keys, rows) => setTicked(rows.filter(Boolean)),
                }
              : undefined
          }
          onChange={tableChange(state, update, (key) => columns.find((c) => c.key === key)?.sort)}
        />
      </div>
      {def.footer && <div style={{ marginTop: 16 }}>{def.footer(ctx)}</div>}
    </Card>
  );
} /**
 * Whether a row's Edit, Delete or Restore shows: a row that carries the server's `abilities` (a
 * combo, a document) shows exactly what they allow (true; the permission alone is not enough: the
 * policy may refuse this record); any other row, what the user's permissions allow.
 */
export function mayDo(row: object, action: 'update' | 'delete' | 'restore', permitted: boolean): boolean {
  const abilities = (row as { abilities?: Record<string, unknown> }).abilities;
  if (abilities && action in abilities) return abilities[action] === true;
  return permitted;
}
