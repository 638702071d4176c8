import { SearchOutlined } from '@ant-design/icons';
import { DEFAULT_PER_PAGE, type PaginationMeta, PER_PAGE_OPTIONS } from '@depot/contracts';
import { Button, Input, Result, Skeleton, type TablePaginationConfig, type TableProps } from 'antd';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { failureMessage } from './queries.ts';
import { useCtx } from './useCtx.ts';
import { useDebounced } from './useDebounced.ts';

/**
 * What every server-side table shares, the kit's lists and the pages of their own (stock levels,
 * batches): page, rows per page, search, sort and filters in the address, with the API's own
 * parameter names, so Back, a reload and a language switch land on the same page of the same search.
 */
export interface ListState {
  page: number;
  perPage: number;
  search: string;
  sort: string;
  trashed: boolean;
  filters: Record<string, string | undefined>;
}

export type ListUpdate = (changes: Record<string, string | undefined>) => void;

export interface ListOptions {
  /** The order when the address names none. */
  defaultSort?: string;
  /** Parameters every request carries (a fixed view: expired batches). */
  params?: Record<string, string>;
  /** A filter's value when the address has none (the signed-in user's store). */
  filterDefaults?: Record<string, string | undefined>;
  /** Filters the address may hold that do not go to the API as they are (a store picker's "all"). */
  skip?: (name: string, value: string) => boolean;
}

export function useListState(filterNames: string[], { defaultSort, params, filterDefaults, skip }: ListOptions = {}) {
  const [address, setAddress] = useSearchParams();
  const perPage = Number(address.get('per_page'));
  const state: ListState = {
    page: Math.max(1, Number(address.get('page')) || 1),
    perPage: (PER_PAGE_OPTIONS as readonly number[]).includes(perPage) ? perPage : DEFAULT_PER_PAGE,
    search: address.get('search') ?? '',
    sort: address.get('sort') ?? defaultSort ?? '',
    trashed: address.get('trashed') === 'only',
    filters: Object.fromEntries(
      filterNames.map((name) => [name, address.get(`filter[${name}]`) ?? filterDefaults?.[name] ?? undefined]),
    ),
  };

  const query = new URLSearchParams({ page: String(state.page), per_page: String(state.perPage), ...params });
  if (state.search) query.set('search', state.search);
  if (state.sort) query.set('sort', state.sort);
  for (const [name, value] of Object.entries(state.filters)) {
    if (value && !skip?.(name, value)) query.set(`filter[${name}]`, value);
  }
  if (state.trashed) query.set('trashed', 'only');

  // The address the next change starts from: react-router's functional form hands every change the
  // address of the last render, so two changes before the next render (the search box's settled
  // text and a refetch's stay-in-range or a filter) would each start from it, the second undoing
  // the first (the typed search vanished). Each change starts from the one before it instead.
  const seen = useRef(address);
  const latest = useRef(address);
  if (seen.current !== address) {
    seen.current = address;
    latest.current = address;
  }

  /** Sets or clears parameters; anything but a page change starts again at page 1. */
  const update: ListUpdate = (changes) => {
    const next = new URLSearchParams(latest.current);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes)) next.delete('page');
    latest.current = next;
    setAddress(next, { replace: true });
  };
  return { state, query: query.toString(), update };
}

/**
 * The search box's text: typed freely, sent to the address once typing pauses (one request per
 * word, not per letter; a scanner's burst is one search), and replaced when the address changes
 * from outside (the menu, Back).
 */
export function useSearchBox(search: string, update: ListUpdate) {
  const [typed, setTyped] = useState(search);
  const debounced = useDebounced(typed.trim(), 350);
  // The search this box last put in the address; any other change came from outside.
  const written = useRef(search);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled change of the text searches
  useEffect(() => {
    if (debounced === search) return;
    written.current = debounced;
    update({ search: debounced || undefined });
  }, [debounced]);
  useEffect(() => {
    if (search === written.current) return;
    written.current = search;
    setTyped(search);
  }, [search]);
  return { typed, setTyped };
}

