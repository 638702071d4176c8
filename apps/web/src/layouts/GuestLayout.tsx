import { Flex, Layout, theme } from 'antd';
import { Outlet } from 'react-router';
import { Brand } from '../components/Brand.tsx';
import { Toolbar } from '../components/Toolbar.tsx';
import { useSettings } from '../lib/settings.ts';

/** The sign-in page: one card in the middle, the logo and title from the settings on top. */
export function GuestLayout() {
  const { settings } = useSettings();
  const { token } = theme.useToken();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Flex justify="flex-end" style={{ padding: 16 }}>
        <Toolbar />
      </Flex>
      <Layout.Content style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }}>
        {/* A plain box rather than antd Card, which would bring Tabs into the sign-in bundle. */}
        <main
          style={{
            width: '100%',
            maxWidth: 440,
            padding: 32,
            background: token.colorBgContainer,
            borderRadius: token.borderRadiusLG,
            boxShadow: token.boxShadowTertiary,
            border: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Flex vertical gap={24}>
            <Brand size={64} />
            <Outlet />
          </Flex>
        </main>
      </Layout.Content>
      <Layout.Footer data-testid="app-footer" style={{ textAlign: 'center' }}>
        {settings.footer_text}
      </Layout.Footer>
    </Layout>
  );
}
