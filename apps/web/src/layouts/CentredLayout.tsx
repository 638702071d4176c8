import { Flex, Layout } from 'antd';
import type { ReactNode } from 'react';
import { Toolbar } from '../components/Toolbar.tsx';
import { useSettings } from '../lib/settings.ts';

/** The footer text from the settings, on every layout. */
export function AppFooter() {
  const { settings } = useSettings();
  return (
    <Layout.Footer data-testid="app-footer" style={{ textAlign: 'center' }}>
      {settings.footer_text}
    </Layout.Footer>
  );
}

/** Pages without the menu (sign-in, error pages): the switches at the top, the page in the middle. */
export function CentredLayout({ children }: { children: ReactNode }) {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Flex component="header" role="banner" justify="flex-end" style={{ padding: 16 }}>
        <Toolbar />
      </Flex>
      <Layout.Content style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }}>
        {children}
      </Layout.Content>
      <AppFooter />
    </Layout>
  );
}
