import { AppstoreOutlined, DashboardOutlined } from '@ant-design/icons';
import { findScreen, SCREENS, type Screen } from '@depot/contracts';
import { Menu } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { can, useSession } from '../lib/access.tsx';
import { localeFromPath, localePath } from '../lib/locale.ts';
import type { Session } from '../lib/session.ts';

/** A screen with a `menu` key appears in the menu; an icon here is optional. */
const icons: Record<string, ReactNode> = {
  '/dashboards': <DashboardOutlined />,
};

/** The screens the stored permissions allow, in SCREENS order. */
export function menuScreens(current: Session): Screen[] {
  return SCREENS.filter((screen) => screen.menu && can(screen.permission, current));
}

export function SideMenu() {
  const { t } = useTranslation();
  const current = useSession();
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  const active = findScreen(pathname)?.path;

  return (
    <Menu
      data-testid="side-menu"
      mode="inline"
      selectedKeys={active ? [active] : []}
      style={{ borderInlineEnd: 'none' }}
      items={menuScreens(current).map((screen) => ({
        key: screen.path,
        icon: icons[screen.path] ?? <AppstoreOutlined />,
        label: (
          <Link to={localePath(screen.path, locale)} data-testid={`menu-${screen.path}`}>
            {t(screen.menu as string)}
          </Link>
        ),
      }))}
    />
  );
}