export function SearchBox({
  state,
  update,
  placeholder,
  width = 280,
}: {
  state: ListState;
  update: ListUpdate;
  placeholder?: string;
  width?: number;
}) {
  const { t } = useCtx();
  const { typed, setTyped } = useSearchBox(state.search, update);
  return (
    <Input
      data-testid="list-search"
      allowClear
      prefix={<SearchOutlined />}
      placeholder={placeholder ?? t('kit.search')}
      aria-label={placeholder ?? t('kit.search')}
      value={typed}
      onChange={(event) => setTyped(event.target.value)}
      // A scanner ends with Enter: search at once rather than after the pause.
      onPressEnter={() => update({ search: typed.trim() || undefined })}
      style={{ width, maxWidth: '100%' }}
    />
  );
}

/**
 * The table's pager: the server's total, the rows-per-page choice, "1–20 of 42"; a search's
 * total counted only so far (`total_is_lower_bound`: a common word counted past the page) reads
 * "1–20 of more than 200".
 */
export function pagination(t: TFunction, state: ListState, meta: PaginationMeta | undefined): TablePaginationConfig {
  return {
    current: state.page,
    pageSize: state.perPage,
    total: meta?.total ?? 0,
    // Wide enough for "20 / ទំព័រ", which antd's default width cuts off.
    showSizeChanger: { virtual: false, 'aria-label': t('kit.perPage'), style: { minWidth: 124 } },
    pageSizeOptions: PER_PAGE_OPTIONS.map(String),
    showTotal: (total) =>
      meta?.total_is_lower_bound
        ? t('kit.totalMore', { from: meta.from ?? 0, to: meta.to ?? 0, total: total.toLocaleString('en-US') })
        : t('kit.total', { from: meta?.from ?? 0, to: meta?.to ?? 0, total }),
  };
}

/** antd's sort and page changes as address changes; `sortOf` gives a column's API sort name. */
export function tableChange<R>(
  state: ListState,
  update: ListUpdate,
  sortOf: (columnKey: string) => string | undefined = () => undefined,
): NonNullable<TableProps<R>['onChange']> {
  return (pager, _filters, sorter, { action }) => {
    if (action === 'sort') {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      const column = one?.columnKey === undefined ? undefined : sortOf(String(one.columnKey));
      update({ sort: column && one?.order ? `${one.order === 'descend' ? '-' : ''}${column}` : undefined });
      return;
    }
    const perPage = pager.pageSize ?? state.perPage;
    if (perPage !== state.perPage) update({ per_page: String(perPage) });
    else update({ page: pager.current && pager.current > 1 ? String(pager.current) : undefined });
  };
}

/** A column's sort order as antd shows it, from the address's `sort`. */
export function sortOrder(state: ListState, sort: string | undefined): 'ascend' | 'descend' | null | undefined {
  if (!sort) return undefined;
  if (state.sort === sort) return 'ascend';
  return state.sort === `-${sort}` ? 'descend' : null;
}

/** Deleting the last row of the last page leaves an empty page: show the one before it. */
export function useStayInRange(state: ListState, lastPage: number | undefined, update: ListUpdate) {
  useEffect(() => {
    if (lastPage && state.page > lastPage) update({ page: String(lastPage) });
  });
}

/** A list or record that failed to load: the server's words and a Retry. */
export function LoadFailed({ error, retry, retrying }: { error: unknown; retry: () => unknown; retrying?: boolean }) {
  const { t, locale } = useCtx();
  const status = error && typeof error === 'object' && 'status' in error ? error.status : null;
  return (
    <Result
      status={status === 403 ? '403' : 'error'}
      title={t('errors.loadData')}
      subTitle={failureMessage(error, locale)}
      extra={
        <Button type="primary" loading={retrying} onClick={() => void retry()} data-testid="retry">
          {t('common.retry')}
        </Button>
      }
    />
  );
}

/** What a read shows on its way: the failure with a Retry, a Skeleton (also while `waiting`), then `children`. */
export function Loaded<T>({
  query,
  waiting,
  children,
}: {
  query: { data: T | undefined; isError: boolean; error: unknown; refetch: () => unknown; isFetching: boolean };
  waiting?: boolean;
  children: (data: NonNullable<T>) => ReactNode;
}) {
  const data = query.data;
  if (query.isError && !data)
    return <LoadFailed error={query.error} retry={query.refetch} retrying={query.isFetching} />;
  if (!data || waiting) return <Skeleton active />;
  return children(data);
}
