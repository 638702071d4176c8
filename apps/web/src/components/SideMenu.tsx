import {
  AppstoreOutlined,
  DashboardOutlined,
  EnvironmentOutlined,
  ExperimentOutlined,
  InboxOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  ShoppingOutlined,
  TagsOutlined,
} from '@ant-design/icons';
import { findScreen, SCREENS, type Screen } from '@depot/contracts';
import { Menu, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { can, useSession } from '../lib/access.tsx';
import { localeFromPath, localePath } from '../lib/locale.ts';
import type { Session } from '../lib/session.ts';
import { LowStockBadge } from './LowStockBadge.tsx';

/** A screen with a `menu` key appears in the menu; an icon here is optional. */
const icons: Record<string, ReactNode> = {
  '/dashboards': <DashboardOutlined />,
  '/pos': <ShoppingCartOutlined />,
  '/samples': <ExperimentOutlined />,
  'menu.group.sales': <ShoppingOutlined />,
  'menu.group.catalogue': <TagsOutlined />,
  'menu.group.partners': <ShopOutlined />,
  'menu.group.gazetteer': <EnvironmentOutlined />,
  'menu.group.inventory': <InboxOutlined />,
  'menu.group.admin': <SettingOutlined />,
};

/** The entry that counts products at or under their reorder level (only there for who may list stock). */
const LOW_STOCK = '/stocks/low';

/** The screens the stored permissions allow, in SCREENS order. */
export function menuScreens(current: Session): Screen[] {
  return SCREENS.filter((screen) => screen.menu && can(screen.permission, current));
}

/** `/brands/update/7` is still the brands entry; `/products/expired` is its own, not the products'. */
function menuEntryOf(path: string | undefined, entries: Screen[]): Screen | undefined {
  if (!path) return undefined;
  return entries.find((screen) => path === screen.path) ?? entries.find((screen) => path.startsWith(`${screen.path}/`));
}

type Item = Required<MenuProps>['items'][number];

/**
 * `folded`: the side bar is folded (a phone's, or a narrow screen's). A folded menu shows an open
 * group as a floating list over the page, so none starts open then; unfolding it opens the group
 * of the page the user is on.
 */
export function SideMenu({ folded = false }: { folded?: boolean }) {
  const { t } = useTranslation();
  const current = useSession();
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  const entries = menuScreens(current);
  const active = menuEntryOf(findScreen(pathname)?.path, entries);

  // Entries in SCREENS order; a group stands where its first entry would, holding only allowed entries.
  const items: Item[] = [];
  const groups = new Map<string, Item[]>();
  for (const screen of entries) {
    const item: Item = {
      key: screen.path,
      icon: screen.group ? undefined : (icons[screen.path] ?? <AppstoreOutlined />),
      label: (
        <Link to={localePath(screen.path, locale)} data-testid={`menu-${screen.path}`}>
          {t(screen.menu as string)}
          {screen.path === LOW_STOCK && <LowStockBadge />}
        </Link>
      ),
    };
    if (!screen.group) {
      items.push(item);
      continue;
    }
    let children = groups.get(screen.group);
    if (!children) {
      children = [];
      groups.set(screen.group, children);
      items.push({
        key: screen.group,
        icon: icons[screen.group] ?? <AppstoreOutlined />,
        label: (
          // the name gives way (an ellipsis), never the dot, which stays clear of the group's arrow
          <span
            data-testid={`menu-${screen.group}`}
            style={{ display: 'inline-flex', alignItems: 'center', maxWidth: '100%' }}
          >
            <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 }}>
              {t(screen.group)}
            </span>
            {entries.some((entry) => entry.path === LOW_STOCK && entry.group === screen.group) && <LowStockBadge dot />}
          </span>
        ),
        children,
      });
    }
    children.push(item);
  }

  return (
    <Menu
      data-testid="side-menu"
      mode="inline"
      key={folded ? 'folded' : 'unfolded'}
      selectedKeys={active ? [active.path] : []}
      // The group of the page the user arrived on starts open (folded: none, it would cover the page).
      defaultOpenKeys={!folded && active?.group ? [active.group] : []}
      style={{ borderInlineEnd: 'none' }}
      items={items}
    />
  );
}
