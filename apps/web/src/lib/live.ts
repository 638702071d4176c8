import { broadcastingChannelsResponse, channelNames, DEPOT_EVENTS, STORE_EVENTS } from '@depot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { resourceKey } from '../kit/queries.ts';
import { useSession } from './access.tsx';
import { api } from './http.ts';
import { realtime } from './realtime.ts';

/** Events arriving together (a sale: stock and the order) refresh once. */
const SETTLE_MS = 250;

/**
 * Screens follow what happens elsewhere without a reload: the page listens to the channels of
 * the stores the user covers (the server says which: `GET /api/broadcasting/channels`) and to the
 * `depot` channel, and at any of their events reads again every list and record it shows (they all
 * live under the resources' query root: stock levels, the low-stock badge, orders and a delivery's
 * state, purchases, transfers, the till's exchange rate and sale settings; the dashboard too).
 * Events carry ids only:
 * what a screen shows comes from the API and its policies. After a reconnect everything is read
 * again anyway (useRealtimeConnection).
 */
export function useLiveRecords(): void {
  const client = useQueryClient();
  const { userId, token } = useSession();
  const channels = useQuery({
    // not under the resources' root (every event would read it again); a change of rights does
    queryKey: ['depot', 'broadcasting', 'channels', userId],
    queryFn: async ({ signal }) =>
      (await api('broadcasting/channels', { signal, schema: broadcastingChannelsResponse })).data.stores,
    enabled: Boolean(token && userId),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const stores = channels.data;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void client.invalidateQueries({ queryKey: resourceKey() });
        void client.invalidateQueries({ queryKey: ['dashboard'] });
      }, SETTLE_MS);
    };
    const stops = [
      ...(stores ?? []).flatMap((id) =>
        STORE_EVENTS.map((event) => realtime.listen('private', channelNames.store(id), event, refresh)),
      ),
      ...DEPOT_EVENTS.map((event) => realtime.listen('private', channelNames.depot, event, refresh)),
    ];
    return () => {
      clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }, [client, stores]);
}
