import { lowStockCount } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Badge } from 'antd';
import { resourceKey } from '../kit/queries.ts';
import { api } from '../lib/http.ts';

/**
 * How many products are at or under their reorder level, every store together. Under the
 * resources' root, so any write (a sale, a receipt, an adjustment) asks again, here or at another
 * till (its store's events, lib/live.ts); and every minute.
 */
export const LOW_STOCK_COUNT_KEY = resourceKey('stocks/low', 'count');

export function useLowStockCount() {
  return useQuery({
    queryKey: LOW_STOCK_COUNT_KEY,
    queryFn: async ({ signal }) => (await api('stocks/low/count', { signal, schema: lowStockCount })).data.count,
    refetchInterval: 60_000,
  });
}

/** The red count beside the low-stock entry of the menu (a dot on its group while that is closed). */
export function LowStockBadge({ dot = false }: { dot?: boolean }) {
  const count = useLowStockCount().data ?? 0;
  if (count <= 0) return null;
  return (
    <span data-testid={dot ? 'low-stock-dot' : 'low-stock-badge'} style={{ marginInlineStart: 8 }}>
      <Badge count={count} dot={dot} size="small" overflowCount={999} />
    </span>
  );
}
