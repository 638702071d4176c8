import { appEvent, channelNames, NOTIFICATION_CREATED_EVENT, notificationCount } from '@depot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { resourceKey } from '../kit/queries.ts';
import { useCan, useSession } from './access.tsx';
import { api } from './http.ts';
import { useChannel } from './realtime.ts';

/** Under the resources' root: the inbox's pages (`usePage('notifications', …)`) and the bell's count. */
export const NOTIFICATIONS_KEY = resourceKey('notifications');
export const UNREAD_KEY = resourceKey('notifications', 'unread-count');

/** The bell's number: unread notifications in the inbox. */
export function useUnreadCount(enabled = true) {
  return useQuery({
    queryKey: UNREAD_KEY,
    queryFn: async ({ signal }) =>
      (await api('notifications/unread-count', { signal, schema: notificationCount })).data.unread,
    enabled,
  });
}

/**
 * Keeps the bell and the inbox live: a new notification on the user's channel, or their
 * notifications changed in another tab, and both are read again.
 */
export function useLiveNotifications(): void {
  const { userId } = useSession();
  const allowed = useCan('notifications.list');
  const client = useQueryClient();
  const channel = allowed && userId ? channelNames.user(userId) : null;
  const refresh = () => void client.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
  useChannel(channel, `.${NOTIFICATION_CREATED_EVENT}`, refresh);
  useChannel(channel, `.${appEvent('NotificationsUpdated')}`, (data: { unread?: number }) => {
    if (typeof data?.unread === 'number') client.setQueryData(UNREAD_KEY, data.unread);
    refresh();
  });
}
