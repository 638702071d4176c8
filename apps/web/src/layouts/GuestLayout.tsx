import { Flex, theme } from 'antd';
import { Outlet } from 'react-router';
import { Brand } from '../components/Brand.tsx';
import { CentredLayout } from './CentredLayout.tsx';

/** The sign-in page: one card in the middle, the logo and title from the settings on top. */
export function GuestLayout() {
  const { token } = theme.useToken();
  return (
    <CentredLayout>
      {/* A plain box rather than antd Card, which would bring Tabs into the sign-in bundle. */}
      <div
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
      </div>
    </CentredLayout>
  );
}
