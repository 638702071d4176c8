import { IdcardOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown, Flex, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../lib/access.tsx';
import { logout } from '../lib/auth.ts';
import { localeFromPath, localePath } from '../lib/locale.ts';
import { outboxDb } from '../lib/offline/outbox.ts';

/** Profile pictures are served as stored; a bare file name has no address we know of. */
function avatarUrl(path: string | null): string | undefined {
  if (!path) return undefined;
  return /^(https?:)?\/\//.test(path) || path.startsWith('/') ? path : undefined;
}

/** `compact` (narrow screens) keeps the avatar and drops the name and store. */
export function UserMenu({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { userName, store, avatar } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);

  // the header may stand outside antd's <App>: the menu holds its own confirmation
  const [modal, confirmHolder] = Modal.useModal();

  const leave = async () => {
    setLeaving(true);
    await logout();
    await navigate(localePath('/login', localeFromPath(pathname)));
  };

  /** Sales kept offline stay on the device; signing out with some asks first. */
  const signOut = async () => {
    const unsynced = await outboxDb()
      .sales.count()
      .catch(() => 0);
    if (unsynced === 0) return leave();
    modal.confirm({
      title: t('offline.signOutUnsynced', { count: unsynced }),
      okText: t('user.logout'),
      okButtonProps: { danger: true, 'data-testid': 'logout-confirm' },
      cancelText: t('kit.cancel'),
      onOk: () => leave(),
    });
  };

  return (
    <>
      {confirmHolder}
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{
          items: [
            {
              key: 'profile',
              icon: <IdcardOutlined />,
              label: <span data-testid="open-profile">{t('user.profile')}</span>,
            },
            { type: 'divider' },
            {
              key: 'logout',
              icon: <LogoutOutlined />,
              danger: true,
              disabled: leaving,
              label: <span data-testid="logout">{t('user.logout')}</span>,
            },
          ],
          onClick: ({ key }) => {
            if (key === 'logout') void signOut();
            if (key === 'profile') void navigate(localePath('/profiles', localeFromPath(pathname)));
          },
        }}
      >
        <Button
          type="text"
          data-testid="user-menu"
          aria-label={compact ? (userName ?? undefined) : undefined}
          style={{ height: 'auto', paddingBlock: 4 }}
        >
          <Flex align="center" gap={8}>
            <Avatar size="small" src={avatarUrl(avatar)} icon={<UserOutlined />} />
            {!compact && (
              <Flex vertical align="flex-start" style={{ lineHeight: 1.3 }}>
                <Typography.Text strong>{userName}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                  {store ?? t('user.noStore')}
                </Typography.Text>
              </Flex>
            )}
          </Flex>
        </Button>
      </Dropdown>
    </>
  );
}
