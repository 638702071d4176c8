import { BellOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useCan } from '../lib/access.tsx';
import { localeFromPath, localePath } from '../lib/locale.ts';
import { useLiveNotifications, useUnreadCount } from '../lib/notifications.ts';

/** The header's bell: the unread count, kept live, and the way to the inbox. */
export function NotificationBell() {
  const { t } = useTranslation();
  const allowed = useCan('notifications.list');
  const count = useUnreadCount(allowed).data ?? 0;
  useLiveNotifications();
  const navigate = useNavigate();
  const locale = localeFromPath(useLocation().pathname);
  if (!allowed) return null;
  return (
    <Button
      type="text"
      data-testid="notification-bell"
      aria-label={t('notifications.bell', { count })}
      onClick={() => void navigate(localePath('/notifications', locale))}
      icon={
        <Badge count={count} size="small" overflowCount={99} data-testid="notification-count">
          <BellOutlined style={{ fontSize: 18 }} />
        </Badge>
      }
    />
  );
}
