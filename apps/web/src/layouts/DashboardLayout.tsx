import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Flex, Grid, Layout, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useFullHeight } from '../app/routeHandle.ts';
import { Brand } from '../components/Brand.tsx';
import { ConnectionStatus } from '../components/ConnectionStatus.tsx';
import { NotificationBell } from '../components/NotificationBell.tsx';
import { SideMenu } from '../components/SideMenu.tsx';
import { Toolbar } from '../components/Toolbar.tsx';
import { UserMenu } from '../components/UserMenu.tsx';
import { useSession } from '../lib/access.tsx';
import { useLiveRecords } from '../lib/live.ts';
import { localeFromPath, localePath } from '../lib/locale.ts';
import { useLivePermissions } from '../lib/permissions.ts';
import { useRealtimeConnection } from '../lib/realtime.ts';
import { useLiveSettings, useTitle } from '../lib/settings.ts';
import { AppFooter } from './CentredLayout.tsx';
import { InsideDashboard } from './inside.ts';

/** Signed-in screens: side menu, a header with the title and the switches, the page, the footer. */
export function DashboardLayout() {
  const { t } = useTranslation();
  const title = useTitle();
  const screens = Grid.useBreakpoint();
  const phone = !screens.md;
  const [collapsed, setCollapsed] = useState<boolean | null>(null);
  // Until the user chooses, narrow screens start with the menu folded away.
  const folded = collapsed ?? !screens.lg;
  // The till fills the window on a desk; on a phone its panes stack and the page scrolls.
  const full = useFullHeight() && !phone;

  // Signed out in another tab: leave the screen now rather than at the next click.
  const { token, signedOut } = useSession();
  useRealtimeConnection();
  useLivePermissions();
  useLiveSettings();
  useLiveRecords();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (!token || signedOut) void navigate(localePath('/login', localeFromPath(pathname)), { replace: true });
  }, [token, signedOut, pathname, navigate]);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        collapsible
        collapsed={folded}
        onCollapse={(value) => setCollapsed(value)}
        collapsedWidth={phone ? 0 : 80}
        // On a phone the header's button opens the menu; antd's floating tab would cover the page.
        trigger={phone ? null : undefined}
        width={248}
        theme="light"
        style={{ borderInlineEnd: '1px solid rgba(127, 127, 127, 0.15)' }}
      >
        <div style={{ padding: '20px 0 12px' }}>
          <Brand size={folded ? 32 : 44} showTitle={false} />
        </div>
        <SideMenu folded={folded} />
      </Layout.Sider>
      <Layout style={full ? { height: '100vh', overflow: 'hidden' } : undefined}>
        {/* antd's layout is a <section>, which would keep its <header> from being the page's banner */}
        <Layout.Header
          role="banner"
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 16,
            paddingInline: phone ? 12 : 24,
            borderBottom: '1px solid rgba(127, 127, 127, 0.15)',
          }}
        >
          {phone && (
            <Button
              type="text"
              aria-label={folded ? t('menu.open') : t('menu.close')}
              icon={folded ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed(!folded)}
            />
          )}
          {/* the page's one h1: the system's name; each screen's own title is its h2 */}
          <Typography.Title
            level={1}
            data-testid="app-title"
            style={{ margin: 0, flex: 1, minWidth: 0, fontSize: 20, display: phone ? 'none' : undefined }}
            ellipsis
          >
            {title}
          </Typography.Title>
          {phone && <div style={{ flex: 1 }} />}
          <Flex align="center" gap={phone ? 8 : 12}>
            <ConnectionStatus compact={phone} />
            <NotificationBell />
            <Toolbar />
            <UserMenu compact={phone} />
          </Flex>
        </Layout.Header>
        <Layout.Content
          style={
            full
              ? { padding: 12, flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }
              : { padding: phone ? 12 : 24 }
          }
        >
          {/* Screens get App.useApp() for confirmations and toasts; the sign-in bundle does without. */}
          <AntApp style={full ? { flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' } : undefined}>
            <InsideDashboard.Provider value={true}>
              <Outlet />
            </InsideDashboard.Provider>
          </AntApp>
        </Layout.Content>
        {!full && <AppFooter />}
      </Layout>
    </Layout>
  );
}
