import { DeleteOutlined, EditOutlined, PlusOutlined, SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { DEFAULT_PER_PAGE, PER_PAGE_OPTIONS } from '@depot/contracts';
import {
  App,
  Button,
  Card,
  Flex,
  Input,
  Popconfirm,
  Result,
  Select,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useCan } from '../lib/access.tsx';
import { formatDateTime } from '../lib/dates.ts';
import { localePath } from '../lib/locale.ts';
import { failureMessage, useList, useWrite } from './queries.ts';
import type { ResourceDef, Row } from './resource.ts';
import { useCtx } from './useCtx.ts';
import { useDebounced } from './useDebounced.ts';

/**
 * The list's state lives in the address, with the API's own parameter names, so Back, a reload,
 * a language switch and the form's return all land on the same page of the same search.
 */
function useListState<R extends Row>(def: ResourceDef<R>, filterNames: string[]) {
  const { locale } = useCtx();
  const [params, setParams] = useSearchParams();
  const perPage = Number(params.get('per_page'));
  const state = {
    page: Math.max(1, Number(params.get('page')) || 1),
    perPage: (PER_PAGE_OPTIONS as readonly number[]).includes(perPage) ? perPage : DEFAULT_PER_PAGE,
    search: params.get('search') ?? '',
    sort: params.get('sort') ?? def.defaultSort?.(locale) ?? '',
    trashed: params.get('trashed') === 'only',
    filters: Object.fromEntries(filterNames.map((name) => [name, params.get(`filter[${name}]`) ?? undefined])),
  };

  const query = new URLSearchParams({ page: String(state.page), per_page: String(state.perPage) });
  if (state.search) query.set('search', state.search);
  if (state.sort) query.set('sort', state.sort);
  for (const [name, value] of Object.entries(state.filters)) if (value) query.set(`filter[${name}]`, value);
  if (state.trashed) query.set('trashed', 'only');

  /** Sets or clears parameters; anything but a page change starts again at page 1. */
  const update = (changes: Record<string, string | undefined>) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  };
  return { state, query: query.toString(), update };
}

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
    def,
    filters.map((f) => f.name),
  );
  const list = useList(def, query);
  const { remove, restore } = useWrite(def);

  const canCreate = useCan(`${def.resource}.create`);
  const canUpdate = useCan(`${def.resource}.update`);
  const canDelete = useCan(`${def.resource}.delete`);
  const canRestore = useCan(`${def.resource}.restore`);

  const [typed, setTyped] = useState(state.search);
  const debounced = useDebounced(typed.trim(), 350);
  // The search this box last put in the address; any other change came from outside (the menu, Back).
  const written = useRef(state.search);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled change of the text searches
  useEffect(() => {
    if (debounced === state.search) return;
    written.current = debounced;
    update({ search: debounced || undefined });
  }, [debounced]);
  useEffect(() => {
    if (state.search === written.current) return;
    written.current = state.search;
    setTyped(state.search);
  }, [state.search]);

  // Deleting the last row of the last page leaves an empty page: show the one before it.
  const lastPage = list.data?.meta.last_page;
  useEffect(() => {
    if (lastPage && state.page > lastPage) update({ page: String(lastPage) });
  });

  const open = (path: string) => navigate(localePath(path, locale), { state: { back: addressSearch } });

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
      return canRestore ? (
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
        {canUpdate && (
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            data-testid={`edit-${row.id}`}
            onClick={() => open(`${def.screen}/update/${row.id}`)}
          >
            {t('kit.edit')}
          </Button>
        )}
        {canDelete && (def.deletable?.(row) ?? true) && (
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
    title: column.title,
    width: column.width,
    render: (_: unknown, row: R) => column.render(row),
    sorter: Boolean(column.sort),
    sortOrder: !column.sort
      ? undefined
      : state.sort === column.sort
        ? 'ascend'
        : state.sort === `-${column.sort}`
          ? 'descend'
          : null,
  }));
  if (state.trashed) {
    tableColumns.push({
      key: 'deleted_at',
      title: t('kit.deletedOn'),
      render: (_: unknown, row: R) => (row.deleted_at ? formatDateTime(row.deleted_at, locale) : null),
    });
  }
  const showActions = state.trashed ? canRestore : canUpdate || canDelete;
  // Pinned right, so Edit and Delete stay in reach when a wide table scrolls sideways.
  if (showActions) {
    tableColumns.push({ key: 'actions', title: t('kit.actions'), fixed: 'right', render: (_, row) => actions(row) });
  }

  if (list.isError && !list.data) {
    return (
      <Result
        status={list.error && 'status' in list.error && list.error.status === 403 ? '403' : 'error'}
        title={t('errors.loadData')}
        subTitle={failureMessage(list.error, locale)}
        extra={
          <Button type="primary" loading={list.isFetching} onClick={() => void list.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }

  const meta = list.data?.meta;
  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {texts.title}
          {state.trashed && (
            <Tag color="red" style={{ marginInlineStart: 12, verticalAlign: 'middle' }}>
              {t('kit.deletedRecords')}
            </Tag>
          )}
        </Typography.Title>
      }
      extra={
        canCreate && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            data-testid="create"
            onClick={() => open(`${def.screen}/create`)}
          >
            {texts.create}
          </Button>
        )
      }
    >
      <Flex wrap gap={12} align="center" style={{ marginBottom: 16 }}>
        <Input
          data-testid="list-search"
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('kit.search')}
          aria-label={t('kit.search')}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          style={{ width: 280, maxWidth: '100%' }}
        />
        {filters.map((filter) => {
          const value = state.filters[filter.name];
          const onChange = (next: string | undefined) => update({ [`filter[${filter.name}]`]: next });
          return (
            <div key={filter.name} data-testid={`filter-${filter.name}`} style={{ minWidth: 200 }}>
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
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: state.trashed ? t('kit.emptyDeleted') : t('kit.empty') }}
          pagination={{
            current: state.page,
            pageSize: state.perPage,
            total: meta?.total ?? 0,
            // Wide enough for "20 / ទំព័រ", which antd's default width cuts off.
            showSizeChanger: { virtual: false, 'aria-label': t('kit.perPage'), style: { minWidth: 124 } },
            pageSizeOptions: PER_PAGE_OPTIONS.map(String),
            showTotal: (total) => t('kit.total', { from: meta?.from ?? 0, to: meta?.to ?? 0, total }),
          }}
          onChange={(pagination, _filters, sorter, { action }) => {
            if (action === 'sort') {
              const one = Array.isArray(sorter) ? sorter[0] : sorter;
              const column = columns.find((c) => c.key === one?.columnKey);
              const sort =
                column?.sort && one?.order ? `${one.order === 'descend' ? '-' : ''}${column.sort}` : undefined;
              update({ sort });
              return;
            }
            const perPage = pagination.pageSize ?? state.perPage;
            if (perPage !== state.perPage) update({ per_page: String(perPage) });
            else
              update({ page: pagination.current && pagination.current > 1 ? String(pagination.current) : undefined });
          }}
        />
      </div>
      {def.footer && <div style={{ marginTop: 16 }}>{def.footer(ctx)}</div>}
    </Card>
  );
}
