import { Flex, Layout } from 'antd';
import { Outlet } from 'react-router';
import { Toolbar } from '../components/Toolbar.tsx';
import { useSettings } from '../lib/settings.ts';

/** Plain centred pages: no permission, not found. */
export function DefaultLayout() {
  const { settings } = useSettings();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Flex justify="flex-end" style={{ padding: 16 }}>
        <Toolbar />
      </Flex>
      <Layout.Content style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }}>
        <Outlet />
      </Layout.Content>
      <Layout.Footer data-testid="app-footer" style={{ textAlign: 'center' }}>
        {settings.footer_text}
      </Layout.Footer>
    </Layout>
  );
}
