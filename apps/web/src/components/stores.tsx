import { store } from '@depot/contracts';
import { Select } from 'antd';
import { useList } from '../kit/queries.ts';
import { useCtx } from '../kit/useCtx.ts';
import { useSession } from '../lib/access.tsx';

const STORES_QUERY = 'per_page=100';

/** The stores to pick from (the same request as the kit's store selects, so asked once). */
export function useStores() {
  return useList({ api: 'stores', row: store }, STORES_QUERY);
}

/**
 * The signed-in user's store, found by the name the session keeps (the session stores no id).
 * `ready` is false while the stores are loading; `id` is null without a store or a match.
 */
export function useSessionStore(): { ready: boolean; id: number | null } {
  const { store: name } = useSession();
  const stores = useStores();
  if (!name) return { ready: true, id: null };
  if (stores.isPending) return { ready: false, id: null };
  const match = stores.data?.data.find((row) => row.name === name && !row.deleted_at);
  return { ready: true, id: match?.id ?? null };
}

/**
 * A store filter of a list. With `all`, "All stores" is a choice of its own (the page's default is
 * the user's store); without, clearing it means every store.
 */
export function StoreFilter({
  value,
  onChange,
  all = false,
}: {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  all?: boolean;
}) {
  const { t } = useCtx();
  const stores = useStores();
  const options = (stores.data?.data ?? [])
    .filter((row) => !row.deleted_at)
    .map((row) => ({ value: String(row.id), label: `${row.name} (${row.code})` }));
  if (all) options.unshift({ value: 'all', label: t('stock.allStores') });
  return (
    <Select<string>
      data-testid="store-filter"
      aria-label={t('stock.store')}
      placeholder={t('stock.allStores')}
      value={value}
      onChange={(next) => onChange(next ?? undefined)}
      allowClear={!all}
      options={options}
      loading={stores.isFetching}
      showSearch={{ optionFilterProp: 'label' }}
      virtual={false}
      style={{ minWidth: 220 }}
    />
  );
}
